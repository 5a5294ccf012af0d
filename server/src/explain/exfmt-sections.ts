// One statement's block of a db2exfmt text (`STATEMENT n SECTION m`, or a whole paste without one): its head
// (QUERYNO, QUERYTAG, Statement Type) and its sections, found by their headings (Original and Optimized Statement,
// Access Plan, Extended Diagnostic Information, Plan Details, Objects Used). A paste without headings still shows
// its drawing and Plan Details blocks by their shape. Each section goes to its reader (exfmt-graph.ts,
// exfmt-details.ts, exfmt-objects.ts), and exfmt-tree.ts settles which tree the statement gets.
import type { ExplainMessage, ExplainStatement, PlanOperator } from './model';
import { parseOperatorLabel } from './symbols';
import { ambiguousBreak, breakWhy, numberAt, startsClause, type PasteCuts } from './exfmt-wrap';
import { DETAIL_HEADER, parsePlanDetails } from './exfmt-details';
import { parseObjects } from './exfmt-objects';
import { readDiagnostics } from './exfmt-diagnostics';
import { settlePlan, type GraphLines } from './exfmt-tree';

const DASHES = /^\s*-{3,}\s*$/;

/** Section headings: a "Name:" line followed by a dashed underline, or the well-known names. */
const KNOWN_SECTIONS = [
  'Original Statement',
  'Optimized Statement',
  'Access Plan',
  'Extended Diagnostic Information',
  'Plan Details',
  'Objects Used in Access Plan',
  'Operator Symbols',
  'Database Context',
  'Package Context',
];

interface Section {
  name: string;
  /** The line of its heading. */
  start: number;
  /** The heading's last line: a wrap may have cut it in two. */
  last: number;
}

/** Where the sections read after the others are: the drawing, and the lines [start, end) of Plan Details and Objects Used. */
interface Located {
  graph?: GraphLines;
  details?: [number, number];
  objects?: [number, number];
}

/**
 * "KEY: value" split at the first colon, both sides trimmed (the key keeps inner spaces). Done by hand: the
 * regex `:\s*(.*?)\s*$` it replaces rescans trailing blanks at every lazy step, 40 s on a 211 KB header line.
 */
export function keyValue(line: string): { key: string; value: string } | undefined {
  const colon = line.indexOf(':');
  if (colon < 0) return undefined;
  return { key: line.slice(0, colon).trimStart(), value: line.slice(colon + 1).trim() };
}

/** Reads lines [from, to) into `stmt`: its head, texts and diagnostics, then its tree (or the errors saying why none). */
export function parseStatementRegion(stmt: ExplainStatement, lines: string[], from: number, to: number, cuts: PasteCuts): void {
  const sections = findSections(lines, from, to);
  // The head is the "Key: value" lines before the first section.
  const headEnd = sections.length ? sections[0].start : to;
  readStatementHead(stmt, lines, from, headEnd);
  const located = readSections(stmt, lines, sections, to, cuts);
  // A pasted graph without the "Access Plan:" heading: find the first operator box.
  const graph = located.graph ?? findPastedGraph(lines, from, headEnd);
  // Plan Details blocks may be pasted without their heading (as in a forum post): find numbered operator headers.
  const details = located.details ?? unheadedDetails(lines, graph ? graph.end : from, to, located.objects);
  const refusedDetails = new Set<number>();
  const detailOps = details ? parsePlanDetails(lines, details[0], details[1], stmt.warnings, cuts, refusedDetails) : new Map<number, PlanOperator>();
  const objects = located.objects ? parseObjects(lines, located.objects[0], located.objects[1], stmt.warnings) : [];
  const doubtfulGraphLines: number[] = [];
  // A doubtful line that begins with a blank would be a lone ">" in the drawing as a rest: only the others matter.
  if (graph) for (let i = graph.start; i < graph.end; i++) if (cuts.doubtful[i] && /^\S/.test(lines[i])) doubtfulGraphLines.push(i);
  // The drawing in the columns the wrap cut it at (one level of "> " quoting whose rests a wrap left unquoted).
  const shiftedLines = cuts.shift ? lines.map((l, i) => (cuts.shift![i] > 0 && l !== '' ? ' '.repeat(cuts.shift![i]) + l : l)) : undefined;
  settlePlan(stmt, lines, { graph, hasDetails: details !== undefined, details: detailOps, objects, hasAccessPlanSection: sections.some((s) => s.name === 'Access Plan'), refusedDetails, doubtfulGraphLines, shiftedLines, joins: cuts.joins, wrapped: cuts.cut.some(Boolean) || cuts.doubtful.some(Boolean) });
}

