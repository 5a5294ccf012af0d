// Builds the plan model from EXPLAIN_* table rows (thin-client path; EXPLAIN_TABLES.md §4):
// O->O streams are operator inputs, D->O streams are objects read, O->D streams are objects written.
import { finishPlan, newOperator, objectKey, type AccessPlan, type ObjectInfo, type PlanOperator } from './model';
import type { Row } from './driver';
import { objectKindFromType } from './exfmt';
import { flagsFromArguments, labelFromFlags } from './symbols';

export interface ExplainTableRows {
  operators: Row[];
  streams: Row[];
  objects: Row[];
  arguments: Row[];
  predicates: Row[];
}

export function num(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v.trim());
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

export function str(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  return String(v);
}

const HOW_APPLIED: Record<string, string> = { SARG: 'Sargable', START: 'Start Key', STOP: 'Stop Key', RESID: 'Residual', JOIN: 'Join' };

export function buildPlanFromExplainTables(rows: ExplainTableRows, totalCost?: number): AccessPlan {
  const ops = new Map<number, PlanOperator>();
  for (const r of rows.operators) {
    const id = num(r.OPERATOR_ID);
    if (id === undefined) continue;
    const op = newOperator(id, str(r.OPERATOR_TYPE).trim() || '?');
    op.totalCost = num(r.TOTAL_COST);
    op.ioCost = num(r.IO_COST);
    op.cpuCost = num(r.CPU_COST);
    op.firstRowCost = num(r.FIRST_ROW_COST);
    ops.set(id, op);
  }
  const objects = new Map<string, ObjectInfo>();
  for (const r of rows.objects) {
    const schema = str(r.OBJECT_SCHEMA).trim();
    const name = str(r.OBJECT_NAME).trim();
    if (!name) continue;
    const info: ObjectInfo = { key: objectKey(schema, name), schema, name, type: str(r.OBJECT_TYPE).trim() || undefined, rows: num(r.ROW_COUNT), properties: {} };
    const baseSchema = str(r.BASE_SCHEMA ?? r.TABSCHEMA).trim();
    const baseName = str(r.BASE_NAME ?? r.TABNAME).trim();
    if (baseName) info.baseTable = objectKey(baseSchema, baseName);
    objects.set(info.key, info);
  }
  const kindOf = (key: string) => {
    const t = objects.get(key)?.type;
    return t ? objectKindFromType(t) : 'unknown';
  };
  const streams = [...rows.streams].sort((a, b) => (num(a.STREAM_ID) ?? 0) - (num(b.STREAM_ID) ?? 0));
  for (const s of streams) {
    const sourceType = str(s.SOURCE_TYPE).trim();
    const targetType = str(s.TARGET_TYPE).trim();
    const source = num(s.SOURCE_ID);
    const target = num(s.TARGET_ID);
    const count = num(s.STREAM_COUNT);
    const streamId = num(s.STREAM_ID);
    const schema = str(s.OBJECT_SCHEMA).trim();
    const name = str(s.OBJECT_NAME).trim();
    if (sourceType === 'O' && targetType === 'O' && source !== undefined && target !== undefined) {
      const parent = ops.get(target);
      const child = ops.get(source);
      if (!parent || !child || source === target) continue;
      parent.children.push(source);
      parent.inputs.push({ kind: 'operator', id: source, rows: count, streamId });
      if (count !== undefined) child.rows = count;
    } else if (sourceType === 'D' && targetType === 'O' && target !== undefined && name) {
      const op = ops.get(target);
      if (!op) continue;
      const key = objectKey(schema, name);
      op.inputs.push({ kind: 'object', object: { key, schema, name, kind: kindOf(key), rows: count }, streamId });
      op.objectsRead.push(key);
    } else if (sourceType === 'O' && targetType === 'D' && source !== undefined && name) {
      const op = ops.get(source);
      if (!op) continue;
      const key = objectKey(schema, name);
      op.inputs.push({ kind: 'object', object: { key, schema, name, kind: kindOf(key), rows: objects.get(key)?.rows }, streamId });
      op.objectsWritten.push(key);
    }
  }
  for (const r of rows.arguments) {
    const op = ops.get(num(r.OPERATOR_ID) ?? -1);
    if (!op) continue;
    const value = (r.ARGUMENT_VALUE === null || r.ARGUMENT_VALUE === undefined ? str(r.LONG_ARGUMENT_VALUE) : str(r.ARGUMENT_VALUE)).trim();
    op.arguments.push({ name: str(r.ARGUMENT_TYPE).trim(), value });
  }
  for (const op of ops.values()) {
    op.flags = flagsFromArguments(op.arguments);
    op.label = labelFromFlags(op.type, op.flags);
  }
  for (const r of rows.predicates) {
    const op = ops.get(num(r.OPERATOR_ID) ?? -1);
    if (!op) continue;
    const how = str(r.HOW_APPLIED).trim();
    const ff = num(r.FILTER_FACTOR);
    op.predicates.push({ id: num(r.PREDICATE_ID), howApplied: HOW_APPLIED[how] ?? how, text: str(r.PREDICATE_TEXT).trim(), filterFactor: ff !== undefined && ff >= 0 ? ff : undefined });
  }
  const plan: AccessPlan = { operators: [...ops.values()], roots: [], totalCost, source: 'explain-tables', objects: [...objects.values()] };
  finishPlan(plan);
  // The statement root is RETURN when there is one; other parentless operators stay as extra roots.
  const ret = plan.operators.find((op) => op.type === 'RETURN' && plan.roots.includes(op.id));
  if (ret) plan.roots = [ret.id, ...plan.roots.filter((r) => r !== ret.id)];
  if (plan.totalCost === undefined && ret) plan.totalCost = ret.totalCost;
  return plan;
}
