// Labels each operator of an INSERT plan as the insert itself or hidden work, from the plan's shape and
// objects, and names the constraint/trigger/MQT when a schema context (workspace DDL or live catalog) is given.
// Shapes are HIDDEN_WORK.md §7 plus the seed 000 "Explain" plan (FK check = IXSCAN under NLJOIN beside the INSERT).
import {
  DML_OPERATORS,
  JOIN_OPERATORS,
  operatorMap,
  type AccessPlan,
  type ExplainStatement,
  type HiddenWorkKind,
  type PlanOperator,
} from './model';
import { displayKey } from '../schema/schema';

export interface ForeignKeyFact {
  name?: string;
  /** Dependent (child) table, SCHEMA.NAME. */
  child: string;
  /** Parent table, SCHEMA.NAME. */
  parent: string;
  columns?: string[];
  deleteRule?: 'cascade' | 'set null' | 'restrict' | 'no action';
  enforced?: boolean;
}

export interface TriggerFact {
  name: string;
  table: string;
  timing?: 'before' | 'after' | 'instead of';
  events?: ('insert' | 'update' | 'delete')[];
  /** Tables the triggered action writes (SCHEMA.NAME). */
  writes: string[];
}

export interface MqtFact {
  name: string;
  refresh?: 'immediate' | 'deferred';
}

export interface IndexFact {
  name: string;
  table: string;
  unique?: boolean;
}

/** What the classifier may ask about the database. Table and index names are SCHEMA.NAME. */
export interface ExplainContext {
  /** Foreign keys whose dependent (child) table is `table`. */
  foreignKeysOf(table: string): ForeignKeyFact[];
  triggersOn(table: string): TriggerFact[];
  /** Materialized query tables defined over `table`. */
  mqtsOver(table: string): MqtFact[];
  isMqt(table: string): boolean;
  indexesOf?(table: string): IndexFact[];
  /** The table an index belongs to. */
  tableOfIndex?(index: string): string | undefined;
  /** Number of enforced check constraints on `table`. */
  checkConstraintsOn?(table: string): number;
}

export interface HiddenPiece {
  kind: HiddenWorkKind;
  operators: number[];
  /** Sum of the own costs of its operators (timerons). */
  cost: number;
  /** cost / statement total cost, 0..1. */
  share?: number;
  /** Objects read or written by the piece. */
  objects: string[];
  /** Constraint, trigger or MQT name when known. */
  name?: string;
  description: string;
}

export interface HiddenWorkReport {
  target?: string;
  mainOperator?: number;
  totalCost?: number;
  /** Cumulative cost of the main INSERT (with its input). */
  insertCost?: number;
  insertShare?: number;
  labels: Record<number, HiddenWorkKind | null>;
  pieces: HiddenPiece[];
  notes: string[];
  verdict: string;
}

const KIND_WORDS: Record<HiddenWorkKind, string> = {
  'foreign-key-check': 'foreign-key check',
  trigger: 'trigger',
  'mqt-maintenance': 'MQT maintenance',
  'ri-cascade': 'RI cascade',
  'check-constraint': 'check constraint',
};

export function hiddenKindLabel(kind: HiddenWorkKind): string {
  return KIND_WORDS[kind];
}

export function sameObject(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const [sa, na] = splitKey(a);
  const [sb, nb] = splitKey(b);
  if (na !== nb) return false;
  return sa === '' || sb === '' || sa === sb;
}

function splitKey(key: string): [string, string] {
  const k = key.replace(/"/g, '').toUpperCase();
  const dot = k.lastIndexOf('.');
  return dot < 0 ? ['', k] : [k.slice(0, dot).trim(), k.slice(dot + 1).trim()];
}

/** `schema . "Name"` → ['SCHEMA', 'Name']: unquoted parts upper-cased, quotes removed, dots inside quotes kept. */
export function splitQualifiedName(text: string): string[] {
  const parts: string[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i])) i++;
    if (text[i] === '"') {
      const end = text.indexOf('"', i + 1);
      const stop = end < 0 ? text.length : end;
      parts.push(text.slice(i + 1, stop));
      i = stop + 1;
    } else {
      let j = i;
      while (j < text.length && text[j] !== '.' && !/\s/.test(text[j])) j++;
      if (j > i) parts.push(text.slice(i, j).toUpperCase());
      i = j;
    }
    while (i < text.length && /\s/.test(text[i])) i++;
    if (text[i] === '.') i++;
    else if (i < text.length) break;
  }
  return parts;
}

