// "Import schema from database" on the server side: the catalog of the chosen schemas read over ibm_db with
// the profile's password (from the editor's secret storage, sealed in the request like Explain's, never
// logged) and returned as the DDL of a schema file; the client writes it. The caller refuses this in
// untrusted workspaces.
import { driverMissingMessage, ibmDbFolder } from './driver-help';
import { buildConnection, Db2Error, IBM_DB_PATH_ENV, IbmDbDriver, loadIbmDb, PASSWORD_ENV, redactSecrets } from '../explain/driver';
import { parseSchemaList } from '../schema/catalog';
import { describeCounts, pullSchema } from '../cli/schema-command';
import type { PullSchemaParams, PullSchemaResult } from './protocol';
import type { SecretReceiver } from './secret-channel';

export async function pullSchemaRequest(params: PullSchemaParams, secrets: SecretReceiver): Promise<PullSchemaResult> {
  const c = params?.connection;
  if (!c || typeof c.host !== 'string' || typeof c.database !== 'string' || typeof c.user !== 'string') {
    return { error: 'importing a schema needs a connection (host, port, database, user)' };
  }
  if ('password' in c) return { error: 'importing a schema refuses a plain-text password (editors log requests): seal it with the server\'s secretKey' };
  const password = secrets.open(params.password);
  if (password === undefined) return { error: 'importing a schema needs the password sealed with this server\'s secretKey (the server may have restarted: try again)' };
  const schemas = parseSchemaList(typeof params.schemas === 'string' ? params.schemas : '');
  if (schemas.length === 0) return { error: 'name at least one schema to import (e.g. APP, SALES)' };
  let redact = (text: string) => redactSecrets(text, [password]);
  try {
    const connection = buildConnection({ host: c.host, port: String(c.port), database: c.database, user: c.user }, { [PASSWORD_ENV]: password });
    redact = connection.redact;
    const folder = ibmDbFolder(params.ibmDbPath);
    const env = folder ? { ...process.env, [IBM_DB_PATH_ENV]: folder } : process.env;
    const result = await pullSchema(connection, schemas, new IbmDbDriver(connection, () => loadIbmDb(env)));
    if (result.counts.tables + result.counts.mqts === 0) {
      return { error: `no tables found in ${schemas.join(', ')} on ${c.database} (schema names are case-sensitive in the catalog; ordinary names are upper case)` };
    }
    return { ddl: result.ddl, summary: `${describeCounts(result.counts)} from ${c.database}, ${schemas.join(', ')}`, warnings: result.warnings.map(redact) };
  } catch (error) {
    if (error instanceof Db2Error) {
      if (error.kind === 'driver-missing') return { error: redact(driverMissingMessage(error, params.ibmDbPath || undefined)) };
      return { error: redact(error.message + (error.details ? ` (${error.details})` : '')) };
    }
    return { error: redact(`importing the schema failed: ${(error as Error)?.message ?? String(error)}`) };
  }
}
