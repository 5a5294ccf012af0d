// Clauses and expressions every statement family reads: identifiers and qualified names, name lists,
// numbers and sizes, data types, the tables a fullselect reads, sequences used, isolation clauses.
import type { DataType, QualifiedName, Span } from '../ast';
import { TK_WORD, TK_NUMBER, TK_LPAREN, TK_RPAREN, TK_COMMA, TK_DOT } from '../lexer';
import type { Parser } from '../parser';

/** Shared by every INSERT without NEXT VALUE FOR (nearly all of them): one array instead of 151,000. */
const NO_SEQUENCES: QualifiedName[] = Object.freeze([]) as unknown as QualifiedName[];

const TYPE_SYNONYMS: Record<string, string> = {
  INT: 'INTEGER',
  CHARACTER: 'CHAR',
  DEC: 'DECIMAL',
  NUMERIC: 'DECIMAL',
  NUM: 'DECIMAL',
  LONG: 'LONG VARCHAR',
};

const LOB_TYPES = new Set(['CLOB', 'BLOB', 'DBCLOB']);

/** Names of built-in data types, as a column definition's second word. */
const BUILT_IN_TYPES = new Set([
  'SMALLINT', 'INT', 'INTEGER', 'BIGINT', 'DECIMAL', 'DEC', 'NUMERIC', 'NUM', 'NUMBER', 'DECFLOAT', 'REAL', 'FLOAT',
  'DOUBLE', 'CHAR', 'CHARACTER', 'VARCHAR', 'VARCHAR2', 'NCHAR', 'NVARCHAR', 'CLOB', 'NCLOB', 'DBCLOB', 'BLOB',
  'GRAPHIC', 'VARGRAPHIC', 'LONG', 'DATE', 'TIME', 'TIMESTAMP', 'XML', 'BOOLEAN', 'BINARY', 'VARBINARY', 'ROWID',
]);

/** Token `i` names a built-in data type (so the word before it is a column name). */
export function isBuiltInTypeAt(p: Parser, i: number): boolean {
  return p.kind(i) === TK_WORD && BUILT_IN_TYPES.has(p.upper(i));
}

/** Words that, before a string, make a typed literal: DATE '2024-01-01'. */
export const TYPED_LITERAL_WORDS = new Set(['DATE', 'TIME', 'TIMESTAMP', 'GRAPHIC', 'BINARY']);

/**
 * Words by their length, to ask whether a token is one of them without making an upper-case copy of it
 * (tablesRead asks it of every word of every FROM list).
 */
function byLength(words: readonly string[]): readonly (readonly string[])[] {
  const out: string[][] = [];
  for (const w of words) (out[w.length] ??= []).push(w);
  return out;
}

/** Token `i` is a word of `words` (as byLength gives them), in any case. */
function isWordOf(p: Parser, i: number, words: readonly (readonly string[] | undefined)[]): boolean {
  if (p.kind(i) !== TK_WORD) return false;
  const list = words[p.t.end[i] - p.t.start[i]];
  if (list === undefined) return false;
  for (const w of list) if (p.kw(i, w)) return true;
  return false;
}

const TABLE_REF_SKIP = byLength(['TABLE', 'LATERAL', 'UNNEST', 'XMLTABLE', 'FINAL', 'NEW', 'OLD', 'ONLY', 'OUTER']);

/** Words after which FROM/JOIN table lists end at the same nesting level (not ON: `JOIN b ON … , c`). */
const FROM_ENDERS = byLength([
  'WHERE', 'GROUP', 'HAVING', 'ORDER', 'FETCH', 'UNION', 'EXCEPT', 'INTERSECT', 'SELECT',
  'WINDOW', 'LIMIT', 'OFFSET', 'FOR', 'WITH', 'OPTIMIZE', 'SET', 'VALUES', 'WHEN', 'THEN', 'ELSE', 'END',
]);

export function parseIdentifier(p: Parser, context: string): { name: string; span: Span } {
  if (isAngledPlaceholder(p, p.pos)) {
    // `IN <TS>`: a template's placeholder, like !name!, to be replaced before the script is run (Q Replication's).
    const span = { start: p.t.start[p.pos], end: p.t.end[p.pos + 2] };
    p.pos += 3;
    return { name: p.text.slice(span.start, span.end), span };
  }
  if (!p.isIdent(p.pos)) p.fail('expected a name', context);
  const i = p.pos++;
  return { name: p.identValue(i), span: p.tokSpan(i) };
}

