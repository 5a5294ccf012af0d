// One cause, one finding: rules of one group (RuleMeta.group) that report on the same line describe the same
// row-at-a-time pattern from different sides (its commits, its compiles, its round trips). The engine shows
// them as one diagnostic, the most severe (then the first) carrying the others as related information. A side
// found on another line (a prepare redone on every pass, above the execute) names its line (Diagnostic.partOf).
import type { LineIndex } from './lines';
import { countText } from './count-text';
import type { Span } from '../sql/ast';
import { SEVERITY_RANK, type Diagnostic, type MoveAfterLoad, type MovedDdl, type RelatedLocation, type StatementAt } from './types';

/** The first sentence of a message: what the Problems panel and annotations show first. */
export function firstSentence(message: string): string {
  // A sentence ends at . ! or ? followed by white space (or the end): "180.6 s" and "e.g." inside words do not
  // end it. A scan, not /^.*?[.!?](?=\s|$)/s: a 50,000-line script merges 70,000 findings per analysis.
  const n = message.length;
  for (let i = 0; i < n; i++) {
    const c = message.charCodeAt(i);
    if (c !== 46 && c !== 33 && c !== 63) continue;
    if (i + 1 === n || isSpace(message.charCodeAt(i + 1))) return message.slice(0, i + 1).trim();
  }
  return message.trim();
}

/** More severe; on a tie, a finding on the line itself over a part of it from another line (then the first stays). */
function outranks(d: Diagnostic, best: Diagnostic): boolean {
  const by = SEVERITY_RANK[d.severity] - SEVERITY_RANK[best.severity];
  return by > 0 || (by === 0 && best.partOf !== undefined && d.partOf === undefined);
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || (c > 127 && /\s/.test(String.fromCharCode(c)));
}

/**
 * Merges the unsuppressed findings of one group that start on the same line, or name it (Diagnostic.partOf).
 * `groupOf` gives a rule's group (undefined: never merged). Keeps the order of `diagnostics` (the primary takes
 * the place of the first on the line). Parts with no finding on their line stay as they are.
 */
export function mergeSameCause(diagnostics: Diagnostic[], lines: LineIndex, groupOf: (rule: string) => string | undefined): Diagnostic[] {
  // Most files have no finding or one (a run over 939 scripts: maps made for nothing, per file).
  if (diagnostics.length < 2) return diagnostics;
  // By group, then by line: a finding alone on its line (most of 3,452 in a 50,000-line script, merged on every
  // keystroke) costs no key string and no list.
  const byGroup = new Map<string, Map<number, Diagnostic | Diagnostic[]>>();
  for (const d of diagnostics) {
    const group = d.suppressed ? undefined : groupOf(d.rule);
    if (group === undefined) continue;
    let byLine = byGroup.get(group);
    if (!byLine) byGroup.set(group, (byLine = new Map()));
    const line = lines.line((d.partOf ?? d.span).start);
    const seen = byLine.get(line);
    if (seen === undefined) byLine.set(line, d);
    else if (Array.isArray(seen)) seen.push(d);
    else byLine.set(line, [seen, d]);
  }
  const lists: Diagnostic[][] = [];
  for (const byLine of byGroup.values()) for (const seen of byLine.values()) if (Array.isArray(seen) && seen.some((d) => !d.partOf)) lists.push(seen);
  const replaced = new Map<Diagnostic, Diagnostic | null>();
  for (const list of lists) {
    const primary = list.reduce((best, d) => (outranks(d, best) ? d : best));
    const others = list.filter((d) => d !== primary);
    // A quick fix of any part stays offered: the merge is about display, not about what can be mended.
    const fix = primary.fix ?? others.find((d) => d.fix)?.fix;
    const mergedRules = [...new Set([...(primary.mergedRules ?? []), ...others.map((d) => d.rule)])].filter((r) => r !== primary.rule);
    // The runs the parts describe may differ (a table's run, the script's autocommits): a change to any touches it.
    const extents = list.filter((d) => d.extent).map((d) => d.extent!);
    const extent = extents.length ? spanOver([...extents, primary.span]) : undefined;
    const merged: Diagnostic = {
      ...primary,
      ...(fix ? { fix } : {}),
      mergedRules,
      ...(extent ? { extent } : {}),
      related: [
        ...(primary.related ?? []),
        ...others.map(alsoRelated),
      ],
    };
    for (const d of list) replaced.set(d, null);
    replaced.set(primary.partOf ? primary : list.find((d) => !d.partOf)!, merged);
  }
  return replacing(diagnostics, replaced);
}

