// parseExfmt: reads db2exfmt output (whole files, several statements, or just a pasted Access Plan graph)
// into ExfmtDocument. It never throws: problems become errors/warnings on the document or statement.
import {
  finishPlan,
  newOperator,
  objectKey,
  type AccessPlan,
  type ExfmtDocument,
  type ExplainMessage,
  type ExplainStatement,
  type ObjectInfo,
  type PlanOperator,
  type PlanPredicate,
} from './model';
import { parseGraph, undoubleSpacing } from './exfmt-graph';
import { flagsFromArguments, labelFromFlags, LONG_NAMES, parseDb2Number, parseOperatorLabel } from './symbols';
import { ambiguousBreak, measurePaste, numberAt, type PasteWidth } from './exfmt-wrap';

/** Inputs above this size are refused rather than scanned (a db2exfmt file of 2,000 operators is ~2 MB). */
export const MAX_EXFMT_BYTES = 32 * 1024 * 1024;

const INSTANCE = /^\s*\*{10,}\s*EXPLAIN INSTANCE\s*\*{10,}\s*$/;
const STATEMENT = /^\s*-{5,}\s*STATEMENT\s+(\d+)\s+SECTION\s+(\d+)\s*-{5,}\s*$/;
const DASHES = /^\s*-{3,}\s*$/;
// Db2 11.5.8 and 12.1 pad the operator name before the colon: "2) FETCH : (Fetch)", "5) TQ    : (Table Queue)".
const DETAIL_HEADER = /^\s*(\d+)\)\s+([>x^ABCDLMXSpg]{0,3}[A-Z][A-Z0-9]{1,9}[<x^*]{0,3})\s*:\s*\((.*)\)\s*$/;
/** Graph warnings that describe a repair, not a doubt about the tree. */
const INFORMATIONAL_GRAPH_WARNINGS = new Set(['rejoined-wrapped-lines', 'damaged-graph-chain', 'damaged-graph-levels']);

export function parseExfmt(input: unknown): ExfmtDocument {
  const doc: ExfmtDocument = { kind: 'unknown', header: { fields: {} }, statements: [], errors: [], warnings: [] };
  try {
    parseInto(doc, input);
  } catch (err) {
    // A parser bug must not take the caller down; report it like any other unreadable input.
    doc.errors.push({ code: 'internal-error', message: `The plan parser failed unexpectedly: ${(err as Error)?.message ?? String(err)}` });
  }
  return doc;
}

/**
 * A plan quoted in a mail reply (or a forum's quote) has `> ` before every line, once per level of quoting: taken
 * off while every non-blank line has one, the rest of each line as db2exfmt wrote it.
 */
function unquoteReply(lines: string[]): string[] {
  let out = lines;
  while (out.some((l) => l.trim() !== '') && out.every((l) => l.trim() === '' || l.startsWith('>'))) out = out.map((l) => (l.startsWith('> ') ? l.slice(2) : l.slice(1)));
  return out;
}

function parseInto(doc: ExfmtDocument, input: unknown): void {
  if (typeof input !== 'string') {
    doc.errors.push({ code: 'not-text', message: 'The input is not text.' });
    return;
  }
  if (input.length > MAX_EXFMT_BYTES) {
    doc.errors.push({ code: 'too-large', message: `The input is ${Math.round(input.length / 1048576)} MB; plans above ${MAX_EXFMT_BYTES / 1048576} MB are not read.` });
    return;
  }
  if (input.includes('\u0000')) {
    doc.errors.push({ code: 'binary', message: 'The input looks binary (it contains NUL bytes), not a db2exfmt text.' });
    return;
  }
  const text = input.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const lines = undoubleSpacing(unquoteReply(text.split('\n')), (l) => l);
  const width = measurePaste(lines);

  if (isDb2expln(lines)) {
    doc.kind = 'db2expln';
    doc.errors.push({
      code: 'db2expln',
      message:
        'This is db2expln output (the "SQL and XQUERY Explain Tool"), not db2exfmt. db2expln describes section steps and draws a graph without I/O costs or plan details, so InsertLint does not read it. Run EXPLAIN PLAN FOR <insert> and then `db2exfmt -d <db> -1 -o plan.txt`, or use `insertlint explain --sql … --connection …`.',
      line: 1,
    });
    return;
  }

  readHeader(doc, lines);
  const starts: { line: number; number: number; section: number }[] = [];
  lines.forEach((l, i) => {
    const m = STATEMENT.exec(l);
    if (m) starts.push({ line: i, number: Number(m[1]), section: Number(m[2]) });
  });

  if (starts.length === 0) {
    const stmt = newStatement();
    parseStatementRegion(stmt, lines, 0, lines.length, width);
    if (stmt.plan || stmt.errors.length > 0) {
      doc.kind = lines.some((l) => INSTANCE.test(l)) ? 'db2exfmt' : 'graph';
      doc.statements.push(stmt);
    }
  } else {
    doc.kind = 'db2exfmt';
    starts.forEach((s, i) => {
      let end = i + 1 < starts.length ? starts[i + 1].line : lines.length;
      // A new EXPLAIN INSTANCE header ends the statement too.
      for (let l = s.line + 1; l < end; l++) {
        if (INSTANCE.test(lines[l])) {
          end = l;
          break;
        }
      }
      const stmt = newStatement();
      stmt.statementNumber = s.number;
      stmt.sectionNumber = s.section;
      parseStatementRegion(stmt, lines, s.line + 1, end, width);
      doc.statements.push(stmt);
    });
  }
  if (doc.statements.length === 0) {
    doc.errors.push({
      code: 'no-plan',
      message: 'No access plan found: the text has neither a db2exfmt "Access Plan:" section nor a plan graph with numbered operator boxes such as "(   1)".',
    });
  }
}