/** `<NAME>` written without spaces where a name belongs: a placeholder of a script template. */
function isAngledPlaceholder(p: Parser, i: number): boolean {
  return p.isOp(i, '<') && p.kind(i + 1) === TK_WORD && p.isOp(i + 2, '>') && p.t.end[i] === p.t.start[i + 1] && p.t.end[i + 1] === p.t.start[i + 2];
}

/** name | schema.name | server.schema.name (the last two parts are kept). */
export function parseQualifiedName(p: Parser, context: string): QualifiedName {
  if (!p.isIdent(p.pos)) p.fail('expected a name', context);
  const startTok = p.pos;
  let last = p.pos++;
  let parts = 1;
  while (p.kind(p.pos) === TK_DOT && p.isIdent(p.pos + 1) && parts < 3) {
    last = p.pos + 1;
    p.pos += 2;
    parts++;
  }
  const span = { start: p.t.start[startTok], end: p.t.end[last] };
  if (parts === 1) return { name: p.identValue(last), span };
  return { schema: p.identValue(last - 2), name: p.identValue(last), span };
}

/** Reads a qualified name at token `i` without moving the cursor; returns it and the index after it. */
function qualifiedNameAt(p: Parser, i: number): { name: QualifiedName; next: number } | undefined {
  if (!p.isIdent(i)) return undefined;
  const saved = p.pos;
  p.pos = i;
  const name = parseQualifiedName(p, 'name');
  const next = p.pos;
  p.pos = saved;
  return { name, next };
}

/** At '(' : moves past the matching ')'; returns the span inside the parentheses. */
export function skipParens(p: Parser, context: string): Span {
  if (p.kind(p.pos) !== TK_LPAREN) p.fail("expected '('", context);
  const open = p.pos;
  const after = p.afterBalanced(open);
  if (after === p.end && p.kind(after - 1) !== TK_RPAREN) {
    p.pos = p.end;
    p.fail("missing ')'", context);
  }
  p.pos = after;
  const innerFirst = open + 1;
  const innerEnd = after - 1;
  if (innerEnd <= innerFirst) return { start: p.t.end[open], end: p.t.end[open] };
  return p.rangeSpan(innerFirst, innerEnd);
}

/** ( name, name, … ) — each element's first identifier; extra words per element are skipped. */
export function parseNameList(p: Parser, context: string): string[] {
  if (p.kind(p.pos) !== TK_LPAREN) p.fail("expected '('", context);
  // Exact-size array (column lists of a million INSERTs stay in memory): count top-level commas.
  const close = p.afterBalanced(p.pos) - 1;
  let count = 0;
  if (close > p.pos + 1) {
    count = 1;
    for (let j = p.pos + 1, depth = 0; j < close; j++) {
      const k = p.t.kind[j];
      if (k === TK_LPAREN) depth++;
      else if (k === TK_RPAREN) depth--;
      else if (k === TK_COMMA && depth === 0) count++;
    }
  }
  p.pos++;
  const names: string[] = new Array<string>(count);
  let n = 0;
  for (;;) {
    if (p.kind(p.pos) === TK_RPAREN) {
      p.pos++;
      if (n < names.length) names.length = n;
      return names;
    }
    // parseIdentifier's name, without its span and result objects (garbage for every column of every INSERT).
    if (!p.isIdent(p.pos)) p.fail('expected a name', context);
    const name = p.identValue(p.pos++);
    if (n < names.length) names[n++] = name;
    else {
      names.push(name);
      n++;
    }
    while (!p.atEnd() && p.kind(p.pos) !== TK_COMMA && p.kind(p.pos) !== TK_RPAREN) p.skipUnit();
    if (p.kind(p.pos) === TK_COMMA) p.pos++;
    else if (p.kind(p.pos) !== TK_RPAREN) p.fail("expected ',' or ')'", context);
  }
}

/**
 * `(name, name, …)` at token `open`, each element one identifier: the names, and the token after the ')'.
 * Undefined for anything else (no failure: for lists a statement may hold but the parser need not understand).
 */
export function plainNameListAt(p: Parser, open: number): { names: string[]; after: number } | undefined {
  if (p.kind(open) !== TK_LPAREN) return undefined;
  const names: string[] = [];
  for (let i = open + 1; i < p.end; i += 2) {
    if (!p.isIdent(i)) return undefined;
    names.push(p.identValue(i));
    const k = p.kind(i + 1);
    if (k === TK_RPAREN) return { names, after: i + 2 };
    if (k !== TK_COMMA) return undefined;
  }
  return undefined;
}

