// What stands for a value spliced into SQL text built at run time, so that the text parses as what the value stands
// for where it is spliced. One rule for every front end: host strings in application code (code/sqltext.ts) and
// SQL PL strings run by EXECUTE IMMEDIATE / PREPARE (grammar/dynamic.ts).

/**
 * Where SQL expects a name: a table after INTO, FROM, TABLE, UPDATE, JOIN, MERGE or USING (a MERGE's source), a
 * correlation name, column alias or type after AS, a procedure after CALL, a sequence after NEXT/PREVIOUS VALUE FOR,
 * the part after a qualifier's `.`.
 */
const NAME_BEFORE = /(?:\b(?:INTO|FROM|TABLE|UPDATE|JOIN|MERGE|USING|AS|CALL)|\b(?:NEXT|PREVIOUS)\s+VALUE\s+FOR|\.)\s*$/i;

/**
 * Inside a column list (no parenthesis or quote since it opened): INSERT INTO t ( ..., a MERGE's INSERT ( ..., and the
 * column names of a correlation name, `... AS s ( ...`, but not a type's size after AS (CAST(x AS DECIMAL( ...).
 */
const COLUMN_LIST =
  /(?:\bINTO\s+[\w."]+|\bINSERT|\bAS\s+(?!(?:DECIMAL|DEC|NUMERIC|NUM|DECFLOAT|FLOAT|CHARACTER|CHAR|VARCHAR|NCHAR|NVARCHAR|GRAPHIC|VARGRAPHIC|CLOB|NCLOB|DBCLOB|BLOB|BINARY|VARBINARY|TIMESTAMP|TIME)\s*\()[\w"]+)\s*\([^()']*$/i;

/** Text right after a value that makes it a qualifier: `${alias}.col`, `${schema}.${table}`. */
const QUALIFIER_AFTER = /^\.(?:[A-Za-z_"]|$)/;

/** How much of the text before a splice the tests read (COLUMN_LIST; NAME_BEFORE reads the last 40 characters). */
export const SPLICE_CONTEXT = 400;

/**
 * The placeholder of a value spliced into SQL text after `before` and followed by `after` (the text of the next piece,
 * '' when a value or the end follows), `length` characters long (the host expression's, so spans map onto it):
 * characters inside a quoted literal (`xxxx`), a name where SQL expects one (`Zzzz`: see NAME_BEFORE, COLUMN_LIST,
 * QUALIFIER_AFTER), else a number (`0000`), which parses wherever a value goes.
 */
export function splicePlaceholder(before: string, insideString: boolean, length: number, after = ''): string {
  if (insideString) return 'x'.repeat(length);
  if (NAME_BEFORE.test(before.slice(-40)) || COLUMN_LIST.test(before.slice(-SPLICE_CONTEXT)) || QUALIFIER_AFTER.test(after)) return 'Z' + 'z'.repeat(length - 1);
  return '0'.repeat(length);
}
