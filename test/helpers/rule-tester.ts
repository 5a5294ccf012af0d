// A RuleTester in the spirit of ESLint's: give it files as {path: text}, it runs the real engine
// (Workspace, config resolution, suppressions) and returns findings with 1-based positions, so that
// rule tests state exact rule ids, lines, columns, messages and fix output.
import * as assert from 'node:assert/strict';
import { resolveConfig, type ConfigFile } from '../../server/src/engine/config';
import { allRules } from '../../server/src/engine/registry';
import { Workspace } from '../../server/src/engine/workspace';
import { UNUSED_SUPPRESSION_RULE } from '../../server/src/engine/suppressions';
import type { Diagnostic, Fix, Severity } from '../../server/src/engine/types';
import type { FrontEnd as CodeFrontEnd } from '../../server/src/engine/types';

export type Files = Record<string, string>;

export interface Finding {
  file: string;
  rule: string;
  severity: Severity;
  message: string;
  /** 1-based. */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  fix?: Fix;
  suppressed?: Diagnostic['suppressed'];
  /** 1-based first and last line of the finding's extent (a run of statements), when it has one. */
  extentLines?: { line: number; endLine: number };
}

export interface ExpectedFinding {
  /** Defaults to the only file, or the first one given. */
  file?: string;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
  /** A RegExp the message must match, or the exact message. */
  message?: RegExp | string;
  severity?: Severity;
}

export interface LintOptions {
  /** An .insertlintrc.json-shaped layer over the rule defaults. */
  config?: ConfigFile;
  /** Keep suppressed findings (marked) instead of dropping them. */
  includeSuppressed?: boolean;
  /** Reads host-language files (Java, Python…); without it only SQL files are linted. */
  codeFrontEnd?: CodeFrontEnd;
  /** A layer under `config` (findings() uses it to turn on the rule under test). */
  baseConfig?: ConfigFile;
  /** Keep each rule's findings apart instead of merging those of one cause (engine/merge.ts). */
  unmerged?: boolean;
}

/** Runs every registered rule over the files, in the order given; returns the findings and the workspace. */
export function lintWorkspace(files: Files, options: LintOptions = {}): { findings: Finding[]; workspace: Workspace } {
  const workspace = loadedWorkspace(files, options, true);
  const findings: Finding[] = [];
  for (const path of workspace.paths()) {
    const lines = workspace.lines(path)!;
    for (const d of workspace.diagnostics(path)) {
      if (d.suppressed && !options.includeSuppressed) continue;
      const start = lines.position(d.span.start);
      const end = lines.position(d.span.end);
      findings.push({
        file: d.file,
        rule: d.rule,
        severity: d.severity,
        message: d.message,
        line: start.line + 1,
        column: start.column + 1,
        endLine: end.line + 1,
        endColumn: end.column + 1,
        ...(d.fix ? { fix: d.fix } : {}),
        ...(d.suppressed ? { suppressed: d.suppressed } : {}),
        ...(d.extent ? { extentLines: { line: lines.position(d.extent.start).line + 1, endLine: lines.position(d.extent.end).line + 1 } } : {}),
      });
    }
  }
  // Rules that throw are disabled per file by the engine; a test must see that as a failure.
  if (workspace.ruleFailures.length > 0) throw workspace.ruleFailures[0].error;
  assertSkippingChangesNothing(files, options, workspace);
  return { findings, workspace };
}

/**
 * Every rule test's files also show that the engine's skipping of rules on files that hold nothing they read
 * (RuleMeta.reads) changes no finding: the same files linted with every rule called on every file.
 */
function assertSkippingChangesNothing(files: Files, options: LintOptions, linted: Workspace): void {
  const workspace = loadedWorkspace(files, options, false);
  assert.deepEqual(linted.allDiagnostics(), workspace.allDiagnostics(), 'skipping rules that read nothing in a file changed the findings (RuleMeta.reads)');
}

/** A workspace with every registered rule, configured as `options` say, holding `files`. */
function loadedWorkspace(files: Files, options: LintOptions, skipRulesWithNothingToRead: boolean): Workspace {
  const workspace = new Workspace(resolveConfig(allRules(), options.baseConfig, options.config), options.codeFrontEnd ? [options.codeFrontEnd] : []);
  workspace.skipRulesWithNothingToRead = skipRulesWithNothingToRead;
  if (options.unmerged) workspace.mergeFindings = false;
  for (const [path, text] of Object.entries(files)) {
    if (!workspace.setFile(path, text)) throw new Error(`rule-tester: ${path} is not a linted file type`);
  }
  return workspace;
}

/** Runs every registered rule over the files, in the order given, and returns all findings. */
export function lint(files: Files, options: LintOptions = {}): Finding[] {
  return lintWorkspace(files, options).findings;
}

/**
 * Findings of one rule only. The rule runs even when the default preset leaves it off, and the other rules
 * of its group are off, so that the engine does not merge its findings into theirs. bulkRowThreshold is 2:
 * rule tests state a rule's own logic on a few literal rows; test/engine/signal.test.ts tests the default
 * threshold, the presets and the merging (a test's `config` may set them again).
 */
