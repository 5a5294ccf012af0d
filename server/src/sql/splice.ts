// What stands for a value spliced into SQL text built at run time, so that the text parses as what the value stands
// for where it is spliced. One rule for every front end: host strings in application code (code/sqltext.ts) and
// SQL PL strings run by EXECUTE IMMEDIATE / PREPARE (grammar/dynamic.ts).

/**
 * Where SQL expects a name: a table after INTO, FROM, TABLE, UPDATE, JOIN, MERGE or USING (a MERGE's source), a
 * correlation name, column alias or type after AS, a procedure after CALL, a sequence after NEXT/PREVIOUS VALUE FOR,
 * the part after a qualifier's `.`; the object a DDL statement names (VIEW, INDEX, SCHEMA, SEQUENCE, ALIAS, NICKNAME,
 * TRIGGER, PROCEDURE, FUNCTION, COLUMN, CONSTRAINT, after IF [NOT] EXISTS), the table of `INDEX i ON` and of
 * `CREATE TABLE t LIKE`, the new name of a RENAME … TO, a column of ORDER/GROUP BY, first or after a comma (a number
 * there would be read as a column's position).
 */
const NAME_BEFORE =
  /(?:\b(?:INTO|FROM|TABLE|UPDATE|JOIN|MERGE|USING|AS|CALL|VIEW|INDEX|SCHEMA|SEQUENCE|ALIAS|NICKNAME|TRIGGER|PROCEDURE|FUNCTION|COLUMN|CONSTRAINT)|\bIF\s+(?:NOT\s+)?EXISTS|\b(?:NEXT|PREVIOUS)\s+VALUE\s+FOR|\b(?:ORDER|GROUP)\s+BY(?:\s+[\w."]+(?:\s+(?:ASC|DESC))?\s*,)*|\bINDEX\s+[\w."]+\s+ON|\bTABLE\s+[\w."]+\s+LIKE|\bRENAME\s+(?:(?:TABLE|COLUMN|INDEX)\s+)?[\w."]+\s+TO|\.)\s*$/i;

/**
 * A correlation name without AS: `FROM t ${alias}`, `JOIN t ${alias}`, `UPDATE t ${alias}`, `MERGE INTO t ${alias}`;
 * a table after a comma of a FROM list (`FROM a, ${b}`); a column added by `ALTER TABLE t ADD ${c}`. A clause spliced
 * after a table (`FROM t ${where}`) is taken for a correlation name: the statement reads as it did as a number.
 */
const NAME_AFTER_TABLE =
  /(?:\b(?:FROM|JOIN|UPDATE|MERGE\s+INTO)\s+(?!(?:WHERE|SET|ON|LATERAL|TABLE|FINAL|NEW|OLD|VALUES|ONLY)\b)[\w."]+\s+|\bFROM\s+[\w."]+(?:\s+(?:AS\s+)?(?!(?:WHERE|ON)\b)[\w"]+)?\s*,\s*|\bALTER\s+TABLE\s+[\w."]+\s+ADD\s+)$/i;

/** A column assigned in a SET list: after SET or a comma, followed by `=` (`UPDATE t SET ${col} = ?, ${c2} = ?`). */
const SET_TARGET_BEFORE = /(?:\bSET|,)\s*$/i;
const SET_TARGET_AFTER = /^\s*=(?!=)/;

/**
 * Inside a column list (no parenthesis or quote since it opened): INSERT INTO t ( ..., a MERGE's INSERT ( ..., and the
 * column names of a correlation name, `... AS s ( ...`, but not a type's size after AS (CAST(x AS DECIMAL( ...).
 */
const COLUMN_LIST =
  /(?:\bINTO\s+[\w."]+|\bINSERT|\bAS\s+(?!(?:DECIMAL|DEC|NUMERIC|NUM|DECFLOAT|FLOAT|CHARACTER|CHAR|VARCHAR|NCHAR|NVARCHAR|GRAPHIC|VARGRAPHIC|CLOB|NCLOB|DBCLOB|BLOB|BINARY|VARBINARY|TIMESTAMP|TIME)\s*\()[\w"]+)\s*\([^()']*$/i;

/** Text right after a value that makes it a qualifier: `${alias}.col`, `${schema}.${table}`. */
const QUALIFIER_AFTER = /^\.(?:[A-Za-z_"]|$)/;

/** How much of the text before a splice the tests read (COLUMN_LIST; the other tests read the last 80 characters). */
export const SPLICE_CONTEXT = 400;

/**
 * The placeholder of a value spliced into SQL text after `before` and followed by `after` (the start of the next piece's
 * text, '' when a value or the end follows), `length` characters long (the host expression's, so spans map onto it):
 * characters inside a quoted literal (`xxxx`), a name where SQL expects one (`Zzzz`: see NAME_BEFORE, COLUMN_LIST,
 * QUALIFIER_AFTER), else a number (`0000`), which parses wherever a value goes.
 */
export function splicePlaceholder(before: string, insideString: boolean, length: number, after = ''): string {
  if (insideString) return 'x'.repeat(length);
  const near = before.slice(-80);
  if (NAME_BEFORE.test(near) || NAME_AFTER_TABLE.test(near) || COLUMN_LIST.test(before.slice(-SPLICE_CONTEXT)) || QUALIFIER_AFTER.test(after) || (SET_TARGET_AFTER.test(after) && SET_TARGET_BEFORE.test(near))) {
    return 'Z' + 'z'.repeat(length - 1);
  }
  return '0'.repeat(length);
}
