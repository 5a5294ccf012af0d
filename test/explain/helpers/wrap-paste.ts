// What a mail client or a terminal does to a pasted db2exfmt text whose lines are longer than its width, and a
// comparison of what the reader made of such a paste with what it reads in the text as db2exfmt wrote it.
import type { ExfmtDocument, ExplainStatement, PlanOperator } from '../../../server/src/explain/model';

export type WrapMode =
  /** Cut at exactly `width` characters, a tab counting as one (`fold -b`, a naive wrapper). */
  | 'cut-chars'
  /** Tabs shown as spaces up to the next multiple of 8, each row of `width` columns copied as one line (a terminal). */
  | 'cut-columns'
  /** The same, with each copied row's trailing blanks dropped (most terminals' copy). */
  | 'cut-columns-trimmed'
  /** Broken at the last blank that fits, the blank dropped; a word longer than the width is cut (a mail client). */
  | 'words'
  /** The same after tabs were shown as spaces. */
  | 'words-columns';

export const WRAP_MODES: WrapMode[] = ['cut-chars', 'cut-columns', 'cut-columns-trimmed', 'words', 'words-columns'];

/** The fixtures (test/fixtures/exfmt) that the wrapped and quoted pastes are made of: whole outputs and pasted graphs. */
export const PASTE_FIXTURES = [
  'insert-fk-trigger-mqt.exfmt.txt',
  'insert-fk-trigger-mqt.v121.exfmt.txt',
  'insert-fk-trigger-mqt.v97-crlf-exp3.exfmt.txt',
  'section-actuals.exfmt.txt',
  'column-organized-ctq.v121.exfmt.txt',
  'insert-fk-fetch.exfmt.txt',
  'delete-parent-restrict.exfmt.txt',
  'delete-parent-cascade.exfmt.txt',
  'update.exfmt.txt',
  'merge.exfmt.txt',
  'insert-15-operators.exfmt.txt',
  'damaged-flushed-with-details.exfmt.txt',
  'damaged-flushed-hsjoin-fetch.txt',
  'damaged-collapsed-nljoin.txt',
  'compact-hsjoin-ixand-graph.txt',
  'compact-nljoin-sysibm-index-graph.txt',
  'seed-fk-insert-graph.txt',
  'javadoc-prefixed-graph.txt',
  'shared-temp-graph.txt',
  'first-line-flush-graph.txt',
];

function expandTabs(line: string, tab = 8): string {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const ch of line) out += ch === '\t' ? ' '.repeat(tab - (out.length % tab)) : ch;
  return out;
}

/**
 * The text with every tab shown as spaces up to the next multiple of `tab`, line by line (a terminal or an editor
 * showing a paste that a mail client wrapped counting each tab as one character: the width it was cut at is then
 * no longer the width of the lines that had tabs).
 */
export function showTabsAsSpaces(text: string, tab = 8): string {
  return text
    .split(/(\r?\n)/)
    .map((part) => expandTabs(part, tab))
    .join('');
}

/**
 * One line wrapped at `width` as `mode` does. The line's first `keep` characters (a quote prefix) never take a
 * break; each continuation starts with `again` (a mail client that quotes the lines it wrapped, or nothing).
 */
export function wrapLine(raw: string, width: number, mode: WrapMode, keep = 0, again = ''): string[] {
  const line = mode === 'cut-chars' || mode === 'words' ? raw : expandTabs(raw);
  if (line.length <= width) return [line];
  // A continuation must take at least one character of the line, or the wrap never ends.
  if (again.length >= width) again = '';
  const out: string[] = [];
  let rest = line;
  let fixed = keep;
  while (rest.length > width) {
    const words = mode === 'words' || mode === 'words-columns';
    const at = words ? rest.lastIndexOf(' ', width) : -1;
    // No blank after some text: the word is cut where the width ends.
    if (at <= fixed || rest.slice(fixed, at).trim() === '') {
      const head = rest.slice(0, width);
      out.push(mode === 'cut-columns-trimmed' ? head.trimEnd() : head);
      rest = again + rest.slice(width);
    } else {
      out.push(rest.slice(0, at).trimEnd());
      // A line that goes over the width only by blanks at its end: they are dropped, no line is added.
      if (rest.slice(at + 1).trim() === '') return out;
      rest = again + rest.slice(at + 1);
    }
    fixed = again.length;
  }
  out.push(mode === 'cut-columns-trimmed' ? rest.trimEnd() : rest);
  return out;
}

/** Every line longer than `width` wrapped as `mode` does; shorter lines are left alone. */
export function wrapPaste(text: string, width: number, mode: WrapMode): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return text
    .split(/\r?\n/)
    .flatMap((raw) => wrapLine(raw, width, mode))
    .join(eol);
}

const squeeze = (s: string | undefined) => (s === undefined ? undefined : s.replace(/\s+/g, ' ').trim());
/**
 * SQL text compared as SQL reads it: any run of blanks is one, and a blank next to punctuation (`( ?`, `ID ,`) changes
 * nothing; a blank between two word characters (`APP.CHI LD`) does.
 */
