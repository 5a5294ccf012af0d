// What `check` and `checklist` share: --rule/--terminator/--config/paths into a lint run, and the run's problems
// (bad configuration, missing paths, skipped files, failing rules) said on stderr.
import { ConfigError, ENGINE_FINDINGS, languageOf, terminatorProblem, type ConfigFile } from '../engine/config';
import { allRules } from '../engine/registry';
import type { FileLanguage, SeveritySetting } from '../engine/types';
import { single, UsageError, type CliIo, type ParsedArgs } from './args';
import { didYouMean } from '../engine/spelling';
import { displayPath, lintPaths, type LintRun } from './lint-run';
import { SOURCE_ENCODINGS, sourceEncoding, type SourceEncoding } from './files';
import { plainLine } from '../output/escape';
import { availableCores, DEFAULT_JOBS } from './parse-pool';
import { writeFileAtomic } from '../output/write-file';
import { resolve } from 'node:path';
import { statSync } from 'node:fs';

const SEVERITY_SETTINGS: readonly SeveritySetting[] = ['error', 'warning', 'information', 'hint', 'off'];

/**
 * `--rule id=severity` (repeatable) as a configuration layer over the config file. An unknown rule or
 * severity is a usage error, as the same mistake in .insertlintrc.json is a configuration error: a typo must
 * not pass silently as "rule not configured".
 */
export function parseRuleOverrides(values: string[] = []): ConfigFile {
  const rules: Record<string, SeveritySetting> = {};
  const known = new Set([...allRules().map((r) => r.meta.id), ...ENGINE_FINDINGS]);
  for (const value of values) {
    const [id, severity, extra] = value.split('=');
    if (!id || !severity || extra !== undefined) throw new UsageError(`--rule takes id=severity (e.g. --rule identity-cache=error), not "${plainLine(value)}"`);
    if (!known.has(id)) throw new UsageError(`--rule ${plainLine(value)}: no rule "${plainLine(id)}"${didYouMean(id, [...known])} (\`insertlint rules\` lists them)`);
    if (!SEVERITY_SETTINGS.includes(severity as SeveritySetting)) throw new UsageError(`--rule ${plainLine(value)}: the severity must be one of ${SEVERITY_SETTINGS.join(', ')}`);
    rules[id] = severity as SeveritySetting;
  }
  return { rules };
}

/** The command-line layer over the config file: `--rule id=severity` (repeatable) and `--terminator X`. */
export function commandLineOverrides(args: ParsedArgs): ConfigFile {
  const overrides = parseRuleOverrides(args.values.get('rule'));
  const terminator = single(args, 'terminator');
  if (terminator !== undefined) {
    const problem = terminatorProblem(terminator);
    if (problem) throw new UsageError(`--terminator: ${problem}`);
    overrides.terminator = terminator;
  }
  return overrides;
}

/** --encoding: utf-8, latin1 (iso-8859-1) or windows-1252 (cp1252), spelled as users do. */
function encodingOption(args: ParsedArgs): SourceEncoding | undefined {
  const value = single(args, 'encoding');
  if (value === undefined) return undefined;
  const encoding = sourceEncoding(value);
  if (!encoding) throw new UsageError(`--encoding must be one of ${SOURCE_ENCODINGS.join(', ')} (also: iso-8859-1, cp1252)`);
  return encoding;
}

/** --docs-url, else INSERTLINT_DOCS_URL: an http(s) or file URL, optionally with {id}. */
function docsUrlOption(args: ParsedArgs): string | undefined {
  const value = single(args, 'docs-url') ?? (process.env.INSERTLINT_DOCS_URL || undefined);
  if (value === undefined) return undefined;
  if (!/^(https?|file):\/\/\S+$/.test(value)) throw new UsageError('--docs-url must be an http(s):// or file:// URL (a folder, or a template with {id})');
  return value;
}

/** --file-time-budget SECONDS: how long one file may take to read before it is given up. */
function fileBudgetOption(args: ParsedArgs): number | undefined {
  const value = single(args, 'file-time-budget');
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError('--file-time-budget must be a number of seconds greater than 0');
  return Math.round(seconds * 1000);
}

