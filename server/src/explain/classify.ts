// Labels each operator of a plan as the statement's own work (the INSERT, UPDATE, DELETE or MERGE) or hidden
// work, from the plan's shape and objects, and names the constraint/trigger/MQT when a schema context
// (workspace DDL or live catalog) is given. Shapes are HIDDEN_WORK.md §7 plus the seed 000 "Explain" plan
// (FK check = IXSCAN under NLJOIN beside the INSERT). Only what the plan and the schema show is claimed:
// where the two cannot tell a trigger from MQT maintenance, the label says so.
import { DML_OPERATORS, JOIN_OPERATORS, operatorMap, type AccessPlan, type ExplainStatement, type HiddenWorkKind, type PlanOperator } from './model';
import { dmlOfText, sameObject, statementKindOf, type StatementKind } from './statement';
import { addNotes, describePiece, verdict, type PieceFacts, type WriteCause } from './describe';

export { sameObject, insertTargetOf, splitQualifiedName } from './statement';
export { hiddenKindLabel, pct, formatCost } from './describe';

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
  /** The index Db2 creates for a PRIMARY KEY or UNIQUE constraint (no CREATE INDEX of its own). */
  constraint?: boolean;
}

/** What the classifier may ask about the database. Table and index names are SCHEMA.NAME. */
export interface ExplainContext {
  /** Foreign keys whose dependent (child) table is `table`. */
  foreignKeysOf(table: string): ForeignKeyFact[];
  /** Foreign keys that reference `table` (it is their parent). */
  dependentsOf?(table: string): ForeignKeyFact[];
  triggersOn(table: string): TriggerFact[];
  /** Materialized query tables defined over `table`. */
  mqtsOver(table: string): MqtFact[];
  isMqt(table: string): boolean;
  /** Every index `table` maintains, those of its primary key and unique constraints included. */
  indexesOf?(table: string): IndexFact[];
  /** The table an index belongs to. */
  tableOfIndex?(index: string): string | undefined;
  /** Number of enforced check constraints on `table`. */
  checkConstraintsOn?(table: string): number;
  /** Whether the context describes `table` at all (absent: assume it does). */
  hasTable?(table: string): boolean;
}

export interface HiddenPiece {
  kind: HiddenWorkKind;
  operators: number[];
  /** Sum of the own costs of its operators (timerons), each operator counted once. */
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
  statementKind: StatementKind;
  target?: string;
  /** The statement's own DML operator (the first one executed; a MERGE has several, see mainOperators). */
  mainOperator?: number;
  mainOperators: number[];
  totalCost?: number;
  /** Own costs of the statement's DML operators and their inputs (without hidden work). */
  mainCost?: number;
  mainShare?: number;
  labels: Record<number, HiddenWorkKind | null>;
  pieces: HiddenPiece[];
  notes: string[];
  verdict: string;
}

