// Inline suppressions: `-- insertlint-disable-next-line rule-a, rule-b: reason`, a trailing
// `-- insertlint-disable-line rule-a` (ESLint's forms) and `-- insertlint-disable-file rule-a`. Comments come
// from the front ends (SQL and host languages), so every comment syntax they read carries them. A comment that
// starts like a directive but is none (`insertlint-disable rule-a`, `insertlint-disable-nextline`) suppresses
// nothing and is reported as such: a silent no-op would look like a working suppression.
import type { Comment } from '../sql/ast';
import type { Diagnostic } from './types';
import type { LineIndex } from './lines';
import { didYouMean } from './spelling';

export const UNUSED_SUPPRESSION_RULE = 'unused-suppression';

export interface Suppression {
  /** `unknown`: a comment that starts like a directive but is none (reported, suppresses nothing). */
  kind: 'line' | 'next-line' | 'file' | 'unknown';
  /** Empty: every rule. */
  rules: string[];
  reason?: string;
  comment: Comment;
  /** 0-based line the suppression covers: the comment's own line (line) or the one after it (next-line). */
  line?: number;
  /** The word the comment starts with (unknown only): `insertlint-disable`. */
  directive?: string;
  used: boolean;
}

const DIRECTIVE = /^\s*insertlint-disable-(next-line|line|file)\b([^:]*)(?::(.*))?$/;
/** A comment that starts with an insertlint- word: a directive, or a misspelt one. */
const DIRECTIVE_LIKE = /^\s*(insertlint-[A-Za-z-]*)/;

/** The directives, as the unknown-directive message lists them. */
const DIRECTIVES = 'insertlint-disable-line, insertlint-disable-next-line or insertlint-disable-file';

export function readSuppressions(comments: readonly Comment[], lines: LineIndex): Suppression[] {
  const out: Suppression[] = [];
  // By index: every comment of every file passes here, mostly before V8 has optimised it (for…of made an
  // object per comment then).
  for (let i = 0; i < comments.length; i++) {
    const comment = comments[i];
    if (!comment.text.includes('insertlint-')) continue;
    const text = comment.text.replace(/\*\/\s*$/, '');
    const match = DIRECTIVE.exec(text);
    if (!match) {
      const like = DIRECTIVE_LIKE.exec(text);
      if (like) out.push({ kind: 'unknown', rules: [], comment, directive: like[1], used: false });
      continue;
    }
    const rules = match[2].split(',').map((r) => r.trim()).filter(Boolean);
    const kind = match[1] as Suppression['kind'];
    out.push({
      kind,
      rules,
      reason: match[3]?.trim() || undefined,
      comment,
      // A trailing comment covers the line it starts on (a block comment running on covers its first line).
      line: kind === 'next-line' ? lines.position(comment.span.end).line + 1 : kind === 'line' ? lines.position(comment.span.start).line : undefined,
      used: false,
    });
  }
  return out;
}

/**
 * Marks suppressed diagnostics (replaced in `diagnostics` by marked copies) and reports suppressions that matched nothing. `judgeable` says whether a
 * suppression that matched nothing can be called unused (engine/suppression-scope.ts); unknown rule ids
 * are reported regardless.
 */
export function applySuppressions(
  diagnostics: Diagnostic[],
  suppressions: Suppression[],
  lines: LineIndex,
  file: string,
  knownRules: ReadonlySet<string>,
  judgeable: (s: Suppression) => boolean = () => true,
): Diagnostic[] {
  if (suppressions.length === 0) return diagnostics;
  // Next-line suppressions by the line they cover, so that a generated script with a suppression on every
  // statement costs findings + suppressions, not findings × suppressions. The first suppression in comment
  // order that matches wins, as before.
  const fileWide: Suppression[] = [];
  const byLine = new Map<number, Suppression[]>();
  for (const s of suppressions) {
    if (s.kind === 'unknown') continue;
    if (s.kind === 'file') fileWide.push(s);
    else {
      const list = byLine.get(s.line!);
      if (list) list.push(s);
      else byLine.set(s.line!, [s]);
    }
  }
  const order = new Map(suppressions.map((s, i) => [s, i]));
  for (let i = 0; i < diagnostics.length; i++) {
    const d = diagnostics[i];
    const line = lines.line(d.span.start);
    // A part of a finding on another line (Diagnostic.partOf) is shown there: a suppression of that line covers it too.
    const partLine = d.partOf ? lines.line(d.partOf.start) : line;
    const onLine = partLine === line ? byLine.get(line) : [...(byLine.get(line) ?? []), ...(byLine.get(partLine) ?? [])].sort((a, b) => order.get(a)! - order.get(b)!);
    const candidates = onLine ? (fileWide.length ? [...onLine, ...fileWide].sort((a, b) => order.get(a)! - order.get(b)!) : onLine) : fileWide;
    for (const s of candidates) {
      if (s.rules.length > 0 && !s.rules.includes(d.rule)) continue;
      s.used = true;
      // A marked copy in its place: the finding itself may be kept for the next analysis (engine/segments.ts).
      diagnostics[i] = { ...d, suppressed: { kind: s.kind === 'file' ? 'file' : 'line', justification: s.reason } };
      break;
    }
  }
  const extra: Diagnostic[] = [];
  for (const s of suppressions) {
    if (s.kind === 'unknown') {
      extra.push({ ...unusedSuppression(file, s, ''), message: `This comment is not an InsertLint directive: ${s.directive} is unknown (use ${DIRECTIVES}), so it suppresses nothing.` });
      continue;
    }
    const unknown = s.rules.filter((r) => !knownRules.has(r));
    if (unknown.length > 0) {
      const named = unknown.map((r) => r + didYouMean(r, [...knownRules], ''));
      extra.push(unusedSuppression(file, s, `names unknown rule${unknown.length > 1 ? 's' : ''} ${named.join(', ')}`));
    } else if (!s.used && judgeable(s)) {
      extra.push(unusedSuppression(file, s, `matches no finding${s.kind === 'next-line' ? ' on the next line' : s.kind === 'line' ? ' on its own line' : ' in this file'}; remove it`));
    }
  }
  return diagnostics.concat(extra);
}

function unusedSuppression(file: string, s: Suppression, why: string): Diagnostic {
  return {
    file,
    span: s.comment.span,
    rule: UNUSED_SUPPRESSION_RULE,
    severity: 'warning',
    message: `This insertlint-disable-${s.kind} comment ${why}.`,
  };
}