/** --jobs N: threads that read scripts (default 1: everything on the main thread; 0: one per core). */
function jobsOption(args: ParsedArgs): number {
  const value = single(args, 'jobs');
  if (value === undefined) return DEFAULT_JOBS;
  if (!/^\d{1,4}$/.test(value)) throw new UsageError('--jobs must be a whole number of threads (0: one per core)');
  return Number(value) === 0 ? availableCores() : Number(value);
}

// To the microsecond: at 0.01 ms a one-line script's two figures could each gain 5 µs of rounding, a quarter of
// the 20 µs that 50,000 lines/s allows it.
const round = (ms: number) => Math.round(ms * 1000) / 1000;

/** The `file` of the --timings row for loading the tree-sitter runtime and grammars (`lines` 0, `grammars` listed). */
export const GRAMMAR_LOAD_ROW = '(grammar load)';

/** The `file` of the --timings row for folding the schema of all files (rules' time, `lines` 0). */
export const SCHEMA_ROW = '(schema of all files)';

interface TimingRow {
  file: string;
  lines: number;
  readMs: number;
  rulesMs: number;
  grammars?: string[];
}

/** Lints the command's paths (default '.'); returns the run, or the exit code when it cannot run. `parallel`: honour --jobs. */
export async function lintForCommand(args: ParsedArgs, io: CliIo, { parallel = false, fixes = true } = {}): Promise<LintRun | number> {
  let run: LintRun;
  const docsBaseUrl = docsUrlOption(args);
  const paths = args.positional.length ? args.positional : ['.'];
  try {
    run = await lintPaths({
      paths,
      cwd: io.cwd,
      configPath: single(args, 'config'),
      overrides: commandLineOverrides(args),
      schema: args.values.get('schema'),
      encoding: encodingOption(args),
      fileBudgetMs: fileBudgetOption(args),
      // Only `check` reads scripts in worker threads (--jobs); `checklist` stays on one thread.
      jobs: parallel ? jobsOption(args) : 1,
      fixes,
    });
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr(`insertlint: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  // File names and error texts are escaped: a name holding a newline must not start a line of its own.
  for (const missing of run.missing) io.stderr(`insertlint: ${plainLine(missing)}: no such file or folder\n`);
  // Files whose reading or rules ran past --file-time-budget; a schema file's rules too (its findings go to the inserts).
  for (const file of run.files) {
    const why = run.workspace.timedOut(file);
    if (why) io.stderr(`insertlint: warning: ${plainLine(displayPath(run.cwd, file))}: ${plainLine(why)}; its findings are not reported\n`);
  }
  for (const file of run.schemaFiles) {
    const why = run.workspace.rulesStoppedIn(file);
    if (why) io.stderr(`insertlint: warning: schema file ${plainLine(displayPath(run.cwd, file))}: ${plainLine(why)}; its findings are not reported\n`);
  }
  for (const problem of run.schemaProblems) io.stderr(`insertlint: warning: ${plainLine(problem)}\n`);
  for (const why of run.codeLoad?.unavailable ?? []) {
    const left = run.files.filter((file) => run.workspace.model(file)?.leftOut === why).length;
    if (left > 0) io.stderr(`insertlint: warning: ${plainLine(why)}: ${left} file${left === 1 ? '' : 's'} left out, their findings are not reported\n`);
  }
  for (const skipped of run.skipped) io.stderr(`insertlint: skipped ${plainLine(displayPath(run.cwd, skipped.path))}: ${plainLine(skipped.reason)}\n`);
  for (const failure of run.workspace.ruleFailures) {
    io.stderr(`insertlint: rule ${failure.rule} failed on ${plainLine(displayPath(run.cwd, failure.file))} and was disabled for that file: ${describeFailure(failure.error)}\n`);
  }
  // A path that does not exist is a mistake even when others hold files: CI must not pass on a typo.
  if (run.missing.length > 0) return 2;
  if (run.files.length === 0) {
    // A run over nothing is a mistake (a wrong path, a wrong folder), not a clean result.
    if (run.missing.length < paths.length) {
      io.stderr(
        `insertlint: nothing to lint in ${paths.map(plainLine).join(', ')}: no SQL script or application code${run.skipped.length ? ` (${run.skipped.length} skipped, see above)` : ''}\n`,
      );
    }
    return 2;
  }
  if (docsBaseUrl) run.docsBaseUrl = docsBaseUrl;
  // Before anything is written: a report must not go over the user's scripts or programs.
  for (const option of REPORT_OPTIONS) {
    const target = args.values.has(option) ? single(args, option) : undefined;
    const problem = target === undefined ? undefined : overwritesInput(run, target);
    if (problem) {
      io.stderr(`insertlint: --${option} ${plainLine(target!)} names ${problem}: the report would be written over it. Give the report a file name of its own (such as report.json)\n`);
      return 2;
    }
  }
  const timings = single(args, 'timings');
  if (timings) {
    // Per-file read and rule times, slowest first (the benchmarks' "slowest files").
    const rows: TimingRow[] = run.workspace.timings().map((t) => ({ ...t, file: displayPath(run.cwd, t.file), readMs: round(t.readMs), rulesMs: round(t.rulesMs) }));
    // Loading the grammars is the process's, not the first code file's: a row of its own, named so.
    if (run.codeLoad) rows.push({ file: GRAMMAR_LOAD_ROW, lines: 0, readMs: round(run.codeLoad.ms), rulesMs: 0, grammars: run.codeLoad.grammars });
    // So is folding every file's DDL and inserts into the schema the rules read (once, when the first file's rules run).
    rows.push({ file: SCHEMA_ROW, lines: 0, readMs: 0, rulesMs: round(run.workspace.schemaBuildMs) });
    rows.sort((a, b) => b.readMs + b.rulesMs - (a.readMs + a.rulesMs));
    writeFileAtomic(resolve(io.cwd, timings), JSON.stringify(rows, null, 1) + '\n');
  }
  return run;
}

/** The options that name a file a report is written to. */
const REPORT_OPTIONS = ['output', 'timings', 'write-baseline'];

/**
 * What a report written to `target` would destroy, or undefined: a file this run read, or an existing file of a
 * language InsertLint reads (a script, a program). A forgotten argument (`--timings load.sql`, meant as
 * `--timings t.json load.sql`) took the script as the report's name: its text was replaced by the report, and the
 * run went on over the current folder.
 */
export function overwritesInput(run: Pick<LintRun, 'cwd' | 'files' | 'config'>, target: string): string | undefined {
  const path = resolve(run.cwd, target);
  if (run.files.some((file) => resolve(run.cwd, file) === path)) return 'a file this run checks';
  const language = languageOf(path, run.config);
  if (language === undefined) return undefined;
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return undefined;
  }
  return stat.isFile() ? `an existing ${KIND_OF_FILE[language]}` : undefined;
}

const KIND_OF_FILE: Record<FileLanguage, string> = {
  sql: 'SQL script',
  java: 'Java file',
  python: 'Python file',
  javascript: 'JavaScript file',
  typescript: 'TypeScript file',
  c: 'C file',
  cpp: 'C++ file',
  'embedded-sql': 'embedded SQL program',
  shell: 'shell script',
  cobol: 'COBOL program',
  jcl: 'JCL member',
};

/** An error's message on one escaped line, then its stack frames (V8 writes those, not the input). */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return plainLine(String(error));
  const head = `${error.name}: ${error.message}`;
  const stack = error.stack ?? '';
  const frames = stack.startsWith(head) ? stack.slice(head.length) : '';
  return plainLine(head) + frames;
}

/** Writes --output FILE whole or not at all (the previous file survives an interruption); false on failure. */
export function writeOutput(io: CliIo, output: string, text: string): boolean {
  try {
    writeFileAtomic(resolve(io.cwd, output), text);
    return true;
  } catch (error) {
    io.stderr(`insertlint: cannot write ${plainLine(output)}: ${plainLine((error as Error).message)}\n`);
    return false;
  }
}
