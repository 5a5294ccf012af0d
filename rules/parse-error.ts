// A statement InsertLint could not fully read: its findings may be incomplete.
import type { Rule } from '../server/src/engine/types';
import { forEachStatement } from '../server/src/sql/walk';

const ParseErrorRule: Rule = {
  meta: {
    id: 'parse-error',
    description: 'Statement InsertLint could not read (other rules may miss problems in it)',
    defaultSeverity: 'information',
    evidence: [],
    messages: {
      unreadable: 'InsertLint could not read this statement: {detail}. Rules skip what they cannot see in it; if it is valid Db2 SQL, please report it.',
      gluedTerminator:
        'Statements run together: {detail} If so, set "terminator": "{terminator}" for this file in .insertlintrc.json or pass --terminator {terminator}; InsertLint infers it only from what the file shows (a -td comment, lines ending in the terminator).',
      otherDialect:
        'Not Db2 SQL: {detail}. Db2 rejects the statement as written, and InsertLint cannot analyse it. If the file is meant for another database, exclude it with "ignore" in .insertlintrc.json.',
      glued:
        'Statements run together: {detail} The CLP reads them as one statement and rejects it. End the statement before this line (or, for db2 without -t, set "terminator": "newline" in .insertlintrc.json).',
    },
  },
  check({ file, report }) {
    // Statements inside routines, blocks and triggers too: a body is read statement by statement.
    forEachStatement(file.statements, (stmt) => {
      const error = stmt.parseError;
      if (!error) return;
      if (error.dialect) {
        report({ messageId: 'otherDialect', data: { detail: error.message.replace(/\.$/, '') }, stmt, span: error.span });
      } else if (error.glued) {
        const terminator = error.glued.terminator;
        report({ messageId: terminator ? 'gluedTerminator' : 'glued', data: { detail: error.message, terminator: terminator ?? '' }, stmt, span: error.span });
      } else report({ messageId: 'unreadable', data: { detail: error.message.replace(/\.$/, '') }, stmt, span: error.span });
    });
  },
};

export default ParseErrorRule;
