// `insertlint check [paths…] [--format text|json] [--config FILE] [--rule id=severity]`
import type { Diagnostic } from '../engine/types';
import { formatText, positioned, type PositionedDiagnostic } from '../output/text';
import { coverageOf } from '../engine/statements';
import { parseArgs, single, oneOf, type CliIo } from './args';
import { displayPath, runLocator, type LintRun } from './lint-run';
import { lintForCommand, writeOutput } from './lint-command';
import { noteCodePath } from '../engine/code-paths';
import { toolVersion } from '../engine/version';
import { CI_CHECK_FLAGS, CI_CHECK_USAGE, CI_CHECK_VALUES, failExitCode, formatGithubReport, formatSarifReport, readCiCheckOptions, selectCiFindings, type CiFinding } from '../ci/check-ci';

export const CHECK_FORMATS = ['text', 'json', 'sarif', 'github'] as const;
export type CheckFormat = (typeof CHECK_FORMATS)[number];

export const CHECK_USAGE = `insertlint check [paths…] [--format ${CHECK_FORMATS.join('|')}] [--output FILE] [--config FILE] [--rule id=severity|off]… [--schema PATH]… [--terminator X] [--encoding E] [--docs-url URL] [--file-time-budget S] [--jobs N] [--timings FILE]
                 [--baseline FILE | --write-baseline FILE] [--only-changed --base REV] [--min-severity S] [--fail-on S] [--max-warnings N]
  Lints Db2 SQL scripts (.sql .db2 .ddl .clp) and application code under the paths (default: .).
  --format F             text (default), json, sarif (2.1.0) or github (workflow annotations)
  --config FILE          the configuration to use instead of the .insertlintrc.json found above each file
  --rule id=severity     a rule's severity (error, warning, information, hint) or off; repeatable
  --output FILE          write the report to FILE (replaced whole, never left half-written) instead of stdout
  --schema PATH          DDL (db2look output, a folder, a glob) read for the schema but not linted; adds to "schema" in the config
  --terminator X         the terminator scripts are run with (db2 -tdX; "newline" for db2 without -t); without it
                         each script's is inferred (a -td comment, lines ending in @ or !, lines holding only /)
  --encoding E           how files without a byte-order mark are read: utf-8 (default), latin1 (ISO 8859-1) or
                         windows-1252 (cp1252); as VS Code's files.encoding, so the editor and the CLI agree
  --docs-url URL         where rule documentation links point (SARIF helpUri, GitHub annotations): a folder URL
                         (<id>.md is appended) or a template with {id}; default the repository, or INSERTLINT_DOCS_URL
  --file-time-budget S   seconds one file may take to read (default 10); a file that takes longer is left out
                         with a warning naming it, so one pathological file cannot stall the run
  --timings FILE         write each file's read and rule times in ms (to the µs) as JSON, slowest first; loading the
                         code grammars and folding the schema of all files, once per run, are rows of their
                         own ("(grammar load)", "(schema of all files)", 0 lines)
  --jobs N               threads that read SQL scripts (default 1; 0: one per core); under 2 MB of scripts in all
                         the run stays on one thread; the output is the same whatever N
${CI_CHECK_USAGE}
  Exit 0 when nothing at or above --fail-on, 1 when there are findings, 2 for usage or configuration errors
  or when the paths hold nothing to lint.`;

export interface CheckSummary {
  files: number;
  statements: number;
  /** Statements inside routine, trigger and block bodies (and the SQL text they build), not in `statements`. */
  statementsInBodies: number;
  /** Statements at any depth InsertLint could not fully read (those in another database's dialect aside). */
  parseErrors: number;
  /** Statements written for another database (Oracle, SQL Server, …) that Db2 rejects as they stand. */
  otherDialect: number;
  /** Statements at any depth kept only as text (InsertLint knows their leading keywords, nothing inside). */
  opaque: number;
  /** Statements a SET PASSTHRU session sends to a federated data source: that database's SQL, not read. */
  passedThrough: number;
  skipped: number;
  /**
   * Files read but not analysed (counted in `files`): code files for "no Db2 access found", scripts and code files
   * whose reading ran past the time budget per file.
   */
  leftOut: number;
}

