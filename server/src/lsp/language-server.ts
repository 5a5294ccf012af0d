// The InsertLint language server: the engine behind LSP, over stdio or Node IPC (entry: server.ts).
// This file wires the protocol to the feature modules and runs the life cycle; state lives in
// server-state.ts, diagnostics and their scheduling in diagnostics.ts (see README.md for the map).
import {
  TextDocumentSyncKind,
  CodeActionKind,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  ResponseError,
  ErrorCodes,
  type Connection,
  type InitializeParams,
  type InitializeResult,
  type TextDocumentChangeEvent,
  type DidChangeWatchedFilesParams,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { fileURLToPath } from 'node:url';
import { Workspace } from '../engine/workspace';
import { CONFIG_FILE_NAME } from '../engine/config';
import { RULES } from '../engine/registry';
import type { RegisteredRule } from '../engine/types';
import { loadCodeFrontEnd } from '../code/frontend';
import { renderPlan } from './plans';
import { createServerTransport } from './transport';
import { ServerState, describe } from './server-state';
import { Diagnostics } from './diagnostics';
import { Configuration } from './configuration';
import { DiskFiles } from './disk-files';
import { Indexer } from './indexer';
import { Commands } from './commands';
import { hover } from './hover';
import { codeActions } from './code-actions';
import { codeLenses } from './code-lens';
import { toolVersion } from '../engine/version';
import {
  CLIENT_COMMANDS,
  EXPLAIN_REQUEST,
  FIX_ALL_KIND,
  PULL_SCHEMA_REQUEST,
  RULES_REQUEST,
  RENDER_PLAN_REQUEST,
  RULE_DOC_REQUEST,
  SERVER_COMMANDS,
  STATEMENT_AT_REQUEST,
  type ExplainParams,
  type ExperimentalServerCapabilities,
  type InitializationOptions,
  type PullSchemaParams,
  type RenderPlanParams,
  type RuleDocParams,
  type StatementAtParams,
} from './protocol';

/** Time one file may take to read in the editor before it is given up (the CLI allows 10 s); insertlint.fileTimeBudget. */
const EDITOR_FILE_BUDGET_MS = 3000;

export class InsertLintServer {
  private readonly state: ServerState;
  private readonly diagnostics: Diagnostics;
  private readonly configuration: Configuration;
  private readonly disk: DiskFiles;
  private readonly indexer: Indexer;
  private readonly commands: Commands;

  /**
   * `rules`: the rule catalogue (the built-in one unless an embedder passes its own); `inputPending`: see
   * DocumentScheduler; `fileBudgetMs`: the time budget per file when insertlint.fileTimeBudget is not set.
   */
  constructor(
    private readonly connection: Connection,
    options: { rules?: readonly RegisteredRule[]; inputPending?: () => boolean; fileBudgetMs?: number } = {},
  ) {
    this.state = new ServerState(connection, options.rules ?? RULES);
    this.state.defaultFileBudgetMs = options.fileBudgetMs ?? EDITOR_FILE_BUDGET_MS;
    this.diagnostics = new Diagnostics(this.state, (what, run) => void this.guard(what, run), options.inputPending);
    this.configuration = new Configuration(this.state, this.diagnostics);
    this.disk = new DiskFiles(this.state, this.diagnostics, this.configuration);
    this.indexer = new Indexer(this.state, this.diagnostics, this.disk, this.configuration);
    this.commands = new Commands(this.state, this.diagnostics, this.indexer, this.configuration);
  }

  listen(): void {
    const c = this.connection;
    const { documents } = this.state;
    const d = this.diagnostics;
    c.onInitialize((params) => this.initialize(params));
    c.onInitialized(() => void this.initialized());
    c.onShutdown(() => {
      this.indexer.cancel();
      d.scheduler.cancelAll();
    });
    documents.onDidOpen((e: TextDocumentChangeEvent<TextDocument>) => this.guard('didOpen', () => d.opened(e.document.uri, e.document.version)));
    documents.onDidChangeContent((e: TextDocumentChangeEvent<TextDocument>) => this.guard('didChange', () => d.changed(e.document.uri, e.document.version)));
    documents.onDidSave((e: TextDocumentChangeEvent<TextDocument>) => this.guard('didSave', () => d.saved(e.document.uri, e.document.version)));
    documents.onDidClose((e: TextDocumentChangeEvent<TextDocument>) => this.guard('didClose', () => this.disk.closed(e)));
    c.onDidChangeConfiguration(() =>
      void this.configuration.reload().then((reread) => {
        // Files on disk decode differently now, or a raised cap admits files the last index stopped before: read them
        // again, as "Lint workspace" does.
        if (reread || this.indexer.stopNotice.raised(this.state.settings)) return this.indexer.relint();
        // Files skipped for their size that a raised limit admits are read (disk-files.ts).
        this.guard('settings', () => this.disk.settingsChanged());
      }),
    );
    c.onDidChangeWatchedFiles((params: DidChangeWatchedFilesParams) => this.guard('didChangeWatchedFiles', () => this.disk.watchedFilesChanged(params.changes ?? [])));
    c.onHover((params, token) => this.guard('hover', () => (token.isCancellationRequested ? null : hover(this.state, d, params.textDocument.uri, params.position)), null));
    c.onCodeAction((params, token) =>
      this.guard('codeAction', () => (token.isCancellationRequested ? [] : codeActions(this.state, d, params.textDocument.uri, params.range, params.context)), []),
    );
    c.onCodeLens((params, token) => this.guard('codeLens', () => (token.isCancellationRequested ? [] : codeLenses(this.state, d, params.textDocument.uri)), []));
    c.onExecuteCommand((params) => this.guard('executeCommand', () => this.commands.execute(params.command, params.arguments ?? []), null));
    c.onRequest(STATEMENT_AT_REQUEST, (params: StatementAtParams) => this.guard('statementAt', () => this.commands.statementAt(params), null));
    c.onRequest(RULES_REQUEST, () => this.guard('rules', () => this.commands.rules(), null));
    c.onRequest(RULE_DOC_REQUEST, (params: RuleDocParams) => this.guard('ruleDoc', () => this.commands.ruleDoc(params?.id), null));
    c.onRequest(RENDER_PLAN_REQUEST, (params: RenderPlanParams) => this.guardAsync('renderPlan', () => renderPlan(params, () => this.state.workspace.schema)));
    c.onRequest(PULL_SCHEMA_REQUEST, (params: PullSchemaParams) => this.guardAsync('pullSchema', () => this.commands.pullSchema(params)));
    c.onRequest(EXPLAIN_REQUEST, (params: ExplainParams) => this.guardAsync('explain', () => this.commands.explain(params)));
    documents.listen(c);
    c.listen();
  }

  // --- life cycle ------------------------------------------------------------------------------

  private async initialize(params: InitializeParams): Promise<InitializeResult> {
    const s = this.state;
    const options = (params.initializationOptions ?? {}) as InitializationOptions;
    s.trusted = options.trusted !== false;
    s.clientCommands = new Set(Array.isArray(options.clientCommands) ? options.clientCommands : []);
    const caps = params.capabilities ?? {};
    s.canPullConfiguration = Boolean(caps.workspace?.configuration);
    s.canWatchFiles = Boolean(caps.workspace?.didChangeWatchedFiles?.dynamicRegistration);
    s.canReportProgress = Boolean(caps.window?.workDoneProgress);
    s.canRefreshCodeLens = Boolean(caps.workspace?.codeLens?.refreshSupport);
    s.ruleDocsByCommand = options.ruleDocs === 'command' && s.clientCommands.has(CLIENT_COMMANDS.showRuleDocumentation);
    const folderUris = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
    s.folders = folderUris.filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u));
    if (options.settings !== undefined) s.settings = this.configuration.readSettingsReporting(options.settings);
    try {
      const codeFrontEnd = await loadCodeFrontEnd();
      s.codeFrontEnd = codeFrontEnd;
      // A grammar that did not load (a damaged install): its files are left out, saying so; the log says it once.
      for (const why of new Set(codeFrontEnd.unavailable.values())) s.log('error', `SQL inside application code is partly not linted: ${why}`);
    } catch (error) {
      s.log('error', `The code front end (tree-sitter) did not load; SQL inside application code is not linted: ${describe(error)}`);
    }
    this.configuration.loadFileConfig();
    s.config = this.configuration.buildConfig();
    s.workspace = new Workspace(s.config, s.codeFrontEnd ? [s.codeFrontEnd] : [], s.rules);
    // Every edit is analysed again: rules about runs re-check only the piece an edit touched.
    s.workspace.keepPieces = true;
    // Requests wait while a file is read: in the editor one file gets 3 s (insertlint.fileTimeBudget), not the CLI's 10.
    s.workspace.fileBudgetMs = s.fileBudgetMs();
    this.configuration.loadSchema();
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND] },
        codeLensProvider: { resolveProvider: false },
        executeCommandProvider: { commands: Object.values(SERVER_COMMANDS) },
        workspace: { workspaceFolders: { supported: true, changeNotifications: false } },
        experimental: { insertlint: { secretKey: s.secrets.publicKey } } satisfies ExperimentalServerCapabilities,
      },
      serverInfo: { name: 'insertlint', version: toolVersion() },
    };
  }

  private async initialized(): Promise<void> {
    const s = this.state;
    if (s.canPullConfiguration) {
      void this.connection.client.register(DidChangeConfigurationNotification.type, { section: ['insertlint', 'files.encoding'] }).catch(() => undefined);
    }
    if (s.canWatchFiles) {
      // .db2look: db2look output named as schema files (other schema files are reread by "Lint workspace").
      const extensions = [...Object.keys(s.config.languages).map((e) => e.slice(1)), 'db2look'];
      void this.connection.client
        .register(DidChangeWatchedFilesNotification.type, {
          // And every file the project-evidence look lists or reads (DiskFiles.refreshProjectEvidence keeps what it read
          // until a watcher reports a change: cli/evidence-watch.ts mayChangeEvidence): what tells that SQLAlchemy runs
          // on Db2 (requirements, .env, settings), Hibernate's batch size in a Java project's configuration, MyBatis's
          // mapper XML files and executor, what tells that Sequelize runs on Db2 (package.json, .sequelizerc,
          // config/*), and the files that make a folder a project's top (a build file, a .git).
          watchers: [
            { globPattern: `**/*.{${extensions.join(',')}}` },
            { globPattern: `**/${CONFIG_FILE_NAME}` },
            { globPattern: '**/{requirements*.txt,requirements*.in,pyproject.toml,setup.cfg,Pipfile,.env,.env.*,*.env,*.ini,*.cfg,*.conf,*.toml,*.yml,*.yaml}' },
            { globPattern: '**/{package.json,.sequelizerc,config/*.json}' },
            // (*.xml: persistence.xml, hibernate.cfg.xml, MyBatis's mapper files and mybatis-config.xml.)
            { globPattern: '**/{*.xml,hibernate.properties,application*.properties}' },
            { globPattern: '**/{pom.xml,build.gradle,build.gradle.kts,settings.gradle,settings.gradle.kts,build.xml,.git}' },
          ],
        })
        .catch((error) => s.log('warn', `could not register file watchers: ${describe(error)}`));
    }
    if (s.canPullConfiguration) {
      await this.configuration.reload(false);
      // Documents opened before the settings came (the index re-publishes the others): one skipped for its size under
      // the default limit, or linted under it and over the one set, is analysed again.
      this.diagnostics.settingsChanged();
    }
    this.diagnostics.sendStatus();
    void this.indexer.indexWorkspace();
  }

  // --- plumbing --------------------------------------------------------------------------------

  /** Runs a handler; a bug or bad input becomes a logged error (and a ResponseError for requests), never a crash. */
  private guard<T>(what: string, run: () => T, fallback?: T): T | ResponseError<void> {
    try {
      return run();
    } catch (error) {
      if (error instanceof ResponseError) return error;
      this.state.log('error', `${what} failed: ${describe(error)}`);
      return fallback !== undefined ? fallback : new ResponseError(ErrorCodes.InternalError, `${what} failed: ${(error as Error)?.message ?? String(error)}`);
    }
  }

  private async guardAsync<T>(what: string, run: () => Promise<T>): Promise<T | ResponseError<void>> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof ResponseError) return error;
      this.state.log('error', `${what} failed: ${describe(error)}`);
      return new ResponseError(ErrorCodes.InternalError, `${what} failed: ${(error as Error)?.message ?? String(error)}`);
    }
  }
}

/** Starts the server on the transport named on the command line (--stdio, --node-ipc, --socket=N); see transport.ts. */
export function startServer(): void {
  const { connection, inputPending } = createServerTransport();
  new InsertLintServer(connection, { inputPending }).listen();
}