function newStatement(): ExplainStatement {
  return { diagnostics: [], errors: [], warnings: [] };
}

function isDb2expln(lines: string[]): boolean {
  const head = lines.slice(0, 40).join('\n');
  if (/SQL (and XQUERY )?Explain Tool/i.test(head)) return true;
  let score = 0;
  for (const l of lines.slice(0, 5000)) {
    if (/^\s*\*{10,}\s*(DYNAMIC|STATIC|SETUP SCRIPT)\s*\*{10,}/.test(l)) score += 2;
    if (/^\s*={10,}\s*STATEMENT\s*={10,}/.test(l)) score += 2;
    if (/^\|?[\s|]*Access Table Name = /.test(l)) score++;
    if (/^\s*Optimizer Plan:\s*$/.test(l)) score++;
    if (/^\s*End of section\s*$/.test(l)) score++;
  }
  return score >= 3;
}

/**
 * "KEY: value" split at the first colon, both sides trimmed (the key keeps inner spaces). Done by hand: the
 * regex `:\s*(.*?)\s*$` it replaces rescans trailing blanks at every lazy step, 40 s on a 211 KB header line.
 */
function keyValue(line: string): { key: string; value: string } | undefined {
  const colon = line.indexOf(':');
  if (colon < 0) return undefined;
  return { key: line.slice(0, colon).trimStart(), value: line.slice(colon + 1).trim() };
}

function readHeader(doc: ExfmtDocument, lines: string[]): void {
  const limit = Math.min(lines.length, 200);
  for (let i = 0; i < limit; i++) {
    const l = lines[i];
    if (STATEMENT.test(l)) break;
    if (!doc.header.banner && /Copyright IBM/i.test(l) && /\bVersion\s+\d/i.test(l)) doc.header.banner = l.trim();
    if (!doc.header.tool && /Explain Table Format Tool/i.test(l)) doc.header.tool = l.trim();
    const kv = keyValue(l);
    if (kv && /^[A-Z][A-Z0-9_ ]{2,30}$/.test(kv.key)) {
      const key = kv.key.trim();
      if (!(key in doc.header.fields)) doc.header.fields[key] = kv.value;
      if (key === 'DB2_VERSION') doc.header.db2Version = kv.value;
    }
  }
}

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

function sectionName(lines: string[], i: number): string | undefined {
  const l = lines[i].trim();
  const m = /^([A-Z][A-Za-z /()-]{2,60}?)\s*:$/.exec(l);
  if (!m) return undefined;
  // Only top-level names: Plan Details' own "Arguments:"/"Input Streams:" headings look the same once indentation is lost.
  return KNOWN_SECTIONS.includes(m[1]) ? m[1] : undefined;
}

