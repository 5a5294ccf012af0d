// Whether a host file reaches Db2 at all, decided on its text before any parsing (most files of a code
// base do not, and cost nothing). A file counts when it names a Db2 driver or a configured driver module,
// or when it hands an SQL text to a query/execute/prepare call (wrappers, pools, re-exports, ORMs' raw
// queries): by use, not by the module's name. Files left out are counted, with the reason, in summaries.
import type { FrontEndOptions } from '../engine/types';

export const NO_DB2_ACCESS = 'no Db2 access found (no Db2 driver or configured driver module named, no SQL text handed to a query/execute/prepare call)';

/** A quoted string that starts like an SQL statement (Python f/r prefixes, text blocks and templates included). */
const SQL_LITERAL = /["'`]\s*(?:INSERT\s+INTO|MERGE\s+INTO|UPDATE\s+[\w."]+\s+SET\b|DELETE\s+FROM|SELECT\s|WITH\s+\w+\s+AS\b|CALL\s|VALUES\s*\(|CREATE\s|ALTER\s|DROP\s|TRUNCATE\s|COMMIT\b)/i;
/** A call that can run SQL: query/querySync/prepare/execute…, and wrappers named like them (execSQL, runQuery). */
// Bounded quantifiers: it runs over whole files, and `\s*(…)?\s*` rescans a long run of spaces from every start.
const SQL_CALL = /\b\w{0,60}(?:query|Query|exec|Exec|prepare|Prepare)\w{0,60}\s{0,40}(?:<[^>()]{0,200}>\s{0,40})?\(/;

/**
 * JavaScript/TypeScript: a class field or variable named like a query that holds an arrow function
 * (`insertQuery = (row) => ...`, `public insertSql = (r: Row): string => ...`) builds SQL text, as a method named so
 * does: a query generator whose texts another file runs.
 */
const JS_QUERY_BUILDER =
  /\b\w{0,60}(?:query|Query|sql|Sql|SQL)\w{0,60}\s{0,40}(?::[^=;\n]{0,200})?=\s{0,40}(?:async\s{1,40})?(?:\([^()]{0,200}\)(?:\s{0,40}:[^=;\n]{0,200})?|[A-Za-z_$][\w$]{0,60})\s{0,40}=>/;

/** Module names as written in import/require (JS/TS) or import/from (Python) lines. */
function importedModules(text: string, language: 'js' | 'python'): string[] {
  const out: string[] = [];
  const pattern =
    language === 'js'
      ? /(?:\bfrom\s*|\brequire\s*\(\s*|\bimport\s*\(\s*|^[ \t]*import\s+)["'`]([^"'`\n]{1,200})["'`]/gm
      : /^[ \t]*(?:from\s+([\w.]{1,200})\s+import\b|import\s+([\w.]{1,200}(?:\s*,\s*[\w.]{1,200}){0,20}))/gm;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    if (language === 'js') out.push(m[1]);
    else if (m[1]) out.push(m[1]);
    else out.push(...m[2].split(',').map((s) => s.trim()));
  }
  return out;
}

/**
 * './db/client' names '../db/client.js' and 'src/db/client'; '@acme/db2' names '@acme/db2' and '@acme/db2/pool'. A
 * path configured from the project's top ('./app/dbclient') also names the shorter relative import a file beside
 * it writes ('./dbclient'): users write the path of their module, not each importer's way to it.
 */
export function namesModule(specifier: string, configured: string): boolean {
  const norm = (s: string) => s.replace(/\\/g, '/').replace(/^(?:\.\.?\/)+/, '').replace(/\.(?:[cm]?[jt]sx?|py)$/, '').replace(/\/index$/, '');
  const a = norm(specifier);
  const b = norm(configured);
  if (!b || !a) return false;
  if (/^[\w@]/.test(configured) && !configured.includes('/') && !configured.startsWith('.')) return a === b || a.startsWith(b + '/') || a.startsWith(b + '.');
  return a === b || a.endsWith('/' + b) || a.startsWith(b + '/') || (specifier.startsWith('.') && b.endsWith('/' + a));
}

function importsConfigured(text: string, language: 'js' | 'python', options: FrontEndOptions): boolean {
  if (options.driverModules.length === 0) return false;
  const modules = importedModules(text, language);
  return modules.some((m) => options.driverModules.some((c) => namesModule(language === 'python' ? m.replace(/\./g, '/') : m, language === 'python' ? c.replace(/\./g, '/') : c)));
}

/** SQL handed to a call that can run it: the use that makes an unknown wrapper a database call. */
function runsSqlText(text: string): boolean {
  return SQL_LITERAL.test(text) && SQL_CALL.test(text);
}

const JS_DB2 = /ibm_db|idb-p?connector/;
const JS_OTHER_DATABASE = /(?:\bfrom\s*|\brequire\s*\(\s*)["'](pg|pg-promise|postgres|mysql2?|mariadb|sqlite3?|better-sqlite3|oracledb|mssql|tedious|mongodb|mongoose|@prisma\/client|@neondatabase\/serverless|@vercel\/postgres)["']/;
const PY_DB2 = /ibm_db|\bdb2\b|pyodbc|jaydebeapi/i;
const PY_OTHER_DATABASE = /^[ \t]*(?:import|from)\s+(psycopg2?|sqlite3|pymysql|MySQLdb|mysql\.connector|cx_Oracle|oracledb|pymssql|asyncpg|aiosqlite|pymongo)\b/m;

function otherDatabase(name: string): string {
  return `talks to another database (${name}), not Db2`;
}

/** Undefined when the file reaches Db2; otherwise why it is left out. */
export function javascriptAccess(text: string, options: FrontEndOptions): string | undefined {
  if (JS_DB2.test(text) || importsConfigured(text, 'js', options)) return undefined;
  const other = JS_OTHER_DATABASE.exec(text);
  if (other) return otherDatabase(other[1]);
  return runsSqlText(text) || (SQL_LITERAL.test(text) && JS_QUERY_BUILDER.test(text)) ? undefined : NO_DB2_ACCESS;
}

export function pythonAccess(text: string, options: FrontEndOptions): string | undefined {
  if (PY_DB2.test(text) || importsConfigured(text, 'python', options)) return undefined;
  const other = PY_OTHER_DATABASE.exec(text);
  if (other) return otherDatabase(other[1]);
  return runsSqlText(text) ? undefined : NO_DB2_ACCESS;
}

const JDBC = /Statement|JdbcTemplate|setAutoCommit|executeUpdate|addBatch|batchUpdate|#sql|\bimport\s+javax?\.sql\./;

/**
 * A field, variable or parameter of a data-access type (OrderDao dao, TradeServices ts, OrderRepository repo): a
 * service layer that touches no JDBC itself may call such a class's methods in a loop (engine/cross-file.ts lends
 * the loop to them), so the file is read for its loops.
 */
const DATA_ACCESS_VARIABLE = /\b[A-Z]\w*(?:Dao|DAO|Repository|Services?|Mapper|Store|Gateway)(?:<[^<>;]*>)?\s+[a-z_]\w*\s*[;=,)]/;

/**
 * An ORM that writes the INSERTs itself (java-jpa.ts): a field, variable or parameter of type EntityManager, or a
 * Hibernate Session in a file that imports org.hibernate. (Spring Data repositories are data-access variables already.)
 */
const JAVA_ORM = /\bEntityManager\s+[a-z_]\w*\s*[;=,)]|\bimport\s+org\.hibernate\.[\w.]*\b(?:Session|StatelessSession)\s*;/;

/**
 * A JDBC URL or Hibernate dialect of another database in a file read only for its ORM: its inserts go there, not to
 * Db2. (A file read for JDBC is read as before: JDBC code names no database in most files.)
 */
const JAVA_OTHER_DATABASE = /\bjdbc:(postgresql|mysql|mariadb|oracle|sqlserver|h2|hsqldb|sqlite|derby)\b|\b(PostgreSQL|MySQL|MariaDB|Oracle|SQLServer|H2|HSQL|SQLite|Derby)\d*Dialect\b/;

export function javaAccess(text: string): string | undefined {
  if (JDBC.test(text) || runsSqlText(text) || DATA_ACCESS_VARIABLE.test(text)) return undefined;
  if (!JAVA_ORM.test(text)) return NO_DB2_ACCESS;
  const other = JAVA_OTHER_DATABASE.exec(text);
  return other ? otherDatabase(other[1] ?? other[2]) : undefined;
}

/** Any Db2 CLI / ODBC function call (SQLExecDirect, SQLGetData …) or embedded SQL. */
const CLI = /\bSQL[A-Z][A-Za-z]{2,30}W?\s*\(|EXEC\s+SQL/;

/**
 * `called`: functions other files define that run a single-row INSERT per call (FrontEndOptions.calledFunctions):
 * a file that calls one (db2_fdw's db2ExecForeignInsert.c calling db2ExecuteInsert) reaches Db2 through it.
 */
export function cAccess(text: string, called?: ReadonlySet<string>): string | undefined {
  return CLI.test(text) || runsSqlText(text) || (called !== undefined && called.size > 0 && callsOneOf(text, called)) ? undefined : NO_DB2_ACCESS;
}

function callsOneOf(text: string, names: ReadonlySet<string>): boolean {
  const call = /\b([A-Za-z_]\w{0,100})\s*\(/g;
  for (let m = call.exec(text); m; m = call.exec(text)) if (names.has(m[1])) return true;
  return false;
}

export function shellAccess(text: string): string | undefined {
  return /\bdb2\b/.test(text) ? undefined : 'no db2 command found';
}
