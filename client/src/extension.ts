// The VS Code side of InsertLint, kept thin: it starts the language server (out/server.js) over IPC,
// adds the commands, the status bar item and the plan view. All analysis happens in the server.
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, State, type LanguageClientOptions, type ServerOptions, type StateChangeEvent } from 'vscode-languageclient/node';
import {
  CLIENT_COMMANDS,
  EXPLAIN_REQUEST,
  RENDER_PLAN_REQUEST,
  RULE_DOC_REQUEST,
  RULES_REQUEST,
  FIX_ALL_KIND,
  SERVER_COMMANDS,
  STATEMENT_AT_REQUEST,
  STATUS_NOTIFICATION,
  type ExplainParams,
  type InitializationOptions,
  type RenderPlanResult,
  type RuleDocResult,
  type RuleSummary,
  type ConfigFileResult,
  type StatementAtResult,
  type StatusParams,
} from '../../server/src/lsp/protocol';
import { messagePage, newNonce, showPlan } from './plan-panel';
import { addConnection, pickSealedProfile, profiles } from './connections';
import { importSchema } from './import-schema';

/** Languages the server lints; .sql stays VS Code's own `sql`, .db2/.ddl/.clp are `db2sql`. */
const LINTED_LANGUAGES = ['sql', 'db2sql', 'java', 'python', 'javascript', 'typescript', 'javascriptreact', 'typescriptreact', 'c', 'cpp', 'shellscript'];
const RULE_DOC_SCHEME = 'insertlint-rule';
const OPEN_EXFMT = 'Open db2exfmt file…';
const ADD_CONNECTION = 'Add Db2 connection…';

let client: LanguageClient | undefined;
let output: vscode.LogOutputChannel;
let status: vscode.StatusBarItem;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('InsertLint', { log: true });
  status = vscode.window.createStatusBarItem('insertlint.status', vscode.StatusBarAlignment.Left, 50);
  status.name = 'InsertLint';
  status.text = '$(sync~spin) InsertLint';
  status.tooltip = 'InsertLint is starting';
  status.command = 'workbench.actions.view.problems';
  status.show();
  context.subscriptions.push(output, status);

  const reg = (id: string, run: (...args: any[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, run));
  reg(CLIENT_COMMANDS.explainInsert, (uri?: string, range?: vscode.Range) => explainInsert(context, uri, range));
  reg('insertlint.openExfmtAsPlan', (uri?: vscode.Uri) => openExfmtAsPlan(uri));
  reg('insertlint.addConnection', async () => {
    const profile = await addConnection(context.secrets);
    if (profile) void vscode.window.showInformationMessage(`InsertLint: connection "${profile.name}" saved (password in secret storage).`);
  });
  reg('insertlint.lintWorkspace', () => lintWorkspace());
  reg('insertlint.importSchema', () => importSchema(context, client, output));
  reg('insertlint.showOutput', () => output.show());
  reg(CLIENT_COMMANDS.showRuleDocumentation, (id?: string) => showRuleDocumentation(id));
  reg('insertlint.restartServer', () => restart(context));
  reg('insertlint.showRules', () => showRules());
  reg('insertlint.createConfiguration', () => createConfiguration());
  // The same edits as editor.codeActionsOnSave { "source.fixAll.insertlint": "explicit" }.
  reg('insertlint.fixAll', () => vscode.commands.executeCommand('editor.action.sourceAction', { kind: FIX_ALL_KIND, apply: 'first' }));

  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(RULE_DOC_SCHEME, {
      provideTextDocumentContent: async (uri) => {
        const id = uri.path.replace(/^\//, '').replace(/\.md$/, '');
        const doc = await client?.sendRequest<RuleDocResult | null>(RULE_DOC_REQUEST, { id });
        return doc ? doc.markdown : `# ${id}\n\nNo documentation found for this rule.\n`;
      },
    }),
  );

  // Trust granted later: restart so that the server knows it may now explain on a live database.
  context.subscriptions.push(vscode.workspace.onDidGrantWorkspaceTrust(() => void restart(context)));
  await startClient(context);
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}