export function classifyHiddenWork(input: AccessPlan | ExplainStatement, context?: ExplainContext): HiddenWorkReport {
  const stmt = 'operators' in input ? undefined : input;
  const plan = 'operators' in input ? input : input.plan;
  const statementText = stmt?.originalText ?? stmt?.optimizedText;
  const report: HiddenWorkReport = { statementKind: statementKindOf(stmt?.statementType, statementText, []), mainOperators: [], labels: {}, pieces: [], notes: [], verdict: '' };
  if (!plan || plan.operators.length === 0) {
    report.verdict = 'There is no plan to classify.';
    return report;
  }
  const ops = operatorMap(plan);
  const parent = new Map<number, number>();
  for (const op of plan.operators) for (const c of op.children) if (!parent.has(c)) parent.set(c, op.id);
  const walk = new PlanWalk(ops);
  const total = plan.totalCost ?? ops.get(plan.roots[0])?.totalCost;
  report.totalCost = total;

  // The statement's own DML: the one writing the statement's target, else the first executed (left-first
  // post-order); a MERGE owns every DML operator on its target.
  const postorder: PlanOperator[] = [];
  const visited = new Set<number>();
  for (const r of plan.roots) walk.postorderFrom(r, visited, postorder);
  for (const op of plan.operators) walk.postorderFrom(op.id, visited, postorder);
  const dmls = postorder.filter((op) => DML_OPERATORS.has(op.type));
  const kind = (report.statementKind = statementKindOf(stmt?.statementType, statementText, dmls));
  const textTarget = dmlOfText(statementText)?.target;
  const ownType = kind === 'insert' || kind === 'update' || kind === 'delete' ? kind.toUpperCase() : undefined;
  const main =
    dmls.find((op) => op.objectsWritten.some((w) => sameObject(w, textTarget))) ?? dmls.find((op) => op.type === ownType) ?? dmls[0];
  for (const op of plan.operators) report.labels[op.id] = null;
  if (!main) {
    report.verdict = 'The plan has no INSERT, UPDATE or DELETE operator, so there is no hidden work to separate from it.';
    applyLabels(plan, report);
    return report;
  }
  const target = main.objectsWritten[0] ?? textTarget;
  const mains = kind === 'merge' ? dmls.filter((op) => op === main || (target !== undefined && op.objectsWritten.some((w) => sameObject(w, target)))) : [main];
  report.mainOperator = main.id;
  report.mainOperators = mains.map((op) => op.id).sort((a, b) => a - b);
  report.target = target;
  // The operators whose subtree holds a main DML are exactly those DMLs and their ancestors.
  const mainPath = new Set<number>();
  for (const m of mains) for (let a: number | undefined = m.id; a !== undefined && !mainPath.has(a); a = parent.get(a)) mainPath.add(a);
  const containsMain = (id: number) => mainPath.has(id);
  const mainSub = new Set<number>();
  for (const m of mains) for (const x of walk.subtree(m.id)) mainSub.add(x);

  const facts = new Facts(plan, context, target);
  const labels = new Map<number, HiddenWorkKind>();
  const causes = new Map<number, WriteCause>();

  // 1. Writes to other tables: MQT maintenance, RI cascades, trigger actions.
  for (const d of dmls) {
    if (mains.includes(d)) continue;
    const cause = facts.causeOfWrite(d, kind, dmls, walk.subtree(d.id));
    labels.set(d.id, cause.kind);
    causes.set(d.id, cause);
  }
  // The inputs of each extra write belong to it (reads of the MQT, the trigger's VALUES, …).
  for (const d of dmls) {
    const k = labels.get(d.id);
    if (!k) continue;
    for (const x of walk.subtree(d.id)) if (!containsMain(x) && !labels.has(x) && !mainSub.has(x)) labels.set(x, k);
  }

  // 2. Filters whose predicates raise the constraint SQLSTATEs.
  for (const op of plan.operators) {
    if (labels.has(op.id) || mains.includes(op)) continue;
    const text = op.predicates.map((p) => p.text).join(' ');
    if (/\b23503\b/.test(text)) labels.set(op.id, 'foreign-key-check');
    else if (/\b23513\b/.test(text)) labels.set(op.id, 'check-constraint');
  }

  // 3. Side inputs of the operators above the statement's DML: work joined to the changed rows.
  const climbed = new Set<number>(mains.map((m) => m.id));
  for (const m of mains) {
    for (let a = parent.get(m.id); a !== undefined && !climbed.has(a); a = parent.get(a)) {
      climbed.add(a);
      const above = ops.get(a)!;
      const sideKinds = new Set<HiddenWorkKind>();
      for (const c of above.children) {
        if (containsMain(c)) continue;
        const sub = walk.subtree(c);
        const kinds = new Set([...sub].map((x) => labels.get(x)).filter((k): k is HiddenWorkKind => k !== undefined));
        let k: HiddenWorkKind | undefined;
        if (kinds.size === 0) k = facts.readOnlyKind([...sub].flatMap((x) => ops.get(x)?.objectsRead ?? []));
        else if (kinds.size === 1) k = [...kinds][0];
        else {
          // Mixed work (a trigger whose DELETE cascades): scaffolding joins take their outer input's kind.
          const ordered: PlanOperator[] = [];
          walk.postorderFrom(c, new Set<number>(), ordered);
          for (const x of ordered.map((o) => o.id)) {
            if (labels.has(x)) continue;
            const first = (ops.get(x)?.children ?? []).map((y) => labels.get(y)).find((l) => l !== undefined);
            if (first) labels.set(x, first);
          }
          k = labels.get(c);
        }
        if (k) {
          for (const x of sub) if (!labels.has(x) && !mainSub.has(x)) labels.set(x, k);
          sideKinds.add(k);
        }
      }
      if (sideKinds.size === 1 && !labels.has(a) && above.type !== 'RETURN' && (JOIN_OPERATORS.has(above.type) || ['UNION', 'TEMP', 'FILTER'].includes(above.type))) {
        labels.set(a, [...sideKinds][0]);
      }
    }
  }

  // 4. With a schema: reads of a parent table inside the input of INSERT … VALUES can only be FK checks.
  const valuesInsert = kind === 'insert' && statementText ? /\bVALUES\b/i.test(statementText) && !/\bSELECT\b/i.test(statementText) : false;
  if (valuesInsert) {
    for (const x of mainSub) {
      const op = ops.get(x)!;
      if (!mains.includes(op) && !labels.has(x) && op.objectsRead.some((r) => facts.isParentRead(r))) labels.set(x, 'foreign-key-check');
    }
  }

  for (const [id, k] of labels) if (!mains.some((m) => m.id === id)) report.labels[id] = k;

  // Pieces: connected operators with the same label; scaffolding joins above the DML belong with their side input.
  const assigned = new Set<number>();
  for (const op of plan.operators) {
    const k = labels.get(op.id);
    if (!k || assigned.has(op.id)) continue;
    let top = op.id;
    const path = new Set<number>([top]);
    while (parent.has(top) && !containsMain(top) && labels.get(parent.get(top)!) === k && !path.has(parent.get(top)!)) {
      top = parent.get(top)!;
      path.add(top);
    }
    const members: number[] = [];
    const stack = [top];
    while (stack.length) {
      const x = stack.pop()!;
      if (assigned.has(x) || labels.get(x) !== k) continue;
      assigned.add(x);
      members.push(x);
      for (const c of ops.get(x)?.children ?? []) if (!containsMain(c)) stack.push(c);
    }
    members.sort((a, b) => a - b);
    const memberOps = members.map((x) => ops.get(x)!);
    const cost = memberOps.reduce((sum, x) => sum + (x.ownCost ?? 0), 0);
    const objects = [...new Set(memberOps.flatMap((x) => [...x.objectsRead, ...x.objectsWritten]))];
    const piece: HiddenPiece = { kind: k, operators: members, cost, share: total ? cost / total : undefined, objects, description: '' };
    const pieceFacts: PieceFacts = { statementKind: kind, target, context, facts, causes: members.map((x) => causes.get(x)).filter((c): c is WriteCause => c !== undefined) };
    describePiece(piece, memberOps, pieceFacts);
    report.pieces.push(piece);
  }
  report.pieces.sort((a, b) => b.cost - a.cost);

  // The statement's own work: its DML operators and their inputs, without hidden work inside them.
  const own = [...mainSub].filter((x) => !labels.has(x) || mains.some((m) => m.id === x));
  if (own.every((x) => ops.get(x)?.ownCost !== undefined)) report.mainCost = own.reduce((s, x) => s + ops.get(x)!.ownCost!, 0);
  if (total && report.mainCost !== undefined) report.mainShare = report.mainCost / total;

  addNotes(report, context, facts);
  report.verdict = verdict(report, mains, total);
  applyLabels(plan, report);
  return report;
}