/**
 * One remedy, one finding: findings of different rules that say to move DDL after the same load (index-count's
 * indexes and enforced-foreign-key's keys on a table an upgrade step fills, Diagnostic.moveAfterLoad) become one,
 * whatever their lines. It names every part with its figures and the statements to move, and points at the others
 * and the load. A rule turned off or silenced leaves the other's finding alone, with its own message.
 * Several tables of the file given the same advice (the same rules, the same severity, nothing said of one table
 * alone: Flowable's step creates and indexes three job tables, then fills each) are one finding too (mergeTables).
 */
export function mergeMovesAfterLoad(diagnostics: Diagnostic[], lines: LineIndex): Diagnostic[] {
  let byKey: Map<string, Diagnostic[]> | undefined;
  for (const d of diagnostics) {
    if (!d.moveAfterLoad || d.suppressed) continue;
    byKey ??= new Map();
    const list = byKey.get(d.moveAfterLoad.key);
    if (list) list.push(d);
    else byKey.set(d.moveAfterLoad.key, [d]);
  }
  if (!byKey) return diagnostics;
  // The tables of one advice, in the order of their first findings.
  const byAdvice = new Map<string, Diagnostic[][]>();
  for (const list of byKey.values()) {
    const advice = sameAdvice(list);
    if (advice === undefined) continue;
    const tables = byAdvice.get(advice);
    if (tables) tables.push(list);
    else byAdvice.set(advice, [list]);
  }
  const replaced = new Map<Diagnostic, Diagnostic | null>();
  for (const tables of byAdvice.values()) if (tables.length > 1) mergeTables(tables, lines, replaced);
  for (const list of byKey.values()) {
    if (replaced.has(list[0]) || new Set(list.map((d) => d.rule)).size < 2) continue;
    const primary = list.reduce((best, d) => (SEVERITY_RANK[d.severity] > SEVERITY_RANK[best.severity] ? d : best));
    const { subject, load, loadSpan } = primary.moveAfterLoad!;
    const parts = list.map((d) => d.moveAfterLoad!);
    // The remedy second, right after what is wrong: the costs and their figures, which run long, come after it.
    const message =
      `${subject} has ${andList(parts.map((p) => p.cost))}, all created before ${load} that fills it. ` +
      `One change removes ${parts.length === 2 ? 'both' : `all ${parts.length}`} costs: move ${andList(parts.flatMap((p) => p.moves))} after ${load}. ` +
      parts.map((p) => p.part).join(' ');
    const merged = mergedOf(primary, list, message, lines, [loadSpan]);
    merged.related = [...merged.related!, { file: primary.file, span: loadSpan, message: 'what fills the table: move them after it' }];
    for (const d of list) replaced.set(d, null);
    replaced.set(list[0], merged);
  }
  return replacing(diagnostics, replaced);
}

/**
 * What a table's findings advise, as a key: tables with the same key are told the same thing and can be one finding.
 * Undefined when a finding says something of the table alone (MoveAfterLoad.particular).
 */
function sameAdvice(list: readonly Diagnostic[]): string | undefined {
  if (list.some((d) => d.moveAfterLoad!.particular)) return undefined;
  const rules = [...new Set(list.flatMap((d) => [d.rule, ...(d.mergedRules ?? [])]))].sort();
  const severity = list.reduce((best, d) => (SEVERITY_RANK[d.severity] > SEVERITY_RANK[best] ? d.severity : best), list[0].severity);
  return `${list[0].file}\u0000${severity}\u0000${rules.join(',')}`;
}