/** Visible (not suppressed) diagnostics with positions and display paths, in file order. */
export function positionedDiagnostics(run: LintRun, includeSuppressed = false): PositionedDiagnostic[] {
  const out: PositionedDiagnostic[] = [];
  const locate = runLocator(run);
  for (const file of run.files) {
    const lines = run.workspace.lines(file)!;
    for (const d of run.workspace.diagnostics(file)) {
      if (d.suppressed && !includeSuppressed) continue;
      out.push(positioned(d, displayPath(run.cwd, file), lines, locate));
    }
  }
  return out;
}

export function summarize(run: LintRun): CheckSummary {
  const summary: CheckSummary = { files: run.files.length, statements: 0, statementsInBodies: 0, parseErrors: 0, otherDialect: 0, opaque: 0, passedThrough: 0, skipped: run.skipped.length, leftOut: 0 };
  for (const file of run.files) {
    const model = run.workspace.linkedModel(file)!;
    if (run.workspace.leftOut(file)) summary.leftOut++;
    const coverage = coverageOf(model);
    summary.statements += coverage.statements;
    summary.statementsInBodies += coverage.inBodies;
    summary.parseErrors += coverage.parseErrors;
    summary.otherDialect += coverage.otherDialect;
    summary.opaque += coverage.opaque;
    summary.passedThrough += coverage.passedThrough;
  }
  return summary;
}

/** Files a front end read but left out, with why (the JSON output lists them). */
export function leftOutFiles(run: LintRun): { file: string; reason: string }[] {
  return run.files.flatMap((file) => {
    const reason = run.workspace.leftOut(file);
    return reason ? [{ file: displayPath(run.cwd, file), reason }] : [];
  });
}

/**
 * ", 12 code files left out (no Db2 access found)" for the text summary, or nothing. Scripts and code files are
 * counted apart (a script is left out only past its time budget), and with several reasons each says whose it is:
 * ", 1 script and 2 code files left out (1 script and 1 code file: analysis stopped after 1 ms; 1 code file: no
 * Db2 access found)".
 */
function leftOutText(run: LintRun, count: number): string {
  if (count === 0) return '';
  return leftOutSummary(run.files.flatMap((file) => {
    const reason = run.workspace.leftOut(file);
    return reason ? [{ script: run.workspace.model(file)!.source.language === 'sql', reason }] : [];
  }));
}

/** The summary's words for files left out, each a script or a code file, with why (its parenthesis dropped). */
export function leftOutSummary(files: readonly { script: boolean; reason: string }[]): string {
  if (files.length === 0) return '';
  const groups = new Map<string, { scripts: number; code: number }>();
  const total = { scripts: 0, code: 0 };
  for (const { script, reason } of files) {
    const why = reason.replace(/ \(.*$/, '');
    let group = groups.get(why);
    if (!group) groups.set(why, (group = { scripts: 0, code: 0 }));
    if (script) {
      group.scripts++;
      total.scripts++;
    } else {
      group.code++;
      total.code++;
    }
  }
  const kinds = (g: { scripts: number; code: number }) => [g.scripts ? counted(g.scripts, 'script') : '', g.code ? counted(g.code, 'code file') : ''].filter(Boolean).join(' and ');
  if (groups.size === 1) return `, ${kinds(total)} left out (${[...groups.keys()][0]})`;
  return `, ${kinds(total)} left out (${[...groups].map(([why, g]) => `${kinds(g)}: ${why}`).join('; ')})`;
}

export function countBySeverity(diagnostics: readonly Diagnostic[]): Record<string, number> {
  const counts: Record<string, number> = { error: 0, warning: 0, information: 0, hint: 0 };
  for (const d of diagnostics) counts[d.severity]++;
  return counts;
}

export async function runCheckCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, { values: ['format', 'config', 'rule', 'output', 'schema', 'terminator', 'encoding', 'docs-url', 'file-time-budget', 'timings', 'jobs', ...CI_CHECK_VALUES], flags: ['help', ...CI_CHECK_FLAGS] });
  if (args.flags.has('help')) {
    io.stdout(CHECK_USAGE + '\n');
    return 0;
  }
  const format = oneOf(single(args, 'format'), CHECK_FORMATS, 'format', 'text');
  noteCodePath(`format:${format}`);
  const output = single(args, 'output');
  const ci = readCiCheckOptions(args);
  // Of the formats, only SARIF shows quick fixes: the others need not work them out.
  const run = await lintForCommand(args, io, { parallel: true, fixes: format === 'sarif' });
  if (typeof run === 'number') return run;
  const selection = selectCiFindings(run, ci, io, format);
  if ('exit' in selection) return selection.exit;
  const diagnostics: PositionedDiagnostic[] = selection.findings.filter((d) => !d.suppressed);
  const report = formatReport(run, format, selection.findings, diagnostics);
  if (output !== undefined && !writeOutput(io, output, report)) return 2;
  if (output === undefined) io.stdout(report);
  return failExitCode(diagnostics, ci.failOn, ci.maxWarnings);
}