function applyLabels(plan: AccessPlan, report: HiddenWorkReport): void {
  for (const op of plan.operators) op.hidden = report.labels[op.id] ?? null;
}

/** Iterative walks (plans can be thousands of operators deep); a shared subplan is visited once. */
class PlanWalk {
  private readonly subtrees = new Map<number, Set<number>>();
  constructor(private readonly ops: Map<number, PlanOperator>) {}

  subtree(id: number): Set<number> {
    const cached = this.subtrees.get(id);
    if (cached) return cached;
    const seen = new Set<number>();
    const stack = [id];
    while (stack.length) {
      const x = stack.pop()!;
      if (seen.has(x)) continue;
      seen.add(x);
      for (const c of this.ops.get(x)?.children ?? []) stack.push(c);
    }
    this.subtrees.set(id, seen);
    return seen;
  }

  /** Left-first post-order from `start`, skipping `visited`; appends to `out`. */
  postorderFrom(start: number, visited: Set<number>, out: PlanOperator[]): void {
    if (visited.has(start)) return;
    visited.add(start);
    const stack: [number, number][] = [[start, 0]];
    while (stack.length) {
      const top = stack[stack.length - 1];
      const op = this.ops.get(top[0]);
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
  }
}

/** What the plan and the context say about the objects of one statement. */
export class Facts {
  constructor(
    private readonly plan: AccessPlan,
    readonly context: ExplainContext | undefined,
    readonly target: string | undefined,
  ) {}

  /** Whether the context describes `table` (a context that cannot say is trusted). */
  knows(table: string | undefined): boolean {
    if (!table || !this.context) return false;
    return this.context.hasTable ? this.context.hasTable(table) : true;
  }

  objectInfo(key: string) {
    return this.plan.objects.find((o) => sameObject(o.key, key));
  }

