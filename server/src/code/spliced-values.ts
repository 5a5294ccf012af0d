// What the code does to a value it splices into SQL text, read from the host expression: a number (a numeric
// declaration, a counter), quoted by the code (doubled quotes, an escape function), a list of rows; and how many
// spliced expressions a statement holds. Pure functions over the walk's scopes, for the model builder (model.ts).
import type { Span, Statement } from '../sql/ast';
import { assignmentsNamed, scopesNaming, type Scope } from './adapter';
import { parentOf } from './parents';
import { partitionPoint } from '../engine/sorted';

/**
 * How many distinct spliced expressions (file spans) a statement of a text holds: each character of its first 4,000 is
 * mapped to the file and looked up among the spans, sorted (a text of 40,000 splices is read in n log n).
 */
export function splicesIn(stmt: Statement, splices: readonly { span: Span }[]): number {
  const sorted = [...new Map(splices.map((x) => [`${x.span.start}:${x.span.end}`, x.span])).values()].sort((a, b) => a.start - b.start || a.end - b.end);
  const hit = new Set<Span>();
  for (let o = stmt.span.start; o < Math.min(stmt.span.end, stmt.span.start + 4000); o++) {
    const at = stmt.origin.toFile(o);
    // The last span starting at or before `at`: spliced expressions do not overlap.
    const found = partitionPoint(sorted, (s) => s.start <= at) - 1;
    if (found >= 0 && at < sorted[found].end) hit.add(sorted[found]);
  }
  return hit.size;
}

/** A counter stepped where it is spliced: `n++`, `++this.seq`, `i--`. */
export const COUNTER = /^(?:(?:\+\+|--)\s*[A-Za-z_$][\w$.]{0,60}|[A-Za-z_$][\w$.]{0,60}\s*(?:\+\+|--))$/;

/** A method call that may escape a value for SQL: `this.escape(v)`, `db.escapeLiteral(v)`, `SqlString.escape(v)`. */
const ESCAPE_CALL = /\.[ \t]{0,10}(?:escape|escapeLiteral|escapeValue|escapeString|quote|quoteLiteral|quoteValue|quoteString)[ \t]{0,10}\(/g;

/** Receivers whose escape/quote is for another language: regular expressions, HTML (lodash's `_.escape`), URLs, shells. */
const NOT_SQL_ESCAPE = /^(?:re|regex|RegExp|html|he|_|lodash|underscore|validator|cgi|saxutils|shlex|parse|urllib|querystring|qs)$/;

/** The expression passes a value to an escape function for SQL (ESCAPE_CALL, not on a NOT_SQL_ESCAPE receiver). */
export function callsSqlEscape(expr: string): boolean {
  for (const m of expr.matchAll(ESCAPE_CALL)) {
    // The receiver: the identifier just before the dot (scanned back: an unanchored pattern for it backtracks).
    let end = m.index;
    while (end > 0 && end > m.index - 10 && /\s/.test(expr[end - 1])) end--;
    let start = end;
    while (start > 0 && start > end - 60 && /[\w$]/.test(expr[start - 1])) start--;
    if (!NOT_SQL_ESCAPE.test(expr.slice(start, end))) return true;
  }
  return false;
}

export function doublesQuotes(expr: string): boolean {
  return DOUBLES_QUOTES.test(expr);
}

/** `.replace("'", "''")` (Python, Java, JavaScript), `.replaceAll("'", "''")`, `.replace(/'/g, "''")`: quotes doubled by hand. */
export const DOUBLES_QUOTES = /\.replace(?:All)?\(\s*(?:"'"|'\\''|\/'\/g?)\s*,\s*(?:"''"|'\\'\\''|`''`)\s*\)/;

/** Declared types whose values are numbers: nothing but digits can reach the SQL text through them. */
const NUMERIC_TYPE = /^(?:int|long|short|byte|double|float|Integer|Long|Short|Byte|Double|Float|BigDecimal|BigInteger|size_t|(?:unsigned\s+)?(?:int|long|short)|SQL(?:INTEGER|SMALLINT|BIGINT|DOUBLE|REAL|UINTEGER))$/;

/** A spliced variable declared with a numeric type in this function or an enclosing scope (Java, C). */
export function numericVariable(text: string, scope: Scope): boolean {
  if (!/^[A-Za-z_$][\w$]{0,60}$/.test(text)) return false;
  for (const s of scopesNaming(scope, text)) {
    if (s.params?.includes(text)) return false;
    const declared = assignmentsNamed(s, text).find((a) => !a.append);
    // int id = …: the declarator's declaration carries the type (Java local/field declarations, C declarations).
    if (!declared) continue;
    const declaration = parentOf(declared.value);
    return NUMERIC_TYPE.test((declaration && parentOf(declaration))?.childForFieldName('type')?.text ?? '');
  }
  return false;
}

/** Names of host values that may hold several rows' worth of text: row_string, values, tuples, batch … */
const ROW_LIST = /rows|values|vals\b|tuples|list|batch|chunk|_?str(?:ing)?\b/i;

/**
 * A spliced value named like a list of rows that may be one: VALUES (%s) filled with it can carry many rows
 * (ibmdbpy's row_string, built with `+= "(%s)," % value_string`). A variable whose assignments write no "(" in
 * their string literals is one row's values, whatever its name (`values = ", ".join(...)` per CSV line). An
 * expression, or a variable assigned elsewhere (a parameter, a field), is judged by its name alone.
 */
export function rowListVariable(text: string, scope: Scope, source: string): boolean {
  if (!ROW_LIST.test(text)) return false;
  if (!/^[A-Za-z_$][\w$]{0,60}$/.test(text)) return true;
  for (const s of scopesNaming(scope, text)) {
    const assigned = assignmentsNamed(s, text);
    if (assigned.length > 0) return assigned.some((a) => stringLiteralsOf(source.slice(a.value.startIndex, a.value.endIndex)).some((t) => t.includes('(')));
  }
  return true;
}

/**
 * A text variable that appends rows to itself: an assignment that reads the variable (or appends to it) and writes
 * ",(" (db2magic's `insert_sql = f"{insert_sql},({insert_row})"`, run every 1000 rows).
 */
export function growsRowByRow(text: string, scope: Scope, source: string): boolean {
  if (!/^[A-Za-z_$][\w$]{0,60}$/.test(text)) return false;
  const self = new RegExp(`(?<![\\w$])${text.replace(/\$/g, '\\$')}(?![\\w$])`);
  for (const s of scopesNaming(scope, text)) {
    for (const a of assignmentsNamed(s, text)) {
      const value = source.slice(a.value.startIndex, a.value.endIndex);
      if ((a.append || self.test(value)) && stringLiteralsOf(value).some((t) => /,\s*\(/.test(t))) return true;
    }
  }
  return false;
}

/** The contents of the quoted strings in an expression's text (no escapes or triple quotes needed here). */
function stringLiteralsOf(expr: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < expr.length; i++) {
    const q = expr[i];
    if (q !== '"' && q !== "'" && q !== '`') continue;
    const end = expr.indexOf(q, i + 1);
    if (end < 0) break;
    out.push(expr.slice(i + 1, end));
    i = end;
  }
  return out;
}
