// Reads db2exfmt's "Objects Used in Access Plan": one `Schema:` / `Name:` / `Type:` list per table, index or
// function the plan reads or writes, with its properties (rows, base table of an index, …). The objects' types tell
// the graph's and Plan Details' object inputs what they are. A value that a wrap cut off leaves its object out.
import { objectKey, type AccessPlan, type ExplainMessage, type ObjectInfo } from './model';
import { parseDb2Number } from './symbols';
import { numberAt } from './exfmt-wrap';

/** The objects described between lines `from` and `to`; those a wrap damaged are left out with a warning. */
export function parseObjects(lines: string[], from: number, to: number, warnings: ExplainMessage[]): ObjectInfo[] {
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
    } else if (cur) setProperty(cur, key, value);
  }
  for (const o of out) {
    const s = o.properties['Base Table Schema'];
    const n = o.properties['Base Table Name'];
    if (s && n) o.baseTable = objectKey(s, n);
  }
  return out.filter((o) => o.name && !refused.has(o));
}

/** `Key: value` of the object being described: its name and type (the first given), else one of its properties. */
function setProperty(cur: ObjectInfo, key: string, value: string): void {
  if (key === 'Name' && !cur.name) {
    cur.name = value.trim();
    cur.key = objectKey(cur.schema, cur.name);
  } else if (key === 'Type' && !cur.type) {
    cur.type = value.trim();
  } else {
    cur.properties[key] = value;
    if (key === 'Number of rows') cur.rows = parseDb2Number(value);
  }
}

/** The plan's object inputs that the drawing left of unknown kind get the kind Objects Used gives them. */
export function applyObjectInfo(plan: AccessPlan, info: ObjectInfo): void {
  const kind = info.type ? objectKindFromType(info.type) : undefined;
  if (!kind) return;
  for (const op of plan.operators) {
    for (const input of op.inputs) if (input.kind === 'object' && input.object.key === info.key && input.object.kind === 'unknown') input.object.kind = kind;
  }
}

/** An object kind from Objects Used' `Type:` or EXPLAIN_OBJECT's OBJECT_TYPE (`TA`, `IX`, `TF`, `NK`). */
export function objectKindFromType(type: string): string {
  const t = type.trim().toLowerCase();
  if (t === 'ta' || t.includes('table') && !t.includes('function')) return 'table';
  if (t === 'ix' || t.includes('index')) return 'index';
  if (t === 'tf' || t.includes('function')) return 'table-function';
  if (t === 'nk' || t.includes('nickname')) return 'nickname';
  return t;
}
