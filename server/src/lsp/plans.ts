// The plan view's server side: db2exfmt text → issue 4's parser, hidden-work classifier and HTML
// renderer, with the workspace schema as context (so FK checks, triggers and MQTs are named).
// A live Explain needs a database driver that issue 4 has not exposed yet: that request answers
// with a clear message and the client offers to open a db2exfmt file instead.
import type { SchemaModel } from '../schema/schema';
import { MAX_EXFMT_BYTES, parseExfmt } from '../explain/exfmt';
import { explainDocument, hasPlan } from '../explain/report';
import { renderHtml } from '../explain/render';
import { schemaExplainContext } from '../explain/schema-context';
import type { ExplainParams, RenderPlanParams, RenderPlanResult } from './protocol';

export const LIVE_EXPLAIN_MISSING =
  'Running Explain on a live database is not available in this build. Run db2exfmt yourself and use "InsertLint: Open db2exfmt file as plan".';

const NONCE = /^[A-Za-z0-9+/=_-]{16,128}$/;

export async function renderPlan(params: RenderPlanParams, schema: () => SchemaModel): Promise<RenderPlanResult> {
  if (typeof params?.text !== 'string') return { error: 'renderPlan needs the db2exfmt text' };
  if (typeof params.nonce !== 'string' || !NONCE.test(params.nonce)) return { error: 'renderPlan needs a random nonce (16+ base64 characters)' };
  const name = typeof params.name === 'string' && params.name ? params.name : 'plan';
  if (params.text.length > MAX_EXFMT_BYTES) return { error: `${name} is ${(params.text.length / 1048576).toFixed(0)} MB: too large to be a db2exfmt file` };
  const doc = parseExfmt(params.text);
  const report = explainDocument(doc, schemaExplainContext(schema()), name);
  if (!hasPlan(report) && report.errors.length > 0 && report.statements.length === 0) {
    return { error: `${name}: no plan could be read (${report.errors.map((e) => e.message).join('; ')})` };
  }
  const title = `Plan: ${name}`;
  return { html: renderHtml(report, { nonce: params.nonce, title }), title };
}

export async function explainStatement(params: ExplainParams): Promise<RenderPlanResult> {
  if (typeof params?.sql !== 'string') return { error: 'explain needs the SQL statement' };
  return { error: LIVE_EXPLAIN_MISSING };
}
