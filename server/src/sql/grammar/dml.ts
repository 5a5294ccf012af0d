// Data statements: INSERT (VALUES or fullselect), MERGE, DECLARE CURSOR, LOCK TABLE, COMMIT/ROLLBACK and
// SET SCHEMA (which the schema model needs to resolve unqualified names).
import type { ConstantRows, InsertStatement, MergeInsert, MergeUpdate, QualifiedName, Span, Statement, ValueKind, ValuesRow } from '../ast';
import { FLAG_UNTERMINATED, TK_WORD, TK_STRING, TK_HOST, TK_MARKER, TK_LPAREN, TK_RPAREN, TK_COMMA, TK_DOT } from '../lexer';
import type { Parser } from '../parser';
import { insertSequencesAndIsolation, isIsolationAt, parseIdentifier, parseNameList, parseQualifiedName, plainNameListAt, tablesRead } from './clauses';
import { isForRowsAt, parseValuesRow, valueKindIn } from './values';

/** Placeholder source of an INSERT until its VALUES/SELECT is read (replaced on success). */
export const EMPTY_VALUES_SOURCE: InsertStatement['source'] = Object.freeze({ kind: 'values', rows: Object.freeze([]) as unknown as ValuesRow[], span: Object.freeze({ start: 0, end: 0 }) }) as InsertStatement['source'];

export function parseInsert(p: Parser, span: Span): Statement {
  const context = 'INSERT';
  p.pos++;
  p.expect('INTO', context);
  // VALUES and SELECT are reserved: `INSERT INTO VALUES (1)` lacks its table, it does not name one.
  if (p.kw(p.pos, 'VALUES') || p.kw(p.pos, 'SELECT')) p.fail('expected the target table name', context);
  const target = parseQualifiedName(p, context);
  // From here on: the column list's parentheses balance, and OVERRIDING … VALUE holds no WITH, so the isolation
  // clause found from here is the one after them.
  const { sequences, isolation } = insertSequencesAndIsolation(p, p.pos, p.end);
  const stmt: InsertStatement = {
    kind: 'insert',
    target,
    columns: [],
    source: EMPTY_VALUES_SOURCE,
    sequences,
    span,
    origin: p.origin,
  };
  p.partial = stmt;
  if (p.kind(p.pos) === TK_LPAREN && p.isIdent(p.pos + 1) && !p.kw(p.pos + 1, 'SELECT') && !p.kw(p.pos + 1, 'VALUES') && !p.kw(p.pos + 1, 'WITH')) {
    stmt.columns = p.repeatedColumns() ?? p.sameAsLastColumns(parseNameList(p, context));
  }
  // (acceptSeq's arguments are an array per call: asked only after the first word is there.)
  if (p.peek('OVERRIDING') && (p.acceptSeq('OVERRIDING', 'USER', 'VALUE') || p.acceptSeq('OVERRIDING', 'SYSTEM', 'VALUE'))) {
    /* identity override */
  }
  if (isolation !== undefined) stmt.isolation = isolation;
  if (p.peek('VALUES')) {
    const sourceFirst = p.pos;
    p.pos++;
    // The rows go into the parser's packed store, one list per INSERT (grammar/values.ts): no object per row.
    p.rowStore.startList();
    parseValuesRow(p, context);
    while (p.kind(p.pos) === TK_COMMA) {
      p.pos++;
      parseValuesRow(p, context);
    }
    const valuesEnd = p.pos;
    // Embedded multi-row insert: VALUES (:arr1, :arr2) FOR :n ROWS [ATOMIC | NOT ATOMIC CONTINUE ON SQLEXCEPTION]
    if (isForRowsAt(p, p.pos)) p.pos += 3;
    if (!p.accept('ATOMIC') && p.peek('NOT')) p.acceptSeq('NOT', 'ATOMIC', 'CONTINUE', 'ON', 'SQLEXCEPTION');
    if (p.atEnd() || isIsolationAt(p, p.pos)) {
      stmt.source = p.rowStore.endList(p.rangeStart(sourceFirst, valuesEnd), p.rangeEnd(sourceFirst, valuesEnd));
      return stmt;
    }
    if (['UNION', 'EXCEPT', 'INTERSECT', 'ORDER', 'FETCH'].some((w) => p.peek(w))) {
      stmt.source = selectSource(p, sourceFirst, stmt.columns.length === 0);
      return stmt;
    }
    stmt.source = p.rowStore.endList(p.rangeStart(sourceFirst, p.pos), p.rangeEnd(sourceFirst, p.pos));
    p.fail("expected ',' or the end of the statement after a VALUES row", context);
  }
  if (p.peek('SELECT') || p.peek('WITH') || p.kind(p.pos) === TK_LPAREN) {
    const sourceFirst = p.pos;
    stmt.source = selectSource(p, sourceFirst, stmt.columns.length === 0);
    p.pos = p.end;
    return stmt;
  }
  p.fail('expected VALUES, SELECT or WITH', context);
}