async function startClient(context: vscode.ExtensionContext): Promise<void> {
  const module = context.asAbsolutePath('out/server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  const initializationOptions: InitializationOptions = {
    trusted: vscode.workspace.isTrusted,
    clientCommands: [CLIENT_COMMANDS.explainInsert, CLIENT_COMMANDS.showRuleDocumentation],
    // Rule ids in the Problems panel and hovers open the doc shipped with the extension, not a web address.
    ruleDocs: 'command',
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: LINTED_LANGUAGES.flatMap((language) => [
      { scheme: 'file', language },
      { scheme: 'untitled', language },
    ]),
    outputChannel: output,
    initializationOptions,
    // Settings: the server pulls section "insertlint" (workspace/configuration) and registers for changes.
  };
  client = new LanguageClient('insertlint', 'InsertLint', serverOptions, clientOptions);
  context.subscriptions.push(
    client.onDidChangeState((e: StateChangeEvent) => {
      if (e.newState === State.Stopped) setStatus({ state: 'idle', files: 0, findings: 0 }, 'stopped');
    }),
  );
  try {
    await client.start();
    client.onNotification(STATUS_NOTIFICATION, (params: StatusParams) => setStatus(params));
  } catch (error) {
    output.error(`The InsertLint language server did not start: ${String(error)}`);
    setStatus({ state: 'idle', files: 0, findings: 0 }, 'failed');
  }
}

async function restart(context: vscode.ExtensionContext): Promise<void> {
  await client?.stop();
  await startClient(context);
}

function setStatus(s: StatusParams, problem?: 'stopped' | 'failed'): void {
  if (problem) {
    status.text = '$(error) InsertLint';
    status.tooltip = problem === 'failed' ? 'The InsertLint server did not start: see InsertLint: Show output' : 'The InsertLint server stopped';
    status.command = 'insertlint.showOutput';
    return;
  }
  status.command = 'workbench.actions.view.problems';
  if (s.state === 'disabled') {
    status.text = '$(circle-slash) InsertLint';
    status.tooltip = 'InsertLint is turned off (setting insertlint.enable)';
    return;
  }
  if (s.state !== 'idle') {
    status.text = `$(sync~spin) InsertLint${s.total ? ` ${s.indexed ?? 0}/${s.total}` : ''}`;
    status.tooltip = s.total ? `Indexing the workspace: ${s.indexed ?? 0} of ${s.total} files` : 'InsertLint is starting';
    return;
  }
  status.text = s.findings > 0 ? `$(warning) InsertLint ${s.findings}` : '$(check) InsertLint';
  status.tooltip = `${s.findings} finding${s.findings === 1 ? '' : 's'} in ${s.files} file${s.files === 1 ? '' : 's'}${vscode.workspace.isTrusted ? '' : ' (restricted mode: lint only)'}`;
}

async function lintWorkspace(): Promise<void> {
  if (!client) return;
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'InsertLint: linting the workspace' },
    () => client!.sendRequest<{ files: number; skipped: number; findings: number } | null>('workspace/executeCommand', { command: SERVER_COMMANDS.lintWorkspace, arguments: [] }),
  );
  if (result) {
    void vscode.window.showInformationMessage(`InsertLint: ${result.findings} finding${result.findings === 1 ? '' : 's'} in ${result.files} files${result.skipped ? ` (${result.skipped} skipped, see the output)` : ''}.`);
  }
  await vscode.commands.executeCommand('workbench.actions.view.problems');
}

async function showRules(): Promise<void> {
  if (!client) return;
  const rules = await client.sendRequest<RuleSummary[] | null>(RULES_REQUEST, {});
  if (!rules) return;
  const picked = await vscode.window.showQuickPick(
    rules.map((r) => ({ label: r.id, description: `${r.severity}${r.fixable ? ' · quick fix' : ''}`, detail: r.description, id: r.id })),
    { title: 'InsertLint rules (severity in force here)', placeHolder: 'Pick a rule to read its documentation', matchOnDescription: true, matchOnDetail: true },
  );
  if (picked) await showRuleDocumentation(picked.id);
}

async function createConfiguration(): Promise<void> {
  if (!client) return;
  const result = await client.sendRequest<ConfigFileResult | null>('workspace/executeCommand', { command: SERVER_COMMANDS.createConfiguration, arguments: [] });
  if (!result) return;
  if ('error' in result) {
    void vscode.window.showWarningMessage(`InsertLint: ${result.error}`);
    return;
  }
  await vscode.window.showTextDocument(vscode.Uri.parse(result.uri));
  if (!result.created) void vscode.window.showInformationMessage('InsertLint: this workspace already has a .insertlintrc.json.');
}

async function showRuleDocumentation(id?: string): Promise<void> {
  if (typeof id !== 'string' || !/^[a-z0-9-]+$/.test(id)) return;
  const uri = vscode.Uri.from({ scheme: RULE_DOC_SCHEME, path: `/${id}.md` });
  await vscode.commands.executeCommand('markdown.showPreview', uri);
}

// --- plans ----------------------------------------------------------------------------------------