/** Number with optional sign; returns NaN-free value or fails. */
export function parseNumber(p: Parser, context: string): number {
  let sign = 1;
  if (p.isOp(p.pos, '-')) {
    sign = -1;
    p.pos++;
  } else if (p.isOp(p.pos, '+')) p.pos++;
  if (p.kind(p.pos) !== TK_NUMBER) p.fail('expected a number', context);
  const v = Number(p.text.slice(p.t.start[p.pos], p.t.end[p.pos]));
  p.pos++;
  return sign * v;
}

/** n [K|M|G] as a byte count. */
export function parseSize(p: Parser, context: string): number {
  const v = parseNumber(p, context);
  if (p.accept('K')) return v * 1024;
  if (p.accept('M')) return v * 1024 * 1024;
  if (p.accept('G')) return v * 1024 * 1024 * 1024;
  return v;
}

export function parseDataType(p: Parser, context: string): DataType {
  if (!p.isIdent(p.pos)) p.fail('expected a data type', context);
  const startTok = p.pos;
  let name = p.kind(p.pos) === TK_WORD ? p.upper(p.pos) : p.identValue(p.pos);
  p.pos++;
  if (name === 'LONG' && (p.peek('VARCHAR') || p.peek('VARGRAPHIC'))) {
    name = 'LONG ' + p.upper(p.pos++);
  } else if ((name === 'CHARACTER' || name === 'CHAR') && p.peek('VARYING')) {
    p.pos++;
    name = 'VARCHAR';
  } else if ((name === 'CHARACTER' || name === 'CHAR' || name === 'BINARY') && p.peek('LARGE') && p.kw(p.pos + 1, 'OBJECT')) {
    p.pos += 2;
    name = name === 'BINARY' ? 'BLOB' : 'CLOB';
  } else if (name === 'DOUBLE' && p.peek('PRECISION')) {
    p.pos++;
  } else if (name === 'GRAPHIC' && p.peek('VARYING')) {
    p.pos++;
    name = 'VARGRAPHIC';
  } else if (p.kind(p.pos) === TK_DOT && p.isIdent(p.pos + 1)) {
    // user-defined type schema.name
    p.pos++;
    name = p.identValue(p.pos++);
  }
  name = TYPE_SYNONYMS[name] ?? name;
  let length: number | undefined;
  if (p.kind(p.pos) === TK_LPAREN) {
    const open = p.pos;
    p.pos++;
    if (p.kind(p.pos) === TK_NUMBER) {
      length = parseSize(p, context);
    }
    p.pos = p.afterBalanced(open);
    if (p.kind(p.pos - 1) !== TK_RPAREN) p.fail("missing ')'", context);
  }
  // FOR BIT DATA / FOR SBCS DATA / FOR MIXED DATA belong to character types
  if (p.kw(p.pos, 'FOR') && (p.kw(p.pos + 1, 'BIT') || p.kw(p.pos + 1, 'SBCS') || p.kw(p.pos + 1, 'MIXED')) && p.kw(p.pos + 2, 'DATA')) {
    p.pos += 3;
  }
  const isLob = LOB_TYPES.has(name);
  const isLong = name === 'LONG VARCHAR' || name === 'LONG VARGRAPHIC';
  const isXml = name === 'XML';
  const span = { start: p.t.start[startTok], end: p.t.end[p.pos - 1] };
  // Made whole, with its length when written: a length added to the object made afterwards took a property
  // array of its own (40 bytes more per column, kept with the model), and a placeholder span was garbage.
  return length === undefined ? { name, isLob, isLong, isXml, span } : { name, length, isLob, isLong, isXml, span };
}

export function isIsolationAt(p: Parser, i: number): boolean {
  return p.kw(i, 'WITH') && (p.kw(i + 1, 'UR') || p.kw(i + 1, 'CS') || p.kw(i + 1, 'RS') || p.kw(i + 1, 'RR'));
}

/** A data-change table reference starts at token `i`: OLD, FINAL or NEW TABLE (, its INSERT, UPDATE, DELETE or MERGE next. */
export function dataChangeAt(p: Parser, i: number): boolean {
  return (p.kw(i, 'FINAL') || p.kw(i, 'NEW') || p.kw(i, 'OLD')) && p.kw(i + 1, 'TABLE') && p.kind(i + 2) === TK_LPAREN;
}

