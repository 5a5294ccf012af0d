// PCTFREE on the data pages of an APPEND table: free space that appended rows never use.
import type { Rule } from '../server/src/engine/types';
import { statementsOf } from '../server/src/engine/statements';
import type { Span, Statement } from '../server/src/sql/ast';
import { insertTargetFor, tableName } from './support/targets';

const AppendPctfreeRule: Rule = {
  meta: {
    id: 'append-pctfree',
    description: 'PCTFREE above 0 on the data pages of an APPEND ON table that receives inserts',
    defaultSeverity: 'information',
    reads: { statements: ['createTable', 'alterTable'] },
    dialects: ['luw'],
    recommended: false,
    evidence: ['Db2 INSERT tips, Appendix B 9'],
    fixable: true,
    messages: {
      pctfree:
        'PCTFREE {pctfree} on {table}, which is in APPEND mode: {pctfree}% of every data page stays empty. Inserted rows always go to new pages at the end, so that space is never filled by inserts and the table just needs more pages (more page writes per row loaded). Db2 INSERT tips (Appendix B, item 9) advises 0 free space on data pages for APPEND tables. Use PCTFREE 0.',
    },
  },
  check({ file, schema, report }) {
    for (const stmt of statementsOf(file, 'createTable', 'alterTable')) {
      const found = pctfreeIn(stmt);
      if (!found || found.value <= 0) continue;
      const table = stmt.kind === 'createTable' || stmt.kind === 'alterTable' ? schema.table(stmt.table, stmt) : undefined;
      // Only the setting in effect counts, on a table that ends up in APPEND mode and receives inserts.
      if (!table || !table.append || table.pctfree !== found.value) continue;
      if (!insertTargetFor(schema, table, { file: file.source.path, stmt })) continue;
      report({
        messageId: 'pctfree',
        data: { pctfree: found.value, table: tableName(table) },
        stmt,
        span: found.span,
        fix: found.clause ? { title: 'Use PCTFREE 0', edits: [{ span: found.span, newText: 'PCTFREE 0' }] } : undefined,
      });
    }
  },
};

/** The PCTFREE a CREATE/ALTER TABLE sets, and whether its span is the whole `PCTFREE n` clause. */
function pctfreeIn(stmt: Statement): { value: number; span: Span; clause: boolean } | undefined {
  if (stmt.kind === 'createTable' && stmt.pctfree !== undefined) {
    return { value: stmt.pctfree, span: stmt.pctfreeSpan ?? stmt.table.span, clause: stmt.pctfreeSpan !== undefined };
  }
  if (stmt.kind === 'alterTable') {
    let last: { value: number; span: Span; clause: boolean } | undefined;
    for (const action of stmt.actions) if (action.kind === 'pctfree') last = { value: action.value, span: action.span, clause: true };
    return last;
  }
  return undefined;
}

export default AppendPctfreeRule;
