// Parses compared as plain data (incremental and piecewise parses against a whole one).
import { PackedValues, PackedValuesRow } from '../../server/src/sql/grammar/values';

/** A plain copy of a parse to compare: rows as their spans and values, origins and packed stores left out. */
export function plain(value: unknown): unknown {
  if (value instanceof PackedValuesRow) return { span: plain(value.span), values: plain(value.values) };
  if (value instanceof PackedValues) return { kind: value.kind, rows: plain(value.rows), span: plain(value.span) };
  if (Array.isArray(value)) return value.map(plain);
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (k !== 'origin') out[k] = plain(v);
  return out;
}
