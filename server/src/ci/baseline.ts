// Baselines: today's findings recorded by fingerprint, so CI can fail only on new ones. Matching is by
// fingerprint (rule + file + flagged text + occurrence), never by line number, so edits elsewhere in a file
// do not turn old findings into "new" ones.
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../output/write-file';
import { parseJsonText } from '../engine/json-text';

export const BASELINE_VERSION = 1;

export interface BaselineEntry {
  fingerprint: string;
  rule: string;
  file: string;
  /** For people reading the file; matching ignores it. */
  line: number;
  message: string;
}

export interface Baseline {
  version: number;
  tool: 'insertlint';
  findings: BaselineEntry[];
}

export class BaselineError extends Error {}

export function createBaseline(findings: readonly BaselineEntry[]): Baseline {
  const sorted = [...findings].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0)));
  return { version: BASELINE_VERSION, tool: 'insertlint', findings: sorted.map(({ fingerprint, rule, file, line, message }) => ({ fingerprint, rule, file, line, message })) };
}

export function writeBaseline(path: string, baseline: Baseline): void {
  try {
    writeFileAtomic(path, JSON.stringify(baseline, null, 2) + '\n');
  } catch (error) {
    throw new BaselineError(`cannot write the baseline ${path}: ${(error as Error).message}`);
  }
}

/** `shown` is the path as the user wrote it, for messages. */
export function readBaseline(path: string, shown = path): Baseline {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new BaselineError(`cannot read the baseline ${shown}: ${(error as Error).message}. Create it with --write-baseline ${shown}`);
  }
  let raw: unknown;
  try {
    raw = parseJsonText(text);
  } catch (error) {
    throw new BaselineError(`${shown} is not valid JSON ${(error as Error).message}; recreate it with --write-baseline`);
  }
  const value = raw as Partial<Baseline>;
  if (!value || typeof value !== 'object' || value.tool !== 'insertlint' || !Array.isArray(value.findings)) {
    throw new BaselineError(`${shown} is not an InsertLint baseline (expected {"tool": "insertlint", "findings": [...]})`);
  }
  if (value.version !== BASELINE_VERSION) {
    throw new BaselineError(`${shown} has baseline version ${String(value.version)}; this InsertLint reads version ${BASELINE_VERSION}. Recreate it with --write-baseline`);
  }
  value.findings.forEach((f, i) => {
    if (!f || typeof f.fingerprint !== 'string') throw new BaselineError(`${shown}: finding ${i + 1} has no fingerprint`);
  });
  return value as Baseline;
}

export interface BaselineComparison<T> {
  /** Findings whose fingerprint the baseline does not have. */
  fresh: T[];
  /** Findings the baseline already had. */
  known: T[];
  /** Baseline entries no current finding matches (fixed, or the flagged text changed). */
  gone: BaselineEntry[];
}

export function compareWithBaseline<T extends { fingerprint: string }>(findings: readonly T[], baseline: Baseline): BaselineComparison<T> {
  const recorded = new Set(baseline.findings.map((f) => f.fingerprint));
  const current = new Set(findings.map((f) => f.fingerprint));
  return {
    fresh: findings.filter((f) => !recorded.has(f.fingerprint)),
    known: findings.filter((f) => recorded.has(f.fingerprint)),
    gone: baseline.findings.filter((f) => !current.has(f.fingerprint)),
  };
}