/** Tables named in a message, at most; related information points at every one. */
const MAX_TABLES_NAMED = 4;

/**
 * Several tables' findings that give the same advice as one finding (each table's findings in `tables`, one list per
 * table and load): the tables and their loads, the statements to move for all of them by line ranges, and each cost's
 * figure once. Each table's findings and load stay as related information.
 */
function mergeTables(tables: readonly Diagnostic[][], lines: LineIndex, replaced: Map<Diagnostic, Diagnostic | null>): void {
  const all = tables.flat();
  const primary = all.reduce((best, d) => (SEVERITY_RANK[d.severity] > SEVERITY_RANK[best.severity] ? d : best));
  // One part per rule (every table has the same ones), in the order of the first table's findings.
  const parts = tables[0].map((d) => d.moveAfterLoad!);
  const moves = tables.map((list) => list[0].moveAfterLoad!);
  const words = new Set(moves.map((m) => m.loadWord));
  const loads = words.size === 1 ? `${[...words][0]}s` : 'statements';
  const loadLine = (m: MoveAfterLoad) => countText(lines.line(m.loadSpan.start) + 1);
  const named = moves.slice(0, MAX_TABLES_NAMED).map((m, i) => `${m.table} (${i === 0 ? 'filled at ' : ''}line ${loadLine(m)})`);
  if (moves.length > MAX_TABLES_NAMED) named.push(`${countText(moves.length - MAX_TABLES_NAMED)} more`);
  const baselines = [...new Set(parts.map((p) => p.baseline))];
  const message =
    `${countText(tables.length)} bulk targets get ${andList(parts.map((p) => p.kind))} before the ${loads} that fill them. ` +
    `They are ${andList(named)}. ` +
    `One change for ${tables.length === 2 ? 'both' : `all ${countText(tables.length)}`}: move ${andList(movedText(all.flatMap((d) => d.moveAfterLoad!.ddl)))} after those ${loads}. ` +
    `Every row they insert ${andList(parts.map((p) => p.perRow))}. ` +
    `${[...baselines, ...parts.map((p) => p.figure)].join('; ')}.`;
  const merged = mergedOf(primary, all, message, lines, moves.map((m) => m.loadSpan));
  // Each table's findings where they are, its load after them: the editor lists them in that order.
  merged.related = [
    ...(primary.related ?? []),
    ...tables.flatMap((list) => [
      ...list.filter((d) => d !== primary).map(alsoRelated),
      { file: primary.file, span: list[0].moveAfterLoad!.loadSpan, message: `what fills ${list[0].moveAfterLoad!.table}: move its ${andList(parts.map((p) => p.kind))} after it` },
    ]),
  ];
  for (const d of all) replaced.set(d, null);
  replaced.set(all[0], merged);
}

/**
 * `primary` shown for all of `list` (its own included) with `message`: their rules, their fix, and an extent over
 * them and `loads`; related information the others, for the caller to complete.
 */
function mergedOf(primary: Diagnostic, list: readonly Diagnostic[], message: string, lines: LineIndex, loads: readonly Span[]): Diagnostic {
  const others = list.filter((d) => d !== primary);
  const line = lines.line(primary.span.start);
  const mergedRules = [...new Set(others.flatMap((d) => [d.rule, ...(d.mergedRules ?? [])]))].filter((r) => r !== primary.rule);
  const elsewhere = new Set(others.filter((d) => lines.line(d.span.start) !== line).flatMap((d) => [d.rule, ...(d.mergedRules ?? [])]));
  const parts = list.flatMap((d) => d.mergedParts ?? [{ start: d.span.start, rules: [d.rule, ...(d.mergedRules ?? [])] }]);
  // A change to any part, or to a load, touches the finding (--only-changed, the review checklist).
  const spans = [...list.map((d) => d.extent ?? d.span), ...loads];
  const fix = primary.fix ?? others.find((d) => d.fix)?.fix;
  const { moveAfterLoad: _part, ...rest } = primary;
  return {
    ...rest,
    message,
    ...(fix ? { fix } : {}),
    mergedRules,
    ...(mergedRules.some((r) => elsewhere.has(r)) ? { mergedElsewhere: mergedRules.filter((r) => elsewhere.has(r)) } : {}),
    ...(parts.some((p) => lines.line(p.start) !== line) ? { mergedParts: parts } : {}),
    extent: spanOver(spans),
    related: [...(primary.related ?? []), ...others.map(alsoRelated)],
  };
}