/**
 * The SELECT source of an INSERT, tokens [first, p.end). `positional`: the INSERT names no columns, so its select
 * list gives the table's columns by place, and its number of items says which version of the table it fits.
 */
function selectSource(p: Parser, first: number, positional: boolean): InsertStatement['source'] {
  const tables = tablesRead(p, first, p.end);
  const source: InsertStatement['source'] = { kind: 'select', span: p.rangeSpan(first, p.end), tables };
  if (tables.length > 0 && tables.every(isDummyTable)) source.constantRows = constantRows(p, first, p.end);
  const items = selectListItems(p, first, p.end, positional);
  if (items) {
    if (items.places.length > 0) source.nullItems = items.places;
    if (items.width !== undefined) source.itemCount = items.width;
  }
  return source;
}

/**
 * The places (0-based) of the select list that are NULL (`NULL`, `NULL AS C`, `CAST(NULL AS CLOB)`) in every
 * top-level branch of the fullselect in tokens [from, to), and how many items each branch selects (`width`, when
 * all select as many and none selects `*` or `T.*`); undefined when a branch is not a plain SELECT (a
 * parenthesised fullselect, VALUES), or when no place is NULL and the width is not asked for (`width`). A `*`
 * stands for columns not known here: only the places before the first one are known. Read only when the
 * fullselect holds the word NULL or the width is asked for.
 */
function selectListItems(p: Parser, from: number, to: number, wantWidth: boolean): { places: number[]; width?: number } | undefined {
  let any = wantWidth;
  for (let i = from; i < to && !any; i++) any = p.t.kind[i] === TK_WORD && p.kw(i, 'NULL');
  if (!any) return undefined;
  let i = from;
  // WITH common table expressions: the select list is the first SELECT outside their parentheses.
  if (p.kw(i, 'WITH')) {
    for (let depth = 0; i < to; i++) {
      const k = p.t.kind[i];
      if (k === TK_LPAREN) depth++;
      else if (k === TK_RPAREN) depth--;
      else if (depth === 0 && p.kw(i, 'SELECT')) break;
    }
  }
  let common: number[] | undefined;
  // The items of every branch (-1: a branch selects `*`, or branches select different numbers of items).
  let width: number | undefined;
  while (i < to) {
    if (!p.kw(i, 'SELECT')) return undefined;
    i++;
    if (p.kw(i, 'DISTINCT') || p.kw(i, 'ALL')) i++;
    const nulls: number[] = [];
    let item = 0;
    let start = i;
    let depth = 0;
    let star = false;
    for (; ; i++) {
      const k = i < to ? p.t.kind[i] : TK_COMMA;
      if (k === TK_LPAREN) depth++;
      else if (k === TK_RPAREN) depth--;
      const ends = i >= to || (depth === 0 && (k === TK_COMMA || (k === TK_WORD && (p.kw(i, 'FROM') || isSetOperatorAt(p, i) || isIsolationAt(p, i)))));
      if (!ends) continue;
      // `*` or `T.*`: as many columns as the tables have, so the places after it are not known.
      if (i > start && p.isOp(i - 1, '*') && (i - 1 === start || p.kind(i - 2) === TK_DOT)) star = true;
      else if (!star && i > start && isNullItem(p, start, i)) nulls.push(item);
      item++;
      start = i + 1;
      if (i >= to || k !== TK_COMMA) break;
    }
    width = star || (width !== undefined && width !== item) ? -1 : item;
    common = common ? sortedIntersection(common, nulls) : nulls;
    if (common.length === 0 && !wantWidth) return undefined;
    // On to the next branch: past the FROM … of this one, to UNION / EXCEPT / INTERSECT at the top level.
    for (depth = 0; i < to; i++) {
      const k = p.t.kind[i];
      if (k === TK_LPAREN) depth++;
      else if (k === TK_RPAREN) depth--;
      else if (depth === 0 && k === TK_WORD && (isSetOperatorAt(p, i) || p.kw(i, 'ORDER') || p.kw(i, 'FETCH') || isIsolationAt(p, i))) break;
    }
    if (i >= to || !isSetOperatorAt(p, i)) break;
    i++;
    if (p.kw(i, 'ALL') || p.kw(i, 'DISTINCT')) i++;
  }
  if (!common) return undefined;
  return width === undefined || width < 0 ? { places: common } : { places: common, width };
}

