// The plan view's server side: db2exfmt text or a live Explain → issue 4's parser, hidden-work
// classifier and HTML renderer, with the workspace schema (or the live catalog) as context so that
// FK checks, triggers and MQTs are named. The caller refuses live Explain in untrusted workspaces.
import type { SchemaModel } from '../schema/schema';
import { MAX_EXFMT_BYTES, parseExfmt } from '../explain/exfmt';
import { explainDocument, hasPlan, type ExplainReport } from '../explain/report';
import { renderHtml } from '../explain/render';
import { schemaExplainContext } from '../explain/schema-context';
import { classifyHiddenWork } from '../explain/classify';
import { driverMissingMessage, ibmDbFolder } from './driver-help';
import { buildConnection, Db2Error, IBM_DB_PATH_ENV, IbmDbDriver, loadIbmDb, PASSWORD_ENV, redactSecrets } from '../explain/driver';
import { explainLive, findDb2exfmt } from '../explain/live';
import type { ExplainParams, RenderPlanParams, RenderPlanResult } from './protocol';
import type { SecretReceiver } from './secret-channel';

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

/**
 * EXPLAIN PLAN for one statement on a live Db2 (the INSERT itself never runs), via db2exfmt or the Explain
 * tables. The password arrives sealed and, once opened, goes to the driver's connection string only; every
 * message that leaves is redacted of it.
 */
export async function explainStatement(params: ExplainParams, schema: () => SchemaModel, secrets: SecretReceiver): Promise<RenderPlanResult> {
  if (typeof params?.sql !== 'string' || !params.sql.trim()) return { error: 'explain needs the SQL statement' };
  if (typeof params.nonce !== 'string' || !NONCE.test(params.nonce)) return { error: 'explain needs a random nonce (16+ base64 characters)' };
  const c = params.connection;
  if (!c || typeof c.host !== 'string' || typeof c.database !== 'string' || typeof c.user !== 'string') {
    return { error: 'explain needs a connection (host, port, database, user)' };
  }
  if ('password' in c) return { error: 'explain refuses a plain-text password (editors log requests): seal it with the server\'s secretKey' };
  const password = secrets.open(params.password);
  if (password === undefined) return { error: 'explain needs the password sealed with this server\'s secretKey (the server may have restarted: try again)' };
  let redact = (text: string) => redactSecrets(text, [password]);
  try {
    const connection = buildConnection({ host: c.host, port: String(c.port), database: c.database, user: c.user }, { [PASSWORD_ENV]: password });
    redact = connection.redact;
    const folder = ibmDbFolder(params.ibmDbPath);
    const env = folder ? { ...process.env, [IBM_DB_PATH_ENV]: folder } : process.env;
    const driver = new IbmDbDriver(connection, () => loadIbmDb(env));
    const live = await explainLive({ sql: params.sql, connection, driver, db2exfmt: findDb2exfmt(process.env) });
    const context = live.context ?? schemaExplainContext(schema());
    const sourceName = `live Explain (${live.via}) on ${connection.database ?? c.database}`;
    const report: ExplainReport = {
      kind: 'live',
      statements: live.document.statements.map((statement) => ({ statement, report: classifyHiddenWork(statement, context) })),
      errors: live.document.errors,
      warnings: [...live.warnings, ...live.document.warnings],
      header: live.document.header,
      sourceName,
    };
    const title = `Plan: ${sourceName}`;
    return { html: renderHtml(report, { nonce: params.nonce, title }), title };
  } catch (error) {
    if (error instanceof Db2Error) {
      if (error.kind === 'driver-missing') {
        // The loader's require stack helps nobody here; say what to install and where the editor looks.
        return { error: redact(driverMissingMessage(error, params.ibmDbPath || undefined)) };
      }
      return { error: redact(error.message + (error.details ? ` (${error.details})` : '')) };
    }
    return { error: redact(`live Explain failed: ${(error as Error)?.message ?? String(error)}`) };
  }
}
