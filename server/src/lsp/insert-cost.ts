// The table and sequence hovers: what one insert costs, from the shared cost table of
// server/src/schema/insert-costs.ts (the checklist shows the same lines and factors).
import { displayKey, type SchemaModel, type SequenceInfo, type TableInfo } from '../schema/schema';
import { identityCacheCost, insertCostSummary } from '../schema/insert-costs';

type Where = (file: string, offset: number) => string;

function definedAt(where: Where | undefined, located: { file: string; stmt: { origin: { toFile(o: number): number }; span: { start: number } } }): string {
  return where ? where(located.file, located.stmt.origin.toFile(located.stmt.span.start)) : located.file;
}

/** The hover text for a table (Markdown). */
export function tableHoverMarkdown(table: TableInfo, schema: SchemaModel, where?: Where): string {
  const out: string[] = [];
  out.push(`**${table.mqt ? 'Materialized query table' : 'Table'} ${displayKey(table.key)}** — what one insert costs`);
  if (table.definition) out.push(`\nDefined in ${definedAt(where, table.definition)}.`);
  else out.push('\nIts CREATE TABLE is not in the workspace; only what other DDL says about it is known.');
  const summary = insertCostSummary(table, schema);
  const lines = summary.filter((l) => l.present);
  if (lines.length === 0) {
    out.push("\nNothing here adds work per inserted row: no indexes, constraints, triggers, MQTs, written LOBs or identity (the baseline of Db2 INSERT tips, test 11: 100,000 rows in 31.5 s).");
  } else {
    out.push('\n| Adds work per row | This table | Measured relative cost | Source |\n|---|---|---|---|');
    for (const l of lines) out.push(`| ${escapeCell(l.label)} | ${escapeCell(l.detail)} | ${escapeCell(l.factorText)} | ${escapeCell(l.source)} |`);
    out.push('\nEach factor was measured alone against the baseline (100,000 rows, CLI array insert, commit every 1,000 rows: 31.5 s, Db2 INSERT tips, Appendix A); they are not multiplied together.');
  }
  // What the table has that costs no per-row work (as the checklist's "Not on this table"): a LOB no insert writes.
  const notes = summary.filter((l) => !l.present && l.detail !== 'none').map((l) => `${l.label}: ${l.detail}`);
  if (notes.length > 0) out.push(`\nNot charged: ${notes.join('; ')}.`);
  const target = schema.targetOfTable(table);
  if (target) {
    const places = `${target.sites.length} place${target.sites.length === 1 ? '' : 's'}`;
    out.push(`\nInserted into at ${places} in the workspace${target.bulkReasons.length ? ` (bulk: ${target.bulkReasons.join('; ')})` : ''}.`);
  }
  return out.join('\n');
}

/** The hover text for a sequence (Markdown): sequences cost what an identity with the same cache costs. */
export function sequenceHoverMarkdown(sequence: SequenceInfo, where?: Where): string {
  const cost = identityCacheCost(sequence.cache);
  const cache = sequence.cache === 0 ? 'NO CACHE' : `CACHE ${sequence.cache}${sequence.explicit ? '' : ' (default)'}`;
  return [
    `**Sequence ${displayKey(sequence.key)}**, ${cache}`,
    `\nEach value handed to an insert costs about what an IDENTITY with the same cache costs: ${cost.text} (${cost.source}; sequences measured alike in tests 47-51).`,
    `\nDefined in ${definedAt(where, sequence)}.`,
  ].join('\n');
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