/** The numbers in both increasing lists, in one walk (a filter with includes was quadratic in a wide UNION's NULLs). */
function sortedIntersection(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) {
      out.push(a[i]);
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return out;
}

function isSetOperatorAt(p: Parser, i: number): boolean {
  return p.kw(i, 'UNION') || p.kw(i, 'EXCEPT') || p.kw(i, 'INTERSECT');
}

/** Whether the select-list item in tokens [a, b) is NULL, with or without a name (`NULL AS C`, `NULL C`). */
function isNullItem(p: Parser, a: number, b: number): boolean {
  if (valueKindIn(p, a, b) === 'null') return true;
  if (b - a < 2 || !p.isIdent(b - 1)) return false;
  const end = p.kw(b - 2, 'AS') ? b - 2 : b - 1;
  return end > a && valueKindIn(p, a, end) === 'null';
}

/** SYSIBM.SYSDUMMY1 (and SYSDUMMYA/E/U of Db2 for z/OS): the one-row tables a SELECT of constants reads. */
function isDummyTable(t: QualifiedName): boolean {
  return (t.schema === undefined || t.schema === 'SYSIBM') && /^SYSDUMMY[1AEU]$/.test(t.name);
}

/** The rows of a fullselect of constants in tokens [from, to): its top-level UNION branches. */
function constantRows(p: Parser, from: number, to: number): ConstantRows {
  let count = 1;
  let parameters = false;
  let depth = 0;
  for (let i = from; i < to; i++) {
    const k = p.t.kind[i];
    if (k === TK_LPAREN) depth++;
    else if (k === TK_RPAREN) depth--;
    else if (k === TK_MARKER || k === TK_HOST) parameters = true;
    else if (depth === 0 && k === TK_WORD && p.kw(i, 'UNION')) count++;
  }
  return { count, parameters };
}

export function parseMerge(p: Parser, span: Span): Statement {
  const context = 'MERGE';
  p.pos++;
  p.expect('INTO', context);
  const target = parseQualifiedName(p, context);
  const stmt: Statement = { kind: 'merge', target, source: { start: span.end, end: span.end }, hasInsert: false, hasUpdate: false, hasDelete: false, span, origin: p.origin };
  p.partial = stmt;
  // optional correlation name
  if (p.accept('AS')) parseIdentifier(p, context);
  else if (p.isIdent(p.pos) && !p.peek('USING')) p.pos++;
  p.expect('USING', context);
  const sourceFirst = p.pos;
  // USING (VALUES …) AS s: the rows written in the statement (an upsert of one row per call), not a query's.
  const values = p.kind(p.pos) === TK_LPAREN && p.kw(p.pos + 1, 'VALUES');
  let depth = 0;
  while (!p.atEnd()) {
    const k = p.kind(p.pos);
    if (k === TK_LPAREN) depth++;
    else if (k === TK_RPAREN) {
      depth--;
      if (values && depth === 0 && !stmt.sourceValues) stmt.sourceValues = p.rangeSpan(sourceFirst, p.pos + 1);
    } else if (depth === 0 && p.peek('ON')) break;
    p.pos++;
  }
  if (p.atEnd()) p.fail('expected ON', context);
  if (p.pos === sourceFirst) p.fail('expected the source table or fullselect', context);
  stmt.source = p.rangeSpan(sourceFirst, p.pos);
  depth = 0;
  for (let i = p.pos; i < p.end; i++) {
    const k = p.t.kind[i];
    if (k === TK_LPAREN) depth++;
    else if (k === TK_RPAREN) depth--;
    else if (depth === 0 && p.kw(i, 'THEN')) {
      if (p.kw(i + 1, 'INSERT')) {
        stmt.hasInsert = true;
        (stmt.inserts ??= []).push(mergeInsertAt(p, i + 2));
      }
      else if (p.kw(i + 1, 'UPDATE')) {
        stmt.hasUpdate = true;
        const update = mergeUpdateAt(p, i + 2);
        if (update) (stmt.updates ??= []).push(update);
      }
      else if (p.kw(i + 1, 'DELETE')) stmt.hasDelete = true;
    }
  }
  if (!stmt.hasInsert && !stmt.hasUpdate && !stmt.hasDelete) {
    let hasWhen = false;
    for (let i = p.pos; i < p.end; i++) if (p.kw(i, 'WHEN')) hasWhen = true;
    if (!hasWhen) p.fail('expected WHEN [NOT] MATCHED', context, p.end);
  }
  p.pos = p.end;
  return stmt;
}

