// Lints host-language files through the real engine (Workspace + the tree-sitter code front end) and
// returns findings with 1-based positions, so tests can state rule ids and exact columns in host strings.
import { resolveConfig, type ConfigFile } from '../../server/src/engine/config';
import { allRules } from '../../server/src/engine/registry';
import { Workspace } from '../../server/src/engine/workspace';
import { loadCodeFrontEnd, type CodeFrontEnd } from '../../server/src/code/frontend';
import type { FileModel, Severity } from '../../server/src/engine/types';

export interface CodeFinding {
  file: string;
  rule: string;
  severity: Severity;
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

let frontEnd: CodeFrontEnd | undefined;

export async function codeFrontEnd(): Promise<CodeFrontEnd> {
  frontEnd ??= await loadCodeFrontEnd();
  return frontEnd;
}

export interface Linted {
  findings: CodeFinding[];
  models: Map<string, FileModel>;
}

export async function lintCode(files: Record<string, string>, config?: ConfigFile): Promise<Linted> {
  const workspace = new Workspace(resolveConfig(allRules(), config), await codeFrontEnd());
  for (const [path, text] of Object.entries(files)) {
    if (!workspace.setFile(path, text)) throw new Error(`${path} is not a linted file type`);
  }
  const findings: CodeFinding[] = [];
  const models = new Map<string, FileModel>();
  for (const path of workspace.paths()) {
    models.set(path, workspace.model(path)!);
    const lines = workspace.lines(path)!;
    for (const d of workspace.diagnostics(path)) {
      if (d.suppressed) continue;
      const s = lines.position(d.span.start);
      const e = lines.position(d.span.end);
      findings.push({ file: d.file, rule: d.rule, severity: d.severity, message: d.message, line: s.line + 1, column: s.column + 1, endLine: e.line + 1, endColumn: e.column + 1 });
    }
  }
  if (workspace.ruleFailures.length > 0) throw workspace.ruleFailures[0].error;
  return { findings, models };
}

/** `rule@line:col` strings of the findings of the given rules (all rules when none given), in order. */
export function brief(findings: CodeFinding[], rules?: string[]): string[] {
  return findings.filter((f) => !rules || rules.includes(f.rule)).map((f) => `${f.rule}@${f.line}:${f.column}`);
}

export const INSERT_RULES = ['prefer-parameter-markers', 'single-row-insert', 'no-autocommit', 'commit-per-row', 'prepare-in-loop'];

/** 1-based line and column of the n-th occurrence of `needle` in `text` (for readable expectations). */
export function posOf(text: string, needle: string, occurrence = 1): string {
  let at = -1;
  for (let i = 0; i < occurrence; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`"${needle}" occurs fewer than ${occurrence} times`);
  }
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  return `${line}:${at - before.lastIndexOf('\n')}`;
}
