// The `insertlint` command line: one engine, several jobs.
import { InputTooLargeError, UsageError, type CliIo } from './args';
import { nearest } from '../engine/spelling';
import { plainLine } from '../output/escape';
import { runCheckCommand } from './check-command';
import { runConfig, setWorkerScript } from './lint-run';
import { isParseWorker, runParseWorker } from './parse-pool';
import { noteCodePath } from '../engine/code-paths';
import { toolVersion } from '../engine/version';
import { existsSync, fstatSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';

export { beforeCodeCache, codePathsRun } from '../engine/code-paths';

type Command = (argv: string[], io: CliIo) => Promise<number>;

// The other commands' modules are set up when they run (import() of a bundled module runs its top level then):
// `check` is what pre-commit and editors start again and again, and it need not set up Explain, the Db2
// driver, the catalog reader or the checklist.
const COMMANDS: Record<string, { run: Command; summary: string }> = {
  check: { run: runCheckCommand, summary: 'lint SQL scripts and application code' },
  checklist: { run: async (argv, io) => (await import('./checklist-command')).runChecklistCommand(argv, io), summary: 'Markdown review checklist of a change since --base REV (for pull requests)' },
  explain: { run: async (argv, io) => (await import('./explain-command')).runExplainCommand(argv, io), summary: "show an INSERT's access plan with its hidden work (db2exfmt file or live Db2)" },
  schema: {
    run: async (argv, io) => (await import('./schema-command')).runSchemaCommand(argv, io, { schemaEntries: async () => runConfig({ cwd: io.cwd }).config.schema }),
    summary: 'schema pull: write the DDL of live Db2 schemas (SYSCAT) for the schema rules to read',
  },
  rules: { run: async (argv, io) => (await import('./rules-command')).runRulesCommand(argv, io), summary: 'list the rules, or print one rule\'s documentation' },
  lsp: { run: async (argv, io) => (await import('../lsp/lsp-command')).runLspCommand(argv, io), summary: 'start the language server for an editor (--stdio)' },
};

const USAGE = `InsertLint for Db2: lint and explain Db2 INSERT workloads.

Usage: insertlint <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`)
  .join('\n')}

A command is always named: insertlint check . lints the current folder.
Each command prints its own options with --help (insertlint check --help, or insertlint help check).
insertlint --version prints the version.
`;

/** Why `name` is no command, and what was probably meant. */
function unknownCommand(name: string, cwd: string): string {
  const shown = plainLine(name);
  if (name.startsWith('-')) return `"${shown}" is not a command: options come after the command (insertlint check ${shown} …)`;
  const near = nearest(name, [...Object.keys(COMMANDS), 'help', 'version']);
  if (near) return `unknown command "${shown}"; did you mean "${near}"?`;
  // `insertlint src/` or `insertlint schema.sql`: a path where the command goes.
  if (existsSync(resolve(cwd, name))) return `unknown command "${shown}"; to lint that path: insertlint check ${shown}`;
  return `unknown command "${shown}"`;
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...given] = argv;
  // -h is --help for every command; `insertlint help explain` is `insertlint explain --help`.
  const rest = given.map((a) => (a === '-h' ? '--help' : a));
  if (name === 'help' && rest.length > 0 && COMMANDS[rest[0]]) return main([rest[0], '--help'], io);
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(USAGE);
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v' || name === '-V' || name === 'version') {
    io.stdout(`${toolVersion()}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`insertlint: ${unknownCommand(name, io.cwd)}\n\n${USAGE}`);
    return 2;
  }
  noteCodePath(`command:${name}`);
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`insertlint ${name}: ${error.message}\n`);
      return 2;
    }
    io.stderr(`insertlint: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
    return 3;
  }
}

/** Reads standard input up to maxBytes; past that it stops reading (an endless stream costs maxBytes). */
export function readStream(stream: NodeJS.ReadableStream & { destroy?: () => void }, maxBytes = Infinity): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (c: Buffer) => {
      total += c.length;
      if (total > maxBytes) {
        stream.removeListener('data', onData);
        stream.pause();
        stream.destroy?.();
        reject(new InputTooLargeError(`it is over the ${Math.floor(maxBytes / 1048576)} MB limit`));
        return;
      }
      chunks.push(c);
    };
    stream.on('data', onData);
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', reject);
  });
}

/** Entry point of bin/insertlint.js. */
export function runFromProcess(): void {
  // Worker threads start from this same bundle (the CLI's out/cli.js or dist/cli.js).
  setWorkerScript(__filename);
  // A report redirected to a file is written to it as process.stdout would write it (synchronously, the same
  // bytes), without making process.stdout: making it (and process.stderr) loads Node's stream modules, ~5 ms of
  // the start-up of every such run (a benchmark, a CI job writing its report).
  const toFile = isRegularFile(1);
  // A reader that stops early (`insertlint check | head`) closes the pipe: stop quietly, as other CLIs do.
  // (A file is no pipe; stderr is guarded when first written then.)
  if (!toFile) guardPipe(process.stdout);
  const stderr = () => (toFile ? guardPipe(process.stderr) : process.stderr);
  if (!toFile) stderr();
  const io: CliIo = {
    stdout: toFile ? (s) => void writeSync(1, s) : (s) => process.stdout.write(s),
    stderr: (s) => stderr().write(s),
    stdin: (maxBytes) => readStream(process.stdin, maxBytes),
    cwd: process.cwd(),
    isTTY: !toFile && Boolean(process.stdout.isTTY),
    // Asked by `explain` alone. Not process.stdin.isTTY (making process.stdin loads Node's stream modules), and
    // node:tty only when asked: loading it loads net and the stream modules too, ~5 ms of every run's start.
    get stdinIsTTY() {
      return (require('node:tty') as typeof import('node:tty')).isatty(0);
    },
  };
  main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      stderr().write(`insertlint: internal error: ${error?.stack ?? error}\n`);
      process.exitCode = 3;
    },
  );
}

const guarded = new WeakSet<NodeJS.WriteStream>();

/** `stream`, which stops the run quietly when its reader goes away (EPIPE), as other CLIs do. */
function guardPipe(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  if (!guarded.has(stream)) {
    guarded.add(stream);
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    });
  }
  return stream;
}

/** Whether file descriptor `fd` is open on a regular file. */
function isRegularFile(fd: number): boolean {
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
  }
}

// `node out/cli.js …` works as well as bin/insertlint.js.
// The same bundle started as a worker thread of `check --jobs` (parse-pool.ts) reads scripts instead.
if (isParseWorker()) runParseWorker();
else if (require.main === module) runFromProcess();
