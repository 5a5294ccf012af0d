// Db2 for z/OS: PCTFREE / FREEPAGE on a table space whose tables are APPEND YES and inserted into: inserts
// never use that space.
import type { Rule } from '../server/src/engine/types';
import { statementsOf } from '../server/src/engine/statements';
import { listNames, tableName } from './support/targets';
import { tablesIn } from './support/zos';

const ZosFreeSpaceAppendRule: Rule = {
  meta: {
    id: 'zos-free-space-append',
    description: 'Db2 for z/OS: PCTFREE or FREEPAGE on a table space whose inserted tables are all APPEND YES',
    defaultSeverity: 'information',
    reads: { statements: ['createTablespace'] },
    dialects: ['zos'],
    evidence: ['Db2 INSERT tips, Appendix B 9', 'the z/OS SSD study'],
    messages: {
      reserved:
        '{clause} reserves free space in table space {tablespace} that APPEND YES inserts never use. It is kept in every data page or every few pages, but {tables} {are} APPEND YES: inserts go to the end of the table. Only LOAD and REORG leave that space, which then holds no row, so the same rows take more pages to write and to scan. Db2 INSERT tips advises no free space for tables in append mode (Appendix B, item 9); with APPEND YES (the z/OS SSD study) use PCTFREE 0 FREEPAGE 0.',
    },
  },
  check({ file, schema, report }) {
    for (const stmt of statementsOf(file, 'createTablespace')) {
      if (stmt.kind !== 'createTablespace' || !stmt.zos?.freeSpaceSpan) continue;
      const { pctfree = 0, freepage = 0, database } = stmt.zos;
      if (pctfree === 0 && freepage === 0) continue;
      const tables = tablesIn(schema, stmt.tablespace, database);
      const inserted = tables.filter((t) => schema.isInsertTarget(t));
      if (inserted.length === 0 || !tables.every((t) => t.append)) continue;
      const clause = [pctfree > 0 ? `PCTFREE ${pctfree}` : '', freepage > 0 ? `FREEPAGE ${freepage}` : ''].filter(Boolean).join(' ');
      report({ messageId: 'reserved', data: { clause, tablespace: stmt.tablespace, tables: listNames(inserted.map(tableName)), are: inserted.length === 1 ? 'is' : 'are' }, stmt, span: stmt.zos.freeSpaceSpan });
    }
  },
};

export default ZosFreeSpaceAppendRule;
