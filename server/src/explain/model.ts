// The plan model shared by every source of a plan (db2exfmt text, EXPLAIN tables) and every renderer.
// Costs follow Db2: TOTAL_COST and IO_COST are cumulative (an operator's cost includes its inputs).

/** 'trigger-or-mqt': another table written for the statement, where neither plan nor schema tells which of the two. */
export type HiddenWorkKind = 'foreign-key-check' | 'trigger' | 'mqt-maintenance' | 'trigger-or-mqt' | 'ri-cascade' | 'check-constraint';

export const HIDDEN_WORK_KINDS: readonly HiddenWorkKind[] = ['foreign-key-check', 'trigger', 'mqt-maintenance', 'trigger-or-mqt', 'ri-cascade', 'check-constraint'];

/** A base object (table, index, table function, nickname) as it appears under an operator. */
export interface PlanObjectRef {
  /** SCHEMA.NAME (schema trimmed). */
  key: string;
  schema: string;
  name: string;
  /** 'table' | 'index' | 'table-function' | 'nickname' | lower-case label otherwise. */
  kind: string;
  /** Cardinality printed above the object (the stream's row count). */
  rows?: number;
  /** Correlation name (Q1…) when printed. */
  correlation?: string;
}

export interface PlanArgument {
  name: string;
  description?: string;
  value: string;
}

export interface PlanPredicate {
  id?: number;
  /** 'Sargable', 'Start Key', 'Stop Key', 'Residual', 'Join', … (SARG/START/STOP/RESID/JOIN from the tables). */
  howApplied: string;
  text: string;
  filterFactor?: number;
  comparison?: string;
}

export type PlanInput =
  | { kind: 'operator'; id: number; rows?: number; streamId?: number }
  | { kind: 'object'; object: PlanObjectRef; streamId?: number };

export interface PlanOperator {
  id: number;
  /** Operator type without graph symbols: NLJOIN, TQ, INSERT, … */
  type: string;
  /** The token as drawn, with symbols: ^NLJOIN, BTQ, LTQ*, … */
  label: string;
  /** Meanings of the symbols around the name (early-out-left, left-outer-join, broadcast, listener, …). */
  flags: string[];
  longName?: string;
  /** Estimated output rows. */
  rows?: number;
  /** Rows counted at run time (plans explained from a section with actuals: the graph's "Rows Actual" line). */
  actualRows?: number;
  /** Cumulative total cost (timerons). */
  totalCost?: number;
  /** Total cost minus the total cost of the operator inputs (never below 0). */
  ownCost?: number;
  /** Cumulative I/O cost (pages). */
  ioCost?: number;
  cpuCost?: number;
  firstRowCost?: number;
  /** Operator inputs (children) in drawing order: outer/left first. */
  children: number[];
  /** Every input in drawing order, objects included. */
  inputs: PlanInput[];
  /** Objects this operator reads directly (SCHEMA.NAME). */
  objectsRead: string[];
  /** Objects this operator writes (the target of INSERT/UPDATE/DELETE). */
  objectsWritten: string[];
  arguments: PlanArgument[];
  predicates: PlanPredicate[];
  /** Filled by classifyHiddenWork. */
  hidden?: HiddenWorkKind | null;
}

export interface ObjectInfo {
  key: string;
  schema: string;
  name: string;
  /** As printed/stored: 'Table', 'Index', 'TA', 'IX', … */
  type?: string;
  /** For an index: the table it belongs to (SCHEMA.NAME), when the source says. */
  baseTable?: string;
  rows?: number;
  properties: Record<string, string>;
}

export type PlanSource = 'graph' | 'plan-details' | 'explain-tables';

export interface AccessPlan {
  /** Sorted by id. */
  operators: PlanOperator[];
  /** Operators without a parent (normally just RETURN (1)). */
  roots: number[];
  /** The statement's total cost: "Total Cost:" or the root's cumulative cost. */
  totalCost?: number;
  source: PlanSource;
  objects: ObjectInfo[];
}

export interface ExplainMessage {
  code: string;
  message: string;
  /** 1-based line in the input, when it points somewhere. */
  line?: number;
}

/** What reading an Access Plan graph gives (exfmt-graph.ts: parseGraph). */
export interface GraphResult {
  operators: PlanOperator[];
  /** The tree could be rebuilt (false: operators are listed but not linked). */
  linked: boolean;
  damage?: 'indentation-stripped' | 'spaces-collapsed';
  errors: ExplainMessage[];
  warnings: ExplainMessage[];
}