function findSections(lines: string[], from: number, to: number): Section[] {
  const sections: Section[] = [];
  for (let i = from; i < to; i++) {
    const name = sectionName(lines[i].trim());
    if (name) sections.push({ name, start: i, last: i });
    else if (i + 2 < to && DASHES.test(lines[i + 2])) {
      // A heading that a wrap cut in two, its underline after it: its pieces end to end, or a blank between them.
      const [a, b] = [lines[i].trim(), lines[i + 1].trim()];
      const cut = a !== '' && b !== '' ? sectionName(a + b) ?? sectionName(`${a} ${b}`) : undefined;
      if (cut) sections.push({ name: cut, start: i, last: ++i });
    }
  }
  return sections;
}

function sectionName(l: string): string | undefined {
  const m = /^([A-Z][A-Za-z /()-]{2,60}?)\s*:$/.exec(l);
  if (!m) return undefined;
  // Only top-level names: Plan Details' own "Arguments:"/"Input Streams:" headings look the same once indentation is lost.
  return KNOWN_SECTIONS.includes(m[1]) ? m[1] : undefined;
}

/**
 * The lines [start, end) of section `index`: after its heading and the heading's dashed underline (a wrap may have
 * cut it: its pieces), up to the next section.
 */
function sectionBody(lines: string[], sections: Section[], index: number, to: number): [number, number] {
  const { name, last } = sections[index];
  let start = last + 1;
  if (start < to && DASHES.test(lines[start])) {
    // db2exfmt underlines a heading with as many dashes as it has characters, or one fewer.
    let dashes = lines[start++].trim().length;
    while (start < to && /^-+$/.test(lines[start].trim()) && dashes + lines[start].trim().length <= name.length + 1) dashes += lines[start++].trim().length;
  }
  const end = index + 1 < sections.length ? sections[index + 1].start : to;
  return [start, end];
}

/** QUERYNO, QUERYTAG and Statement Type from the statement's head. */
function readStatementHead(stmt: ExplainStatement, lines: string[], from: number, headEnd: number): void {
  for (let i = from; i < headEnd; i++) {
    const kv = keyValue(lines[i]);
    if (!kv) continue;
    const key = kv.key.trim();
    if (key === 'QUERYNO') {
      const n = numberAt(lines, i, kv.value, headEnd);
      stmt.queryNo = n.value;
      i = n.last;
    }
    // Every line of the statement's head is "Key: value": a line without a colon after one is the rest of its value,
    // which a wrap cut off.
    const cut = i + 1 < headEnd && lines[i + 1].trim() !== '' && !lines[i + 1].includes(':');
    if (cut && (key === 'QUERYTAG' || key === 'Statement Type')) {
      stmt.warnings.push({ code: 'wrapped-value', message: `Line ${i + 1}: the ${key} is not used: its value goes on on the next line ("${lines[i + 1].trim()}"), cut where the paste was wrapped.`, line: i + 1 });
      continue;
    }
    if (key === 'QUERYTAG') stmt.queryTag = kv.value;
    if (key === 'Statement Type') stmt.statementType = kv.value;
  }
}

/**
 * Reads the statement texts and diagnostics into `stmt` and says where the drawing, Plan Details and Objects Used
 * are: those are read once all sections are known (Plan Details tell a damaged drawing's operators apart).
 */
function readSections(stmt: ExplainStatement, lines: string[], sections: Section[], to: number, cuts: PasteCuts): Located {
  const located: Located = {};
  sections.forEach((s, index) => {
    const [start, end] = sectionBody(lines, sections, index, to);
    switch (s.name) {
      case 'Original Statement':
        stmt.originalText = statementText(lines, start, end, cuts, s.name, stmt.warnings);
        break;
      case 'Optimized Statement':
        stmt.optimizedText = statementText(lines, start, end, cuts, s.name, stmt.warnings);
        break;
      case 'Access Plan':
        located.graph = readAccessPlanHead(stmt, lines, start, end);
        break;
      case 'Extended Diagnostic Information':
        readDiagnostics(stmt, lines, start, end, cuts);
        break;
      case 'Plan Details':
        located.details = [start, end];
        break;
      case 'Objects Used in Access Plan':
        located.objects = [start, end];
        break;
    }
  });
  return located;
}

/** The "Total Cost:" and "Query Degree:" lines above the drawing, then the drawing's lines. */
function readAccessPlanHead(stmt: ExplainStatement, lines: string[], start: number, end: number): GraphLines {
  let g = start;
  let totalCost: number | undefined;
  for (; g < end; g++) {
    const l = lines[g];
    const tc = /^\s*Total Cost:\s*(.*)$/.exec(l);
    if (tc) {
      // A wrap may have put the end of the number on the next line.
      const n = numberAt(lines, g, tc[1], end);
      totalCost = n.value;
      if (n.refused) stmt.warnings.push({ code: 'wrapped-value', message: `Line ${g + 1}: the Total Cost is not used: ${n.refused}.`, line: g + 1 });
      g = n.last;
    } else if (/^\s*Query Degree:/.test(l)) g = numberAt(lines, g, l.slice(l.indexOf(':') + 1), end).last;
    // A line of blanks may be the first half of a folded graph line: it starts the graph.
    else if (l.trim() !== '' || l.length > 2) break;
  }
  return { start: g, end: trimGraphEnd(lines, g, end), totalCost };
}

