// `insertlint schema pull`: the live catalog of chosen schemas written as DDL that the schema rules read
// (see schema/catalog.ts and schema/catalog-ddl.ts). Same connection options and driver as live Explain.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs, single, UsageError, type CliIo } from './args';
import { buildConnection, Db2Error, detailLines, IbmDbDriver, loadIbmDb, PASSWORD_ENV, redactSecrets, type Db2Driver, type ServerInfo } from '../explain/driver';
import { parseSchemaList, readCatalog } from '../schema/catalog';
import { writeSnapshotDdl, type SnapshotDdl } from '../schema/catalog-ddl';
import { isSchemaEntryMatch } from '../schema/schema-files';
import { parseSql } from '../sql/parser';
import { plainLine } from '../output/escape';
import { writeFileAtomic } from '../output/write-file';

export const SCHEMA_USAGE = `Usage:
  insertlint schema pull (--connection "DATABASE=…;HOSTNAME=…;PORT=…;UID=…" | --database DB [--host H --port P --user U])
                         --schemas APP,SALES [--output FILE]

Reads the tables, columns (with identity attributes), indexes, keys, foreign keys, check constraints, triggers,
sequences, partitions, table spaces and MQTs of the schemas from the SYSCAT catalog views and writes them as DDL
(standard output without --output). Only SELECTs are sent. The password is read only from ${PASSWORD_ENV}.
Name the file under "schema" in .insertlintrc.json: check, checklist and explain then read it without linting it.
Needs the optional ibm_db driver (see README, "Explain this INSERT": live Explain). Exit codes: 0 written, 1 Db2 or driver error, 2 usage.
`;

/** Seams for tests and the editor: the driver and the environment. */
export interface SchemaDeps {
  driverFactory?: (info: ServerInfo) => Db2Driver;
  env?: NodeJS.ProcessEnv;
  /** The configuration's schema entries (absolute), to say whether the output is already read. */
  schemaEntries?: () => Promise<string[]>;
}

export interface PullResult extends SnapshotDdl {
  database?: string;
  schemas: string[];
}

/** Connects, reads the catalog, writes the DDL text; the editor calls this too. Throws Db2Error. */
export async function pullSchema(connection: ReturnType<typeof buildConnection>, schemas: string[], driver: Db2Driver): Promise<PullResult> {
  const snapshot = await readCatalog({ driver, connectionString: connection.connectionString, schemas, server: connection });
  const written = writeSnapshotDdl(snapshot);
  // The file is only worth writing if the parser reads it back: say which statements it cannot.
  for (const stmt of parseSql(written.ddl).statements) {
    if (stmt.parseError) written.warnings.push(`the written DDL has a statement InsertLint cannot read back (${stmt.parseError.message}): ${written.ddl.slice(stmt.span.start, stmt.span.start + 60).replace(/\s+/g, ' ')}…`);
  }
  return { ...written, database: snapshot.database, schemas };
}

/** "12 tables, 1 MQT, 30 indexes, …" */
export function describeCounts(counts: SnapshotDdl['counts']): string {
  const n = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
  return [
    n(counts.tables, 'table'),
    n(counts.mqts, 'MQT'),
    n(counts.indexes, 'index', 'indexes'),
    n(counts.foreignKeys, 'foreign key'),
    n(counts.triggers, 'trigger'),
    n(counts.sequences, 'sequence'),
    n(counts.tablespaces, 'table space'),
  ].join(', ');
}

export async function runSchemaCommand(argv: string[], io: CliIo, deps: SchemaDeps = {}): Promise<number> {
  const env = deps.env ?? process.env;
  const [sub, ...rest] = argv;
  if (!sub || sub === '--help' || sub === '-h') {
    io.stdout(SCHEMA_USAGE);
    return sub ? 0 : 2;
  }
  if (sub !== 'pull') throw new UsageError(`unknown subcommand "${sub}" (insertlint schema pull …)`);
  const args = parseArgs(rest, { values: ['connection', 'host', 'port', 'database', 'user', 'schemas', 'output'], flags: ['help'] });
  if (args.flags.has('help')) {
    io.stdout(SCHEMA_USAGE);
    return 0;
  }
  if (args.positional.length > 0) throw new UsageError(`unexpected argument "${args.positional[0]}"`);
  const schemas = parseSchemaList((args.values.get('schemas') ?? []).join(','));
  if (schemas.length === 0) throw new UsageError('name the schemas to read: --schemas APP,SALES');
  const output = single(args, 'output');
  let result: PullResult;
  let where = 'the database';
  let redact = (text: string) => redactSecrets(text, env[PASSWORD_ENV] ? [env[PASSWORD_ENV]!] : []);
  try {
    const connection = buildConnection(
      { connection: single(args, 'connection'), host: single(args, 'host'), port: single(args, 'port'), database: single(args, 'database'), user: single(args, 'user') },
      env,
    );
    where = connection.database ?? where;
    redact = connection.redact;
    const driver = (deps.driverFactory ?? ((info) => new IbmDbDriver(info, () => loadIbmDb(env))))(connection);
    result = await pullSchema(connection, schemas, driver);
  } catch (err) {
    if (err instanceof Db2Error) {
      io.stderr(`insertlint schema pull: ${plainLine(err.message)}\n`);
      if (err.details) io.stderr(detailLines(redact(err.details)).map((line, i) => `${i === 0 ? '  details: ' : '           '}${plainLine(line)}\n`).join(''));
      return err.kind === 'connection-options' ? 2 : 1;
    }
    throw err;
  }
  for (const warning of result.warnings) io.stderr(`insertlint schema pull: warning: ${plainLine(redact(warning))}\n`);
  const summary = `${describeCounts(result.counts)} from ${where}, schema${schemas.length > 1 ? 's' : ''} ${schemas.join(', ')}`;
  if (result.counts.tables + result.counts.mqts === 0) {
    // Not written: an empty snapshot would silently turn the schema rules off for a misspelt schema name.
    io.stderr(`insertlint schema pull: no tables found in ${plainLine(schemas.join(', '))} on ${plainLine(where)} (schema names are case-sensitive in the catalog; ordinary names are upper case); nothing written\n`);
    return 1;
  }
  if (!output) {
    io.stdout(result.ddl);
    io.stderr(`insertlint schema pull: ${plainLine(summary)}\n`);
    return 0;
  }
  const path = resolve(io.cwd, output);
  try {
    mkdirSync(dirname(path), { recursive: true });
    // Replaced whole or not at all: an interrupted pull never leaves half a snapshot in place of the old one.
    writeFileAtomic(path, result.ddl);
  } catch (err) {
    io.stderr(`insertlint schema pull: cannot write ${plainLine(output)}: ${plainLine((err as Error).message)}\n`);
    return 1;
  }
  io.stderr(`insertlint schema pull: wrote ${plainLine(output)}: ${plainLine(summary)}\n`);
  const entries = await (deps.schemaEntries?.() ?? Promise.resolve([])).catch(() => [] as string[]);
  if (!isSchemaEntryMatch(path, entries)) io.stderr(`insertlint schema pull: name it under "schema" in .insertlintrc.json (or pass --schema ${plainLine(output)}) so that check reads it\n`);
  return 0;
}
