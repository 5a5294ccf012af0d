// SQL written for another database, recognised in a statement that failed to parse: replication templates
// for Oracle or SQL Server targets, and migrations copied from MySQL into a Db2 folder. Db2 rejects these
// as they stand, so the finding names the dialect and Db2's way of saying it rather than a stray token.
// Only statements the Db2 grammar could not read are looked at: valid Db2 is never called foreign.
import type { ParseError } from '../ast';
import { TK_LPAREN, TK_RPAREN, TK_COMMA, TK_STRING, TK_DOT } from '../lexer';
import type { Parser } from '../parser';
import { isBuiltInTypeAt } from './clauses';

interface Construct {
  dialect: string;
  written: string;
  db2: string;
  /** No database writes it so: a mistake in the script, with Db2's form (ParseError.mistake), not another dialect. */
  mistake?: true;
}

/** MODIFY [COLUMN] old new type: a rename in MODIFY, which no database writes (Spring Batch's 5.0 Db2 migration does). */
const MODIFY_RENAME: Construct = {
  dialect: '',
  written: 'ALTER TABLE … MODIFY COLUMN old new type',
  db2: 'a rename and a new type in one clause, which no database accepts as written (MySQL writes that as CHANGE COLUMN old new type). Db2 writes ALTER TABLE t RENAME COLUMN old TO new, then ALTER TABLE t ALTER COLUMN new SET DATA TYPE type',
  mistake: true,
};

const CREATE_TABLE_AS_QUERY: Construct = {
  dialect: 'PostgreSQL, Oracle or MySQL',
  written: 'CREATE TABLE … AS SELECT',
  db2: 'Db2 puts the query in parentheses and says whether to copy its rows: CREATE TABLE t AS (SELECT …) WITH DATA, or WITH NO DATA for the columns only',
};

const DATETIME_QUALIFIERS = ['YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND', 'FRACTION'];

/** The statement in [first, end) uses another database's syntax Db2 has no form of, or a known mistake; undefined otherwise. */
export function otherDialect(p: Parser, first: number, end: number): ParseError | undefined {
  const found = p.kw(first + 1, 'TABLE') && p.kw(first, 'ALTER') ? alterTable(p, first + 2, end) : p.kw(first, 'CREATE') ? create(p, first + 1, end) : p.kw(first, 'IMPORT') ? importForeignSchema(p, first + 1) : undefined;
  if (!found) return undefined;
  const span = p.tokSpan(found.at);
  if (found.construct.mistake) return { message: `${found.construct.written} is ${found.construct.db2}`, span, mistake: true };
  return {
    message: `${found.construct.written} is ${found.construct.dialect} syntax, not Db2: ${found.construct.db2}`,
    span,
    dialect: found.construct.dialect,
  };
}

/** Calls `visit` for tokens of [from, to) at parenthesis level 0 until it returns a construct. */
function atTopLevel(p: Parser, from: number, to: number, visit: (i: number) => Construct | undefined): { construct: Construct; at: number } | undefined {
  let depth = 0;
  for (let i = from; i < to; i++) {
    const k = p.t.kind[i];
    if (depth === 0) {
      const construct = visit(i);
      if (construct) return { construct, at: i };
    }
    if (k === TK_LPAREN) depth++;
    else if (k === TK_RPAREN) depth--;
  }
  return undefined;
}

