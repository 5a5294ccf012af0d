// Whether an unused suppression can be judged: a suppression on DDL of a table that receives no rows in the
// analysed files may be for a finding that appears only with the files holding its inserts (a schema folder
// linted alone, a pre-commit hook given one file). Calling it "unused" there would ask users to delete a
// comment that is still needed.
import { fileSpanOf, type Statement } from '../sql/ast';
import type { SchemaModel } from '../schema/schema';
import type { FileModel } from './types';
import type { LineIndex } from './lines';
import type { Suppression } from './suppressions';

/** True when `stmt` is DDL whose findings need inserts that the analysed files do not hold. */
export function ddlWithoutInserts(stmt: Statement, schema: SchemaModel): boolean {
  switch (stmt.kind) {
    case 'createTable':
    case 'createIndex':
    case 'alterTable':
    case 'createTrigger': {
      const table = schema.table(stmt.table, stmt);
      return !table || !schema.receivesRows(table);
    }
    case 'createSequence':
    case 'alterSequence':
      return !schema.isSequenceUsedByInserts(schema.keyOf(stmt.sequence, stmt));
    case 'createTablespace':
    case 'updateDbCfg':
      return !schema.hasInsertWorkload();
    default:
      return false;
  }
}

/** A judge for applySuppressions: false for suppressions that cover DDL without inserts (see above). */
export function suppressionJudge(model: FileModel, lines: LineIndex, schema: SchemaModel): (s: Suppression) => boolean {
  let byLine: Map<number, Statement[]> | undefined;
  const statementsOn = (line: number) => {
    if (!byLine) {
      byLine = new Map();
      for (const stmt of model.statements) {
        const at = lines.position(fileSpanOf(stmt.origin, stmt.span).start).line;
        const list = byLine.get(at);
        if (list) list.push(stmt);
        else byLine.set(at, [stmt]);
      }
    }
    return byLine.get(line) ?? [];
  };
  return (s) => {
    if (s.kind === 'file') return !model.statements.some((stmt) => ddlWithoutInserts(stmt, schema));
    // The statement the next line starts, or the one it lies in (a column line of a CREATE TABLE).
    const on = statementsOn(s.line!);
    const inside = on.length ? on : model.statements.filter((stmt) => {
      const span = fileSpanOf(stmt.origin, stmt.span);
      return lines.position(span.start).line <= s.line! && s.line! <= lines.position(span.end).line;
    });
    return !inside.some((stmt) => ddlWithoutInserts(stmt, schema));
  };
}