/** Plan Details without their heading: from the first operator header after the drawing to Objects Used or the end. */
function unheadedDetails(lines: string[], from: number, to: number, objects: [number, number] | undefined): [number, number] | undefined {
  for (let i = from; i < to; i++) if (DETAIL_HEADER.test(lines[i])) return [i, objects ? objects[0] - 1 : to];
  return undefined;
}

/**
 * Statement texts wrap at ~80 columns with an indented continuation; join the continuations back. A line that fills
 * the width of a wrapped paste and goes on on the next line without a blank may have been cut inside a word (or
 * not): then the text is not used, rather than shown and read with a name or a number cut in two.
 */
function statementText(lines: string[], start: number, end: number, cuts: PasteCuts, section: string, warnings: ExplainMessage[]): string | undefined {
  const out: string[] = [];
  for (let i = start; i < end; i++) {
    const raw = lines[i];
    if (raw.trim() === '') {
      if (out.length) out.push('');
      continue;
    }
    if (i > start && ambiguousBreak(lines, i - 1, i, cuts) && (cuts.doubtful[i] || !startsClause(raw))) {
      warnings.push({
        code: 'wrapped-text',
        message: cuts.doubtful[i]
          ? `The ${section} is not used: ${breakWhy(i - 1, i, cuts)} ("${raw.trim().slice(0, 12)}"); nothing tells which.`
          : `The ${section} is not used: line ${i} may end where the paste was wrapped and goes on on line ${i + 1} ("${lines[i - 1].trimEnd().slice(-12)}" / "${raw.trim().slice(0, 12)}"), so a wrap may have cut a word or a number there, or the break is the statement's own; nothing tells which.`,
        line: i,
      });
      return undefined;
    }
    if (/^(\t| {4,})/.test(raw) && out.length && out[out.length - 1] !== '') out[out.length - 1] += ' ' + raw.trim();
    else out.push(raw.trimEnd());
  }
  while (out.length && out[out.length - 1] === '') out.pop();
  return out.length ? out.join('\n') : undefined;
}

/** The graph ends at a blank line followed by prose, a section heading or the end. */
function trimGraphEnd(lines: string[], start: number, end: number): number {
  let last = start;
  for (let i = start; i < end; i++) {
    const l = lines[i];
    if (l.trim() === '') continue;
    if (looksLikeProse(l) && i > start) {
      // Only stop at prose after a blank line; graph lines never hold sentences.
      if (lines[i - 1].trim() === '' || DETAIL_HEADER.test(l)) break;
    }
    if (DETAIL_HEADER.test(l)) break;
    last = i + 1;
  }
  return last;
}

/** Two lower-case words in a row: a sentence, never a graph line (operator and object names are upper case). */
function looksLikeProse(line: string): boolean {
  if (line.trimStart().startsWith('[...')) return true;
  const words = line.split(/\s+/);
  for (let i = 0; i + 1 < words.length; i++) {
    if (/^[a-z]{3,}[,.]?$/.test(words[i]) && /^[a-z]{2,}/.test(words[i + 1])) return true;
  }
  return false;
}

/** A drawing pasted without its "Access Plan:" heading: from the legend above its first operator box. */
function findPastedGraph(lines: string[], from: number, to: number): GraphLines | undefined {
  let firstId = -1;
  for (let i = Math.max(from, 1); i < to && firstId < 0; i++) {
    if (/(^|\s)\(\s{0,8}\d{1,6}\)(\s|$)/.test(lines[i]) && !DETAIL_HEADER.test(lines[i]) && lines[i - 1].trim().split(/\s+/).some((t) => parseOperatorLabel(t) !== undefined)) firstId = i;
  }
  if (firstId < 0) return undefined;
  let start = firstId - 1;
  // Include the legend and rows lines above the first readable box (in a folded paste, whole boxes).
  // A line of blanks can be half of a folded graph line; only an empty line ends the drawing.
  const empty = (l: string) => l.length <= 2 && l.trim() === '';
  while (start > from && !empty(lines[start - 1]) && !looksLikeProse(lines[start - 1]) && !/:\s*$/.test(lines[start - 1])) start--;
  return { start, end: trimGraphEnd(lines, start, to) };
}