/**
 * What the tokens [from, to) of an INSERT say besides its grammar, in one pass (every token of every INSERT
 * passes here; a pass for each was two walks over the bulk of a script's tokens):
 * - `sequences`: NEXT VALUE FOR s, NEXTVAL FOR s, s.NEXTVAL;
 * - `isolation`: the first WITH UR|CS|RS|RR at nesting level 0 (from `from`, where the level is 0).
 */
export function insertSequencesAndIsolation(p: Parser, from: number, to: number): { sequences: QualifiedName[]; isolation: string | undefined } {
  let out: QualifiedName[] | undefined;
  let isolation: string | undefined;
  const saved = p.end;
  p.end = to;
  try {
    const { kind, start, end } = p.t;
    const text = p.text;
    let depth = 0;
    for (let i = from; i < to; i++) {
      const k = kind[i];
      if (k === TK_LPAREN) depth++;
      else if (k === TK_RPAREN) depth--;
      if (k !== TK_WORD) continue;
      // Only 4- and 7-letter words (WITH, NEXT, NEXTVAL) are worth a closer look, and only by their first letter.
      const length = end[i] - start[i];
      if (length !== 4 && length !== 7) continue;
      const first = text.charCodeAt(start[i]) | 32;
      if (first === 119 /* w */) {
        if (depth === 0 && isolation === undefined && isIsolationAt(p, i)) isolation = p.upper(i + 1);
        continue;
      }
      if (first !== 110 /* n */) continue;
      let nameAt = -1;
      if (p.kw(i, 'NEXT') && p.kw(i + 1, 'VALUE') && p.kw(i + 2, 'FOR')) nameAt = i + 3;
      else if (p.kw(i, 'NEXTVAL') && p.kw(i + 1, 'FOR')) nameAt = i + 2;
      else if (p.kw(i, 'NEXTVAL') && i - 2 >= from && p.t.kind[i - 1] === TK_DOT && p.isIdent(i - 2)) {
        // s.NEXTVAL or schema.s.NEXTVAL
        const nameEnd = i - 1;
        let first = i - 2;
        if (first - 2 >= from && p.t.kind[first - 1] === TK_DOT && p.isIdent(first - 2)) first -= 2;
        const name = p.identValue(nameEnd - 1);
        const q: QualifiedName = { name, span: { start: p.t.start[first], end: p.t.end[nameEnd - 1] } };
        if (first !== nameEnd - 1) q.schema = p.identValue(first);
        (out ??= []).push(q);
        continue;
      }
      if (nameAt >= 0) {
        const r = qualifiedNameAt(p, nameAt);
        if (r) (out ??= []).push(r.name);
      }
    }
  } finally {
    p.end = saved;
  }
  return { sequences: out ?? NO_SEQUENCES, isolation };
}

/** Words that end a FROM clause of one table (oneTableRows). */
const ONE_TABLE_FROM_ENDERS = byLength(['WHERE', 'GROUP', 'HAVING', 'ORDER', 'FETCH', 'FOR', 'WITH', 'OPTIMIZE', 'LIMIT', 'OFFSET']);

/**
 * The one table whose rows a query in tokens [from, to) returns, at most one row of the result per row of it:
 * SELECT … FROM t [[AS] c] [WHERE …] [ORDER BY …] …, or FROM OLD TABLE (DELETE FROM t …), whose rows the query
 * also removes (`deletes`). Outer parentheses aside. Undefined for anything that may return more rows than one
 * table holds: a join or a list of tables, a set operation, a common table expression (which may count rows up
 * itself), a table function, VALUES, a fullselect in FROM, a SELECT without FROM.
 */
