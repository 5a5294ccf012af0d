// The database layer of live Explain, behind a small interface so everything up to the wire is testable
// with a fake. The real implementation uses the optional npm package `ibm_db`, loaded only when needed.

export type Row = Record<string, unknown>;

export interface Db2Driver {
  open(connectionString: string): Promise<void>;
  query(sql: string, params?: unknown[]): Promise<Row[]>;
  exec(sql: string, params?: unknown[]): Promise<void>;
  /** Turns autocommit off until commit() or rollback(). */
  beginTransaction(): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  close(): Promise<void>;
}

export type Db2ErrorKind =
  /** The connection given on the command line or in the environment cannot be used: a usage error, nothing was tried. */
  | 'connection-options'
  | 'driver-missing'
  | 'unreachable'
  | 'database-not-found'
  | 'credentials'
  | 'privileges'
  | 'explain-tables-missing'
  | 'explain-tables-outdated'
  | 'object-not-found'
  | 'syntax'
  | 'not-explainable'
  | 'db2exfmt-failed'
  | 'sql';

/** A failure of the live path: `message` is one sentence for the user, `details` keeps SQLSTATE/SQLCODE. */
export class Db2Error extends Error {
  constructor(
    readonly kind: Db2ErrorKind,
    message: string,
    readonly details?: string,
    readonly sqlcode?: number,
    readonly sqlstate?: string,
  ) {
    super(message);
    this.name = 'Db2Error';
  }
}

export const PASSWORD_ENV = 'INSERTLINT_DB2_PASSWORD';
export const IBM_DB_PATH_ENV = 'INSERTLINT_IBM_DB_PATH';

/** The environment for child processes (db2exfmt, git): never the password, which none of them needs. */
export function childEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out = { ...env };
  delete out[PASSWORD_ENV];
  return out;
}

/**
 * Removes PWD=… (a {braced} value may hold ; and doubled }}) and every occurrence of the given secrets,
 * as typed and as quoted in a connection string, from anything that might be shown or logged.
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text.replace(/(PWD|PASSWORD)\s*=\s*(\{(?:[^}]|\}\})*\}?|[^;]*)/gi, '$1=***');
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of new Set([quoteValue(secret), secret])) out = out.split(form).join('***');
  }
  return out;
}

export interface ServerInfo {
  host?: string;
  port?: string;
  database?: string;
  /** The user name (UID) the connection gives, if any. */
  user?: string;
  /** Removes this connection's secrets from a text (set by buildConnection). */
  redact?: (text: string) => string;
}

/** The server as given: `the Db2 server at host:port (database D)`; without a connection described, just `the Db2 server`. */
function server(info: ServerInfo): string {
  if (!info.host) return 'the Db2 server';
  const at = `${info.host}${info.port ? `:${info.port}` : ''}`;
  return `the Db2 server at ${info.database ? `${at} (database ${info.database})` : at}`;
}

/** A connection without a host (the driver's local catalog or a local instance); not an error with no connection known. */
function hostless(info: ServerInfo): boolean {
  return !info.host && info.database !== undefined;
}

const NO_HOST = 'no host was given (--host, or HOSTNAME= in --connection)';

/** What to do when a connection without a host failed: name the server, or catalog the database here. */
function noHostFix(info: ServerInfo): string {
  return `Give the server with --host and --port${info.user ? '' : ' (and the user with --user)'}, or catalog ${databaseName(info)} on this machine (db2 catalog database, or db2dsdriver.cfg for the IBM CLI driver).`;
}

function databaseName(info: ServerInfo): string {
  return info.database ? `database ${info.database}` : 'the database';
}

/**
 * SQL30082N and friends: the logon failed. The reason code (5 USERID MISSING, 17 UNSUPPORTED FUNCTION, 24 …)
 * says whether a server judged the credentials at all; with no host, the driver went to the local catalog
 * (or a local Db2 instance), not to a server the user named.
 */