function alterTable(p: Parser, from: number, end: number): { construct: Construct; at: number } | undefined {
  let sawAdd = false;
  return atTopLevel(p, from, end, (i) => {
    if (p.kw(i, 'ADD')) sawAdd = true;
    if (p.kw(i, 'MODIFY')) {
      // MODIFY [COLUMN] old new type renames too: no database writes that, so it is an error in the script, not
      // another database's SQL to leave out; the finding gives Db2's two statements.
      if (isRenameAt(p, p.kw(i + 1, 'COLUMN') ? i + 2 : i + 1)) return MODIFY_RENAME;
      return { dialect: 'Oracle, MySQL or Informix', written: 'ALTER TABLE … MODIFY', db2: 'Db2 changes a column with ALTER TABLE t ALTER COLUMN c SET DATA TYPE type (and SET/DROP NOT NULL, SET DEFAULT)' };
    }
    if (p.kw(i, 'ADD') && p.kind(i + 1) === TK_LPAREN) return { dialect: 'Oracle or Informix', written: 'ALTER TABLE … ADD (column …)', db2: 'Db2 adds each column with its own ADD COLUMN c type' };
    if (p.kw(i, 'DROP') && p.kw(i + 1, 'CONSTRAINT') && p.kind(i + 2) === TK_LPAREN) return { dialect: 'Informix', written: 'DROP CONSTRAINT (…)', db2: 'Db2 drops each constraint with its own DROP CONSTRAINT name' };
    if (p.kw(i, 'ALTER') && p.kw(i + 1, 'COLUMN') && p.isIdent(i + 2) && isBuiltInTypeAt(p, i + 3)) {
      return { dialect: 'SQL Server or Sybase', written: 'ALTER COLUMN c type', db2: 'Db2 writes ALTER COLUMN c SET DATA TYPE type' };
    }
    if (sawAdd && p.t.kind[i] === TK_COMMA && p.isIdent(i + 1) && isBuiltInTypeAt(p, i + 2)) {
      return { dialect: 'SQL Server, Sybase or Informix', written: 'ADD c1 type, c2 type', db2: 'Db2 needs ADD before each column (ADD c1 type ADD c2 type)' };
    }
    return undefined;
  });
}

/** IMPORT FOREIGN SCHEMA (PostgreSQL's foreign data wrappers), not the CLP's IMPORT FROM file. */
function importForeignSchema(p: Parser, from: number): { construct: Construct; at: number } | undefined {
  if (!p.kw(from, 'FOREIGN') || !p.kw(from + 1, 'SCHEMA')) return undefined;
  return { construct: { dialect: 'PostgreSQL', written: 'IMPORT FOREIGN SCHEMA', db2: 'Db2 federation names each remote table with CREATE NICKNAME n FOR server.schema.table' }, at: from };
}

/** Two names, then the type, where a column and its type belong: `old new VARCHAR(100)` (not `c RAW(16)`). */
function isRenameAt(p: Parser, i: number): boolean {
  return p.isIdent(i) && p.isIdent(i + 1) && !isBuiltInTypeAt(p, i + 1) && isBuiltInTypeAt(p, i + 2);
}

function create(p: Parser, from: number, end: number): { construct: Construct; at: number } | undefined {
  if (p.kw(from, 'INDEX') && p.isIdent(from + 1)) {
    // CREATE INDEX name (cols) ON table
    let i = from + 2;
    while (p.kind(i) === TK_DOT && p.isIdent(i + 1)) i += 2;
    if (p.kind(i) === TK_LPAREN && p.kw(p.afterBalanced(i), 'ON')) {
      return { construct: { dialect: 'Teradata', written: 'CREATE INDEX name (columns) ON table', db2: 'Db2 writes CREATE INDEX name ON table (columns)' }, at: i };
    }
  }
  if (!p.kw(from, 'TABLE')) return undefined;
  // CREATE TABLE t [(columns)] AS SELECT …: the query without the parentheses Db2 requires.
  const as = atTopLevel(p, from + 1, end, (i) => (p.kw(i, 'AS') && (p.kw(i + 1, 'SELECT') || p.kw(i + 1, 'WITH') || p.kw(i + 1, 'VALUES')) ? CREATE_TABLE_AS_QUERY : undefined));
  if (as) return as;
  // Column definitions are inside the table's parentheses: look at every token.
  for (let i = from; i < end; i++) {
    if (p.kw(i, 'DATETIME') && DATETIME_QUALIFIERS.some((q) => p.kw(i + 1, q))) {
      return { construct: { dialect: 'Informix', written: 'DATETIME YEAR TO …', db2: 'Db2 uses TIMESTAMP (TIMESTAMP(p) for fractions of a second)' }, at: i };
    }
    if (p.kw(i, 'FORMAT') && p.kind(i + 1) === TK_STRING) {
      return { construct: { dialect: 'Teradata', written: "a column's FORMAT '…'", db2: 'Db2 DDL has no display format (format in the query or the application)' }, at: i };
    }
    if (p.kw(i, 'CHARACTER') && p.kw(i + 1, 'SET') && p.isIdent(i + 2)) {
      return { construct: { dialect: 'Teradata or MySQL', written: 'CHARACTER SET on a column', db2: 'Db2 sets the encoding with CCSID (or FOR BIT DATA)' }, at: i };
    }
  }
  return undefined;
}