function parseStatementRegion(stmt: ExplainStatement, lines: string[], from: number, to: number, width: PasteWidth): void {
  const sections: { name: string; start: number }[] = [];
  for (let i = from; i < to; i++) {
    const name = sectionName(lines, i);
    if (name) sections.push({ name, start: i });
  }
  const bodyOf = (index: number): [number, number] => {
    let start = sections[index].start + 1;
    if (start < to && DASHES.test(lines[start])) start++;
    const end = index + 1 < sections.length ? sections[index + 1].start : to;
    return [start, end];
  };
  // Statement key/values before the first section.
  const headEnd = sections.length ? sections[0].start : to;
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

  let graph: { start: number; end: number; totalCost?: number } | undefined;
  let details: [number, number] | undefined;
  let objects: [number, number] | undefined;
  sections.forEach((s, idx) => {
    const [start, end] = bodyOf(idx);
    switch (s.name) {
      case 'Original Statement':
        stmt.originalText = statementText(lines, start, end, width, s.name, stmt.warnings);
        break;
      case 'Optimized Statement':
        stmt.optimizedText = statementText(lines, start, end, width, s.name, stmt.warnings);
        break;
      case 'Access Plan': {
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
        graph = { start: g, end: trimGraphEnd(lines, g, end), totalCost };
        break;
      }
      case 'Extended Diagnostic Information':
        for (let i = start; i < end; i++) {
          const m = /^\s*Diagnostic Details:\s*(.*)$/.exec(lines[i]);
          if (m) {
            let d = m[1].trim();
            for (let j = i + 1; j < end && lines[j].trim() !== '' && !/^\s*Diagnostic (Identifier|Details):/.test(lines[j]); j++) d += ' ' + lines[j].trim();
            stmt.diagnostics.push(d);
          }
        }
        break;
      case 'Plan Details':
        details = [start, end];
        break;
      case 'Objects Used in Access Plan':
        objects = [start, end];
        break;
    }
  });

  // A pasted graph without the "Access Plan:" heading: find the first operator box.
  if (!graph) graph = findPastedGraph(lines, from, headEnd === to ? to : headEnd);
  // Plan Details blocks may be pasted without their heading (as in a forum post): find numbered operator headers.
  if (!details) {
    const first = findIndex(lines, graph ? graph.end : from, to, (l) => DETAIL_HEADER.test(l));
    if (first >= 0) details = [first, objects ? objects[0] - 1 : to];
  }

  const detailOps = details ? parsePlanDetails(lines, details[0], details[1], stmt.warnings, width) : new Map<number, PlanOperator>();
  const objectInfos = objects ? parseObjects(lines, objects[0], objects[1], stmt.warnings) : [];

  let plan: AccessPlan | undefined;
  const detailsProblem = details ? incompleteDetails(detailOps) : 'there are no Plan Details';
  if (graph && graph.end > graph.start) {
    const g = parseGraph(lines.slice(graph.start, graph.end), graph.start + 1, detailOps);
    const repaired = g.warnings.filter((w) => INFORMATIONAL_GRAPH_WARNINGS.has(w.code));
    const problems = [...g.warnings.filter((w) => !INFORMATIONAL_GRAPH_WARNINGS.has(w.code)), ...starvedOperators(g.operators)];
    const clean = g.operators.length > 0 && g.linked && g.errors.length === 0 && problems.length === 0;
    if (clean && !(g.damage && !detailsProblem)) {
      // An undamaged drawing is the tree; Plan Details add full-precision costs, arguments and predicates.
      stmt.warnings.push(...repaired);
      plan = { operators: g.operators, roots: [], totalCost: graph.totalCost, source: 'graph', objects: objectInfos };
      mergeDetails(plan, detailOps, stmt.warnings);
    } else if (!detailsProblem && (g.operators.length === 0 || detailsCover(detailOps, g.operators))) {
      if (g.operators.length > 0) {
        const why = g.damage === 'spaces-collapsed' ? 'is damaged: runs of spaces were collapsed' : g.damage === 'indentation-stripped' ? 'is damaged: its indentation was stripped' : `could not be read completely (${problems[0]?.message ?? g.errors[0]?.message ?? 'no tree'})`;
        stmt.warnings.push({ code: 'rebuilt-from-details', message: `The Access Plan graph ${why}; the tree was rebuilt from Plan Details' input streams instead.` });
      }
      plan = planFromDetails(detailOps, graph.totalCost, objectInfos);
    } else if (g.operators.length === 0) {
      stmt.errors.push(...g.errors);
    } else {
      // In the order of their numbers; an operator whose name the damaged drawing lost may have it in Plan Details.
      const nameOf = (op: PlanOperator) => {
        const detail = op.type === '?' ? detailOps.get(op.id) : op;
        return detail && detail.type !== '?' ? detail.label : 'operator';
      };
      const found = [...g.operators]
        .sort((a, b) => a.id - b.id)
        .map((op) => `${nameOf(op)} (${op.id})`)
        .join(', ');
      const hint = details ? ` Plan Details cannot replace it: ${detailsProblem}.` : '';
      if (g.errors.length > 0) stmt.errors.push(...g.errors.map((e) => ({ ...e, message: `${e.message} Operators seen: ${found}.${hint}` })));
      else {
        stmt.errors.push({
          code: 'unreadable-graph',
          message: `The Access Plan graph could not be read completely, so no tree is shown rather than a wrong one: ${problems.map((w) => (w.line ? `line ${w.line}: ` : '') + w.message).join(' ')} Operators seen: ${found}.${hint}`,
          line: problems[0]?.line,
        });
      }
    }
  } else if (detailOps.size > 0) {
    if (!detailsProblem) {
      plan = planFromDetails(detailOps, undefined, objectInfos);
    } else {
      stmt.errors.push({ code: 'no-graph', message: `The text has Plan Details but no Access Plan graph, and the operator tree cannot be rebuilt from the details: ${detailsProblem}.` });
    }
  } else if (sections.some((s) => s.name === 'Access Plan')) {
    stmt.errors.push({ code: 'empty-graph', message: 'The "Access Plan:" section is empty or cut off before the graph.' });
  } else if (stmt.statementNumber !== undefined) {
    stmt.errors.push({ code: 'no-access-plan', message: `Statement ${stmt.statementNumber} has no "Access Plan:" section (the text may be cut off).` });
  }
  if (plan) {
    for (const info of objectInfos) applyObjectInfo(plan, info);
    // The root box shows the legend instead of numbers; its cost is the statement's total cost.
    const root = plan.operators.find((op) => op.id === 1) ?? plan.operators[0];
    if (root && root.totalCost === undefined && plan.totalCost !== undefined) root.totalCost = plan.totalCost;
    // RETURN shows the legend, not its rows: it returns what its input produces.
    if (root && root.rows === undefined && root.type === 'RETURN' && root.children.length === 1) root.rows = plan.operators.find((op) => op.id === root.children[0])?.rows;
    // A pasted graph has no "Total Cost:" line: RETURN adds nothing, so its input's cost is the statement's.
    if (root && root.totalCost === undefined && root.children.length > 0) {
      const inputs = root.children.map((c) => plan!.operators.find((op) => op.id === c));
      if (inputs.every((op) => op?.totalCost !== undefined)) root.totalCost = Math.max(...inputs.map((op) => op!.totalCost!));
      if (root.ioCost === undefined && inputs.every((op) => op?.ioCost !== undefined)) root.ioCost = Math.max(...inputs.map((op) => op!.ioCost!));
    }
    stmt.plan = finishPlan(plan, (op, missing) =>
      stmt.warnings.push({ code: 'missing-input', message: `Operator ${op.label} (${op.id}) names operator ${missing} as an input, but the plan has no operator ${missing}; that input was left out.` }),
    );
  }
}