async function openExfmtAsPlan(uri?: vscode.Uri): Promise<void> {
  let target = uri instanceof vscode.Uri ? uri : undefined;
  const editor = vscode.window.activeTextEditor;
  if (!target && editor && (editor.document.languageId === 'db2exfmt' || /\.exfmt(\.txt)?$/i.test(editor.document.fileName))) target = editor.document.uri;
  if (!target) {
    const picked = await vscode.window.showOpenDialog({
      canSelectMany: false,
      openLabel: 'Show plan',
      title: 'Open a db2exfmt output file',
      filters: { 'db2exfmt output': ['exfmt', 'txt', 'out'], 'All files': ['*'] },
    });
    target = picked?.[0];
  }
  if (!target || !client) return;
  let text: string;
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === target!.toString());
  if (open) {
    text = open.getText();
  } else {
    try {
      text = new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(target));
    } catch (error) {
      void vscode.window.showErrorMessage(`InsertLint: cannot read ${target.fsPath}: ${(error as Error).message}`);
      return;
    }
  }
  const name = target.path.split('/').pop() ?? 'plan';
  const nonce = newNonce();
  const result = await client.sendRequest<RenderPlanResult>(RENDER_PLAN_REQUEST, { text, name, nonce });
  showResult(result, nonce);
}

function showResult(result: RenderPlanResult, nonce: string): void {
  if ('error' in result) {
    output.warn(result.error);
    showPlan('InsertLint plan', messagePage(result.error, nonce), nonce);
    void vscode.window.showWarningMessage(`InsertLint: ${result.error}`);
    return;
  }
  showPlan(result.title, result.html, nonce);
}

async function explainInsert(context: vscode.ExtensionContext, uriArg?: string, rangeArg?: vscode.Range): Promise<void> {
  if (!client) return;
  const editor = vscode.window.activeTextEditor;
  const uri = typeof uriArg === 'string' ? uriArg : editor?.document.uri.toString();
  if (!uri) {
    void vscode.window.showInformationMessage('InsertLint: put the cursor in an INSERT statement first.');
    return;
  }
  if (editor?.document.languageId === 'db2exfmt' && !uriArg) return openExfmtAsPlan(editor.document.uri);
  const range = rangeArg ?? editor?.selection;
  let sql: string | undefined;
  const selected = editor && !editor.selection.isEmpty && !rangeArg && ['sql', 'db2sql'].includes(editor.document.languageId) ? editor.document.getText(editor.selection) : undefined;
  if (selected) {
    sql = selected;
  } else if (range) {
    const found = await client.sendRequest<StatementAtResult | null>(STATEMENT_AT_REQUEST, {
      uri,
      range: { start: { line: range.start.line, character: range.start.character }, end: { line: range.end.line, character: range.end.character } },
    });
    sql = found?.sql;
  }
  if (!sql) {
    void vscode.window.showInformationMessage('InsertLint: no SQL statement at the cursor.');
    return;
  }
  if (!vscode.workspace.isTrusted) {
    const choice = await vscode.window.showWarningMessage(
      'InsertLint: this workspace is not trusted, so InsertLint will not connect to a database. You can open a db2exfmt file you produced yourself.',
      OPEN_EXFMT,
    );
    if (choice === OPEN_EXFMT) await openExfmtAsPlan();
    return;
  }
  if (profiles().length === 0) {
    const choice = await vscode.window.showInformationMessage(
      'InsertLint: no Db2 connection is configured. Add one to run Explain, or open the output of db2exfmt for this statement.',
      OPEN_EXFMT,
      ADD_CONNECTION,
    );
    if (choice === OPEN_EXFMT) await openExfmtAsPlan();
    if (choice === ADD_CONNECTION) await vscode.commands.executeCommand('insertlint.addConnection');
    return;
  }
  const picked = await pickSealedProfile(context.secrets, client);
  if (!picked) return;
  const { profile, password: sealed } = picked;
  const nonce = newNonce();
  const params: ExplainParams = {
    sql,
    nonce,
    connection: { host: profile.host, port: profile.port, database: profile.database, user: profile.user },
    password: sealed,
    ibmDbPath: vscode.workspace.getConfiguration('insertlint').get<string>('explain.ibmDbPath') || undefined,
  };
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `InsertLint: explaining on ${profile.database}` },
    () => client!.sendRequest<RenderPlanResult>(EXPLAIN_REQUEST, params),
  );
  if ('error' in result) {
    const choice = await vscode.window.showWarningMessage(`InsertLint: ${result.error}`, OPEN_EXFMT);
    if (choice === OPEN_EXFMT) await openExfmtAsPlan();
    return;
  }
  showPlan(result.title, result.html, nonce);
}
