// What `check` and `checklist` share: --rule/--config/paths into a lint run, and the run's problems
// (bad configuration, missing paths, skipped files, failing rules) said on stderr.
import { ConfigError, type ConfigFile } from '../engine/config';
import type { SeveritySetting } from '../engine/types';
import { single, UsageError, type CliIo, type ParsedArgs } from './args';
import { displayPath, lintPaths, type LintRun } from './lint-run';

/** `--rule id=severity` (repeatable) as a configuration layer over the config file. */
export function parseRuleOverrides(values: string[] = []): ConfigFile {
  const rules: Record<string, SeveritySetting> = {};
  for (const value of values) {
    const [id, severity] = value.split('=');
    if (!id || !severity) throw new UsageError(`--rule takes id=severity (e.g. --rule identity-cache=error), not "${value}"`);
    rules[id] = severity as SeveritySetting;
  }
  return { rules };
}

/** Lints the command's paths (default '.'); returns the run, or the exit code when it cannot run. */
export async function lintForCommand(args: ParsedArgs, io: CliIo): Promise<LintRun | number> {
  let run: LintRun;
  try {
    run = await lintPaths({
      paths: args.positional.length ? args.positional : ['.'],
      cwd: io.cwd,
      configPath: single(args, 'config'),
      overrides: parseRuleOverrides(args.values.get('rule')),
      schema: args.values.get('schema'),
    });
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr(`insertlint: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  for (const missing of run.missing) io.stderr(`insertlint: ${missing}: no such file or folder\n`);
  for (const problem of run.schemaProblems) io.stderr(`insertlint: warning: ${problem}\n`);
  for (const skipped of run.skipped) io.stderr(`insertlint: skipped ${displayPath(run.cwd, skipped.path)}: ${skipped.reason}\n`);
  for (const failure of run.workspace.ruleFailures) {
    io.stderr(`insertlint: rule ${failure.rule} failed on ${displayPath(run.cwd, failure.file)} and was disabled for that file: ${(failure.error as Error)?.stack ?? String(failure.error)}\n`);
  }
  return run.missing.length > 0 && run.files.length === 0 ? 2 : run;
}
