// The CI side of `insertlint check`: fingerprints, baselines, --only-changed, --min-severity, --fail-on,
// and the sarif/github formats. check-command.ts parses the common options and hands these over.
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { SEVERITY_RANK, type Severity } from '../engine/types';
import { RULES } from '../engine/registry';
import { positioned, type PositionedDiagnostic } from '../output/text';
import { fingerprints, lineSource, type LineSource } from '../output/fingerprint';
import { toSarif } from '../output/sarif';
import { plainLine } from '../output/escape';
import { formatGithub } from '../output/github';
import { single, oneOf, UsageError, type CliIo, type ParsedArgs } from '../cli/args';
import { displayPath, runLocator, type LintRun } from '../cli/lint-run';
import { BaselineError, compareWithBaseline, createBaseline, readBaseline, writeBaseline } from './baseline';
import { changesSince, GitError, repositoryRoot, touchesFinding, type ChangedFile, type ChangeSet } from './git';
import { toolVersion } from '../engine/version';

export const FAIL_ON_LEVELS = ['error', 'warning', 'information', 'never'] as const;
export type FailOn = (typeof FAIL_ON_LEVELS)[number];
export const MIN_SEVERITY_LEVELS = ['error', 'warning', 'information', 'hint'] as const;

export const CI_CHECK_VALUES = ['baseline', 'write-baseline', 'base', 'fail-on', 'min-severity', 'max-severity', 'max-warnings'];
export const CI_CHECK_FLAGS = ['only-changed'];

export const CI_CHECK_USAGE = `  --baseline FILE        report only findings whose fingerprint FILE does not list (exit 0 when nothing is new)
  --write-baseline FILE  record the current findings in FILE and exit 0
  --only-changed --base REV
                         report only findings on lines changed since REV (the merge base of REV and HEAD)
  --min-severity error|warning|information|hint
                         leave out findings below this severity (default: hint, i.e. report all)
  --fail-on error|warning|information|never
                         exit 1 when a reported finding is at or above this severity (default: warning; error
                         with --max-warnings)
  --max-warnings N       exit 1 when more than N warnings are reported (0 or more); without --fail-on, warnings
                         up to N then pass and errors still fail`;

export interface CiCheckOptions {
  baseline?: string;
  writeBaseline?: string;
  onlyChangedBase?: string;
  failOn: FailOn;
  minSeverity: Severity;
  /** --max-warnings N: more reported warnings than this fail the run. */
  maxWarnings?: number;
}

export function readCiCheckOptions(args: ParsedArgs): CiCheckOptions {
  if (args.values.has('max-severity')) {
    throw new UsageError(
      'there is no --max-severity: use --fail-on LEVEL to choose the severity that fails the run, and --min-severity LEVEL to leave out findings below a severity',
    );
  }
  const maxWarningsText = single(args, 'max-warnings');
  if (maxWarningsText !== undefined && !/^\d{1,9}$/.test(maxWarningsText)) throw new UsageError(`--max-warnings takes a whole number of warnings (0 or more), not "${plainLine(maxWarningsText)}"`);
  const maxWarnings = maxWarningsText === undefined ? undefined : Number(maxWarningsText);
  const base = single(args, 'base');
  const onlyChanged = args.flags.has('only-changed');
  if (onlyChanged && !base) throw new UsageError('--only-changed needs --base REV (e.g. --base origin/main)');
  if (base && !onlyChanged) throw new UsageError('--base is used with --only-changed');
  const options: CiCheckOptions = {
    baseline: single(args, 'baseline'),
    writeBaseline: single(args, 'write-baseline'),
    onlyChangedBase: onlyChanged ? base : undefined,
    failOn: oneOf(single(args, 'fail-on'), FAIL_ON_LEVELS, 'fail-on', maxWarnings === undefined ? 'warning' : 'error'),
    minSeverity: oneOf(single(args, 'min-severity'), MIN_SEVERITY_LEVELS, 'min-severity', 'hint'),
    maxWarnings,
  };
  if (options.baseline && options.writeBaseline) throw new UsageError('give either --baseline or --write-baseline, not both');
  return options;
}

export interface CiFinding extends PositionedDiagnostic {
  /** Empty unless the findings were asked for with fingerprints. */
  fingerprint: string;
  baselineState?: 'new' | 'unchanged';
}

/**
 * The path a fingerprint hashes: relative to the root of the git work tree when the file is in one, so a
 * baseline written at the root still matches when InsertLint runs from a subfolder; else the display path.
 */
