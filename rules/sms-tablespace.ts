// An SMS (MANAGED BY SYSTEM) table space holding tables that receive inserts.
import type { Rule } from '../server/src/engine/types';
import { statementsOf } from '../server/src/engine/statements';
import { insertTargetsIn, listNames, tableName } from './support/targets';

const SmsTablespaceRule: Rule = {
  meta: {
    id: 'sms-tablespace',
    description: 'SMS (MANAGED BY SYSTEM) table space holding insert targets',
    defaultSeverity: 'information',
    reads: { statements: ['createTablespace'] },
    dialects: ['luw'],
    evidence: ['Db2 INSERT tips, test 11', 'Db2 INSERT tips, test 81', 'Db2 INSERT tips, test 82', 'Db2 INSERT tips, Appendix B 11'],
    messages: {
      sms:
        'Table space {tablespace} is MANAGED BY SYSTEM and holds insert target {tables}. As the tables grow, the file system allocates their pages. Measured on 100,000 inserts (Db2 INSERT tips): 25.5 s on a DMS file table space (test 81) against 31.5 s on SMS with multi-page allocation (test 11), which new databases have by default (MULTIPAGE_ALLOC YES); without it (an old database where db2empfa was never run) 62.9 s (test 82). Use MANAGED BY AUTOMATIC STORAGE or DATABASE (SMS is deprecated for user table spaces in current Db2).',
    },
  },
  check({ file, schema, report }) {
    for (const stmt of statementsOf(file, 'createTablespace')) {
      if (stmt.kind !== 'createTablespace' || stmt.managedBy !== 'system') continue;
      if (stmt.type && stmt.type.includes('temporary')) continue;
      const tables = insertTargetsIn(schema, stmt.tablespace);
      if (tables.length === 0) continue;
      report({ messageId: 'sms', data: { tablespace: stmt.tablespace, tables: listNames(tables.map(tableName)) }, stmt, span: stmt.managedBySpan ?? stmt.nameSpan });
    }
  },
};

export default SmsTablespaceRule;