export function findings(files: Files, ruleId: string, options: LintOptions = {}): Finding[] {
  assertKnownRule(ruleId);
  return lint(files, { ...options, baseConfig: ruleUnderTest(ruleId) }).filter((f) => f.rule === ruleId);
}

function ruleUnderTest(ruleId: string): ConfigFile | undefined {
  const rule = allRules().find((r) => r.meta.id === ruleId);
  if (!rule) return { bulkRowThreshold: 2 };
  const rules: ConfigFile['rules'] = { [ruleId]: rule.meta.defaultSeverity };
  if (rule.meta.group) for (const other of allRules()) if (other !== rule && other.meta.group === rule.meta.group) rules[other.meta.id] = 'off';
  return { bulkRowThreshold: 2, rules };
}

/** Asserts that `ruleId` reports exactly `expected` (in file and position order) and nothing else. */
export function expectFindings(files: Files, ruleId: string, expected: ExpectedFinding[], options: LintOptions = {}): Finding[] {
  const actual = findings(files, ruleId, options);
  const defaultFile = Object.keys(files)[0];
  const project = (f: Finding, e: ExpectedFinding | undefined) => ({
    file: f.file,
    line: f.line,
    column: f.column,
    ...(e?.endLine !== undefined ? { endLine: f.endLine } : {}),
    ...(e?.endColumn !== undefined ? { endColumn: f.endColumn } : {}),
    ...(e?.severity !== undefined ? { severity: f.severity } : {}),
  });
  const want = expected.map((e) => ({
    file: e.file ?? defaultFile,
    line: e.line,
    column: e.column,
    ...(e.endLine !== undefined ? { endLine: e.endLine } : {}),
    ...(e.endColumn !== undefined ? { endColumn: e.endColumn } : {}),
    ...(e.severity !== undefined ? { severity: e.severity } : {}),
  }));
  assert.deepEqual(
    actual.map((f, i) => project(f, expected[i])),
    want,
    `${ruleId} findings differ:\n${actual.map((f) => `  ${f.file}:${f.line}:${f.column} ${f.message}`).join('\n') || '  (none)'}`,
  );
  expected.forEach((e, i) => {
    if (e.message === undefined) return;
    if (typeof e.message === 'string') assert.equal(actual[i].message, e.message);
    else assert.match(actual[i].message, e.message, `message of finding ${i + 1}`);
  });
  return actual;
}

export function expectNoFindings(files: Files, ruleId: string, options: LintOptions = {}): void {
  expectFindings(files, ruleId, [], options);
}

/**
 * Applies the fix of the `index`-th finding of `ruleId` and returns the fixed text of its file.
 * Fails when that finding has no fix.
 */
export function applyFix(files: Files, ruleId: string, index = 0, options: LintOptions = {}): string {
  const all = findings(files, ruleId, options);
  const finding = all[index];
  assert.ok(finding, `${ruleId} has no finding #${index} (found ${all.length})`);
  assert.ok(finding.fix, `${ruleId} finding #${index} at ${finding.file}:${finding.line}:${finding.column} offers no fix`);
  return applyEdits(files[finding.file], finding.fix);
}

/** Applies a fix's edits (file offsets) to a text, last edit first so offsets stay valid. */
export function applyEdits(text: string, fix: Fix): string {
  const edits = [...fix.edits].sort((a, b) => b.span.start - a.span.start);
  for (let i = 1; i < edits.length; i++) assert.ok(edits[i].span.end <= edits[i - 1].span.start, 'fix edits overlap');
  let out = text;
  for (const e of edits) out = out.slice(0, e.span.start) + e.newText + out.slice(e.span.end);
  return out;
}

function assertKnownRule(ruleId: string): void {
  // unused-suppression is the engine's own finding, not a rule module.
  assert.ok(ruleId === UNUSED_SUPPRESSION_RULE || allRules().some((r) => r.meta.id === ruleId), `no rule "${ruleId}" is registered`);
}

export interface InvalidCase {
  name?: string;
  files: Files;
  findings: ExpectedFinding[];
  /** Text of the first finding's file after applying its fix; omit when there is no fix to check. */
  output?: string;
  options?: LintOptions;
}

export interface ValidCase {
  name?: string;
  files: Files;
  options?: LintOptions;
}

/**
 * ESLint's RuleTester.run in Mocha form: one `it` per case. Valid cases must produce no finding of the
 * rule; invalid ones exactly the listed findings (and, with `output`, that fixed text).
 */
export function runRuleTests(ruleId: string, cases: { valid: ValidCase[]; invalid: InvalidCase[] }): void {
  describe(`rule ${ruleId}`, () => {
    cases.valid.forEach((c, i) => {
      it(`valid: ${c.name ?? `case ${i + 1}`}`, () => expectNoFindings(c.files, ruleId, c.options));
    });
    cases.invalid.forEach((c, i) => {
      it(`invalid: ${c.name ?? `case ${i + 1}`}`, () => {
        expectFindings(c.files, ruleId, c.findings, c.options);
        if (c.output !== undefined) assert.equal(applyFix(c.files, ruleId, 0, c.options), c.output);
      });
    });
  });
}