const sql = (s: string | undefined) => squeeze(s)?.replace(/ (?=[^\w$#@"'.])|(?<=[^\w$#@"'.]) /g, '');

/**
 * What the reader got wrong in `got` (read from a wrapped paste) compared with `truth` (read from the text as
 * written): every value read must be the true one or be missing (refused). An empty list: nothing wrong.
 */
export function wrongValues(truth: ExplainStatement, got: ExplainStatement): string[] {
  const wrong: string[] = [];
  const same = (what: string, t: unknown, g: unknown) => {
    if (g === undefined || g === null) return;
    if (typeof t === 'number' && typeof g === 'number' ? t !== g : JSON.stringify(t) !== JSON.stringify(g)) wrong.push(`${what}: ${JSON.stringify(g)} instead of ${JSON.stringify(t)}`);
  };
  same('QUERYNO', truth.queryNo, got.queryNo);
  same('QUERYTAG', truth.queryTag, got.queryTag);
  same('Statement Type', truth.statementType, got.statementType);
  // Diagnostics the wrap left unreadable are left out; those read must be messages of the text as written.
  const diagnostics = new Set(truth.diagnostics.map(sql));
  for (const d of got.diagnostics) if (!diagnostics.has(sql(d))) wrong.push(`diagnostic ${JSON.stringify(d)} is not in the text`);
  same('original statement', sql(truth.originalText), sql(got.originalText));
  same('optimized statement', sql(truth.optimizedText), sql(got.optimizedText));
  if (!got.plan) return wrong;
  if (!truth.plan) return [...wrong, 'a plan was read where the text as written has none'];
  same('Total Cost', truth.plan.totalCost, got.plan.totalCost);
  // A graph the wrapping made unreadable may be replaced by Plan Details: the same tree, labels redrawn from arguments.
  const sameSource = truth.plan.source === got.plan.source;
  const byId = new Map(truth.plan.operators.map((o) => [o.id, o]));
  if (got.plan.operators.length !== truth.plan.operators.length) wrong.push(`${got.plan.operators.length} operators instead of ${truth.plan.operators.length}`);
  for (const op of got.plan.operators) {
    const t = byId.get(op.id);
    if (!t) {
      wrong.push(`operator ${op.id} is not in the plan`);
      continue;
    }
    const at = `operator ${op.id}`;
    same(`${at} type`, t.type, op.type);
    if (sameSource) same(`${at} label`, t.label, op.label);
    same(`${at} inputs`, t.inputs.map(inputKey), op.inputs.map(inputKey));
    op.inputs.forEach((input, k) => {
      const tr = t.inputs[k];
      const rows = (i: typeof input | undefined) => (i?.kind === 'operator' ? i.rows : i?.object.rows);
      same(`${at} input ${k + 1} rows`, rows(tr), rows(input));
    });
    same(`${at} objects written`, t.objectsWritten, op.objectsWritten);
    for (const f of ['totalCost', 'ioCost', 'cpuCost', 'firstRowCost', 'rows', 'actualRows'] as const) {
      // RETURN adds nothing: without a Total Cost line its cost and I/O are its input's, which is right too.
      if (t[f] === undefined && op.type === 'RETURN') continue;
      same(`${at} ${f}`, t[f], op[f]);
    }
    same(`${at} long name`, t.longName, op.longName);
    // Arguments and predicates the wrap left unreadable are left out, their parts that were cut are missing.
    for (const a of op.arguments) {
      const ta = t.arguments.find((x) => x.name === a.name);
      if (!ta) wrong.push(`${at} argument ${a.name} is not in the plan`);
      else {
        same(`${at} argument ${a.name} description`, ta.description, a.description);
        same(`${at} argument ${a.name} value`, sql(ta.value), sql(a.value));
      }
    }
    for (const p of op.predicates) {
      const tp = t.predicates.find((x) => x.id === p.id);
      if (!tp) {
        wrong.push(`${at} predicate ${p.id} is not in the plan`);
        continue;
      }
      same(`${at} predicate ${p.id} applied as`, tp.howApplied, p.howApplied);
      same(`${at} predicate ${p.id} comparison`, tp.comparison, p.comparison);
      same(`${at} predicate ${p.id} filter factor`, tp.filterFactor, p.filterFactor);
      if (p.text !== '') same(`${at} predicate ${p.id} text`, sql(tp.text), sql(p.text));
    }
  }
  const objects = new Map(truth.plan.objects.map((o) => [o.key, o]));
  for (const o of got.plan.objects) {
    const t = objects.get(o.key);
    if (!t) wrong.push(`object ${o.key} is not in the plan`);
    else same(`object ${o.key} rows`, t.rows, o.rows);
  }
  return wrong;
}

/**
 * What the reader got wrong in a whole document: the header (banner, tool, DB2_VERSION and the other fields), then
 * each statement's values (wrongValues), a statement paired with the one of the same number in the text as written.
 */
export function wrongDocumentValues(truth: ExfmtDocument, got: ExfmtDocument): string[] {
  const wrong: string[] = [];
  const same = (what: string, t: unknown, g: unknown) => {
    if (g !== undefined && t !== g) wrong.push(`${what}: ${JSON.stringify(g)} instead of ${JSON.stringify(t)}`);
  };
  same('banner', truth.header.banner, got.header.banner);
  same('tool', truth.header.tool, got.header.tool);
  same('DB2 version', truth.header.db2Version, got.header.db2Version);
  for (const [key, value] of Object.entries(got.header.fields)) same(`header field ${key}`, truth.header.fields[key], value);
  got.statements.forEach((s, i) => {
    const t = truth.statements.find((x) => x.statementNumber !== undefined && x.statementNumber === s.statementNumber) ?? truth.statements[i];
    if (!t) wrong.push(`statement ${i + 1} is not in the text`);
    else wrong.push(...wrongValues(t, s));
  });
  return wrong;
}

function inputKey(i: PlanOperator['inputs'][number]): string {
  return i.kind === 'operator' ? `#${i.id}` : i.object.key;
}