function credentialsMessage(raw: string, info: ServerInfo): string {
  const m = /reason "(\d+)"(?:\s*\("([^"]*)"\))?/.exec(raw);
  const reason = m ? Number(m[1]) : undefined;
  const reasonText = m ? `security reason ${m[1]}${m[2] ? `, ${m[2]}` : ''}` : undefined;
  if (hostless(info)) {
    const db = databaseName(info);
    const lookedUp = 'looked the database up on this machine (its Db2 catalog, db2cli.ini or db2dsdriver.cfg)';
    if (reason === 5 && !info.user) {
      return `The Db2 driver could not log on to ${db}: a password is set (${PASSWORD_ENV}) but no user name was given (${reasonText}). As ${NO_HOST}, it ${lookedUp}, not on a server you named. ${noHostFix(info)}`;
    }
    if (reason === 17) {
      return `The Db2 driver could not log on to ${db}: ${NO_HOST}, so it ${lookedUp}, and nothing there accepts this logon (${reasonText}), e.g. there is no local Db2 instance or catalog entry for it. ${noHostFix(info)}`;
    }
    return `The Db2 server catalogued on this machine for ${db} rejected the user name or password (${NO_HOST}, so the driver used the local catalog entry${reasonText ? `; ${reasonText}` : ''}).`;
  }
  if (reason === 5 && info.host && !info.user) return `${capitalize(server(info))} wants a user name and none was given (--user, or UID= in --connection).`;
  if (reason === 3) return `${capitalize(server(info))} wants a password and none was given (set ${PASSWORD_ENV}).`;
  if (reason === 17) return `${capitalize(server(info))} does not support the way the connection tried to log on (${reasonText})${info.host && !info.user ? '; give a user name (--user) and set ' + PASSWORD_ENV : ''}.`;
  return `${capitalize(server(info))} rejected the user name or password.`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A text's lines, trimmed, joined with spaces. */
function oneLine(text: string): string {
  return detailLines(text).join(' ');
}

/** A detail text's lines, trimmed, without blank ones: each is shown on a line of its own, never as an escaped \\n. */
export function detailLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** Maps a driver error (ibm_db: { message, sqlcode, sqlstate }) to one clear sentence. */
export function describeDb2Error(err: unknown, info: ServerInfo = {}): Db2Error {
  if (err instanceof Db2Error) return err;
  const e = (err ?? {}) as { message?: unknown; sqlcode?: unknown; sqlstate?: unknown; state?: unknown; code?: unknown };
  // (ibm_db's messages end in a newline, and a missing module's lists its require stack on more lines; split,
  // not a regular expression around the newline, which backtracks over long runs of blanks.)
  const raw = oneLine(redactSecrets((info.redact ?? String)(String(e.message ?? err ?? 'unknown error'))));
  const codeFromText = /SQL(\d{4,5})N/.exec(raw);
  const sqlcode = typeof e.sqlcode === 'number' ? e.sqlcode : codeFromText ? -Number(codeFromText[1]) : undefined;
  // (ibm_db reports a connection refused by the client itself with an SQLSTATE of five blanks: none.)
  const sqlstate = [e.sqlstate, e.state].find((v): v is string => typeof v === 'string' && v.trim() !== '')?.trim() ?? /SQLSTATE=(\w{5})/.exec(raw)?.[1];
  const details = `${sqlstate ? `SQLSTATE=${sqlstate} ` : ''}${sqlcode !== undefined ? `SQLCODE=${sqlcode}: ` : ''}${raw}`;
  const code = sqlcode !== undefined ? Math.abs(sqlcode) : undefined;
  const make = (kind: Db2ErrorKind, message: string) => new Db2Error(kind, message, details, sqlcode, sqlstate);
  if (code === 30082 || code === 1639 || /SQL30082N/.test(raw)) return make('credentials', credentialsMessage(raw, info));
  if (code === 1336 || /SQL1336N/.test(raw)) {
    if (hostless(info)) return make('unreachable', `Cannot reach the Db2 server catalogued on this machine for ${databaseName(info)} (${NO_HOST}): the host name in that catalog entry is not known. Check the entry, or give the server with --host and --port.`);
    return make('unreachable', `Cannot reach ${server(info)}: the host name is not known (check the host name and DNS).`);
  }
  if (code === 30081 || code === 30080 || /SQL30081N/.test(raw)) {
    if (hostless(info)) {
      return make(
        'unreachable',
        `Cannot reach a Db2 server for ${databaseName(info)}: ${NO_HOST}, so the Db2 driver used the database's entry in this machine's Db2 catalog or, with none, this machine itself (localhost, port ${info.port ?? '50000'}), and nothing answered. ${noHostFix(info)}`,
      );
    }
    return make('unreachable', `Cannot reach ${server(info)}: nothing answered (check host, port and network).`);
  }
  if (code === 30061 || code === 1013 || code === 1031 || code === 1531) {
    if (hostless(info)) {
      if (code === 30061) return make('database-not-found', `The Db2 server catalogued on this machine for ${databaseName(info)} (${NO_HOST}) has no database by that name.`);
      return make('database-not-found', `${capitalize(databaseName(info))} is not catalogued on this machine: ${NO_HOST}, so the Db2 driver looked it up in this machine's Db2 catalog, db2cli.ini and db2dsdriver.cfg. ${noHostFix(info)}`);
    }
    return make('database-not-found', `${capitalize(server(info))} has no database by that name.`);
  }
  if (code === 219 || (sqlstate === '42704' && /EXPLAIN_/i.test(raw))) {
    return make(
      'explain-tables-missing',
      `The Explain tables do not exist for this user or in SYSTOOLS; create them with CALL SYSPROC.SYSINSTALLOBJECTS('EXPLAIN','C',NULL,NULL) (or rerun with --create-explain-tables).`,
    );
  }
  if (code === 220) return make('explain-tables-outdated', `The Explain tables have an old layout; migrate them with CALL SYSPROC.SYSINSTALLOBJECTS('EXPLAIN','M',NULL,NULL).`);
  if (code === 551 || code === 552 || code === 1092 || code === 727 || sqlstate === '42501' || sqlstate === '42502') {
    return make('privileges', `The user lacks a privilege Explain needs (INSERT on the Explain tables plus INSERT on the target table, or EXPLAIN/SQLADM/DBADM authority).`);
  }
  if (code === 204 || sqlstate === '42704') return make('object-not-found', `Db2 does not know a table or other object the statement names.`);
  if (code === 104 || code === 199 || sqlstate === '42601') return make('syntax', `Db2 could not parse the statement.`);
  return make('sql', `Db2 returned an error${sqlcode !== undefined ? ` (SQLCODE ${sqlcode})` : ''}.`);
}

// --- ibm_db ---------------------------------------------------------------------------------------------

interface IbmDbConnection {
  query(sql: string, params: unknown[], cb: (err: unknown, rows: Row[]) => void): void;
  beginTransaction(cb: (err: unknown) => void): void;
  commitTransaction(cb: (err: unknown) => void): void;
  rollbackTransaction(cb: (err: unknown) => void): void;
  close(cb: (err: unknown) => void): void;
}

interface IbmDbModule {
  open(connectionString: string, cb: (err: unknown, conn: IbmDbConnection) => void): void;
}

export const IBM_DB_INSTALL_HINT =
  'Install it next to InsertLint with `npm install ibm_db` (it needs the IBM CLI driver), or in a checkout run scripts/ibm-db-setup.sh and set INSERTLINT_IBM_DB_PATH to .cache/ibm_db/node_modules/ibm_db.';

/** Loads `ibm_db` at call time (INSERTLINT_IBM_DB_PATH first); linting never needs it. */
export function loadIbmDb(env: NodeJS.ProcessEnv = process.env, requireFn: (id: string) => unknown = defaultRequire): IbmDbModule {
  const id = env[IBM_DB_PATH_ENV] || 'ibm_db';
  try {
    const mod = requireFn(id) as IbmDbModule & { default?: IbmDbModule };
    const api = typeof mod.open === 'function' ? mod : mod.default;
    if (!api || typeof api.open !== 'function') throw new Error(`${id} does not look like ibm_db (no open function)`);
    return api;
  } catch (error) {
    // Node's "Cannot find module" goes on with the require stack (InsertLint's own files): not a detail worth showing.
    // Other messages keep all their lines (a binding built for another Node.js says which on its second line).
    const lines = String((error as Error)?.message ?? error).split('\n');
    const stack = lines.findIndex((line) => line.trim() === 'Require stack:');
    const message = (stack >= 0 ? lines.slice(0, stack) : lines).join('\n').trim();
    if (/cannot find module/i.test(message) || (error as { code?: string })?.code === 'MODULE_NOT_FOUND') {
      throw new Db2Error('driver-missing', `The optional Db2 driver "ibm_db" is not installed. ${IBM_DB_INSTALL_HINT}`, message);
    }
    if (/libdb2|shared object|dlopen/i.test(message)) {
      throw new Db2Error(
        'driver-missing',
        'The Db2 driver "ibm_db" is installed but its IBM CLI driver libraries cannot be loaded; put clidriver/lib on LD_LIBRARY_PATH (or rebuild with scripts/ibm-db-setup.sh).',
        message,
      );
    }
    throw new Db2Error('driver-missing', `The Db2 driver "ibm_db" failed to load. ${IBM_DB_INSTALL_HINT}`, message);
  }
}

function defaultRequire(id: string): unknown {
  // A plain require: esbuild leaves non-literal requires to Node, so ibm_db stays outside the bundle.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(id);
}

export class IbmDbDriver implements Db2Driver {
  private conn?: IbmDbConnection;

  constructor(
    private readonly info: ServerInfo = {},
    private readonly load: () => IbmDbModule = () => loadIbmDb(),
  ) {}

  async open(connectionString: string): Promise<void> {
    const ibmdb = this.load();
    this.conn = await new Promise<IbmDbConnection>((resolve, reject) =>
      ibmdb.open(connectionString, (err, conn) => (err ? reject(describeDb2Error(err, this.info)) : resolve(conn))),
    );
  }

  private connection(): IbmDbConnection {
    if (!this.conn) throw new Db2Error('sql', 'The Db2 connection is not open.');
    return this.conn;
  }

  query(sql: string, params: unknown[] = []): Promise<Row[]> {
    const conn = this.connection();
    return new Promise((resolve, reject) => conn.query(sql, params, (err, rows) => (err ? reject(describeDb2Error(err, this.info)) : resolve(Array.isArray(rows) ? rows : []))));
  }

  async exec(sql: string, params: unknown[] = []): Promise<void> {
    await this.query(sql, params);
  }

  private call(fn: (cb: (err: unknown) => void) => void): Promise<void> {
    return new Promise((resolve, reject) => fn((err) => (err ? reject(describeDb2Error(err, this.info)) : resolve())));
  }

  beginTransaction(): Promise<void> {
    const c = this.connection();
    return this.call((cb) => c.beginTransaction(cb));
  }

  commit(): Promise<void> {
    const c = this.connection();
    return this.call((cb) => c.commitTransaction(cb));
  }

  rollback(): Promise<void> {
    const c = this.connection();
    return this.call((cb) => c.rollbackTransaction(cb));
  }

  async close(): Promise<void> {
    const c = this.conn;
    this.conn = undefined;
    if (c) await this.call((cb) => c.close(cb));
  }
}

// --- connection strings ---------------------------------------------------------------------------------

export interface ConnectionOptions {
  /** A Db2 CLI connection string without the password: DATABASE=…;HOSTNAME=…;PORT=…;UID=… */
  connection?: string;
  host?: string;
  port?: string;
  database?: string;
  user?: string;
  connectTimeout?: number;
}

export interface ConnectionInfo extends ServerInfo {
  /** With the password: pass only to the driver. */
  connectionString: string;
  /** Safe to show. */
  redacted: string;
  user?: string;
  redact: (text: string) => string;
}

function quoteValue(v: string): string {
  return /[;{}]/.test(v) || /^\s|\s$/.test(v) ? `{${v.replace(/}/g, '}}')}}` : v;
}

/** Builds the driver's connection string; the password comes only from the environment. */
export function buildConnection(options: ConnectionOptions, env: NodeJS.ProcessEnv = process.env): ConnectionInfo {
  const pairs = new Map<string, string>();
  if (options.connection) {
    for (const part of options.connection.split(';')) {
      const eq = part.indexOf('=');
      if (eq <= 0) continue;
      pairs.set(part.slice(0, eq).trim().toUpperCase(), part.slice(eq + 1).trim());
    }
  }
  if (pairs.has('PWD') || pairs.has('PASSWORD')) {
    throw new Db2Error('connection-options', `Do not put the password in the connection string; set the environment variable ${PASSWORD_ENV} instead.`);
  }
  if (options.host) pairs.set('HOSTNAME', options.host);
  if (options.port) pairs.set('PORT', options.port);
  if (options.database) pairs.set('DATABASE', options.database);
  if (options.user) pairs.set('UID', options.user);
  if (!pairs.has('DATABASE') && !pairs.has('DSN')) throw new Db2Error('connection-options', 'The connection names no database (DATABASE=… or --database).');
  if (pairs.has('HOSTNAME') && !pairs.has('PROTOCOL')) pairs.set('PROTOCOL', 'TCPIP');
  if (pairs.has('HOSTNAME') && !pairs.has('CONNECTTIMEOUT')) pairs.set('CONNECTTIMEOUT', String(options.connectTimeout ?? 10));
  const safe = [...pairs.entries()].map(([k, v]) => `${k}=${quoteValue(v)}`).join(';');
  const password = env[PASSWORD_ENV];
  if (pairs.has('UID') && !password) {
    throw new Db2Error('connection-options', `The connection names a user (UID) but ${PASSWORD_ENV} is not set; put the password in that environment variable.`);
  }
  const connectionString = password ? `${safe};PWD=${quoteValue(password)};` : `${safe};`;
  return {
    connectionString,
    redacted: password ? `${safe};PWD=***;` : `${safe};`,
    redact: (text) => redactSecrets(text, password ? [password] : []),
    host: pairs.get('HOSTNAME'),
    port: pairs.get('PORT'),
    database: pairs.get('DATABASE') ?? pairs.get('DSN'),
    user: pairs.get('UID'),
  };
}