/** The target of `INSERT INTO x` in a statement text (quotes removed, unquoted parts upper-cased). */
export function insertTargetOf(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const m = /\bINSERT\s+INTO\s+((?:"[^"]{1,128}"|[A-Za-z_$#@][\w$#@]{0,127})(?:\s*\.\s*(?:"[^"]{1,128}"|[A-Za-z_$#@][\w$#@]{0,127}))?)/i.exec(text);
  if (!m) return undefined;
  const parts = splitQualifiedName(m[1]);
  return parts.length === 2 ? `${parts[0]}.${parts[1]}` : `.${parts[0]}`;
}

export function classifyHiddenWork(input: AccessPlan | ExplainStatement, context?: ExplainContext): HiddenWorkReport {
  const stmt = 'operators' in input ? undefined : input;
  const plan = 'operators' in input ? input : input.plan;
  const report: HiddenWorkReport = { labels: {}, pieces: [], notes: [], verdict: '' };
  if (!plan || plan.operators.length === 0) {
    report.verdict = 'There is no plan to classify.';
    return report;
  }
  const ops = operatorMap(plan);
  const parent = new Map<number, number>();
  for (const op of plan.operators) for (const c of op.children) if (!parent.has(c)) parent.set(c, op.id);
  // Iterative on purpose: plans can be thousands of operators deep.
  const subtree = (id: number): Set<number> => {
    const seen = new Set<number>();
    const stack = [id];
    while (stack.length) {
      const x = stack.pop()!;
      if (seen.has(x)) continue;
      seen.add(x);
      for (const c of ops.get(x)?.children ?? []) stack.push(c);
    }
    return seen;
  };
  /** Left-first post-order from `start`, skipping `visited`; appends to `out`. */
  const postorderFrom = (start: number, visited: Set<number>, out: PlanOperator[]) => {
    if (visited.has(start)) return;
    visited.add(start);
    const stack: [number, number][] = [[start, 0]];
    while (stack.length) {
      const top = stack[stack.length - 1];
      const op = ops.get(top[0]);
      const kids = op?.children ?? [];
      if (top[1] < kids.length) {
        const c = kids[top[1]++];
        if (!visited.has(c)) {
          visited.add(c);
          stack.push([c, 0]);
        }
      } else {
        stack.pop();
        if (op) out.push(op);
      }
    }
  };
  const total = plan.totalCost ?? ops.get(plan.roots[0])?.totalCost;
  report.totalCost = total;
  const statementText = stmt?.originalText ?? stmt?.optimizedText;
  const textTarget = insertTargetOf(statementText);

  // The main DML: the one writing the statement's target, else the first one executed (left-first post-order).
  const postorder: PlanOperator[] = [];
  const visited = new Set<number>();
  for (const r of plan.roots) postorderFrom(r, visited, postorder);
  for (const op of plan.operators) postorderFrom(op.id, visited, postorder);
  const dmls = postorder.filter((op) => DML_OPERATORS.has(op.type));
  const main = dmls.find((op) => op.objectsWritten.some((w) => sameObject(w, textTarget))) ?? dmls.find((op) => op.type === 'INSERT') ?? dmls[0];
  for (const op of plan.operators) report.labels[op.id] = null;
  if (!main) {
    report.verdict = 'The plan has no INSERT, UPDATE or DELETE operator, so there is no insert to separate hidden work from.';
    applyLabels(plan, report);
    return report;
  }
  report.mainOperator = main.id;
  const target = main.objectsWritten[0] ?? textTarget;
  report.target = target;
  report.insertCost = main.totalCost;
  if (total && main.totalCost !== undefined) report.insertShare = main.totalCost / total;
  const mainSub = subtree(main.id);
  // The operators whose subtree holds the main INSERT are exactly the INSERT and its ancestors.
  const mainPath = new Set<number>([main.id]);
  for (let a = parent.get(main.id); a !== undefined && !mainPath.has(a); a = parent.get(a)) mainPath.add(a);
  const containsMain = (id: number) => mainPath.has(id);
  const labels = new Map<number, HiddenWorkKind>();
  const objectInfo = (key: string) => plan.objects.find((o) => sameObject(o.key, key));
  const baseTableOf = (key: string): string | undefined => {
    const info = objectInfo(key);
    if (info?.baseTable) return info.baseTable;
    const fromContext = context?.tableOfIndex?.(key);
    if (fromContext) return fromContext;
    const isIndex = plan.operators.some((op) => op.inputs.some((i) => i.kind === 'object' && i.object.key === key && i.object.kind === 'index'));
    return isIndex ? undefined : key;
  };
  const isMqtObject = (key: string | undefined): boolean => {
    if (!key) return false;
    if (context?.isMqt(key)) return true;
    if (target && context?.mqtsOver(target).some((m) => sameObject(m.name, key))) return true;
    return /materiali[sz]ed|summary|\bMQT\b/i.test(objectInfo(key)?.type ?? '');
  };
  const parentsOfTarget = target ? (context?.foreignKeysOf(target) ?? []).filter((fk) => fk.enforced !== false) : [];
  const isParentRead = (key: string) => {
    const table = baseTableOf(key);
    return table !== undefined && parentsOfTarget.some((fk) => sameObject(fk.parent, table));
  };

  // 1. Writes to other tables: MQT maintenance, RI cascades, trigger actions.
  const written = new Map<number, string | undefined>();
  for (const d of dmls) if (d !== main) written.set(d.id, d.objectsWritten[0]);
  for (const d of dmls) {
    if (d === main) continue;
    const w = d.objectsWritten[0];
    let kind: HiddenWorkKind = 'trigger';
    if (isMqtObject(w)) kind = 'mqt-maintenance';
    else if ((d.type === 'DELETE' || d.type === 'UPDATE') && w && context) {
      const cascading = context
        .foreignKeysOf(w)
        .some((fk) => (fk.deleteRule === 'cascade' || fk.deleteRule === 'set null') && dmls.some((o) => o !== d && o.type !== 'INSERT' && o.objectsWritten.some((x) => sameObject(x, fk.parent))));
      if (cascading) kind = 'ri-cascade';
    }
    labels.set(d.id, kind);
  }
  // The inputs of each extra write belong to it (reads of the MQT, the trigger's VALUES, …).
  for (const d of dmls) {
    const kind = labels.get(d.id);
    if (!kind) continue;
    for (const x of subtree(d.id)) if (!containsMain(x) && !labels.has(x)) labels.set(x, kind);
  }

  // 2. Filters whose predicates raise the constraint SQLSTATEs.
  for (const op of plan.operators) {
    if (labels.has(op.id) || op === main) continue;
    const text = op.predicates.map((p) => p.text).join(' ');
    if (/\b23503\b/.test(text)) labels.set(op.id, 'foreign-key-check');
    else if (/\b23513\b/.test(text)) labels.set(op.id, 'check-constraint');
  }

  // 3. Side inputs of the operators above the INSERT: work joined to the inserted rows.
  const climbed = new Set<number>([main.id]);
  for (let a = parent.get(main.id); a !== undefined && !climbed.has(a); a = parent.get(a)) {
    climbed.add(a);
    const above = ops.get(a)!;
    const sideKinds = new Set<HiddenWorkKind>();
    for (const c of above.children) {
      if (containsMain(c)) continue;
      const sub = subtree(c);
      const kinds = new Set([...sub].map((x) => labels.get(x)).filter((k): k is HiddenWorkKind => k !== undefined));
      let kind: HiddenWorkKind | undefined;
      if (kinds.size === 0) kind = readOnlyKind(sub);
      else if (kinds.size === 1) kind = [...kinds][0];
      else {
        // Mixed work (a trigger whose DELETE cascades): scaffolding joins take their outer input's kind.
        const ordered: PlanOperator[] = [];
        postorderFrom(c, new Set<number>(), ordered);
        for (const x of ordered.map((o) => o.id)) {
          if (labels.has(x)) continue;
          const first = (ops.get(x)?.children ?? []).map((y) => labels.get(y)).find((k) => k !== undefined);
          if (first) labels.set(x, first);
        }
        kind = labels.get(c);
      }
      if (kind) {
        for (const x of sub) if (!labels.has(x)) labels.set(x, kind);
        sideKinds.add(kind);
      }
    }
    if (sideKinds.size === 1 && !labels.has(a) && above.type !== 'RETURN' && (JOIN_OPERATORS.has(above.type) || ['UNION', 'TEMP', 'FILTER'].includes(above.type))) {
      labels.set(a, [...sideKinds][0]);
    }
  }
  function readOnlyKind(sub: Set<number>): HiddenWorkKind | undefined {
    const reads = [...sub].flatMap((x) => ops.get(x)?.objectsRead ?? []).filter((k) => !/^SYSIBM\.GENROW$/i.test(k));
    if (reads.length === 0) return undefined;
    if (reads.some((r) => isMqtObject(baseTableOf(r)) || isMqtObject(r))) return 'mqt-maintenance';
    return 'foreign-key-check';
  }

  // 4. With a schema: reads of a parent table inside the input of INSERT … VALUES can only be FK checks.
  const valuesInsert = statementText ? /\bVALUES\b/i.test(statementText) && !/\bSELECT\b/i.test(statementText) : false;
  if (valuesInsert && parentsOfTarget.length > 0) {
    for (const x of mainSub) {
      const op = ops.get(x)!;
      if (op !== main && !labels.has(x) && op.objectsRead.some(isParentRead)) labels.set(x, 'foreign-key-check');
    }
  }

  for (const [id, kind] of labels) if (id !== main.id) report.labels[id] = kind;

  // Pieces: connected operators with the same label.
  const assigned = new Set<number>();
  for (const op of plan.operators) {
    const kind = labels.get(op.id);
    if (!kind || assigned.has(op.id)) continue;
    // Start from the topmost operator of the component.
    // Scaffolding joins above the INSERT belong with their side input, not with each other.
    let top = op.id;
    const path = new Set<number>([top]);
    while (parent.has(top) && !containsMain(top) && labels.get(parent.get(top)!) === kind && !path.has(parent.get(top)!)) {
      top = parent.get(top)!;
      path.add(top);
    }
    const members: number[] = [];
    const stack = [top];
    while (stack.length) {
      const x = stack.pop()!;
      if (assigned.has(x) || labels.get(x) !== kind) continue;
      assigned.add(x);
      members.push(x);
      for (const c of ops.get(x)?.children ?? []) if (!containsMain(c)) stack.push(c);
    }
    members.sort((a, b) => a - b);
    const cost = members.reduce((sum, x) => sum + (ops.get(x)?.ownCost ?? 0), 0);
    const objects = [...new Set(members.flatMap((x) => [...(ops.get(x)?.objectsRead ?? []), ...(ops.get(x)?.objectsWritten ?? [])]))];
    const piece: HiddenPiece = { kind, operators: members, cost, share: total ? cost / total : undefined, objects, description: '' };
    describePiece(piece, members.map((x) => ops.get(x)!), target, context, baseTableOf, parentsOfTarget);
    report.pieces.push(piece);
  }
  report.pieces.sort((a, b) => b.cost - a.cost);

  addNotes(report, target, context, parentsOfTarget);
  report.verdict = verdict(report, main, total);
  applyLabels(plan, report);
  return report;
}

function applyLabels(plan: AccessPlan, report: HiddenWorkReport): void {
  for (const op of plan.operators) op.hidden = report.labels[op.id] ?? null;
}

function opList(ops: PlanOperator[]): string {
  return ops
    .slice()
    .sort((a, b) => a.id - b.id)
    .map((op) => `${op.type} ${op.id}`)
    .join(', ');
}

function describePiece(
  piece: HiddenPiece,
  ops: PlanOperator[],
  target: string | undefined,
  context: ExplainContext | undefined,
  baseTableOf: (key: string) => string | undefined,
  parents: ForeignKeyFact[],
): void {
  const reads = [...new Set(ops.flatMap((op) => op.objectsRead))].filter((k) => !/^SYSIBM\.GENROW$/i.test(k));
  const writes = [...new Set(ops.flatMap((op) => op.objectsWritten))];
  const t = target ? displayKey(target) : 'the target';
  switch (piece.kind) {
    case 'foreign-key-check': {
      const parentTables = [...new Set(reads.map(baseTableOf).filter((x): x is string => x !== undefined))];
      let fk = parents.find((p) => parentTables.some((pt) => sameObject(pt, p.parent)));
      if (!fk && parents.length === 1) fk = parents[0];
      const parent = fk?.parent ?? parentTables[0];
      piece.name = fk?.name;
      const via = reads.length ? ` via ${reads.map(displayKey).join(', ')}` : '';
      piece.description = `a foreign-key check on ${t}'s parent${parent ? ` ${displayKey(parent)}` : ''}${via}${fk?.name ? ` (constraint ${fk.name})` : ''}`;
      break;
    }
    case 'trigger': {
      const trig = target ? context?.triggersOn(target).find((tr) => tr.writes.some((w) => writes.some((x) => sameObject(w, x)))) : undefined;
      piece.name = trig?.name;
      const what = writes.length ? ` writing ${writes.map(displayKey).join(', ')}` : '';
      piece.description = trig
        ? `trigger ${trig.name}${what}`
        : context
          ? `an extra write${what} that no trigger on ${t} in the schema explains`
          : `a trigger action${what} (an extra INSERT/UPDATE/DELETE fired by the insert)`;
      break;
    }
    case 'mqt-maintenance': {
      const mqt = [...writes, ...reads].map((k) => baseTableOf(k) ?? k)[0];
      piece.name = mqt ? displayKey(mqt) : undefined;
      piece.description = `maintenance of the REFRESH IMMEDIATE materialized query table ${mqt ? displayKey(mqt) : '(unnamed)'}`;
      break;
    }
    case 'ri-cascade':
      piece.description = `a referential cascade${writes.length ? ` to ${writes.map(displayKey).join(', ')}` : ''}`;
      break;
    case 'check-constraint':
      piece.description = `a check-constraint test on ${t}`;
      break;
  }
  piece.description += ` (${opList(ops)})`;
}

function addNotes(report: HiddenWorkReport, target: string | undefined, context: ExplainContext | undefined, parents: ForeignKeyFact[]): void {
  const t = target ? displayKey(target) : 'the target table';
  const indexes = target ? context?.indexesOf?.(target) : undefined;
  if (indexes && indexes.length > 0) {
    report.notes.push(
      `Explain does not show index maintenance: every inserted row also adds a key to each of the ${indexes.length} index${indexes.length === 1 ? '' : 'es'} on ${t} (${indexes
        .map((i) => displayKey(i.name) + (i.unique ? ', unique' : ''))
        .join('; ')}). That work is inside the INSERT operator's own cost, not a separate operator.`,
    );
  } else if (indexes) {
    report.notes.push(`The schema declares no index on ${t}, so the INSERT maintains none (Explain would not show it anyway).`);
  } else {
    report.notes.push(`Explain does not show index maintenance (one key insert per row into every index on ${t}); give InsertLint the table's DDL to list those indexes.`);
  }
  if (context && target) {
    const fkPieces = report.pieces.filter((p) => p.kind === 'foreign-key-check').length;
    if (parents.length > fkPieces) {
      const missing = parents.filter((p) => !report.pieces.some((piece) => piece.name === p.name && p.name));
      if (fkPieces === 0 || missing.length > 0) {
        report.notes.push(`The schema has ${parents.length} enforced foreign key(s) on ${t} but the plan shows ${fkPieces} parent check(s).`);
      }
    }
    for (const tr of context.triggersOn(target)) {
      if (tr.timing === 'before' && (!tr.events || tr.events.includes('insert'))) {
        report.notes.push(`BEFORE trigger ${tr.name} runs inside the INSERT's input (it computes the new row values), so its cost is not labelled separately.`);
      }
    }
    const checks = context.checkConstraintsOn?.(target) ?? 0;
    if (checks > 0 && !report.pieces.some((p) => p.kind === 'check-constraint')) {
      report.notes.push(`${t} has ${checks} check constraint(s); Db2 evaluates them on each row inside the insert, usually without an operator of their own.`);
    }
  }
}

/** A share as a percentage for people: whole numbers from 10%, one decimal below. */
export function pct(x: number | undefined, unknown = '?%'): string {
  if (x === undefined || !Number.isFinite(x)) return unknown;
  const p = x * 100;
  return p >= 10 || p === 0 ? `${Math.round(p)}%` : `${p.toFixed(1)}%`;
}

export function formatCost(n: number | undefined): string {
  if (n === undefined) return '?';
  if (n === 0) return '0';
  const a = Math.abs(n);
  if (a >= 1e6 || a < 1e-3) return n.toExponential(3);
  return Number(n.toPrecision(6)).toString();
}

function verdict(report: HiddenWorkReport, main: PlanOperator, total: number | undefined): string {
  const insert = `the ${main.type} itself (operator ${main.id} with its input) accounts for ${pct(report.insertShare)}`;
  const costText = total !== undefined ? `${formatCost(total)} timerons` : 'an unknown number of timerons';
  if (report.pieces.length === 0) {
    return `No hidden work in this plan: of the estimated cost of ${costText}, ${insert}.`;
  }
  const parts = report.pieces.map((p) => `${pct(p.share)} ${p === report.pieces[0] ? 'of the estimated cost ' : ''}is ${p.description}`);
  const joined = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join('; ')}; and ${parts[parts.length - 1]}`;
  const first = joined.charAt(0).toUpperCase() + joined.slice(1);
  return `${first}. In all, hidden work is ${pct(report.pieces.reduce((s, p) => s + (p.share ?? 0), 0))} of the estimated ${costText}; ${insert}.`;
}
