// Db2 for z/OS: a table space without MEMBER CLUSTER holding a table that is filled in bulk through the insert
// path: in data sharing, every member inserting into it works on the same space map and end-of-table pages.
import type { Rule } from '../server/src/engine/types';
import { statementsOf } from '../server/src/engine/statements';
import { bulkTargetFor, listNames, tableName } from './support/targets';
import { insertPathReasons, tablesIn } from './support/zos';

const ZosMemberClusterRule: Rule = {
  meta: {
    id: 'zos-member-cluster',
    description: 'Db2 for z/OS: a table space filled by bulk inserts without MEMBER CLUSTER (matters in data sharing)',
    defaultSeverity: 'information',
    reads: { statements: ['createTablespace'] },
    dialects: ['zos'],
    evidence: ['the z/OS SSD study, INSERT processing (costs)'],
    messages: {
      missing:
        'Table space {tablespace} holds {tables}, filled in bulk ({why}), without MEMBER CLUSTER. If the subsystem is a member of a data sharing group and inserts run on more than one member (parallel batch jobs, CICS regions), every member searches the same space map pages and adds rows to the same pages, which the members must pass between them through the coupling facility for each insert; the z/OS SSD study lists the space search and data sharing integrity among the costs of an insert. MEMBER CLUSTER (on a universal table space, with APPEND YES or in cluster order per member) gives each member its own space map and pages. Ignore this on a subsystem that is not data-shared.',
    },
  },
  check({ file, schema, report }) {
    for (const stmt of statementsOf(file, 'createTablespace')) {
      if (stmt.kind !== 'createTablespace' || !stmt.zos || stmt.zos.memberCluster) continue;
      // LOCKSIZE TABLE / TABLESPACE: one member at a time inserts, holding the lock; nothing to share page by page.
      const locksize = stmt.zos.locksize?.toUpperCase();
      if (locksize === 'TABLE' || locksize === 'TABLESPACE') continue;
      const filled = tablesIn(schema, stmt.tablespace, stmt.zos.database).flatMap((table) => {
        const target = bulkTargetFor(schema, table, { file: file.source.path, stmt });
        const reasons = target ? insertPathReasons(target) : [];
        return reasons.length > 0 ? [{ table, reasons }] : [];
      });
      if (filled.length === 0) continue;
      const why = [...new Set(filled.flatMap((f) => f.reasons))].slice(0, 3).join('; ');
      report({ messageId: 'missing', data: { tablespace: stmt.tablespace, tables: listNames(filled.map((f) => tableName(f.table))), why }, stmt, span: stmt.nameSpan });
    }
  },
};

export default ZosMemberClusterRule;