function fingerprintPaths(run: LintRun): (file: string) => string {
  let root: string | undefined;
  try {
    root = run.files.length ? realPath(repositoryRoot(dirname(run.files[0]))) : undefined;
  } catch {
    root = undefined;
  }
  return (file) => {
    if (root) {
      const rel = relative(root, realPath(file));
      if (!rel.startsWith('..') && !isAbsolute(rel)) return rel.split(sep).join('/');
    }
    return displayPath(run.cwd, file);
  };
}

/**
 * Every finding of the run (suppressed ones included, marked), positioned, in file order; fingerprinted
 * when asked (baselines and SARIF need them; hashing every flagged line of a big run costs real time).
 */
export function ciFindings(run: LintRun, withFingerprints: boolean): CiFinding[] {
  const out: CiFinding[] = [];
  const keys: { rule: string; displayPath: string; line: number; endLine: number; file: string }[] = [];
  const keyOf = withFingerprints ? fingerprintPaths(run) : undefined;
  const locate = runLocator(run);
  for (const file of run.files) {
    const lines = run.workspace.lines(file)!;
    const shown = displayPath(run.cwd, file);
    const key = keyOf?.(file);
    for (const d of run.workspace.diagnostics(file)) {
      // positioned() returns a new object: it takes the fingerprint field itself instead of being copied again.
      const p: CiFinding = Object.assign(positioned(d, shown, lines, locate), { fingerprint: '' });
      out.push(p);
      if (key !== undefined) keys.push({ rule: p.rule, displayPath: key, line: p.line, endLine: p.endLine, file });
    }
  }
  if (withFingerprints) {
    const sources = new Map<string, LineSource>();
    const linesOf = (f: { file: string }) => {
      let source = sources.get(f.file);
      if (!source) sources.set(f.file, (source = lineSource(run.workspace.model(f.file)!.source.text, run.workspace.lines(f.file))));
      return source;
    };
    fingerprints(keys, linesOf).forEach((print, i) => (out[i].fingerprint = print));
  }
  return out;
}

export function meetsSeverity(severity: Severity, minimum: Severity): boolean {
  return SEVERITY_RANK[severity] >= SEVERITY_RANK[minimum];
}