export function oneTableRows(p: Parser, from: number, to: number): { table: QualifiedName; deletes: boolean } | undefined {
  const savedEnd = p.end;
  p.end = to;
  try {
    while (p.kind(from) === TK_LPAREN && p.afterBalanced(from) === to) {
      from++;
      to--;
      p.end = to;
    }
    if (!p.kw(from, 'SELECT')) return undefined;
    let fromAt = -1;
    let depth = 0;
    for (let i = from; i < to; i++) {
      const k = p.t.kind[i];
      if (k === TK_LPAREN) depth++;
      else if (k === TK_RPAREN) depth--;
      else if (depth === 0 && k === TK_WORD) {
        if (p.kw(i, 'UNION') || p.kw(i, 'INTERSECT') || p.kw(i, 'EXCEPT') || p.kw(i, 'MINUS')) return undefined;
        if (fromAt < 0 && p.kw(i, 'FROM')) fromAt = i;
      }
    }
    if (fromAt < 0) return undefined;
    let i = fromAt + 1;
    let table: QualifiedName;
    let deletes = false;
    if (p.kw(i, 'OLD') && p.kw(i + 1, 'TABLE') && p.kind(i + 2) === TK_LPAREN) {
      if (!p.kw(i + 3, 'DELETE') || !p.kw(i + 4, 'FROM')) return undefined;
      const deleted = qualifiedNameAt(p, i + 5);
      if (!deleted) return undefined;
      table = deleted.name;
      deletes = true;
      i = p.afterBalanced(i + 2);
    } else {
      if (isWordOf(p, i, TABLE_REF_SKIP)) return undefined;
      const read = qualifiedNameAt(p, i);
      if (!read) return undefined;
      table = read.name;
      i = read.next;
    }
    // A correlation name, with its column names or not.
    if (p.kw(i, 'AS')) i++;
    if (i < to && p.isIdent(i) && !isWordOf(p, i, ONE_TABLE_FROM_ENDERS)) {
      i++;
      if (p.kind(i) === TK_LPAREN) i = p.afterBalanced(i);
    }
    return i >= to || isWordOf(p, i, ONE_TABLE_FROM_ENDERS) ? { table, deletes } : undefined;
  } finally {
    p.end = savedEnd;
  }
}

/**
 * Tables read by a fullselect in tokens [from, to): names after FROM/JOIN (and after ',' in a FROM
 * list) at a level where SELECT was seen, excluding common table expressions. One linear pass.
 */
export function tablesRead(p: Parser, from: number, to: number): QualifiedName[] {
  const out: QualifiedName[] = [];
  const seen = new Set<string>();
  let ctes: Set<string> | undefined;
  const savedEnd = p.end;
  p.end = to;
  try {
    // common table expressions: WITH name [(cols)] AS ( … ) [, name …]
    for (let i = from; i < to; i++) {
      if (!p.kw(i, 'WITH') && !(p.t.kind[i] === TK_COMMA && ctes)) continue;
      let j = i + 1;
      if (!p.isIdent(j)) continue;
      j++;
      // name (cols) AS ( — the column list is short; do not scan far for it
      if (p.t.kind[j] === TK_LPAREN && j < to && p.isIdent(j + 1)) j = p.afterBalanced(j);
      if (p.kw(j, 'AS') && p.kind(j + 1) === TK_LPAREN) (ctes ??= new Set()).add(p.identValue(i + 1));
    }
    // Per nesting level: bit 1 = a FROM list is open, bit 2 = SELECT was seen.
    const levels = p.levelStack(to - from + 1);
    levels[0] = 0;
    let depth = 0;
    const readRef = (i: number): void => {
      if (!p.isIdent(i)) return;
      if (isWordOf(p, i, TABLE_REF_SKIP)) return;
      const r = qualifiedNameAt(p, i);
      if (!r) return;
      const key = (r.name.schema ?? '') + '.' + r.name.name;
      if (!r.name.schema && ctes?.has(r.name.name)) return;
      if (seen.has(key)) return;
      seen.add(key);
      out.push(r.name);
    };
    for (let i = from; i < to; i++) {
      const k = p.t.kind[i];
      if (k === TK_LPAREN) {
        levels[++depth] = 0;
        continue;
      }
      if (k === TK_RPAREN) {
        if (depth > 0) depth--;
        continue;
      }
      if (k === TK_COMMA) {
        if (levels[depth] & 1) readRef(i + 1);
        continue;
      }
      if (k !== TK_WORD) continue;
      if (p.kw(i, 'SELECT')) {
        levels[depth] = 2;
      } else if (p.kw(i, 'FROM') || p.kw(i, 'JOIN')) {
        if (levels[depth] & 2 || p.kw(i, 'JOIN')) {
          levels[depth] |= 1;
          readRef(i + 1);
        }
      } else if (levels[depth] & 1 && isFromEnder(p, i)) {
        levels[depth] &= ~1;
      }
    }
  } finally {
    p.end = savedEnd;
  }
  return out;
}

function isFromEnder(p: Parser, i: number): boolean {
  return isWordOf(p, i, FROM_ENDERS);
}
