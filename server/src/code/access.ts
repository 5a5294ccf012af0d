// Whether a host file reaches Db2 at all, decided on its text before any parsing (most files of a code
// base do not, and cost nothing). A file counts when it names a Db2 driver or a configured driver module,
// or when it hands an SQL text to a query/execute/prepare call (wrappers, pools, re-exports, ORMs' raw
// queries): by use, not by the module's name. Files left out are counted, with the reason, in summaries.
import type { FrontEndOptions } from '../engine/types';
import type { DjangoProject, HibernateBatching } from '../code-model/types';
import { usesDjango } from './languages/python-django-project';
import { importedPythonModules, readPythonImports, type PythonImportLine } from './languages/python-imports';

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

/** Module names as written in import/require lines (JS/TS). */
function importedModules(text: string): string[] {
  const out: string[] = [];
  const pattern = /(?:\bfrom\s*|\brequire\s*\(\s*|\bimport\s*\(\s*|^[ \t]*import\s+)["'`]([^"'`\n]{1,200})["'`]/gm;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) out.push(m[1]);
  return out;
}

/** A Python file's import lines (languages/python-imports.ts): read on first use, once per file read. */
type ImportLines = () => readonly PythonImportLine[];

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

/** Whether the file imports a configured driver module; `python`: the Python file's import lines. */
function importsConfigured(text: string, options: FrontEndOptions, python?: ImportLines): boolean {
  if (options.driverModules.length === 0) return false;
  const modules = python ? importedPythonModules(python()) : importedModules(text);
  return modules.some((m) => options.driverModules.some((c) => namesModule(python ? m.replace(/\./g, '/') : m, python ? c.replace(/\./g, '/') : c)));
}

/** SQL handed to a call that can run it: the use that makes an unknown wrapper a database call. */
function runsSqlText(text: string): boolean {
  return SQL_LITERAL.test(text) && SQL_CALL.test(text);
}

const JS_DB2 = /ibm_db|idb-p?connector/;
const JS_OTHER_DATABASE = /(?:\bfrom\s*|\brequire\s*\(\s*)["'](pg|pg-promise|postgres|mysql2?|mariadb|sqlite3?|better-sqlite3|oracledb|mssql|tedious|mongodb|mongoose|@prisma\/client|@neondatabase\/serverless|@vercel\/postgres)["']/;
/**
 * Sequelize made for Db2 in this file: the v6 dialects (`dialect: 'db2'` for Db2 LUW over ibm_db, `'ibmi'` for IBM i
 * over odbc), a `db2://` / `ibmi://` URI, the v7 dialect packages or the sequelize-ibmi fork. Its models' inserts are
 * Db2 inserts (languages/javascript-sequelize.ts).
 */
export const SEQUELIZE_DB2 = /\bdialect['"]?\s{0,40}:\s{0,40}['"`](?:db2|ibmi)['"`]|['"`](?:db2|ibmi):\/\/|['"`](?:@sequelize\/db2(?:-ibmi)?|sequelize-ibmi)['"`]/;

/** Sequelize made for another database in this file (v6 dialect option, a URI, a v7 dialect package), naming it. */
const SEQUELIZE_OTHER =
  /\bdialect['"]?\s{0,40}:\s{0,40}['"`](postgres|mysql|mariadb|sqlite|mssql|snowflake|oracle)['"`]|new\s{1,40}Sequelize\s{0,40}\(\s{0,40}['"`](postgres(?:ql)?|mysql|mariadb|sqlite|mssql):|['"`]@sequelize\/(postgres|mysql|mariadb|sqlite3|mssql|snowflake)['"`]/;
const PY_DB2 = /ibm_db|\bdb2\b|pyodbc|jaydebeapi/i;
const PY_OTHER_DATABASE = /^[ \t]*(?:import|from)\s+(psycopg2?|sqlite3|pymysql|MySQLdb|mysql\.connector|cx_Oracle|oracledb|pymssql|asyncpg|aiosqlite|pymongo)\b/m;

function otherDatabase(name: string): string {
  return `talks to another database (${name}), not Db2`;
}

/** Undefined when the file reaches Db2; otherwise why it is left out. `path`: the file's, for the project's evidence (FrontEndOptions.sequelizeDb2Folders). */
export function javascriptAccess(text: string, options: FrontEndOptions, path?: string): string | undefined {
  if (JS_DB2.test(text) || SEQUELIZE_DB2.test(text) || importsConfigured(text, options)) return undefined;
  const other = JS_OTHER_DATABASE.exec(text);
  if (other) return otherDatabase(other[1]);
  // Sequelize set up for another database: its raw sequelize.query('INSERT …') goes there too.
  const sequelize = SEQUELIZE_OTHER.exec(text);
  if (sequelize) return otherDatabase(`Sequelize dialect ${sequelize[1] ?? sequelize[2] ?? sequelize[3]}`);
  if (runsSqlText(text) || (SQL_LITERAL.test(text) && JS_QUERY_BUILDER.test(text))) return undefined;
  // A Db2 Sequelize project's file that uses its models (imported from its models module, sequelize.models.Order).
  return sequelizeDb2Project(path, options) && usesSequelizeModels(text) ? undefined : NO_DB2_ACCESS;
}

/** The file lies in a project whose Sequelize runs on Db2 (FrontEndOptions.sequelizeDb2Folders, found on disk). */
export function sequelizeDb2Project(path: string | undefined, options: FrontEndOptions): boolean {
  return path !== undefined && !!options.sequelizeDb2Folders && inFolders(path, options.sequelizeDb2Folders);
}

/**
 * A module specifier of a Sequelize application's models module: a relative path whose last part is `models`
 * (`../models`, `./models/index.js`, `../db/models`), as sequelize-cli's models/index.js loader is imported, or a
 * model file in it (`../models/order`, whose module.exports is the model).
 */
export function isModelsModule(specifier: string): boolean {
  return /^\.{1,2}\//.test(specifier) && /(?:^|\/)models(?:\/[\w.-]{1,100})?$/.test(specifier.replace(/\.[cm]?[jt]sx?$/, ''));
}

/**
 * A JavaScript/TypeScript file that uses Sequelize models: it imports a models module (`require('../models')`,
 * `import { Order } from './models'`), or reaches them through the instance (`sequelize.models.Order`).
 */
export function usesSequelizeModels(text: string): boolean {
  return importedModules(text).some(isModelsModule) || /\bsequelize\s{0,40}\.\s{0,40}models\s{0,40}\.\s{0,40}[A-Z]/.test(text);
}

/**
 * Why a file of a JavaScript/TypeScript project's top (package.json, a Sequelize configuration, .env) shows what
 * database its Sequelize talks to: 'db2' with why, 'other' (another dialect named), 'driver' (package.json depends on
 * ibm_db and on Sequelize: Db2 unless a configuration names another dialect), else undefined. `name`: the file's name.
 */
export function sequelizeDb2Evidence(name: string, text: string): { kind: 'db2' | 'other' | 'driver'; why: string } | undefined {
  if (name === 'package.json') {
    let deps: Record<string, unknown> = {};
    try {
      const json = JSON.parse(text) as Record<string, unknown>;
      for (const key of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
        const d = json[key];
        if (d && typeof d === 'object') deps = { ...deps, ...(d as Record<string, unknown>) };
      }
    } catch {
      return undefined;
    }
    const v7 = ['@sequelize/db2', '@sequelize/db2-ibmi', 'sequelize-ibmi'].find((p) => p in deps);
    if (v7) return { kind: 'db2', why: `${v7} in package.json` };
    if ('ibm_db' in deps && ('sequelize' in deps || '@sequelize/core' in deps)) return { kind: 'driver', why: 'ibm_db and sequelize in package.json' };
    return undefined;
  }
  const db2 = SEQUELIZE_DB2.exec(text) ?? ENV_DIALECT_DB2.exec(text);
  if (db2) return { kind: 'db2', why: `${db2[0].trim()} in ${name}` };
  const other = SEQUELIZE_OTHER.exec(text) ?? ENV_DIALECT_OTHER.exec(text);
  return other ? { kind: 'other', why: `${other[0].trim()} in ${name}` } : undefined;
}

/** DB_DIALECT=db2 (or another …DIALECT variable) in .env, or a Db2 URL there (DATABASE_URL=db2://…). */
const ENV_DIALECT_DB2 = /^[ \t]{0,40}(?:export[ \t]{1,40})?\w{0,60}DIALECT[ \t]{0,40}=[ \t]{0,40}['"]?(?:db2|ibmi)\b|^[ \t]{0,40}(?:export[ \t]{1,40})?\w{1,60}[ \t]{0,40}=[ \t]{0,40}['"]?(?:db2|ibmi):\/\//im;
const ENV_DIALECT_OTHER =
  /^[ \t]{0,40}(?:export[ \t]{1,40})?\w{0,60}DIALECT[ \t]{0,40}=[ \t]{0,40}['"]?(?:postgres|mysql|mariadb|sqlite|mssql|snowflake|oracle)\b|^[ \t]{0,40}(?:export[ \t]{1,40})?\w{1,60}[ \t]{0,40}=[ \t]{0,40}['"]?(?:postgres(?:ql)?|mysql|mariadb|sqlite|mssql):\/\//im;

/**
 * `path`: the file's, for the project's evidence (FrontEndOptions.sqlalchemyDb2Folders); `importLines`: its import
 * lines, when the caller shares them (else read here when needed).
 */
export function pythonAccess(text: string, options: FrontEndOptions, path?: string, importLines: ImportLines = () => readPythonImports(text)): string | undefined {
  if (PY_DB2.test(text) || importsConfigured(text, options, importLines)) return undefined;
  const other = PY_OTHER_DATABASE.exec(text);
  if (other) return otherDatabase(other[1]);
  if (runsSqlText(text) || importsDataAccess(text, importLines)) return undefined;
  // A Django file of a project whose settings name ibm_db_django (FrontEndOptions.djangoDb2Folders).
  if (path !== undefined && djangoDb2Project(path, options) && usesDjango(text)) return undefined;
  if (path === undefined || !options.sqlalchemyDb2Folders || !inFolders(path, options.sqlalchemyDb2Folders) || !usesSqlalchemy(text)) return NO_DB2_ACCESS;
  // A project on Db2 may hold a file that names another database's URL (a reporting copy, a test SQLite).
  const url = OTHER_SQLALCHEMY_URL.exec(text);
  return url ? otherDatabase(url[1]) : undefined;
}

const OTHER_SQLALCHEMY_URL = /["'](postgres(?:ql)?|mysql|mariadb|sqlite|oracle|mssql|redshift|snowflake)(?:\+\w{1,20})?:\/\//;

/**
 * Whether the file shows that its SQLAlchemy talks to Db2: it names a Db2 driver or URL, or its project does
 * (FrontEndOptions.sqlalchemyDb2Folders). An application's `db` (`from app import db`, `db.session`) is read as
 * Flask-SQLAlchemy's only then: without it, a Postgres application's loader would have findings now.
 */
export function sqlalchemyDb2Shown(text: string, options: FrontEndOptions, path?: string): boolean {
  return PY_DB2.test(text) || (path !== undefined && !!options.sqlalchemyDb2Folders && inFolders(path, options.sqlalchemyDb2Folders));
}

/** The Django project on Db2 that holds a Python file (FrontEndOptions.djangoDb2Folders): the nearest at or above it. */
export function djangoDb2Project(path: string, options: FrontEndOptions): DjangoProject | undefined {
  const byFolder = options.djangoDb2Folders;
  return byFolder && byFolder.size > 0 ? nearestFolder(path, (folder) => byFolder.get(folder)) : undefined;
}

/**
 * The Hibernate configuration of the project that holds a Java file (FrontEndOptions.hibernateBatching): the nearest
 * folder of the map at or above the file's. Undefined: none found (unknown).
 */
export function projectBatching(path: string, byFolder: ReadonlyMap<string, HibernateBatching> | undefined): HibernateBatching | undefined {
  return byFolder && byFolder.size > 0 ? nearestFolder(path, (folder) => byFolder.get(folder)) : undefined;
}

/** Whether a folder of the set holds `path` (its own folder or one above it). */
/**
 * Every session factory of the SQLAlchemy project a file is in sets autoflush off (FrontEndOptions.sqlalchemyAutoflushOff,
 * the nearest project top above the file deciding).
 */
export function projectAutoflushOff(options: FrontEndOptions, path: string | undefined): boolean {
  const tops = options.sqlalchemyAutoflushOff;
  return path !== undefined && !!tops && tops.size > 0 && nearestFolder(path, (folder) => tops.get(folder)) === true;
}

function inFolders(path: string, folders: ReadonlySet<string>): boolean {
  return folders.size > 0 && nearestFolder(path, (folder) => (folders.has(folder) ? true : undefined)) !== undefined;
}

/** What `lookup` gives for the nearest folder holding `path` (its own folder first, then up), else undefined. */
function nearestFolder<T>(path: string, lookup: (folder: string) => T | undefined): T | undefined {
  for (let end = path.length; ; ) {
    const cut = Math.max(path.lastIndexOf('/', end - 1), path.lastIndexOf('\\', end - 1));
    if (cut < 0) return lookup('');
    const folder = path.slice(0, cut);
    // A root keeps its separator ('/', 'C:\\').
    const found = lookup(folder) ?? ((cut === 0 || folder.endsWith(':')) ? lookup(path.slice(0, cut + 1)) : undefined);
    if (found !== undefined || cut === 0) return found;
    end = cut;
  }
}

/**
 * A file that uses SQLAlchemy: imports sqlalchemy, flask_sqlalchemy or sqlmodel (SQLAlchemy's ORM under FastAPI's
 * names), or uses an application's Flask-SQLAlchemy
 * object (`from app import db` and `db.session` / `db.Model`).
 */
export function usesSqlalchemy(text: string): boolean {
  if (/^[ \t]*(?:from|import)[ \t]+(?:(?:flask_)?sqlalchemy|sqlmodel)\b/m.test(text)) return true;
  return /^[ \t]*from[ \t]+[\w.]{1,200}[ \t]+import[ \t]+[^\n#;]{0,2000}?\bdb\b/m.test(text) && /\bdb\.(?:session|Model)\b/.test(text);
}

/** A SQLAlchemy URL of Db2: db2+ibm_db://, db2+pyodbc://, ibm_db_sa://, db2:// (ibm_db_sa's dialect names). */
const DB2_SQLALCHEMY_URL = /(?<![\w:+/.-])(?:db2(?:\+\w{1,20})?|ibm_db_sa(?:\+\w{1,20})?)(?::\/\/|:\/\/\/)/i;
/** ibm_db_sa (or ibm-db-sa) as a requirement, of a name alone (not ibm_db_sa_extra). */
const IBM_DB_SA_REQUIREMENT = /(?:^|[\s"'\[,])ibm[-_.]db[-_.]sa(?![\w-])/im;
/** Files that list a Python project's requirements (setup.py names them too, and is a Python file). */
export const REQUIREMENT_FILE = /^(?:requirements[\w.-]*\.(?:txt|in)|pyproject\.toml|setup\.(?:py|cfg)|Pipfile|environment\.ya?ml)$/i;

/**
 * Why a file shows Db2 as SQLAlchemy's database, else undefined: a Db2 SQLAlchemy URL in it (configuration,
 * .env, settings, a Python module), or, for a file of requirements (requirements.txt, pyproject.toml, setup.py,
 * setup.cfg, Pipfile), ibm_db_sa among them. `name`: the file's name (no folder).
 */
export function sqlalchemyDb2Evidence(name: string, text: string): string | undefined {
  const url = DB2_SQLALCHEMY_URL.exec(text);
  if (url) return `a Db2 SQLAlchemy URL (${url[0]}) in ${name}`;
  if (REQUIREMENT_FILE.test(name) && IBM_DB_SA_REQUIREMENT.test(text)) return `ibm_db_sa in ${name}`;
  return undefined;
}

/** A module or name of a data-access layer: dao, order_dao, crud, repository, db, db_utils, store, gateway, mapper … */
const DATA_ACCESS_NAME = /^(?:\w+_)?(?:daos?|crud|db|database|repositor(?:y|ies)|repos?|stores?|storage|persistence|gateways?|mappers?)(?:_\w+)?$/i;
const PY_LOOP = /\b(?:for|while)\b/;

/**
 * A file with a loop that imports from a data-access module, or a data-access module itself (`from app.dao import
 * save_row`, `import app.dao as dao`, `from . import dao`): a service layer that touches no driver may call such a
 * module's functions in a loop (engine/cross-file.ts lends the loop to them), so the file is read for its loops.
 * (Django's django.db is a framework's, not the code base's own layer.)
 */
function importsDataAccess(text: string, importLines: ImportLines): boolean {
  if (!text.includes('import') || !PY_LOOP.test(text)) return false;
  // The words of the line as written: the module's parts, and the names and comments after `import`.
  return importLines().some(
    (line) => !(line.level === 0 && line.from?.split('.')[0] === 'django') && [...(line.from ?? '').split('.'), ...line.written.split(/[^\w]+/)].some((w) => w !== '' && DATA_ACCESS_NAME.test(w)),
  );
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

/**
 * Spring's SimpleJdbcInsert and jOOQ, which write the INSERTs themselves (java-spring-jdbc.ts, java-jooq.ts). A jOOQ
 * file that names another database's SQLDialect (`SQLDialect.POSTGRES`) and not DB2's sends its SQL there.
 */
const JAVA_BUILT_INSERTS = /\bSimpleJdbcInsert\b|\bimport\s+(?:static\s+)?org\.jooq\./;
const JOOQ_DIALECT = /\bSQLDialect\s*\.\s*([A-Z][A-Z0-9_]*)/g;

function jooqOtherDialect(text: string): string | undefined {
  if (!text.includes('SQLDialect')) return undefined;
  const dialects = [...text.matchAll(JOOQ_DIALECT)].map((m) => m[1]);
  return dialects.length > 0 && !dialects.some((d) => d.startsWith('DB2') || d === 'DEFAULT') ? dialects[0] : undefined;
}

export function javaAccess(text: string): string | undefined {
  if (JAVA_BUILT_INSERTS.test(text)) {
    const other = jooqOtherDialect(text);
    return other ? otherDatabase(other) : undefined;
  }
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
