// `insertlint explain`: show an INSERT's access plan with the hidden work (FK checks, triggers, MQT
// maintenance, cascades, checks) labelled, from a db2exfmt text or live from a Db2 server.
import { readBounded } from './files';
import { writeFileAtomic } from '../output/write-file';
import { plainLine } from '../output/escape';
import { resolve } from 'node:path';
import { parseArgs, single, oneOf, UsageError } from './args';
import { parseExfmt, MAX_EXFMT_BYTES } from '../explain/exfmt';
import { explainDocument, hasPlan, type ExplainReport } from '../explain/report';
import { classifyHiddenWork, type ExplainContext } from '../explain/classify';
import { EXPLAIN_FORMATS, render, type ExplainFormat } from '../explain/render';
import { buildConnection, Db2Error, detailLines, IbmDbDriver, loadIbmDb, PASSWORD_ENV, redactSecrets, type Db2Driver, type ServerInfo } from '../explain/driver';
import { explainLive, findDb2exfmt, type ProcessRunner } from '../explain/live';
import { schemaExplainContext } from '../explain/schema-context';

export interface ExplainIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  stdin: (maxBytes?: number) => Promise<string>;
  cwd?: string;
  isTTY?: boolean;
  /** False when standard input is a pipe or a file: then no FILE reads the plan from it, as `-` does. */
  stdinIsTTY?: boolean;
}

/** Seams for tests and for the editor: the driver, db2exfmt lookup, environment, schema context. */
export interface ExplainDeps {
  driverFactory?: (info: ServerInfo) => Db2Driver;
  findDb2exfmt?: () => string | undefined;
  runProcess?: ProcessRunner;
  env?: NodeJS.ProcessEnv;
  /** A schema context to name constraints/triggers/MQTs (the integrator can pass the workspace's). */
  context?: ExplainContext;
}

export const EXPLAIN_USAGE = `Usage:
  insertlint explain FILE|- [--format text|json|markdown|html] [--output FILE] [--schema PATH]...
  insertlint explain --sql "INSERT …" (--connection "DATABASE=…;HOSTNAME=…;PORT=…;UID=…" |
                     --database DB [--host H --port P --user U]) [--create-explain-tables] [--no-db2exfmt]

FILE is db2exfmt output (whole, or just the pasted "Access Plan" graph); - reads standard input, as no
FILE does when standard input is a pipe or a file (insertlint explain < plan.txt).
Live mode runs EXPLAIN PLAN FOR the statement (the INSERT is never executed) and removes the rows it
wrote to the Explain tables. The password is read only from ${PASSWORD_ENV}.
--schema PATH   DDL to name foreign keys, triggers and MQTs: SQL files, folders, globs, db2look output
                (adds to "schema" in .insertlintrc.json, which is read as well)
--color / --no-color   force terminal colours on or off (default: on for a terminal unless NO_COLOR)
Exit codes: 0 plan shown, 1 live Explain failed, 2 the input is not a readable plan (or bad usage).
`;