  /** The table behind an object the plan reads: itself, or an index's table (Objects Used, then the context). */
  baseTableOf(key: string): string | undefined {
    const info = this.objectInfo(key);
    if (info?.baseTable) return info.baseTable;
    const fromContext = this.context?.tableOfIndex?.(key);
    if (fromContext) return fromContext;
    const isIndex = this.plan.operators.some((op) => op.inputs.some((i) => i.kind === 'object' && i.object.key === key && i.object.kind === 'index'));
    return isIndex ? undefined : key;
  }

  isMqt(key: string | undefined): boolean {
    if (!key) return false;
    if (this.context?.isMqt(key)) return true;
    if (this.target && this.context?.mqtsOver(this.target).some((m) => sameObject(m.name, key))) return true;
    return /materiali[sz]ed|summary|\bMQT\b/i.test(this.objectInfo(key)?.type ?? '');
  }

  /** Enforced foreign keys of the target (it is the child). */
  parents(): ForeignKeyFact[] {
    return this.target ? (this.context?.foreignKeysOf(this.target) ?? []).filter((fk) => fk.enforced !== false) : [];
  }

  /** Enforced foreign keys that reference the target (it is the parent). */
  dependents(): ForeignKeyFact[] {
    return this.target ? (this.context?.dependentsOf?.(this.target) ?? []).filter((fk) => fk.enforced !== false) : [];
  }

  /** Operators that are an input of more than one operator (a TEMP drawn twice). */
  sharedOperators(): PlanOperator[] {
    const parents = new Map<number, number>();
    for (const op of this.plan.operators) for (const c of new Set(op.children)) parents.set(c, (parents.get(c) ?? 0) + 1);
    return this.plan.operators.filter((op) => (parents.get(op.id) ?? 0) > 1);
  }

  isParentRead(key: string): boolean {
    const table = this.baseTableOf(key);
    return table !== undefined && this.parents().some((fk) => sameObject(fk.parent, table));
  }

  readOnlyKind(reads: string[]): HiddenWorkKind | undefined {
    const real = reads.filter((k) => !/^SYSIBM\.GENROW$/i.test(k));
    if (real.length === 0) return undefined;
    if (real.some((r) => this.isMqt(this.baseTableOf(r)) || this.isMqt(r))) return 'mqt-maintenance';
    return 'foreign-key-check';
  }

  /**
   * Why a DML operator other than the statement's own writes its table. The schema decides when it describes
   * the table; otherwise the plan's shape: aggregated rows applied to a table are MQT maintenance, a DELETE
   * statement deleting or updating another table is what a cascading foreign key does, and the rest could be
   * a trigger or MQT maintenance.
   */
  causeOfWrite(d: PlanOperator, kind: StatementKind, dmls: PlanOperator[], sub: Set<number>): WriteCause {
    const written = d.objectsWritten[0];
    const cause = (k: HiddenWorkKind, how: WriteCause['how'], extra: Partial<WriteCause> = {}): WriteCause => ({ kind: k, how, operator: d.id, table: written, ...extra });
    if (this.isMqt(written)) return cause('mqt-maintenance', 'schema');
    if (written && this.context && (d.type === 'DELETE' || d.type === 'UPDATE')) {
      const fk = this.context
        .foreignKeysOf(written)
        .find((f) => (f.deleteRule === 'cascade' || f.deleteRule === 'set null') && dmls.some((o) => o !== d && o.type !== 'INSERT' && o.objectsWritten.some((x) => sameObject(x, f.parent))));
      if (fk) return cause('ri-cascade', 'schema', { foreignKey: fk });
    }
    const trigger = this.target && written ? this.context?.triggersOn(this.target).find((t) => t.writes.some((w) => sameObject(w, written))) : undefined;
    if (trigger) return cause('trigger', 'schema', { trigger });
    if (this.knows(written) && this.knows(this.target)) return cause('trigger', 'unexplained');
    const ops = [...sub].map((x) => this.plan.operators.find((o) => o.id === x)!);
    if (ops.some((o) => o?.type === 'GRPBY')) return cause('mqt-maintenance', 'aggregated');
    if ((kind === 'delete' || kind === 'merge') && (d.type === 'DELETE' || d.type === 'UPDATE')) return cause('ri-cascade', 'plan');
    if ((kind === 'delete' && d.type === 'INSERT') || (kind === 'insert' && d.type === 'DELETE')) return cause('trigger', 'plan');
    return cause('trigger-or-mqt', 'plan');
  }
}
