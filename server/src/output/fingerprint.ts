// Finding fingerprints that survive unrelated edits: they hash what was flagged (rule, file, the flagged
// lines' text with whitespace normalized), never where it is, so lines moving above a finding leave it alone.
// Identical findings (same rule, same text, same file) are told apart by their order of occurrence.
import { LineIndex } from '../engine/lines';

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

/** A file's lines by number (1-based), without their line ends. */
export interface LineSource {
  lineCount: number;
  line(n: number): string;
}

/** The lines of `text`, through the line index the workspace already built for it when given. */
export function lineSource(text: string, index: LineIndex = new LineIndex(text)): LineSource {
  return {
    lineCount: index.lineCount,
    line(n) {
      const start = index.lineStart(n - 1);
      let end = n < index.lineCount ? index.lineStart(n) : text.length;
      while (end > start && (text.charCodeAt(end - 1) === 10 || text.charCodeAt(end - 1) === 13)) end--;
      return text.slice(start, end);
    },
  };
}

/** The flagged lines, joined, with runs of whitespace collapsed and case kept. */
export function normalizedLines(lines: LineSource, line: number, endLine: number): string {
  const last = Math.min(endLine, line + MAX_LINES - 1, lines.lineCount);
  const out: string[] = [];
  for (let i = Math.max(1, line); i <= last; i++) {
    const text = lines.line(i).replace(/\s+/g, ' ').trim();
    if (text) out.push(text);
  }
  return out.join('\n');
}

/**
 * Fingerprints for a list of findings, in the same order. `linesOf` gives the lines of a finding's file.
 * The occurrence index counts identical (rule, file, text) findings in the order given, which callers keep
 * stable (file order, then position).
 */
export function fingerprints<T extends FingerprintInput>(findings: readonly T[], linesOf: (finding: T) => LineSource | undefined): string[] {
  const empty = lineSource('');
  const seen = new Map<string, number>();
  return findings.map((f) => {
    const key = [f.rule, f.displayPath, normalizedLines(linesOf(f) ?? empty, f.line, f.endLine)].join('\u0000');
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    return sha256Hex(`${key}\u0000${occurrence}`).slice(0, 32);
  });
}

/**
 * The SHA-256 of a text (as UTF-8), in hex; node:crypto is loaded when a fingerprint is first needed (baselines,
 * SARIF), not at every start-up (~3 ms). crypto.hash (Node 20.12 and later) takes about half the time of a Hash
 * object per text, for the same digest.
 */
function sha256Hex(text: string): string {
  const crypto = require('node:crypto') as typeof import('node:crypto');
  return typeof crypto.hash === 'function' ? crypto.hash('sha256', text, 'hex') : crypto.createHash('sha256').update(text).digest('hex');
}