/** 1 when a visible finding is at or above --fail-on, or there are more warnings than --max-warnings; else 0. */
export function failExitCode(findings: readonly { severity: Severity; suppressed?: unknown }[], failOn: FailOn, maxWarnings?: number): 0 | 1 {
  if (maxWarnings !== undefined && findings.filter((d) => !d.suppressed && d.severity === 'warning').length > maxWarnings) return 1;
  if (failOn === 'never') return 0;
  return findings.some((d) => !d.suppressed && meetsSeverity(d.severity, failOn)) ? 1 : 0;
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Changed files by real path, so symlinked temp folders and the git root agree. */
export function changedFileIndex(changes: ChangeSet): Map<string, ChangedFile> {
  const index = new Map<string, ChangedFile>();
  for (const file of changes.files) if (file.status !== 'deleted') index.set(realPath(file.path), file);
  return index;
}

export function changedFileOf(index: Map<string, ChangedFile>, file: string): ChangedFile | undefined {
  return index.get(realPath(file));
}

export type CiSelection = { findings: CiFinding[] } | { exit: number };

/**
 * Applies the CI options to a run: returns the findings to report (suppressed ones included for SARIF), or
 * an exit code when the job is done (baseline written) or cannot be done (bad baseline, git trouble).
 */
export function selectCiFindings(run: LintRun, options: CiCheckOptions, io: CliIo, format: string): CiSelection {
  const withFingerprints = Boolean(options.baseline || options.writeBaseline || format === 'sarif');
  let findings = ciFindings(run, withFingerprints).filter((d) => meetsSeverity(d.severity, options.minSeverity));

  if (options.onlyChangedBase) {
    let changes: ChangeSet;
    try {
      changes = changesSince(io.cwd, options.onlyChangedBase);
    } catch (error) {
      if (error instanceof GitError) {
        io.stderr(`insertlint: ${plainLine(error.message)}\n`);
        return { exit: 2 };
      }
      throw error;
    }
    if (changes.warning) io.stderr(`insertlint: ${plainLine(changes.warning)}\n`);
    const index = changedFileIndex(changes);
    let outside = 0;
    findings = findings.filter((d) => {
      const changed = changedFileOf(index, d.file);
      if (!changed) return false;
      if (touchesFinding(changed, d)) return true;
      if (!d.suppressed) outside++;
      return false;
    });
    const linted = new Set(run.files.map(realPath));
    const changedLinted = changes.files.filter((f) => f.status !== 'deleted' && linted.has(realPath(f.path))).length;
    io.stderr(
      `insertlint: ${changedLinted} of ${changes.files.length} file${changes.files.length === 1 ? '' : 's'} changed since ${plainLine(options.onlyChangedBase)} linted` +
        (outside ? `; ${outside} more finding${outside === 1 ? '' : 's'} in those files outside the changed lines not shown` : '') +
        '\n',
    );
  }

  if (options.writeBaseline) {
    const visible = findings.filter((d) => !d.suppressed);
    try {
      writeBaseline(
        resolve(io.cwd, options.writeBaseline),
        createBaseline(visible.map((d) => ({ fingerprint: d.fingerprint, rule: d.rule, file: d.displayPath, line: d.line, message: d.message }))),
      );
    } catch (error) {
      if (error instanceof BaselineError) {
        io.stderr(`insertlint: ${plainLine(error.message)}\n`);
        return { exit: 2 };
      }
      throw error;
    }
    io.stderr(`insertlint: wrote ${visible.length} finding${visible.length === 1 ? '' : 's'} to the baseline ${plainLine(options.writeBaseline)}\n`);
    return { exit: 0 };
  }

  if (options.baseline) {
    let comparison;
    try {
      comparison = compareWithBaseline(findings, readBaseline(resolve(io.cwd, options.baseline), options.baseline));
    } catch (error) {
      if (error instanceof BaselineError) {
        io.stderr(`insertlint: ${plainLine(error.message)}\n`);
        return { exit: 2 };
      }
      throw error;
    }
    const known = comparison.known.filter((d) => !d.suppressed).length;
    const gone = comparison.gone.length;
    if (known || gone) {
      io.stderr(
        `insertlint: ${known} finding${known === 1 ? '' : 's'} already in the baseline not shown` +
          (gone ? `; ${gone} baseline entr${gone === 1 ? 'y' : 'ies'} no longer found (rewrite it with --write-baseline)` : '') +
          '\n',
      );
    }
    findings = comparison.fresh.map((d) => ({ ...d, baselineState: 'new' as const }));
  }
  return { findings };
}

export function formatSarifReport(run: LintRun, findings: readonly CiFinding[]): string {
  const notifications = [
    ...run.skipped.map((s) => ({ level: 'note' as const, message: `skipped ${displayPath(run.cwd, s.path)}: ${s.reason}` })),
    ...run.missing.map((m) => ({ level: 'error' as const, message: `${m}: no such file or folder` })),
    ...run.workspace.ruleFailures.map((f) => ({ level: 'error' as const, message: `rule ${f.rule} failed on ${displayPath(run.cwd, f.file)}: ${(f.error as Error)?.message ?? String(f.error)}` })),
    // Files whose reading or rules ran past --file-time-budget: their findings are missing from the results.
    ...run.files.flatMap((file) => {
      const why = run.workspace.timedOut(file);
      return why ? [{ level: 'warning' as const, message: `${displayPath(run.cwd, file)}: ${why}; its findings are not reported` }] : [];
    }),
    ...run.schemaFiles.flatMap((file) => {
      const why = run.workspace.rulesStoppedIn(file);
      return why ? [{ level: 'warning' as const, message: `schema file ${displayPath(run.cwd, file)}: ${why}; its findings are not reported` }] : [];
    }),
  ];
  return JSON.stringify(toSarif({ findings, rules: RULES, cwd: run.cwd, version: toolVersion(), notifications, docsBaseUrl: run.docsBaseUrl }), null, 2) + '\n';
}

/**
 * The runner matches annotation paths against the repository root, not the folder InsertLint ran in, so
 * paths are made relative to the root of the git work tree holding the files (when there is one).
 */
export function formatGithubReport(findings: readonly CiFinding[], docsBaseUrl?: string): string {
  const visible = findings.filter((d) => !d.suppressed);
  if (visible.length === 0) return '';
  let root: string | undefined;
  try {
    root = realPath(repositoryRoot(dirname(visible[0].file)));
  } catch {
    root = undefined;
  }
  return formatGithub(
    visible.map((d) => {
      if (!root) return d;
      const rel = relative(root, realPath(d.file));
      return rel.startsWith('..') || isAbsolute(rel) ? d : { ...d, displayPath: rel.split(sep).join('/') };
    }),
    docsBaseUrl,
  );
}
