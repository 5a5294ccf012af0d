// One explained document, ready for the renderers: every statement's plan with its hidden-work report.
import { classifyHiddenWork, type ExplainContext, type HiddenWorkReport } from './classify';
import type { ExfmtDocument, ExfmtHeader, ExplainMessage, ExplainStatement } from './model';

export interface ExplainedStatement {
  statement: ExplainStatement;
  report: HiddenWorkReport;
}

export interface ExplainReport {
  kind: ExfmtDocument['kind'] | 'live';
  statements: ExplainedStatement[];
  errors: ExplainMessage[];
  warnings: ExplainMessage[];
  /** Where the plan came from, for the page title ("plan.txt", "live: SAMPLE"). */
  sourceName?: string;
  /** The head of the db2exfmt text (EXPLAIN INSTANCE fields, Database and Package Context); empty or absent otherwise. */
  header?: ExfmtHeader;
}

export function explainDocument(doc: ExfmtDocument, context?: ExplainContext, sourceName?: string): ExplainReport {
  return {
    kind: doc.kind,
    statements: doc.statements.map((statement) => ({ statement, report: classifyHiddenWork(statement, context) })),
    errors: doc.errors,
    warnings: doc.warnings,
    sourceName,
    header: doc.header,
  };
}

/** True when at least one statement has a plan tree to show. */
export function hasPlan(report: ExplainReport): boolean {
  return report.statements.some((s) => s.statement.plan !== undefined && s.statement.plan.operators.length > 0);
}

/** Statement text for display: the original, else the optimized text. */
export function statementTextOf(s: ExplainStatement): string | null {
  return s.originalText ?? s.optimizedText ?? null;
}
