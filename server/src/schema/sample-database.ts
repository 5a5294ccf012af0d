// The SAMPLE database that db2sampl creates, which IBM's sample scripts and many tutorials CONNECT TO and copy
// from: a copy of its EMPLOYEE table moves its 42 rows, not a load. Only tables whose rows were counted in a
// real copy of db2sampl's data (IBM's db2-jupyter, db2magic.py, sampledata) are listed: the others are not
// known to stay small (EMPMDC holds 10,000 rows).

/** The database name as a script's CONNECT TO gives it (upper case). */
export const SAMPLE_DATABASE = 'SAMPLE';

/** Rows db2sampl writes into these tables of the SAMPLE database. */
const SAMPLE_TABLE_ROWS: ReadonlyMap<string, number> = new Map([
  ['EMPLOYEE', 42],
  ['DEPARTMENT', 14],
]);

/** The rows of a table of the SAMPLE database as db2sampl creates it, by its unqualified name; undefined if not known. */
export function sampleTableRows(name: string): number | undefined {
  return SAMPLE_TABLE_ROWS.get(name.toUpperCase());
}