/** A finding as the JSON format gives it (the optional fields set only when present, in this order). */
function jsonFinding(d: PositionedDiagnostic): JsonFinding {
  const out: JsonFinding = { file: d.displayPath, line: d.line, column: d.column, endLine: d.endLine, endColumn: d.endColumn, rule: d.rule, severity: d.severity, message: d.message };
  if (d.extentLines) out.extent = d.extentLines;
  if (d.relatedPositions?.length) out.related = d.relatedPositions.map((r) => ({ file: r.displayPath, line: r.line, column: r.column, endLine: r.endLine, endColumn: r.endColumn, message: r.message }));
  return out;
}

interface JsonPosition {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

interface JsonFinding extends JsonPosition {
  rule: string;
  severity: string;
  message: string;
  extent?: { line: number; endLine: number };
  related?: (JsonPosition & { message: string })[];
}

function formatReport(run: LintRun, format: CheckFormat, findings: CiFinding[], diagnostics: PositionedDiagnostic[]): string {
  if (format === 'sarif') return formatSarifReport(run, findings);
  if (format === 'github') return formatGithubReport(findings, run.docsBaseUrl);
  const summary = summarize(run);
  if (format === 'json') {
    return (
      JSON.stringify(
        {
          // Which build wrote the report: findings change between versions, and a saved report is compared later.
          tool: { name: 'insertlint', version: toolVersion() },
          summary,
          leftOut: leftOutFiles(run),
          // Named on stderr too; here so that a CI job reading the JSON sees which files went unchecked.
          skipped: run.skipped.map((s) => ({ file: displayPath(run.cwd, s.path), reason: s.reason })),
          diagnostics: diagnostics.map(jsonFinding),
        },
        null,
        2,
      ) + '\n'
    );
  }
  const items = diagnostics.map((d) => ({ d, text: run.workspace.model(d.file)!.source.text, lines: run.workspace.lines(d.file)! }));
  const counts = countBySeverity(diagnostics);
  return (
    (items.length ? formatText(items) + '\n' : '') +
    `${counted(diagnostics.length, 'finding')} (${counted(counts.error, 'error')}, ${counted(counts.warning, 'warning')}, ${counts.information} info${counts.hint ? `, ${counted(counts.hint, 'hint')}` : ''}) in ${counted(summary.files, 'file')}, ${counted(summary.statements, 'statement')}${summary.statementsInBodies ? ` (+${summary.statementsInBodies} in routine bodies)` : ''}, ${summary.parseErrors} unreadable${summary.otherDialect ? `, ${summary.otherDialect} in another database's dialect` : ''}, ${summary.opaque} kept as text${summary.passedThrough ? `, ${summary.passedThrough} passed through to a federated data source` : ''}${summary.skipped ? `, ${summary.skipped} skipped` : ''}${leftOutText(run, summary.leftOut)}\n`
  );
}

/** "1 finding", "2 findings", "0 errors". */
function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