/**
 * The statements to move, each kind once over every table, in the order first met: "the CREATE INDEX statements at
 * lines 74–85", "the foreign keys of the CREATE TABLE statements at lines 2 and 9 (as ALTER TABLE … ADD CONSTRAINT)".
 */
function movedText(ddl: readonly MovedDdl[]): string[] {
  const byKind = new Map<string, { words: string; keys?: number; at: StatementAt[] }>();
  for (const d of ddl) {
    const kind = `${d.words}\u0000${d.keys !== undefined}`;
    const seen = byKind.get(kind);
    if (!seen) byKind.set(kind, { words: d.words, ...(d.keys !== undefined ? { keys: d.keys } : {}), at: [...d.at] });
    else {
      seen.at.push(...d.at);
      if (d.keys !== undefined) seen.keys = (seen.keys ?? 0) + d.keys;
    }
  }
  return [...byKind.values()].map((k) =>
    k.keys === undefined ? statementsText(k.words, k.at) : `the foreign key${k.keys > 1 ? 's' : ''} of ${statementsText(k.words, k.at)} (as ALTER TABLE … ADD CONSTRAINT)`,
  );
}

/**
 * "the CREATE INDEX statements at lines 63–66", "the ALTER TABLE … ADD CONSTRAINT statement at line 91": statements
 * by the lines they start on, statements next to each other in the file as one range of lines (past six ranges,
 * "and n more"). With each statement's line as its ordinal, consecutive lines make the ranges. `count`: how many
 * statements (two on one line are two).
 */
export function statementsText(words: string, at: readonly StatementAt[], count = new Set(at.map((a) => a.ordinal)).size): string {
  const sorted = [...at].sort((a, b) => a.ordinal - b.ordinal || a.line - b.line);
  const ranges: string[] = [];
  const lines = new Set<number>();
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1].ordinal - sorted[j].ordinal <= 1) j++;
    const first = sorted[i].line;
    const last = sorted[j].line;
    ranges.push(last > first ? `${countText(first)}\u2013${countText(last)}` : countText(first));
    for (let k = i; k <= j; k++) lines.add(sorted[k].line);
    i = j + 1;
  }
  const listed = ranges.length <= 6 ? andList(ranges) : `${ranges.slice(0, 6).join(', ')} and ${ranges.length - 6} more`;
  return `the ${words} statement${count > 1 ? 's' : ''} at line${lines.size > 1 ? 's' : ''} ${listed}`;
}

/**
 * From the first start to the last end of `spans`. A loop, not Math.min(...starts): spreading a list passes each
 * item as an argument, and a script of 70,000 tables given the same move-after-load advice overflowed the stack.
 */
function spanOver(spans: readonly Span[]): Span {
  let start = Infinity;
  let end = -Infinity;
  for (const s of spans) {
    if (s.start < start) start = s.start;
    if (s.end > end) end = s.end;
  }
  return { start, end };
}

/** `diagnostics` in order, each replaced by its merge (null: merged into another), or the same list when none is. */
function replacing(diagnostics: Diagnostic[], replaced: ReadonlyMap<Diagnostic, Diagnostic | null>): Diagnostic[] {
  if (replaced.size === 0) return diagnostics;
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    const r = replaced.get(d);
    if (r === undefined) out.push(d);
    else if (r !== null) out.push(r);
  }
  return out;
}

/** A merged part as related information: its rule and first sentence, where it stands. */
function alsoRelated(d: Diagnostic): RelatedLocation {
  return { file: d.file, span: d.span, message: `also ${d.rule}: ${firstSentence(d.message)}` };
}

/** "a", "a and b", "a, b and c". */
export function andList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