export interface ExplainStatement {
  statementNumber?: number;
  sectionNumber?: number;
  queryNo?: number;
  queryTag?: string;
  statementType?: string;
  originalText?: string;
  optimizedText?: string;
  plan?: AccessPlan;
  diagnostics: string[];
  errors: ExplainMessage[];
  warnings: ExplainMessage[];
}

export interface ExfmtHeader {
  /** First banner line, e.g. "DB2 Universal Database Version 9.7, …". */
  banner?: string;
  tool?: string;
  /** "09.07.5" style (DB2_VERSION). */
  db2Version?: string;
  /** The EXPLAIN INSTANCE fields (DB2_VERSION, FORMATTED ON DB, SOURCE_NAME, EXPLAIN_TIME, …), as printed. */
  fields: Record<string, string>;
  /** Database Context and Package Context (Parallelism, CPU Speed, Buffer Pool size, Optimization Level, …), as printed. */
  context?: Record<string, string>;
  /**
   * How many of the document's statements this head describes, when a later EXPLAIN INSTANCE starts others (two
   * db2exfmt outputs in one text); undefined when it describes them all.
   */
  statementsDescribed?: number;
}

export interface ExfmtDocument {
  /** 'db2exfmt' full output, 'graph' a pasted Access Plan only, 'db2expln' the other tool, 'unknown' no plan. */
  kind: 'db2exfmt' | 'graph' | 'db2expln' | 'unknown';
  header: ExfmtHeader;
  statements: ExplainStatement[];
  errors: ExplainMessage[];
  warnings: ExplainMessage[];
}

export function operatorById(plan: AccessPlan, id: number): PlanOperator | undefined {
  return plan.operators.find((op) => op.id === id);
}

export function operatorMap(plan: AccessPlan): Map<number, PlanOperator> {
  return new Map(plan.operators.map((op) => [op.id, op]));
}

/**
 * Fill ownCost and roots from children and cumulative costs. Inputs that name no operator of the plan are
 * dropped (reported through `onDangling`), so every `children` entry names an operator that exists.
 */
export function finishPlan(plan: AccessPlan, onDangling?: (op: PlanOperator, missing: number) => void): AccessPlan {
  const byId = operatorMap(plan);
  for (const op of plan.operators) {
    const kept = [...new Set(op.children)].filter((c) => {
      if (byId.has(c) && c !== op.id) return true;
      onDangling?.(op, c);
      return false;
    });
    if (kept.length !== op.children.length) {
      op.children = kept;
      op.inputs = op.inputs.filter((i) => i.kind === 'object' || kept.includes(i.id));
    }
  }
  const hasParent = new Set<number>();
  for (const op of plan.operators) for (const c of op.children) hasParent.add(c);
  plan.operators.sort((a, b) => a.id - b.id);
  plan.roots = plan.operators.filter((op) => !hasParent.has(op.id)).map((op) => op.id);
  for (const op of plan.operators) {
    if (op.totalCost === undefined) {
      op.ownCost = undefined;
      continue;
    }
    let inputs = 0;
    for (const c of op.children) inputs += byId.get(c)?.totalCost ?? 0;
    op.ownCost = Math.max(0, op.totalCost - inputs);
  }
  if (plan.totalCost === undefined && plan.roots.length > 0) plan.totalCost = byId.get(plan.roots[0])?.totalCost;
  return plan;
}

export function newOperator(id: number, type: string): PlanOperator {
  return { id, type, label: type, flags: [], children: [], inputs: [], objectsRead: [], objectsWritten: [], arguments: [], predicates: [] };
}

export const DML_OPERATORS = new Set(['INSERT', 'UPDATE', 'DELETE']);
export const JOIN_OPERATORS = new Set(['NLJOIN', 'HSJOIN', 'MSJOIN', 'ZZJOIN']);
export const READ_OPERATORS = new Set(['IXSCAN', 'TBSCAN', 'FETCH', 'EISCAN', 'RIDSCN', 'XISCAN', 'IXAND', 'XSCAN']);

/** Upper-case, trimmed SCHEMA.NAME. */
export function objectKey(schema: string, name: string): string {
  return `${schema.trim()}.${name.trim()}`;
}
