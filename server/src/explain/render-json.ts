// The JSON rendering of an ExplainReport: every statement with its operators (children always name
// operators of the same plan), hidden work, verdict and notes.
import { hiddenKindLabel } from './describe';
import { displayKey } from '../schema/schema';
import { statementTextOf, type ExplainReport } from './report';
import type { ExfmtHeader } from './model';

/**
 * The head of the db2exfmt text: its main facts (null when absent or refused as cut by a wrap), every EXPLAIN
 * INSTANCE field and Database/Package Context value as printed, and how many statements it describes (null: all).
 * Null when the input had no head (a pasted graph); a live explain read from the EXPLAIN tables has the fields of
 * its key row (live.ts headFields).
 */
function headerJson(header: ExfmtHeader | undefined): unknown {
  if (!header || (!header.banner && !header.tool && Object.keys(header.fields).length === 0 && Object.keys(header.context ?? {}).length === 0)) return null;
  const f = header.fields;
  const name = f.SOURCE_NAME?.trim();
  return {
    db2Version: header.db2Version ?? null,
    explainTime: f.EXPLAIN_TIME || null,
    database: f['FORMATTED ON DB'] || null,
    package: name ? { schema: f.SOURCE_SCHEMA?.trim() || null, name, version: f.SOURCE_VERSION?.trim() || null } : null,
    explainRequester: f.EXPLAIN_REQUESTER || null,
    banner: header.banner ?? null,
    tool: header.tool ?? null,
    fields: f,
    context: header.context ?? {},
    statementsDescribed: header.statementsDescribed ?? null,
  };
}

export function toJson(report: ExplainReport): unknown {
  return {
    kind: report.kind,
    errors: report.errors,
    warnings: report.warnings,
    header: headerJson(report.header),
    statements: report.statements.map((es) => {
      const s = es.statement;
      const plan = s.plan;
      return {
        text: statementTextOf(s),
        totalCost: plan?.totalCost ?? null,
        statementNumber: s.statementNumber ?? null,
        optimizedText: s.optimizedText ?? null,
        source: plan?.source ?? null,
        statementKind: es.report.statementKind,
        target: es.report.target ? displayKey(es.report.target) : null,
        mainOperator: es.report.mainOperator ?? null,
        mainOperators: es.report.mainOperators,
        operators: (plan?.operators ?? []).map((op) => ({
          id: op.id,
          type: op.type,
          totalCost: op.totalCost ?? null,
          ioCost: op.ioCost ?? null,
          rows: op.rows ?? null,
          actualRows: op.actualRows ?? null,
          children: op.children,
          objects: [...new Set([...op.objectsRead, ...op.objectsWritten])],
          hidden: op.hidden ?? null,
          label: op.label,
          flags: op.flags,
          ownCost: op.ownCost ?? null,
          cpuCost: op.cpuCost ?? null,
          objectsWritten: op.objectsWritten,
          arguments: op.arguments,
          predicates: op.predicates,
        })),
        hiddenWork: es.report.pieces.map((p) => ({ kind: p.kind, words: hiddenKindLabel(p.kind), operators: p.operators, cost: p.cost, share: p.share ?? null, name: p.name ?? null, objects: p.objects, description: p.description })),
        mainShare: es.report.mainShare ?? null,
        verdict: es.report.verdict,
        notes: es.report.notes,
        errors: s.errors,
        warnings: s.warnings,
      };
    }),
  };
}

export function renderJson(report: ExplainReport): string {
  return JSON.stringify(toJson(report), null, 2) + '\n';
}
