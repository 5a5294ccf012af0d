// Db2 connection profiles: host/port/database/user in the settings, the password only in
// VS Code's SecretStorage (keyed by profile name), never in settings or files.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { ExperimentalServerCapabilities } from '../../server/src/lsp/protocol';
import { sealSecret, type SealedSecret } from '../../server/src/lsp/secret-channel';

export interface ConnectionProfile {
  name: string;
  host: string;
  port: number;
  database: string;
  user: string;
}

const SECRET_PREFIX = 'insertlint.connection.password.';

export function profiles(): ConnectionProfile[] {
  const raw = vscode.workspace.getConfiguration('insertlint').get<unknown>('connections');
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (p): p is ConnectionProfile =>
      typeof p === 'object' && p !== null && typeof p.name === 'string' && typeof p.host === 'string' && typeof p.port === 'number' && typeof p.database === 'string' && typeof p.user === 'string',
  );
}

export async function pickProfile(): Promise<ConnectionProfile | undefined> {
  const all = profiles();
  if (all.length <= 1) return all[0];
  const picked = await vscode.window.showQuickPick(
    all.map((p) => ({ label: p.name, description: `${p.user}@${p.host}:${p.port}/${p.database}`, profile: p })),
    { placeHolder: 'Db2 connection to explain on' },
  );
  return picked?.profile;
}

export function password(secrets: vscode.SecretStorage, profile: ConnectionProfile): Thenable<string | undefined> {
  return secrets.get(SECRET_PREFIX + profile.name);
}

/**
 * A profile the user picks and its stored password, sealed for the running server: request traces
 * (insertlint.trace.server) must not show it. Undefined, after saying why, when something is missing.
 */
export async function pickSealedProfile(secrets: vscode.SecretStorage, client: LanguageClient): Promise<{ profile: ConnectionProfile; password: SealedSecret } | undefined> {
  const profile = await pickProfile();
  if (!profile) return undefined;
  const pw = await password(secrets, profile);
  if (pw === undefined) {
    void vscode.window.showWarningMessage(`InsertLint: no password stored for "${profile.name}"; run "InsertLint: Add Db2 connection" again.`);
    return undefined;
  }
  const secretKey = (client.initializeResult?.capabilities.experimental as Partial<ExperimentalServerCapabilities> | undefined)?.insertlint?.secretKey;
  if (!secretKey) {
    void vscode.window.showWarningMessage('InsertLint: the language server did not announce its key for the password; restart it and try again.');
    return undefined;
  }
  return { profile, password: sealSecret(secretKey, pw) };
}

/** Asks for a profile step by step and stores it; the password goes to SecretStorage. */
export async function addConnection(secrets: vscode.SecretStorage): Promise<ConnectionProfile | undefined> {
  const ask = (prompt: string, value?: string, validate?: (v: string) => string | undefined, secret = false) =>
    vscode.window.showInputBox({ prompt, value, password: secret, ignoreFocusOut: true, validateInput: validate });
  const required = (v: string) => (v.trim() ? undefined : 'Required');
  const name = await ask('Name of this connection (e.g. dev-sample)', undefined, required);
  if (!name) return undefined;
  const host = await ask('Db2 host', 'localhost', required);
  if (!host) return undefined;
  const portText = await ask('Port', '50000', (v) => (/^\d{1,5}$/.test(v) && Number(v) > 0 && Number(v) < 65536 ? undefined : 'A port number (1-65535)'));
  if (!portText) return undefined;
  const database = await ask('Database name', undefined, required);
  if (!database) return undefined;
  const user = await ask('User', undefined, required);
  if (!user) return undefined;
  const pw = await ask(`Password for ${user} (kept in VS Code's secret storage, not in settings)`, undefined, undefined, true);
  if (pw === undefined) return undefined;
  const profile: ConnectionProfile = { name: name.trim(), host: host.trim(), port: Number(portText), database: database.trim(), user: user.trim() };
  const config = vscode.workspace.getConfiguration('insertlint');
  const others = profiles().filter((p) => p.name !== profile.name);
  await config.update('connections', [...others, profile], vscode.ConfigurationTarget.Global);
  await secrets.store(SECRET_PREFIX + profile.name, pw);
  return profile;
}