export async function runExplainCommand(argv: string[], io: ExplainIo, deps: ExplainDeps = {}): Promise<number> {
  const env = deps.env ?? process.env;
  let args = argv[0] === 'explain' ? argv.slice(1) : argv;
  // `insertlint explain --` (nothing after it) reads the plan from standard input, like `-`.
  if (args.length > 0 && args[args.length - 1] === '--') args = [...args.slice(0, -1), '-'];
  let parsed;
  try {
    parsed = parseArgs(args, {
      values: ['format', 'output', 'sql', 'connection', 'host', 'port', 'database', 'user', 'schema'],
      flags: ['create-explain-tables', 'no-db2exfmt', 'color', 'no-color', 'help'],
    });
  } catch (err) {
    io.stderr(`insertlint explain: ${(err as Error).message}\n\n${EXPLAIN_USAGE}`);
    return 2;
  }
  if (parsed.flags.has('help')) {
    io.stdout(EXPLAIN_USAGE);
    return 0;
  }
  let format: ExplainFormat;
  let output: string | undefined;
  let sql: string | undefined;
  let piped = false;
  try {
    format = oneOf(single(parsed, 'format'), EXPLAIN_FORMATS, 'format', 'text');
    output = single(parsed, 'output');
    sql = single(parsed, 'sql');
    // `insertlint explain < plan.txt`: with no FILE, a pipe or file on standard input is the plan. A terminal there
    // would only wait for typing: then no FILE is the usage message.
    piped = sql === undefined && parsed.positional.length === 0 && io.stdinIsTTY === false;
    if (sql === undefined && parsed.positional.length !== 1 && !piped) throw new UsageError('give one plan file (or - for standard input), or --sql with a connection');
    if (sql !== undefined && parsed.positional.length > 0) throw new UsageError('give either a plan file or --sql, not both');
  } catch (err) {
    io.stderr(`insertlint explain: ${(err as Error).message}\n\n${EXPLAIN_USAGE}`);
    return 2;
  }
  const cwd = io.cwd ?? process.cwd();
  const color = parsed.flags.has('no-color') ? false : parsed.flags.has('color') ? true : Boolean(output === undefined && io.isTTY && !env.NO_COLOR && format === 'text');

  let context = deps.context;
  const schemaPaths = parsed.values.get('schema') ?? [];
  if (!context) {
    try {
      // --schema entries (SQL files, folders, globs, db2look output) and the configuration's "schema".
      const { lintPaths } = await import('./lint-run');
      const run = await lintPaths({ paths: [], cwd, schema: schemaPaths });
      for (const problem of run.schemaProblems) io.stderr(`insertlint explain: warning: ${plainLine(problem)}\n`);
      if (run.schemaFiles.length > 0) context = schemaExplainContext(run.workspace.schema);
    } catch (err) {
      io.stderr(`insertlint explain: warning: could not read the schema${schemaPaths.length ? ` from ${plainLine(schemaPaths.join(', '))}` : ''} (${plainLine((err as Error).message)}); continuing without it\n`);
    }
  }

  let report: ExplainReport;
  if (sql !== undefined) {
    try {
      const connection = buildConnection(
        {
          connection: single(parsed, 'connection'),
          host: single(parsed, 'host'),
          port: single(parsed, 'port'),
          database: single(parsed, 'database'),
          user: single(parsed, 'user'),
        },
        env,
      );
      const driver = (deps.driverFactory ?? ((info) => new IbmDbDriver(info, () => loadIbmDb(env))))(connection);
      const exfmt = parsed.flags.has('no-db2exfmt') ? undefined : (deps.findDb2exfmt ?? (() => findDb2exfmt(env)))();
      const live = await explainLive({
        sql,
        connection,
        driver,
        createExplainTables: parsed.flags.has('create-explain-tables'),
        db2exfmt: exfmt,
        runProcess: deps.runProcess,
      });
      // Named DDL wins; the configuration's schema files only stand in when the catalog could not be read.
      const liveContext = (deps.context ?? (schemaPaths.length > 0 ? context : undefined)) ?? live.context ?? context;
      report = {
        kind: 'live',
        statements: live.document.statements.map((statement) => ({ statement, report: classifyHiddenWork(statement, liveContext) })),
        errors: live.document.errors,
        warnings: [...live.warnings, ...live.document.warnings],
        header: live.document.header,
        sourceName: `live Explain (${live.via}) on ${connection.database ?? 'database'}`,
      };
    } catch (err) {
      if (err instanceof Db2Error) {
        io.stderr(`insertlint explain: ${plainLine(err.message)}\n`);
        if (err.details) io.stderr(detailLines(redactSecrets(err.details)).map((line, i) => `${i === 0 ? '  details: ' : '           '}${plainLine(line)}\n`).join(''));
        return err.kind === 'not-explainable' || err.kind === 'connection-options' ? 2 : 1;
      }
      throw err;
    }
  } else {
    const file = piped ? '-' : parsed.positional[0];
    let text: string;
    try {
      // Both stop reading at the limit: `explain -` on an endless stream must not grow without bound.
      if (file === '-') text = await readStdin(io, piped);
      else {
        const read = readBounded(resolve(cwd, file), MAX_EXFMT_BYTES);
        if (read.truncated) throw new Error(`it is over the ${MAX_EXFMT_BYTES / 1048576} MB limit for a plan text`);
        text = read.bytes.toString('utf8');
      }
    } catch (err) {
      io.stderr(`insertlint explain: cannot read ${plainLine(file)}: ${plainLine((err as Error).message)}\n`);
      return 2;
    }
    if (text.trim() === '') {
      io.stderr(`insertlint explain: ${file === '-' ? 'standard input' : plainLine(file)} is empty: give db2exfmt output (or the EXPLAIN tables' plan, or --sql with a connection).\n${piped ? `\n${EXPLAIN_USAGE}` : ''}`);
      return 2;
    }
    report = explainDocument(parseExfmt(text), context, file === '-' ? 'standard input' : file);
  }

  if (!hasPlan(report)) {
    const messages = [...report.errors, ...report.statements.flatMap((s) => s.statement.errors)].map((e) => e.message);
    io.stderr(`insertlint explain: the input cannot be read as an access plan.\n${(messages.length ? messages : ['No plan found.']).map((m) => `  ${plainLine(m)}\n`).join('')}`);
    if (format === 'json') io.stdout(render(report, 'json'));
    return 2;
  }
  const rendered = render(report, format, { color });
  if (output) {
    try {
      writeFileAtomic(resolve(cwd, output), rendered);
    } catch (err) {
      io.stderr(`insertlint explain: cannot write ${plainLine(output)}: ${plainLine((err as Error).message)}\n`);
      return 2;
    }
    io.stderr(`insertlint explain: wrote ${plainLine(output)}\n`);
  } else io.stdout(rendered);
  return 0;
}

/** How long standard input may stay silent, with no FILE given, before the wait is explained on stderr. */
const QUIET_STDIN_MS = 3000;

/**
 * Standard input, up to the plan size limit. Read because no FILE was given (`piped`), a pipe that stays open
 * and silent (a job whose input is never closed) is said to be waited on, not left looking like a hang.
 */
async function readStdin(io: ExplainIo, piped: boolean): Promise<string> {
  if (!piped) return io.stdin(MAX_EXFMT_BYTES);
  const timer = setTimeout(() => io.stderr('insertlint explain: waiting for the plan on standard input (no FILE given); close the input, or give a FILE or --sql\n'), QUIET_STDIN_MS);
  // (The wait alone must not keep the process alive, nor delay its exit once the input has ended.)
  timer.unref?.();
  try {
    return await io.stdin(MAX_EXFMT_BYTES);
  } finally {
    clearTimeout(timer);
  }
}
