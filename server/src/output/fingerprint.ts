// Finding fingerprints that survive unrelated edits: they hash what was flagged (rule, file, the flagged
// lines' text with whitespace normalized), never where it is, so lines moving above a finding leave it alone.
// Identical findings (same rule, same text, same file) are told apart by their order of occurrence.
import { createHash } from 'node:crypto';

/** The key under which SARIF `partialFingerprints` carries ours. */
export const FINGERPRINT_KEY = 'insertlintFindingHash/v1';

/** Flagged statements can be long; past this many lines the text adds little and costs hashing time. */
const MAX_LINES = 50;

export interface FingerprintInput {
  rule: string;
  /** The file as the fingerprint knows it (a relative path with forward slashes). */
  displayPath: string;
  /** 1-based, inclusive. */
  line: number;
  endLine: number;
}

/** The flagged lines of a file's text, joined, with runs of whitespace collapsed and case kept. */
export function normalizedLines(lines: readonly string[], line: number, endLine: number): string {
  const last = Math.min(endLine, line + MAX_LINES - 1, lines.length);
  const out: string[] = [];
  for (let i = Math.max(1, line); i <= last; i++) {
    const text = lines[i - 1].replace(/\s+/g, ' ').trim();
    if (text) out.push(text);
  }
  return out.join('\n');
}

export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/**
 * Fingerprints for a list of findings, in the same order. `textOf` returns the text of a displayed file.
 * The occurrence index counts identical (rule, file, text) findings in the order given, which callers keep
 * stable (file order, then position).
 */
export function fingerprints<T extends FingerprintInput>(findings: readonly T[], textOf: (finding: T) => string | undefined): string[] {
  const splitCache = new Map<string, string[]>();
  const seen = new Map<string, number>();
  return findings.map((f) => {
    let lines = splitCache.get(f.displayPath);
    if (!lines) {
      lines = splitLines(textOf(f) ?? '');
      splitCache.set(f.displayPath, lines);
    }
    const key = [f.rule, f.displayPath, normalizedLines(lines, f.line, f.endLine)].join('\u0000');
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    return createHash('sha256').update(`${key}\u0000${occurrence}`).digest('hex').slice(0, 32);
  });
}
