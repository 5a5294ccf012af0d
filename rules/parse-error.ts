// A statement InsertLint could not fully read: its findings may be incomplete.
import type { Rule } from '../server/src/engine/types';

const ParseErrorRule: Rule = {
  meta: {
    id: 'parse-error',
    description: 'Statement InsertLint could not read (other rules may miss problems in it)',
    defaultSeverity: 'information',
    evidence: [],
    messages: {
      unreadable: 'InsertLint could not read this statement: {detail}. Rules skip what they cannot see in it; if it is valid Db2 SQL, please report it.',
    },
  },
  check({ file, report }) {
    for (const stmt of file.statements) {
      if (!stmt.parseError) continue;
      report({ messageId: 'unreadable', data: { detail: stmt.parseError.message.replace(/\.$/, '') }, stmt, span: stmt.parseError.span });
    }
  },
};

export default ParseErrorRule;