/**
 * A MERGE's UPDATE from token `i` (after THEN UPDATE): `SET c = v, (c2, c3) = (v2, v3) | (fullselect), …` up to the
 * next WHEN or ELSE of the MERGE (or its end); a column may be qualified (`t.c`). Undefined when it does not read
 * plainly.
 */
function mergeUpdateAt(p: Parser, i: number): MergeUpdate | undefined {
  if (!p.kw(i, 'SET')) return undefined;
  const columns: string[] = [];
  const values: ValueKind[] = [];
  let start = i + 1;
  for (let j = start, depth = 0; ; j++) {
    const k = j < p.end ? p.t.kind[j] : undefined;
    if (k === TK_LPAREN) depth++;
    else if (k === TK_RPAREN) depth--;
    else if (j >= p.end || (depth === 0 && (k === TK_COMMA || p.kw(j, 'WHEN') || p.kw(j, 'ELSE')))) {
      if (!assignmentAt(p, start, j, columns, values)) return undefined;
      if (k !== TK_COMMA) break;
      start = j + 1;
    }
  }
  return { columns, values };
}

/** One assignment of an UPDATE's SET in tokens [a, b): its columns and values added to `columns` and `values`. */
function assignmentAt(p: Parser, a: number, b: number, columns: string[], values: ValueKind[]): boolean {
  // The `=` at the top level (the one in a list's parentheses is no assignment's).
  let eq = a;
  while (eq < b && !p.isOp(eq, '=')) eq = p.kind(eq) === TK_LPAREN ? p.afterBalanced(eq) : eq + 1;
  if (eq >= b - 1 || eq === a) return false;
  const list = plainNameListAt(p, a);
  if (!list) {
    // c = v, or t.c = v
    const name = eq - a === 1 ? a : eq - a === 3 && p.kind(a + 1) === TK_DOT ? a + 2 : -1;
    if (name < 0 || !p.isIdent(name)) return false;
    columns.push(p.identValue(name));
    values.push(valueKindIn(p, eq + 1, b));
    return true;
  }
  if (list.after !== eq) return false;
  // (c2, c3) = (v2, v3): a value each; = (SELECT …): values of a query.
  const close = p.afterBalanced(eq + 1) - 1;
  const row: ValueKind[] = [];
  if (p.kind(eq + 1) === TK_LPAREN && close === b - 1 && !p.kw(eq + 2, 'SELECT') && !p.kw(eq + 2, 'WITH')) {
    for (let from = eq + 2, j = from, depth = 0; j <= close; j++) {
      const k = p.t.kind[j];
      if (j < close && k === TK_LPAREN) depth++;
      else if (j < close && k === TK_RPAREN) depth--;
      else if (j === close || (depth === 0 && k === TK_COMMA)) {
        if (j === from) return false;
        row.push(valueKindIn(p, from, j));
        from = j + 1;
      }
    }
    if (row.length !== list.names.length) return false;
  } else {
    for (let n = 0; n < list.names.length; n++) row.push('expression');
  }
  columns.push(...list.names);
  values.push(...row);
  return true;
}

