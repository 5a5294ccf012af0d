// "InsertLint: Import schema from database": the server reads the live catalog of the chosen schemas (trusted
// workspaces only, password from secret storage), the client writes the DDL where the user chooses and names
// it in insertlint.schema, so that the loaders of a repository without DDL get the schema findings.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { PULL_SCHEMA_REQUEST, type PullSchemaResult } from '../../server/src/lsp/protocol';
import { pickSealedProfile, profiles } from './connections';

export async function importSchema(context: vscode.ExtensionContext, client: LanguageClient | undefined, output: vscode.LogOutputChannel): Promise<void> {
  if (!client) return;
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage('InsertLint: this workspace is not trusted, so InsertLint will not connect to a database. Name db2look output in insertlint.schema instead.');
    return;
  }
  if (profiles().length === 0) {
    const add = 'Add Db2 connection…';
    if ((await vscode.window.showInformationMessage('InsertLint: no Db2 connection is configured.', add)) === add) await vscode.commands.executeCommand('insertlint.addConnection');
    return;
  }
  const picked = await pickSealedProfile(context.secrets, client);
  if (!picked) return;
  const { profile, password: sealed } = picked;
  const schemas = await vscode.window.showInputBox({
    prompt: 'Schemas to import, comma-separated (ordinary names are upper-cased; quote mixed-case ones)',
    value: profile.user.toUpperCase(),
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : 'Name at least one schema'),
  });
  if (!schemas) return;
  const folder = vscode.workspace.workspaceFolders?.[0];
  const target = await vscode.window.showSaveDialog({
    title: 'Save the schema snapshot',
    defaultUri: folder ? vscode.Uri.joinPath(folder.uri, 'db', 'schema.sql') : undefined,
    filters: { 'SQL DDL': ['sql', 'ddl', 'db2'] },
  });
  if (!target) return;
  const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `InsertLint: reading the catalog of ${profile.database}` }, () =>
    client.sendRequest<PullSchemaResult>(PULL_SCHEMA_REQUEST, {
      connection: { host: profile.host, port: profile.port, database: profile.database, user: profile.user },
      password: sealed,
      schemas,
      ibmDbPath: vscode.workspace.getConfiguration('insertlint').get<string>('explain.ibmDbPath') || undefined,
    }),
  );
  if ('error' in result) {
    void vscode.window.showWarningMessage(`InsertLint: ${result.error}`);
    return;
  }
  for (const warning of result.warnings) output.warn(`schema import: ${warning}`);
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(result.ddl));
  // Named as a schema file, the snapshot feeds the schema rules and is not linted itself.
  const settings = vscode.workspace.getConfiguration('insertlint', folder?.uri);
  const entry = folder ? vscode.workspace.asRelativePath(target, false) : target.fsPath;
  const current = settings.get<string[]>('schema') ?? [];
  if (!current.includes(entry)) await settings.update('schema', [...current, entry], vscode.ConfigurationTarget.Workspace);
  void vscode.window.showInformationMessage(`InsertLint: imported ${result.summary} into ${entry} (named in insertlint.schema)${result.warnings.length ? `; ${result.warnings.length} warning(s) in the output` : ''}.`);
}