function findIndex(lines: string[], from: number, to: number, pred: (l: string) => boolean): number {
  for (let i = from; i < to; i++) if (pred(lines[i])) return i;
  return -1;
}

/**
 * Statement texts wrap at ~80 columns with an indented continuation; join the continuations back. A line that fills
 * the width of a wrapped paste and goes on on the next line without a blank may have been cut inside a word (or
 * not): then the text is not used, rather than shown and read with a name or a number cut in two.
 */
function statementText(lines: string[], start: number, end: number, width: PasteWidth, section: string, warnings: ExplainMessage[]): string | undefined {
  const out: string[] = [];
  for (let i = start; i < end; i++) {
    const raw = lines[i];
    if (raw.trim() === '') {
      if (out.length) out.push('');
      continue;
    }
    if (i > start && ambiguousBreak(lines[i - 1], raw, width)) {
      warnings.push({
        code: 'wrapped-text',
        message: `The ${section} is not used: line ${i} fills the width of the paste (${width.columns} columns) and goes on on line ${i + 1} ("${lines[i - 1].trimEnd().slice(-12)}" / "${raw.trim().slice(0, 12)}"), so a wrap may have cut a word or a number there, or the break is the statement's own; nothing tells which.`,
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

/** Operators that read at least this many inputs (operators or objects); a join reads two. */
const INPUTS_NEEDED: Record<string, number> = {
  NLJOIN: 2, HSJOIN: 2, MSJOIN: 2, ZZJOIN: 2, IXAND: 2,
  RETURN: 1, INSERT: 1, UPDATE: 1, DELETE: 1, FETCH: 1, FILTER: 1, SORT: 1, TEMP: 1, GRPBY: 1, UNIQUE: 1, TQ: 1, TBSCAN: 1, IXSCAN: 1, RIDSCN: 1,
};

/**
 * A drawing whose operators lack inputs they must have (a join with one input or none, a RETURN with nothing
 * under it) was cut off below them: a text that ends inside the graph reads as a complete but wrong tree.
 */
function starvedOperators(operators: readonly PlanOperator[]): ExplainMessage[] {
  const out: ExplainMessage[] = [];
  for (const op of operators) {
    const needed = INPUTS_NEEDED[op.type] ?? 0;
    if (op.inputs.length < needed) {
      out.push({ code: 'missing-inputs', message: `Operator ${op.label} (${op.id}) has ${op.inputs.length} of the ${needed} input${needed > 1 ? 's' : ''} it reads: the graph is cut off or damaged below it.` });
    }
  }
  return out;
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

function findPastedGraph(lines: string[], from: number, to: number): { start: number; end: number } | undefined {
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

// --- Plan Details ---------------------------------------------------------------------------------

/** The start of an operator's Plan Details header whose end a wrap cut off: `7) TEMP  : (Temporary Table`. */
const DETAIL_HEADER_START = /^\s*(\d+)\)\s+([>x^ABCDLMXSpg]{0,3}[A-Z][A-Z0-9]{1,9}[<x^*]{0,3})\s*:\s*(\(.*)?$/;
/** An argument's header, `MAXPAGES: (Maximum pages for prefetch)`, and its start when a wrap cut its end off. */
const ARGUMENT_HEADER = /^([A-Z0-9_]{1,8})\s*:\s*\((.*)\)$/;
const ARGUMENT_HEADER_START = /^([A-Z0-9_]{1,8})\s*:\s*\([^)]*$/;
const STREAM = /^\d+\)\s+(From|To)\s+(Operator\s+#\s*(\d*)|Object(?:\s+(\S+))?)\s*$/;
/** A line of a `Key: value` list (costs, a stream's or a predicate's attributes, an object's properties). */
const KEY_VALUE = /^[A-Za-z][A-Za-z0-9 /()'.,-]*?:(\s|$)/;

function parsePlanDetails(lines: string[], from: number, to: number, warnings: ExplainMessage[], width: PasteWidth): Map<number, PlanOperator> {
  const ops = new Map<number, PlanOperator>();
  /** Operators whose block a wrap left unreadable: their details are not used at all. */
  const refusedBlocks = new Set<number>();
  let op: PlanOperator | undefined;
  let part: 'costs' | 'arguments' | 'predicates' | 'input' | 'output' | 'other' = 'costs';
  let arg: { name: string; description?: string; value: string } | undefined;
  let argLast = -1;
  let pred: PlanPredicate | undefined;
  let inPredicateText = false;
  let predLast = -1;
  let inColumnNames = false;
  let stream: { kind: 'input' | 'output'; fromOp?: number; object?: string; rows?: number; line: number } | undefined;
  const flushStream = () => {
    if (!op || !stream) return;
    if (stream.kind === 'input') {
      if (stream.fromOp !== undefined) {
        op.children.push(stream.fromOp);
        op.inputs.push({ kind: 'operator', id: stream.fromOp, rows: stream.rows });
      } else if (stream.object) {
        const [schema, name] = splitObject(stream.object);
        op.inputs.push({ kind: 'object', object: { key: objectKey(schema, name), schema, name, kind: 'unknown', rows: stream.rows } });
        op.objectsRead.push(objectKey(schema, name));
      }
    } else if (stream.object) {
      const [schema, name] = splitObject(stream.object);
      op.objectsWritten.push(objectKey(schema, name));
      op.inputs.push({ kind: 'object', object: { key: objectKey(schema, name), schema, name, kind: 'unknown' } });
    }
    stream = undefined;
  };
  /** Drops the block of the current operator: a line in it was cut by a wrap and cannot be put back for certain. */
  const refuseBlock = (i: number, why: string) => {
    if (!op) return;
    warnings.push({
      code: 'wrapped-details',
      message: `Plan Details line ${i + 1}: ${why}; the lines look cut where the paste was wrapped, so the Plan Details of operator ${op.label} (${op.id}) are not used.`,
      line: i + 1,
    });
    ops.delete(op.id);
    refusedBlocks.add(op.id);
    op = undefined;
    stream = undefined;
  };
  const refuseValue = (i: number, what: string, why: string) =>
    warnings.push({ code: 'wrapped-value', message: `Plan Details line ${i + 1}: the ${what} of operator ${op?.label} (${op?.id}) is not used: ${why}.`, line: i + 1 });
  /** A number that ends line i, joined with its continuation; refused (with a warning) when it cannot be. */
  const numberOf = (i: number, text: string, what: string): { value?: number; last: number } => {
    const n = numberAt(lines, i, text, to);
    if (n.refused) refuseValue(i, what, n.refused);
    return n;
  };
  for (let i = from; i < to; i++) {
    const raw = lines[i];
    const l = raw.trim();
    const header = DETAIL_HEADER.exec(raw);
    const cutHeader = header ? undefined : DETAIL_HEADER_START.exec(raw);
    if ((header || cutHeader) && !/Predicate,?$/.test(l)) {
      flushStream();
      const m = (header ?? cutHeader)!;
      const label = parseOperatorLabel(m[2]);
      const id = Number(m[1]);
      op = newOperator(id, label?.type ?? m[2]);
      op.label = m[2];
      op.flags = label?.flags ?? [];
      if (header) op.longName = header[3];
      else {
        // The long name ran past the wrap: its rest is on the next lines, up to the closing parenthesis. Words cut
        // in two cannot be told from two words, so the name db2exfmt uses for the type stands in.
        while (i + 1 < to && lines[i + 1].trim() !== '' && !KEY_VALUE.test(lines[i + 1].trim()) && !/\)\s*$/.test(lines[i].trim())) i++;
        op.longName = LONG_NAMES[op.type];
      }
      if (ops.has(id) || refusedBlocks.has(id)) warnings.push({ code: 'duplicate-details', message: `Plan Details list operator ${id} twice; the last block is used.`, line: i + 1 });
      refusedBlocks.delete(id);
      ops.set(id, op);
      part = 'costs';
      arg = undefined;
      pred = undefined;
      inPredicateText = false;
      inColumnNames = false;
      continue;
    }
    if (!op) continue;
    if (/^Arguments:$/.test(l)) { flushStream(); part = 'arguments'; inColumnNames = false; continue; }
    if (/^Predicates:$/.test(l)) { flushStream(); part = 'predicates'; inColumnNames = false; continue; }
    if (/^Input Streams:$/.test(l)) { flushStream(); part = 'input'; inColumnNames = false; continue; }
    if (/^Output Streams:$/.test(l)) { flushStream(); part = 'output'; inColumnNames = false; continue; }
    if (/^-{3,}$/.test(l)) continue;
    // A numbered line that is none of a block's numbered lines is a header cut before its colon (the next operator's
    // lines would otherwise be read as this one's).
    if (/^\d+\)\s*[A-Z>^x]/.test(l) && part !== 'input' && part !== 'output' && part !== 'predicates') {
      refuseBlock(i, `"${l}" is neither an operator's header nor a line of its block`);
      continue;
    }
    if (part === 'costs') {
      if (l === '') continue;
      const m = /^(Cumulative [A-Za-z/ -]+?Cost|Estimated Bufferpool Buffers):\s*(.*)$/.exec(l);
      if (m) {
        const n = numberOf(i, m[2], m[1]);
        i = n.last;
        if (m[1] === 'Cumulative Total Cost') op.totalCost = n.value;
        else if (m[1] === 'Cumulative I/O Cost') op.ioCost = n.value;
        else if (m[1] === 'Cumulative CPU Cost') op.cpuCost = n.value;
        else if (m[1] === 'Cumulative First Row Cost') op.firstRowCost = n.value;
        continue;
      }
      // Other "Key: value" lines are not read; a line that is none (a key cut in two) holds nothing that is read.
    } else if (part === 'arguments') {
      const m = ARGUMENT_HEADER.exec(l);
      const cut = m ? undefined : ARGUMENT_HEADER_START.exec(l);
      if (m || cut) {
        arg = { name: (m ?? cut)![1], description: m ? m[2] : undefined, value: '' };
        op.arguments.push(arg);
        argLast = i;
        // A description cut by the wrap goes on up to its closing parenthesis; it is not kept (see the long name).
        if (cut) while (i + 1 < to && lines[i + 1].trim() !== '' && !/\)\s*$/.test(lines[i].trim())) argLast = ++i;
      } else if (arg && l !== '') {
        if (arg.value !== '' && ambiguousBreak(lines[argLast], l, width)) {
          refuseValue(i, `value of argument ${arg.name}`, `line ${argLast + 1} fills the width of the paste and may have been cut inside a word`);
          op.arguments = op.arguments.filter((a) => a !== arg);
          arg = undefined;
          continue;
        }
        arg.value = arg.value ? `${arg.value} ${l}` : l;
        argLast = i;
      }
    } else if (part === 'predicates') {
      const m = /^(\d+)\)\s/.exec(l);
      let how = m ? l.slice(m[0].length).trim() : '';
      if (how.endsWith(',')) how = how.slice(0, -1);
      if (m && how.endsWith(' Predicate')) {
        pred = { id: Number(m[1]), howApplied: how.slice(0, -' Predicate'.length).trim(), text: '' };
        op.predicates.push(pred);
        inPredicateText = false;
        continue;
      }
      if (m) {
        refuseBlock(i, `"${l}" starts a predicate whose kind the wrap cut off`);
        continue;
      }
      if (!pred) continue;
      if (/^Predicate Text:$/.test(l)) { inPredicateText = true; predLast = -1; continue; }
      if (inPredicateText) {
        if (l === '') inPredicateText = pred.text === '';
        else if (predLast >= 0 && ambiguousBreak(lines[predLast], l, width)) {
          refuseValue(i, `text of predicate ${pred.id}`, `line ${predLast + 1} fills the width of the paste and may have been cut inside a word`);
          pred.text = '';
          inPredicateText = false;
          pred = undefined;
        } else {
          pred.text = pred.text ? `${pred.text} ${l}` : l;
          predLast = i;
        }
        continue;
      }
      if (l === '') continue;
      const ff = /^Filter Factor:\s*(.*)$/.exec(l);
      if (ff) {
        const n = numberOf(i, ff[1], `filter factor of predicate ${pred.id}`);
        pred.filterFactor = n.value;
        i = n.last;
        continue;
      }
      const co = /^Comparison Operator:\s*(.*)$/.exec(l);
      if (co) {
        // Its value goes on on the next line only when a wrap cut it: that line has no "Key:" of its own.
        if (i + 1 < to && lines[i + 1].trim() !== '' && !KEY_VALUE.test(lines[i + 1].trim()) && !/^Predicate Text:$/.test(lines[i + 1].trim())) {
          refuseValue(i, `comparison operator of predicate ${pred.id}`, `it goes on on the next line ("${lines[i + 1].trim()}"), cut where the paste was wrapped`);
          i++;
          continue;
        }
        if (co[1].trim() !== '') pred.comparison = co[1].trim();
        continue;
      }
      if (!KEY_VALUE.test(l)) refuseBlock(i, `"${l}" is no line of a predicate`);
    } else if (part === 'input' || part === 'output') {
      if (l === '') {
        inColumnNames = false;
        continue;
      }
      const from = STREAM.exec(l);
      if (from) {
        flushStream();
        stream = { kind: part, line: i };
        let target = from[3] ?? from[4] ?? '';
        // An operator number or an object name holds no blank: a wrap that cut it left the rest alone on the next line.
        while (i + 1 < to && /^\S+$/.test(lines[i + 1].trim()) && !KEY_VALUE.test(lines[i + 1].trim())) target += lines[++i].trim();
        if (target === '' || (from[3] !== undefined && !/^\d+$/.test(target))) {
          refuseBlock(stream.line, `the stream "${l}" names no ${from[3] !== undefined ? 'operator' : 'object'} that can be read`);
          continue;
        }
        if (from[3] !== undefined) {
          if (part === 'input') stream.fromOp = Number(target);
        } else stream.object = target;
        continue;
      }
      if (/^Column Names:$/.test(l) || /^Partition Column Names:$/.test(l)) {
        inColumnNames = true;
        continue;
      }
      if (inColumnNames) continue;
      const rows = /^Estimated number of rows:\s*(.*)$/.exec(l);
      if (rows) {
        const n = numberOf(i, rows[1], 'estimated rows of a stream');
        if (stream) stream.rows = n.value;
        i = n.last;
        continue;
      }
      if (KEY_VALUE.test(l)) {
        // Another attribute of the stream; a wrap may have cut its value, which is not read.
        while (i + 1 < to && lines[i + 1].trim() !== '' && !KEY_VALUE.test(lines[i + 1].trim()) && !STREAM.test(lines[i + 1].trim()) && !/^\d+\)/.test(lines[i + 1].trim())) i++;
        continue;
      }
      refuseBlock(i, `"${l}" is no line of a stream`);
    }
  }
  flushStream();
  return ops;
}

function splitObject(text: string): [string, string] {
  const clean = text.replace(/"/g, '');
  const dot = clean.indexOf('.');
  return dot < 0 ? ['', clean] : [clean.slice(0, dot), clean.slice(dot + 1)];
}

function planFromDetails(ops: Map<number, PlanOperator>, totalCost: number | undefined, objects: ObjectInfo[]): AccessPlan {
  for (const op of ops.values()) {
    if (op.flags.length === 0) {
      op.flags = flagsFromArguments(op.arguments);
      op.label = labelFromFlags(op.type, op.flags);
    }
    for (const input of op.inputs) {
      if (input.kind === 'operator' && input.rows !== undefined) {
        const child = ops.get(input.id);
        if (child && child.rows === undefined) child.rows = input.rows;
      }
    }
  }
  return { operators: [...ops.values()], roots: [], totalCost, source: 'plan-details', objects };
}

/**
 * Why Plan Details alone cannot give the tree (undefined: they can): every input stream must name an operator
 * that has a block, and all operators must hang under one root.
 */
function incompleteDetails(ops: Map<number, PlanOperator>): string | undefined {
  if (ops.size === 0) return 'they list no operator';
  if (![...ops.values()].some((op) => op.inputs.length > 0)) return 'they have no "Input Streams"';
  const missing = [...new Set([...ops.values()].flatMap((op) => op.children.filter((c) => !ops.has(c))))];
  if (missing.length > 0) return `operator${missing.length > 1 ? 's' : ''} ${missing.slice(0, 10).join(', ')} ${missing.length > 1 ? 'have' : 'has'} no block (the text may be cut off)`;
  const hasParent = new Set([...ops.values()].flatMap((op) => op.children));
  const roots = [...ops.keys()].filter((id) => !hasParent.has(id));
  if (roots.length !== 1) return roots.length === 0 ? 'their input streams form a cycle' : `operators ${roots.slice(0, 10).join(', ')} are not an input of any other operator`;
  return undefined;
}

/** Plan Details can stand in for a drawing only when they describe every operator it shows. */
function detailsCover(details: Map<number, PlanOperator>, drawn: PlanOperator[]): boolean {
  return drawn.every((op) => details.has(op.id));
}

/**
 * Plan Details carry full-precision costs, CPU, arguments and predicates. The tree stays the drawing's: when the
 * two disagree, the undamaged graph is trusted and the difference reported.
 */
function mergeDetails(plan: AccessPlan, details: Map<number, PlanOperator>, warnings: ExplainMessage[]): void {
  if (details.size === 0) return;
  for (const op of plan.operators) {
    const d = details.get(op.id);
    if (!d) continue;
    op.totalCost = d.totalCost ?? op.totalCost;
    op.ioCost = d.ioCost ?? op.ioCost;
    op.cpuCost = d.cpuCost ?? op.cpuCost;
    op.firstRowCost = d.firstRowCost ?? op.firstRowCost;
    op.longName = d.longName;
    op.arguments = d.arguments;
    op.predicates = d.predicates;
    if (op.actualRows === undefined) op.actualRows = d.actualRows;
    if (d.type !== op.type) warnings.push({ code: 'details-mismatch', message: `Operator ${op.id} is ${op.label} in the graph but ${d.label} in Plan Details; the graph's name is used.` });
    const drawn = op.children;
    const listed = d.children;
    const same = (a: number[], b: number[]) => a.length === b.length && [...a].sort((x, y) => x - y).every((x, i) => x === [...b].sort((p, q) => p - q)[i]);
    if (d.inputs.length > 0 && !same(drawn, listed)) {
      warnings.push({
        code: 'details-mismatch',
        message: `The graph draws operator ${op.label} (${op.id}) with the inputs [${drawn.join(', ')}] but Plan Details list [${listed.join(', ')}]; the graph was used.`,
      });
    }
    for (const w of d.objectsWritten) if (!op.objectsWritten.some((x) => x === w)) op.objectsWritten.push(w);
  }
}

// --- Objects Used ---------------------------------------------------------------------------------

function parseObjects(lines: string[], from: number, to: number, warnings: ExplainMessage[]): ObjectInfo[] {
  const out: ObjectInfo[] = [];
  let cur: ObjectInfo | undefined;
  const refused = new Set<ObjectInfo>();
  let afterValue = false;
  for (let i = from; i < to; i++) {
    const line = lines[i].trim();
    const colon = line.indexOf(':');
    const key = colon > 0 ? line.slice(0, colon).trim() : '';
    if (line === '' || !/^[A-Za-z][A-Za-z /()-]*$/.test(key)) {
      // Right after a "Key: value" line, only a wrap puts a line without its own "Key:" (lists such as an index's
      // columns follow a "Key:" with no value, or start with "+"): the value before it was cut.
      const cut = line !== '' && afterValue && !line.startsWith('+');
      afterValue = false;
      if (cut && cur && !refused.has(cur)) {
        refused.add(cur);
        warnings.push({ code: 'wrapped-value', message: `Objects Used line ${i + 1}: "${line}" goes on a value of the line before it, cut where the paste was wrapped; the object ${cur.name || cur.schema} is not described from this section.`, line: i + 1 });
      }
      continue;
    }
    let value = line.slice(colon + 1).trim();
    afterValue = value !== '';
    if (key === 'Number of rows') {
      const n = numberAt(lines, i, value, to);
      i = n.last;
      value = n.value === undefined ? '' : String(n.value);
    }
    if (key === 'Schema') {
      cur = { key: '', schema: value.trim(), name: '', properties: {} };
      out.push(cur);
    } else if (cur && key === 'Name' && !cur.name) {
      cur.name = value.trim();
      cur.key = objectKey(cur.schema, cur.name);
    } else if (cur && key === 'Type' && !cur.type) {
      cur.type = value.trim();
    } else if (cur) {
      cur.properties[key] = value;
      if (key === 'Number of rows') cur.rows = parseDb2Number(value);
    }
  }
  for (const o of out) {
    const s = o.properties['Base Table Schema'];
    const n = o.properties['Base Table Name'];
    if (s && n) o.baseTable = objectKey(s, n);
  }
  return out.filter((o) => o.name && !refused.has(o));
}

function applyObjectInfo(plan: AccessPlan, info: ObjectInfo): void {
  const kind = info.type ? objectKindFromType(info.type) : undefined;
  if (!kind) return;
  for (const op of plan.operators) {
    for (const input of op.inputs) if (input.kind === 'object' && input.object.key === info.key && input.object.kind === 'unknown') input.object.kind = kind;
  }
}

export function objectKindFromType(type: string): string {
  const t = type.trim().toLowerCase();
  if (t === 'ta' || t.includes('table') && !t.includes('function')) return 'table';
  if (t === 'ix' || t.includes('index')) return 'index';
  if (t === 'tf' || t.includes('function')) return 'table-function';
  if (t === 'nk' || t.includes('nickname')) return 'nickname';
  return t;
}