/** A MERGE's INSERT from token `i` (after THEN INSERT): `[(columns)] VALUES (values)` as far as it reads plainly. */
function mergeInsertAt(p: Parser, i: number): MergeInsert {
  const list = plainNameListAt(p, i);
  const columns = list?.names ?? [];
  if (list) i = list.after;
  const values: ValueKind[] = [];
  if (!p.kw(i, 'VALUES') || p.kind(i + 1) !== TK_LPAREN) return { columns, values };
  const close = p.afterBalanced(i + 1) - 1;
  if (p.kind(close) !== TK_RPAREN) return { columns, values: [] };
  for (let start = i + 2, j = start, depth = 0; j <= close; j++) {
    const k = p.t.kind[j];
    if (j < close && k === TK_LPAREN) depth++;
    else if (j < close && k === TK_RPAREN) depth--;
    else if (j === close || (depth === 0 && k === TK_COMMA)) {
      if (j === start) return { columns, values: [] };
      values.push(valueKindIn(p, start, j));
      start = j + 1;
    }
  }
  return { columns, values };
}

export function parseDeclareCursor(p: Parser, span: Span): Statement {
  const context = 'DECLARE CURSOR';
  p.pos++;
  const cursor = parseIdentifier(p, context).name;
  p.expect('CURSOR', context);
  // WITH HOLD, WITH RETURN [TO CALLER|CLIENT], DATABASE db USER u USING p (CLP) … up to FOR
  while (!p.atEnd() && !p.peek('FOR')) p.pos++;
  p.expect('FOR', context);
  if (p.atEnd()) p.fail('expected a SELECT or a statement name', context);
  const queryFirst = p.pos;
  const stmt: Statement = {
    kind: 'declareCursor',
    cursor,
    query: p.rangeSpan(queryFirst, p.end),
    tables: tablesRead(p, queryFirst, p.end),
    span,
    origin: p.origin,
  };
  // FOR s: a statement prepared from dynamic SQL (PREPARE s FROM …).
  if (queryFirst + 1 === p.end && p.isIdent(queryFirst)) stmt.statementName = p.identValue(queryFirst);
  p.pos = p.end;
  return stmt;
}

export function parseLockTable(p: Parser, span: Span): Statement {
  const context = 'LOCK TABLE';
  p.pos += 2;
  const table = parseQualifiedName(p, context);
  p.expect('IN', context);
  let mode: 'share' | 'exclusive';
  if (p.accept('SHARE')) mode = 'share';
  else if (p.accept('EXCLUSIVE')) mode = 'exclusive';
  else p.fail('expected SHARE or EXCLUSIVE', context);
  p.expect('MODE', context);
  const stmt: Statement = { kind: 'lockTable', table, mode, span, origin: p.origin };
  p.expectEnd(context);
  return stmt;
}

export function parseTransaction(p: Parser, span: Span, kind: 'commit' | 'rollback'): Statement {
  const context = kind.toUpperCase();
  p.pos++;
  p.accept('WORK');
  const stmt: Statement = { kind, span, origin: p.origin };
  p.partial = stmt;
  if (kind === 'rollback' && p.acceptSeq('TO', 'SAVEPOINT')) {
    stmt.toSavepoint = true;
    if (p.isIdent(p.pos)) p.pos++;
  }
  p.expectEnd(context);
  return stmt;
}

export function parseSetSchema(p: Parser, span: Span): Statement {
  const context = 'SET SCHEMA';
  p.pos++;
  p.accept('CURRENT');
  if (!p.accept('SCHEMA') && !p.accept('SQLID')) p.accept('CURRENT_SCHEMA');
  if (p.isOp(p.pos, '=')) p.pos++;
  const k = p.kind(p.pos);
  let schema: string;
  if (k === TK_STRING) {
    const s = p.t.start[p.pos];
    const e = p.t.end[p.pos];
    schema = p.text.slice(s + 1, p.t.flags[p.pos] & FLAG_UNTERMINATED ? e : e - 1).replace(/''/g, "'");
    p.pos++;
  } else if (k === TK_HOST) {
    schema = p.text.slice(p.t.start[p.pos], p.t.end[p.pos]);
    p.pos++;
  } else if (p.kw(p.pos, 'CURRENT') || p.kw(p.pos, 'SESSION_USER') || p.kw(p.pos, 'USER') || p.kw(p.pos, 'SYSTEM_USER')) {
    schema = p.upper(p.pos);
    p.pos++;
    if (schema === 'CURRENT' && p.kind(p.pos) === TK_WORD) schema += ' ' + p.upper(p.pos++);
  } else {
    schema = parseIdentifier(p, context).name;
  }
  const stmt: Statement = { kind: 'setSchema', schema, span, origin: p.origin };
  p.partial = stmt;
  p.expectEnd(context);
  return stmt;
}
