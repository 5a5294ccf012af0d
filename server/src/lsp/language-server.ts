// The InsertLint language server: the engine behind LSP, over stdio or Node IPC (entry: server.ts).
// One Workspace holds every open and indexed file; edits are debounced per document, and only the
// files whose schema facts an edit changed are re-published (in the background, newest state first).
import {
  TextDocuments,
  TextDocumentSyncKind,
  DiagnosticSeverity,
  CodeActionKind,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  MarkupKind,
  ResponseError,
  ErrorCodes,
  type Connection,
  type Diagnostic as LspDiagnostic,
  type CodeAction,
  type CodeLens,
  type Hover,
  type InitializeParams,
  type InitializeResult,
  type Range,
  type WorkDoneProgressServerReporter,
  type TextDocumentChangeEvent,
  type DidChangeWatchedFilesParams,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, relative, sep, basename } from 'node:path';
import ignore from 'ignore';
import { Workspace } from '../engine/workspace';
import { ConfigError, CONFIG_FILE_NAME, resolveConfig, validateConfig, type ConfigFile, type ResolvedConfig } from '../engine/config';
import { RULES, findRule, ruleDocUrl } from '../engine/registry';
import { LineIndex } from '../engine/lines';
import type { Diagnostic, FileLanguage, RegisteredRule, Severity } from '../engine/types';
import { loadCodeFrontEnd, type CodeFrontEnd } from '../code/frontend';
import { collectFiles, findConfigFile, readSourceFile } from '../cli/files';
import { loadConfigFile } from '../cli/lint-run';
import { anchorSchemaEntries, isSchemaEntryMatch, loadSchemaFiles } from '../schema/schema-files';
import { DEFAULT_SETTINGS, readSettings, settingsLayer, type ServerSettings } from './settings';
import { changedNames, insertStatements, mentionedNames, nameAt, schemaFacts, statementAt, statementText, fileSpan } from './model-queries';
import { disableForFileEdit, disableForLineEdit } from './suppress-edits';
import { sequenceHoverMarkdown, tableHoverMarkdown } from './insert-cost';
import { explainStatement, renderPlan } from './plans';
import { pullSchemaRequest } from './schema-pull';
import { SecretReceiver } from './secret-channel';
import { createServerTransport } from './transport';
import { DocumentScheduler } from './scheduler';
import {
  CLIENT_COMMANDS,
  EXPLAIN_REQUEST,
  PULL_SCHEMA_REQUEST,
  RENDER_PLAN_REQUEST,
  RULE_DOC_REQUEST,
  SERVER_COMMANDS,
  STATEMENT_AT_REQUEST,
  STATUS_NOTIFICATION,
  type ExplainParams,
  type ExperimentalServerCapabilities,
  type InitializationOptions,
  type PullSchemaParams,
  type RenderPlanParams,
  type RuleDocParams,
  type StatementAtParams,
  type StatusParams,
} from './protocol';

/** VS Code language ids the server lints, and what the engine reads them as. */
export const LANGUAGE_IDS: Record<string, FileLanguage> = {
  sql: 'sql',
  db2sql: 'sql',
  java: 'java',
  python: 'python',
  javascript: 'javascript',
  javascriptreact: 'javascript',
  typescript: 'typescript',
  typescriptreact: 'typescript',
  c: 'c',
  cpp: 'cpp',
  shellscript: 'shell',
  // COBOL and JCL editors (IBM Z Open Editor, Broadcom's Code4z) name them so.
  cobol: 'cobol',
  jcl: 'jcl',
};

const LSP_SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/**
 * A cheap first look at application code before keeping it in memory: every finding on code involves an
 * INSERT/MERGE text, a commit, or a driver call that runs SQL (shell scripts run `db2`). Generic words
 * such as import or load are left out: nearly every source file has them. Literal alternation, no backtracking.
 */
const SQL_HINT = /\b(?:insert|merge|commit|db2|ibm_db|jdbc|executeUpdate|executeBatch|executemany|execute_many|exec_immediate|addBatch|prepareStatement|SQLExecDirect|SQLExecute|SQLPrepare|EXEC\s+SQL)\b/i;

const yieldToEvents = () => new Promise<void>((resolve) => setImmediate(resolve));

export class InsertLintServer {
  private readonly documents: TextDocuments<TextDocument> = new TextDocuments(TextDocument);
  private workspace!: Workspace;
  private codeFrontEnd?: CodeFrontEnd;
  private folders: string[] = [];
  private settings: ServerSettings = DEFAULT_SETTINGS;
  private fileConfig?: ConfigFile;
  private fileConfigPath?: string;
  private config!: ResolvedConfig;
  private trusted = true;
  private clientCommands = new Set<string>();
  private canPullConfiguration = false;
  private canWatchFiles = false;
  private canReportProgress = false;
  /** The URI a path was opened or published under (so that we answer with the client's spelling). */
  private readonly uriOfPath = new Map<string, string>();
  /** Paths read from disk by the index or watchers (open documents are not in here). */
  private readonly onDisk = new Set<string>();
  private indexedBytes = 0;
  /** Application files the index left out because they never mention SQL. */
  private codeWithoutSql = 0;
  /** Pending analyses of open documents: one per document, for its newest version. */
  private readonly scheduler: DocumentScheduler;
  /** Paths whose diagnostics must be re-published, drained in the background. */
  private readonly dirty = new Set<string>();
  private draining = false;
  private readonly published = new Map<string, { key: string; count: number }>();
  /** Schema files (config "schema", insertlint.schema): read for the schema model, never linted or published. */
  private schemaPaths = new Set<string>();
  private readonly locate: RelatedLocator = (file) => {
    const lines = this.workspace.lines(file);
    return lines ? { uri: this.uriOf(file), lines } : undefined;
  };
  private readonly loggedFailures = new Set<string>();
  private indexGeneration = 0;
  private indexing = false;
  private indexProgress = { indexed: 0, total: 0 };

  private readonly rules: readonly RegisteredRule[];
  /** Opens the Explain password the client seals (it never crosses the connection in plain text). */
  private readonly secrets = new SecretReceiver();

  /** `rules`: the rule catalogue (the built-in one unless an embedder passes its own); `inputPending`: see DocumentScheduler. */
  constructor(
    private readonly connection: Connection,
    options: { rules?: readonly RegisteredRule[]; inputPending?: () => boolean } = {},
  ) {
    this.rules = options.rules ?? RULES;
    this.scheduler = new DocumentScheduler((uri, version) => this.guard('analyse', () => this.analyse(uri, version)), options.inputPending);
  }

  listen(): void {
    const c = this.connection;
    c.onInitialize((params) => this.initialize(params));
    c.onInitialized(() => void this.initialized());
    c.onShutdown(() => {
      this.indexGeneration++;
      this.scheduler.cancelAll();
    });
    this.documents.onDidOpen((e: TextDocumentChangeEvent<TextDocument>) => this.guard('didOpen', () => this.scheduler.schedule(e.document.uri, e.document.version, 0)));
    this.documents.onDidChangeContent((e: TextDocumentChangeEvent<TextDocument>) =>
      this.guard('didChange', () => {
        // TextDocuments also fires this right after didOpen, for the same version: keep the open's quick run.
        if (this.scheduler.pendingVersion(e.document.uri) === e.document.version) return;
        this.scheduler.schedule(e.document.uri, e.document.version, this.settings.debounceMs);
      }),
    );
    this.documents.onDidClose((e: TextDocumentChangeEvent<TextDocument>) => this.guard('didClose', () => this.closed(e.document)));
    c.onDidChangeConfiguration(() => void this.reloadConfiguration());
    c.onDidChangeWatchedFiles((params: DidChangeWatchedFilesParams) => this.guard('didChangeWatchedFiles', () => this.watchedFilesChanged(params.changes ?? [])));
    c.onHover((params, token) => this.guard('hover', () => (token.isCancellationRequested ? null : this.hover(params.textDocument.uri, params.position)), null));
    c.onCodeAction((params, token) =>
      this.guard('codeAction', () => (token.isCancellationRequested ? [] : this.codeActions(params.textDocument.uri, params.range)), []),
    );
    c.onCodeLens((params, token) => this.guard('codeLens', () => (token.isCancellationRequested ? [] : this.codeLenses(params.textDocument.uri)), []));
    c.onExecuteCommand((params) => this.guard('executeCommand', () => this.executeCommand(params.command, params.arguments ?? []), null));
    c.onRequest(STATEMENT_AT_REQUEST, (params: StatementAtParams) => this.guard('statementAt', () => this.statementAtRequest(params), null));
    c.onRequest(RULE_DOC_REQUEST, (params: RuleDocParams) => this.guard('ruleDoc', () => this.ruleDoc(params?.id), null));
    c.onRequest(RENDER_PLAN_REQUEST, (params: RenderPlanParams) => this.guardAsync('renderPlan', () => renderPlan(params, () => this.workspace.schema)));
    c.onRequest(PULL_SCHEMA_REQUEST, (params: PullSchemaParams) =>
      this.guardAsync('pullSchema', async () => {
        if (!this.trusted) return { error: 'This workspace is not trusted: InsertLint only lints here and never connects to a database.' };
        return pullSchemaRequest(params, this.secrets);
      }),
    );
    c.onRequest(EXPLAIN_REQUEST, (params: ExplainParams) =>
      this.guardAsync('explain', async () => {
        if (!this.trusted) return { error: 'This workspace is not trusted: InsertLint only lints here and never connects to a database.' };
        return explainStatement(params, () => this.workspace.schema, this.secrets);
      }),
    );
    this.documents.listen(c);
    c.listen();
  }

  // --- life cycle ------------------------------------------------------------------------------

  private async initialize(params: InitializeParams): Promise<InitializeResult> {
    const options = (params.initializationOptions ?? {}) as InitializationOptions;
    this.trusted = options.trusted !== false;
    this.clientCommands = new Set(Array.isArray(options.clientCommands) ? options.clientCommands : []);
    const caps = params.capabilities ?? {};
    this.canPullConfiguration = Boolean(caps.workspace?.configuration);
    this.canWatchFiles = Boolean(caps.workspace?.didChangeWatchedFiles?.dynamicRegistration);
    this.canReportProgress = Boolean(caps.window?.workDoneProgress);
    const folderUris = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
    this.folders = folderUris.filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u));
    if (options.settings !== undefined) this.settings = this.readSettingsReporting(options.settings);
    try {
      this.codeFrontEnd = await loadCodeFrontEnd();
    } catch (error) {
      this.log('error', `The code front end (tree-sitter) did not load; SQL inside application code is not linted: ${describe(error)}`);
    }
    this.loadFileConfig();
    this.config = this.buildConfig();
    this.workspace = new Workspace(this.config, this.codeFrontEnd ? [this.codeFrontEnd] : [], this.rules);
    this.loadSchema();
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        codeLensProvider: { resolveProvider: false },
        executeCommandProvider: { commands: Object.values(SERVER_COMMANDS) },
        workspace: { workspaceFolders: { supported: true, changeNotifications: false } },
        experimental: { insertlint: { secretKey: this.secrets.publicKey } } satisfies ExperimentalServerCapabilities,
      },
      serverInfo: { name: 'insertlint', version: process.env.INSERTLINT_VERSION ?? '0.1.0' },
    };
  }

  private async initialized(): Promise<void> {
    if (this.canPullConfiguration) {
      void this.connection.client.register(DidChangeConfigurationNotification.type, { section: 'insertlint' }).catch(() => undefined);
    }
    if (this.canWatchFiles) {
      // .db2look: db2look output named as schema files (other schema files are reread by "Lint workspace").
      const extensions = [...Object.keys(this.config.languages).map((e) => e.slice(1)), 'db2look'];
      void this.connection.client
        .register(DidChangeWatchedFilesNotification.type, {
          watchers: [{ globPattern: `**/*.{${extensions.join(',')}}` }, { globPattern: `**/${CONFIG_FILE_NAME}` }],
        })
        .catch((error) => this.log('warn', `could not register file watchers: ${describe(error)}`));
    }
    if (this.canPullConfiguration) await this.reloadConfiguration(false);
    this.sendStatus();
    void this.indexWorkspace();
  }

  // --- configuration ---------------------------------------------------------------------------

  private readSettingsReporting(raw: unknown): ServerSettings {
    const problems: string[] = [];
    const settings = readSettings(raw, problems);
    for (const p of problems) this.log('warn', p);
    return settings;
  }

  private loadFileConfig(): void {
    this.fileConfig = undefined;
    this.fileConfigPath = undefined;
    for (const folder of this.folders) {
      const path = findConfigFile(folder);
      if (!path) continue;
      try {
        this.fileConfig = loadConfigFile(path);
        this.fileConfigPath = path;
        this.log('info', `configuration: ${path}`);
      } catch (error) {
        const message = error instanceof ConfigError ? error.message : describe(error);
        this.log('error', `${message}; using the defaults`);
        void this.connection.window.showWarningMessage(`InsertLint: ${message}. Using the default configuration.`);
      }
      break; // one configuration per server: the first folder's (see README, multi-root workspaces)
    }
  }

  private buildConfig(): ResolvedConfig {
    let editorLayer: ConfigFile | undefined;
    try {
      editorLayer = validateConfig(settingsLayer(this.settings), this.rules.map((r) => r.rule), 'settings (insertlint.rules / insertlint.ignore)');
    } catch (error) {
      this.log('error', `${describe(error)}; the editor settings are ignored`);
    }
    // Schema entries are relative to the configuration file, and the editor's to the first workspace folder.
    const fileConfig = this.fileConfig && this.fileConfigPath ? { ...this.fileConfig, schema: anchorSchemaEntries(this.fileConfig.schema, dirname(this.fileConfigPath)) } : this.fileConfig;
    const editorSchema: ConfigFile = { schema: this.folders.length ? anchorSchemaEntries(this.settings.schema, this.folders[0]) : undefined };
    const config = resolveConfig(this.rules.map((r) => r.rule), fileConfig, editorLayer, editorSchema);
    config.maxFileBytes = Math.min(config.maxFileBytes, this.settings.index.maxFileBytes);
    config.source = this.fileConfigPath;
    return config;
  }

  private async reloadConfiguration(republish = true): Promise<void> {
    try {
      if (this.canPullConfiguration) {
        const [raw] = await this.connection.workspace.getConfiguration([{ section: 'insertlint' }]);
        this.settings = this.readSettingsReporting(raw);
      }
    } catch (error) {
      this.log('warn', `could not read the editor settings: ${describe(error)}`);
    }
    this.applyConfig(republish);
  }

  private applyConfig(republish: boolean): void {
    this.config = this.buildConfig();
    this.workspace.setConfig(this.config);
    this.loadSchema();
    if (republish) this.markDirty(this.publishablePaths());
  }

  /** (Re)reads the schema files named by the configuration; open ones count with their editor text. */
  private loadSchema(): void {
    const loaded = loadSchemaFiles(this.workspace, this.config.schema, this.config);
    for (const problem of loaded.problems) this.log('warn', problem);
    this.schemaPaths = new Set(loaded.files);
    for (const path of this.schemaPaths) {
      // A file indexed or opened before it became a schema file stops being linted.
      if (this.workspace.hasFile(path)) {
        this.workspace.removeFile(path);
        this.onDisk.delete(path);
        this.publishEmpty(path);
      }
      const open = this.documents.get(this.uriOf(path));
      if (open) this.workspace.setSchemaFile(path, open.getText());
    }
    if (loaded.files.length > 0) this.log('info', `schema files: ${loaded.files.join(', ')}`);
  }

  /** A schema file's text changed (edited, saved, closed, deleted): every published file may change. */
  private schemaFileChanged(path: string, text: string | undefined): void {
    if (text === undefined) this.workspace.removeSchemaFile(path);
    else this.workspace.setSchemaFile(path, text);
    this.markDirty(this.publishablePaths());
  }

  // --- documents -------------------------------------------------------------------------------

  /** Engine path of a URI: the file system path for file: URIs, the URI itself otherwise. */
  private pathOf(uri: string): string {
    if (uri.startsWith('file:')) {
      try {
        return fileURLToPath(uri);
      } catch {
        return uri;
      }
    }
    return uri;
  }

  private uriOf(path: string): string {
    return this.uriOfPath.get(path) ?? (path.includes(':') && !/^[a-zA-Z]:[\\/]/.test(path) ? path : pathToFileURL(path).toString());
  }

  private languageFor(path: string, languageId?: string): FileLanguage | undefined {
    return this.workspace.languageOf(path) ?? (languageId ? LANGUAGE_IDS[languageId] : undefined);
  }

  private analyse(uri: string, version: number): void {
    const doc = this.documents.get(uri);
    // Stale work: a newer version is scheduled, or the document was closed meanwhile.
    if (!doc || doc.version !== version) return;
    const path = this.pathOf(uri);
    this.uriOfPath.set(path, uri);
    if (this.schemaPaths.has(path)) {
      this.schemaFileChanged(path, doc.getText());
      return;
    }
    const language = this.languageFor(path, doc.languageId);
    if (!language) return;
    const text = doc.getText();
    if (text.length > this.config.maxFileBytes) {
      this.log('info', `${path}: not linted, it is ${(text.length / 1048576).toFixed(1)} MB (limit: insertlint.index.maxFileKilobytes / maxFileBytes)`);
      this.workspace.removeFile(path);
      this.publishEmpty(path);
      return;
    }
    const before = schemaFacts(this.workspace.model(path));
    this.workspace.setFile(path, text, language);
    this.onDisk.delete(path);
    const after = schemaFacts(this.workspace.model(path));
    // The edited document is always answered (with its version), even when its findings did not change.
    this.publish(path, version);
    this.markDependentsDirty(path, changedNames(before, after));
    if (!this.indexing) this.sendStatus();
  }

  private closed(doc: TextDocument): void {
    this.scheduler.forget(doc.uri);
    const path = this.pathOf(doc.uri);
    if (this.schemaPaths.has(path)) {
      const read = readSourceFile(path, this.config.maxFileBytes);
      this.schemaFileChanged(path, 'text' in read ? read.text : undefined);
      return;
    }
    const before = schemaFacts(this.workspace.model(path));
    // The saved file (if any) replaces the buffer in the index; unsaved edits no longer count.
    const keep = doc.uri.startsWith('file:') && this.settings.index.enabled && this.isInWorkspace(path) && !this.isIgnored(path) && this.readFromDisk(path);
    if (!keep) this.workspace.removeFile(path);
    if (keep && this.settings.diagnosticsScope === 'workspace') this.markDirty([path]);
    else this.publishEmpty(path);
    this.markDependentsDirty(path, changedNames(before, schemaFacts(this.workspace.model(path))));
  }

  private isInWorkspace(path: string): boolean {
    return this.folders.some((f) => {
      const rel = relative(f, path);
      return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep);
    });
  }

  private isIgnored(path: string): boolean {
    const folder = this.folders.find((f) => !relative(f, path).startsWith('..'));
    if (!folder) return true;
    const rel = relative(folder, path).split(sep).join('/');
    if (rel.split('/').some((part) => part === 'node_modules' || part === '.git')) return true;
    const base = this.fileConfigPath ? dirname(this.fileConfigPath) : folder;
    const relToBase = relative(base, path).split(sep).join('/');
    return !relToBase.startsWith('..') && this.config.ignore.length > 0 && ignore().add(this.config.ignore).ignores(relToBase);
  }

  /** Reads a file into the engine from disk; false (with a log line) when it is skipped. */
  private readFromDisk(path: string): boolean {
    const read = readSourceFile(path, this.config.maxFileBytes);
    if ('skip' in read) {
      this.log('info', `skipped ${path}: ${read.skip}`);
      if (this.workspace.hasFile(path) && this.onDisk.has(path)) this.workspace.removeFile(path);
      return false;
    }
    if (this.workspace.languageOf(path) !== 'sql' && !SQL_HINT.test(read.text)) {
      // Application code that never mentions SQL cannot have findings: keep it out of memory.
      if (this.workspace.hasFile(path) && this.onDisk.has(path)) this.workspace.removeFile(path);
      this.onDisk.delete(path);
      this.codeWithoutSql++;
      return false;
    }
    if (!this.onDisk.has(path)) this.indexedBytes += read.text.length;
    this.workspace.setFile(path, read.text);
    this.onDisk.add(path);
    return true;
  }

  private watchedFilesChanged(changes: { uri: string; type: number }[]): void {
    let configChanged = false;
    let schemaChanged = false;
    for (const change of changes) {
      if (!change?.uri?.startsWith('file:')) continue;
      const path = this.pathOf(change.uri);
      if (basename(path) === CONFIG_FILE_NAME) {
        configChanged = true;
        continue;
      }
      // The editor's buffer wins over the disk while the file is open.
      if (this.documents.get(this.uriOfPath.get(path) ?? change.uri)) continue;
      if (this.schemaPaths.has(path) || (change.type === FileChangeType.Created && isSchemaEntryMatch(path, this.config.schema))) {
        // A schema file changed or appeared: the schema files are read again once, after the loop.
        schemaChanged = true;
        continue;
      }
      if (!this.workspace.languageOf(path) || this.isIgnored(path)) continue;
      const before = schemaFacts(this.workspace.model(path));
      if (change.type === FileChangeType.Deleted) {
        this.workspace.removeFile(path);
        this.onDisk.delete(path);
        this.publishEmpty(path);
      } else if (this.readFromDisk(path)) {
        this.markDirty([path]);
      }
      this.markDependentsDirty(path, changedNames(before, schemaFacts(this.workspace.model(path))));
    }
    if (configChanged) {
      this.loadFileConfig();
      this.applyConfig(true);
    } else if (schemaChanged) {
      this.loadSchema();
      this.markDirty(this.publishablePaths());
    }
  }

  // --- workspace index -------------------------------------------------------------------------

  /** Reads the workspace folders into the engine in the background, with $/progress. */
  async indexWorkspace(): Promise<{ files: number; skipped: number }> {
    const generation = ++this.indexGeneration;
    const stale = () => generation !== this.indexGeneration;
    if (!this.settings.index.enabled || this.folders.length === 0) {
      this.markDirty(this.publishablePaths());
      return { files: 0, skipped: 0 };
    }
    this.indexing = true;
    const started = Date.now();
    let progress: WorkDoneProgressServerReporter | undefined;
    try {
      if (this.canReportProgress) progress = await this.connection.window.createWorkDoneProgress();
    } catch {
      progress = undefined;
    }
    progress?.begin('InsertLint: indexing', 0, 'finding files', false);
    let files: string[] = [];
    for (const folder of this.folders) {
      const configDir = this.fileConfigPath ? dirname(this.fileConfigPath) : folder;
      const list = collectFiles([folder], this.config, folder, configDir);
      files.push(...list.files.filter((f) => !this.schemaPaths.has(f)));
      for (const s of list.skipped) this.log('info', `skipped ${s.path}: ${s.reason}`);
      await yieldToEvents();
      if (stale()) {
        progress?.done();
        return { files: 0, skipped: 0 };
      }
    }
    const { maxFiles, maxTotalBytes } = this.settings.index;
    if (files.length > maxFiles) {
      this.log('warn', `the workspace has ${files.length} files to lint; indexing the first ${maxFiles} (setting insertlint.index.maxFiles)`);
      files = files.slice(0, maxFiles);
    }
    this.indexProgress = { indexed: 0, total: files.length };
    this.codeWithoutSql = 0;
    let skipped = 0;
    let sliceStart = Date.now();
    for (let i = 0; i < files.length; i++) {
      const path = files[i];
      const open = this.documents.get(this.uriOf(path));
      if (open && this.workspace.hasFile(path)) {
        // The schema folds files in the engine's order; put the open file where the CLI would read it,
        // so that the editor and `insertlint check` agree when two files define the same table.
        const model = this.workspace.model(path)!;
        this.workspace.removeFile(path);
        this.workspace.setFile(path, model.source.text, model.source.language);
      } else if (!open) {
        if (this.indexedBytes >= maxTotalBytes) {
          this.log('warn', `stopped indexing after ${i} files: ${(this.indexedBytes / 1048576).toFixed(0)} MB read, the limit (insertlint.index.maxTotalMegabytes)`);
          break;
        }
        if (!this.readFromDisk(path)) skipped++;
      }
      this.indexProgress.indexed = i + 1;
      if (Date.now() - sliceStart > 25) {
        // Let edits, hovers and other requests in between slices of work.
        progress?.report(Math.round(((i + 1) / files.length) * 100), `${i + 1}/${files.length} files`);
        this.sendStatus();
        await yieldToEvents();
        if (stale()) {
          progress?.done();
          return { files: i + 1, skipped };
        }
        sliceStart = Date.now();
      }
    }
    progress?.done();
    this.indexing = false;
    const noSql = this.codeWithoutSql;
    this.log('info', `indexed ${files.length - skipped} files in ${Date.now() - started} ms (${skipped - noSql} skipped, ${noSql} code files without SQL left out, ${(this.indexedBytes / 1048576).toFixed(1)} MB)`);
    this.markDirty(this.publishablePaths());
    this.sendStatus();
    return { files: files.length - skipped, skipped };
  }

  // --- publishing ------------------------------------------------------------------------------

  private openPaths(): string[] {
    return this.documents.all().map((d) => this.pathOf(d.uri)).filter((p) => this.workspace.hasFile(p));
  }

  private publishablePaths(): string[] {
    return this.settings.diagnosticsScope === 'workspace' ? this.workspace.paths() : this.openPaths();
  }

  private markDependentsDirty(path: string, changed: Set<string>): void {
    if (changed.size === 0) return;
    const any = changed.has('*');
    const dependents = this.publishablePaths().filter((p) => {
      if (p === path) return false;
      if (any) return true;
      for (const name of mentionedNames(this.workspace.model(p))) if (changed.has(name)) return true;
      return false;
    });
    this.markDirty(dependents);
  }

  private markDirty(paths: string[]): void {
    for (const p of paths) this.dirty.add(p);
    if (!this.draining && this.dirty.size > 0) {
      this.draining = true;
      setImmediate(() => void this.drain());
    }
  }

  /** Re-publishes dirty files, open ones first, in short slices so that newer edits get in between. */
  private async drain(): Promise<void> {
    try {
      while (this.dirty.size > 0) {
        const open = new Set(this.openPaths());
        const next = [...this.dirty].sort((a, b) => Number(open.has(b)) - Number(open.has(a)));
        const sliceStart = Date.now();
        for (const path of next) {
          if (!this.dirty.has(path)) continue;
          this.dirty.delete(path);
          // A pending edit of this document will publish it itself.
          if (this.scheduler.pendingVersion(this.uriOf(path)) !== undefined) continue;
          this.publish(path);
          if (Date.now() - sliceStart > 20) break;
        }
        this.sendStatus();
        await yieldToEvents();
      }
    } catch (error) {
      this.log('error', `re-publishing diagnostics failed: ${describe(error)}`);
    } finally {
      this.draining = false;
    }
  }

  /** Sends the findings of a file if they changed; `version` (an open document's) forces the message. */
  private publish(path: string, version?: number): void {
    if (!this.workspace.hasFile(path)) return this.publishEmpty(path);
    const failuresBefore = this.workspace.ruleFailures.length;
    const diagnostics = this.workspace.diagnostics(path).filter((d) => !d.suppressed);
    this.logRuleFailures(failuresBefore);
    const lines = this.workspace.lines(path)!;
    const lsp = diagnostics.map((d) => toLspDiagnostic(d, lines, this.locate));
    const key = JSON.stringify(lsp);
    const uri = this.uriOf(path);
    const last = this.published.get(path);
    if (version === undefined) {
      if (last && last.key === key) return;
      // A file that never had findings needs no empty message (the index publishes thousands of files).
      if (!last && lsp.length === 0) return;
    }
    this.published.set(path, { key, count: lsp.length });
    void this.connection.sendDiagnostics(version === undefined ? { uri, diagnostics: lsp } : { uri, version, diagnostics: lsp });
  }

  private publishEmpty(path: string): void {
    if (!this.published.has(path)) return;
    this.published.delete(path);
    void this.connection.sendDiagnostics({ uri: this.uriOf(path), diagnostics: [] });
    this.sendStatus();
  }

  private logRuleFailures(from: number): void {
    const failures = this.workspace.ruleFailures;
    for (let i = from; i < failures.length; i++) {
      const f = failures[i];
      const key = `${f.rule}\u0000${f.file}`;
      if (this.loggedFailures.has(key)) continue;
      this.loggedFailures.add(key);
      this.log('error', `rule ${f.rule} failed on ${f.file} and is skipped for that file: ${describe(f.error)}`);
    }
    // The engine records every run's failure; keep the list from growing while someone types.
    if (failures.length > 1000) failures.splice(0, failures.length - 100);
  }

  private sendStatus(): void {
    let findings = 0;
    for (const p of this.published.values()) findings += p.count;
    const status: StatusParams = {
      state: this.indexing ? 'indexing' : 'idle',
      files: this.workspace?.paths().length ?? 0,
      findings,
      ...(this.indexing ? this.indexProgress : {}),
    };
    void this.connection.sendNotification(STATUS_NOTIFICATION, status);
  }

  // --- features --------------------------------------------------------------------------------

  /** Model, line index and path of an open (or indexed) document, analysed up to its current text. */
  private current(uri: string) {
    if (typeof uri !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, 'textDocument.uri must be a string');
    this.scheduler.flush(uri);
    const path = this.pathOf(uri);
    const model = this.workspace.model(path);
    const lines = this.workspace.lines(path);
    if (!model || !lines) return undefined;
    return { path, model, lines };
  }

  private offsetOf(lines: LineIndex, position: { line: number; character: number }): number {
    if (!position || typeof position.line !== 'number' || typeof position.character !== 'number') {
      throw new ResponseError(ErrorCodes.InvalidParams, 'position must have a numeric line and character');
    }
    return lines.offset(position.line, position.character);
  }

  private hover(uri: string, position: { line: number; character: number }): Hover | null {
    const cur = this.current(uri);
    if (!cur) return null;
    const offset = this.offsetOf(cur.lines, position);
    const schema = this.workspace.schema;
    const ref = nameAt(cur.model, offset);
    const where = (file: string, at: number) => {
      const l = this.workspace.lines(file);
      const line = l ? l.position(at).line + 1 : 0;
      const shown = this.folders.length ? relative(this.folders[0], file).split(sep).join('/') : file;
      return `[${shown.startsWith('..') ? file : shown}:${line}](${this.uriOf(file)}#L${line})`;
    };
    if (ref?.role === 'sequence') {
      const seq = schema.sequence(ref.name, ref.stmt);
      if (!seq) return null;
      const span = fileSpan(ref.stmt, ref.name.span);
      return {
        contents: { kind: MarkupKind.Markdown, value: sequenceHoverMarkdown(seq, where) },
        range: this.range(cur.lines, span.start, span.end),
      };
    }
    let table = ref ? schema.table(ref.name, ref.stmt) : undefined;
    let span = ref ? fileSpan(ref.stmt, ref.name.span) : undefined;
    if (!table) {
      // Statements the parser could not read still name tables: fall back to the word under the cursor.
      const word = wordAt(cur.model.source.text, offset);
      if (!word) return null;
      const candidate = schema.tableByKey(`.${word.text.toUpperCase()}`);
      if (!candidate?.definition) return null;
      table = candidate;
      span = word.span;
    }
    return {
      contents: { kind: MarkupKind.Markdown, value: tableHoverMarkdown(table, schema, where) },
      range: span ? this.range(cur.lines, span.start, span.end) : undefined,
    };
  }

  private range(lines: LineIndex, start: number, end: number): Range {
    const s = lines.position(start);
    const e = lines.position(Math.max(start, end));
    return { start: { line: s.line, character: s.column }, end: { line: e.line, character: e.column } };
  }

  private codeActions(uri: string, range: Range): CodeAction[] {
    const cur = this.current(uri);
    if (!cur) return [];
    if (!range?.start || !range?.end) throw new ResponseError(ErrorCodes.InvalidParams, 'range is required');
    const from = range.start.line;
    const to = range.end.line;
    const actions: CodeAction[] = [];
    const offered = new Set<string>();
    const edit = (edits: { span: { start: number; end: number }; newText: string }[]) => ({
      changes: { [uri]: edits.map((e) => ({ range: this.range(cur.lines, e.span.start, e.span.end), newText: e.newText })) },
    });
    for (const d of this.workspace.diagnostics(cur.path)) {
      if (d.suppressed) continue;
      const lsp = toLspDiagnostic(d, cur.lines, this.locate);
      if (lsp.range.end.line < from || lsp.range.start.line > to) continue;
      if (d.fix) {
        actions.push({ title: d.fix.title, kind: CodeActionKind.QuickFix, diagnostics: [lsp], isPreferred: true, edit: edit(d.fix.edits) });
      }
      if (offered.has(d.rule)) continue;
      offered.add(d.rule);
      const line = lsp.range.start.line;
      actions.push({
        title: `Disable ${d.rule} for this line`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [lsp],
        edit: edit([disableForLineEdit(cur.model, cur.lines, d.rule, line)]),
      });
      actions.push({
        title: `Disable ${d.rule} for this file`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [lsp],
        edit: edit([disableForFileEdit(cur.model, cur.lines, d.rule)]),
      });
      if (findRule(d.rule)) {
        const command = this.clientCommands.has(CLIENT_COMMANDS.showRuleDocumentation) ? CLIENT_COMMANDS.showRuleDocumentation : SERVER_COMMANDS.openRuleDocumentation;
        actions.push({
          title: `Show documentation for ${d.rule}`,
          kind: CodeActionKind.QuickFix,
          diagnostics: [lsp],
          command: { title: `Show documentation for ${d.rule}`, command, arguments: [d.rule] },
        });
      }
    }
    return actions;
  }

  private codeLenses(uri: string): CodeLens[] {
    const cur = this.current(uri);
    if (!cur) return [];
    const lenses: CodeLens[] = [];
    for (const stmt of insertStatements(cur.model)) {
      const span = fileSpan(stmt, stmt.span);
      const range = this.range(cur.lines, span.start, span.end);
      lenses.push({
        range: { start: range.start, end: range.start },
        command: { title: 'Explain this INSERT', command: CLIENT_COMMANDS.explainInsert, arguments: [uri, range] },
      });
    }
    return lenses;
  }

  private statementAtRequest(params: StatementAtParams) {
    const cur = this.current(params?.uri);
    if (!cur) return null;
    const start = this.offsetOf(cur.lines, params.range?.start);
    const stmt = statementAt(cur.model, start);
    if (!stmt) return null;
    const span = fileSpan(stmt, stmt.span);
    return { sql: statementText(cur.model, stmt), kind: stmt.kind, range: this.range(cur.lines, span.start, span.end) };
  }

  private ruleDoc(id: unknown) {
    if (typeof id !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, 'id must be a rule id');
    const rule = findRule(id);
    if (!rule) return null;
    return { id, markdown: rule.doc || `# ${id}\n\n${rule.rule.meta.description}\n`, url: ruleDocUrl(id) };
  }

  private async executeCommand(command: string, args: unknown[]): Promise<unknown> {
    switch (command) {
      case SERVER_COMMANDS.lintWorkspace: {
        const before = new Set(this.onDisk);
        this.onDisk.clear();
        this.indexedBytes = 0;
        this.loadSchema();
        const result = await this.indexWorkspace();
        // Files that vanished (or became ignored) without a watcher event leave the engine now.
        for (const path of before) {
          if (this.onDisk.has(path) || this.documents.get(this.uriOf(path))) continue;
          this.workspace.removeFile(path);
          this.publishEmpty(path);
        }
        return { ...result, findings: [...this.published.values()].reduce((n, p) => n + p.count, 0) };
      }
      case SERVER_COMMANDS.openRuleDocumentation: {
        const id = args[0];
        if (typeof id !== 'string' || !findRule(id)) return null;
        await this.connection.window.showDocument({ uri: ruleDocUrl(id), external: true });
        return null;
      }
      default:
        throw new ResponseError(ErrorCodes.InvalidParams, `unknown command ${command}`);
    }
  }

  // --- plumbing --------------------------------------------------------------------------------

  private log(level: 'info' | 'warn' | 'error', message: string): void {
    const c = this.connection.console;
    if (level === 'error') c.error(message);
    else if (level === 'warn') c.warn(message);
    else c.info(message);
  }

  /** Runs a handler; a bug or bad input becomes a logged error (and a ResponseError for requests), never a crash. */
  private guard<T>(what: string, run: () => T, fallback?: T): T | ResponseError<void> {
    try {
      return run();
    } catch (error) {
      if (error instanceof ResponseError) return error;
      this.log('error', `${what} failed: ${describe(error)}`);
      return fallback !== undefined ? fallback : new ResponseError(ErrorCodes.InternalError, `${what} failed: ${(error as Error)?.message ?? String(error)}`);
    }
  }

  private async guardAsync<T>(what: string, run: () => Promise<T>): Promise<T | ResponseError<void>> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof ResponseError) return error;
      this.log('error', `${what} failed: ${describe(error)}`);
      return new ResponseError(ErrorCodes.InternalError, `${what} failed: ${(error as Error)?.message ?? String(error)}`);
    }
  }
}

/** URI and lines of a file a finding's related information points into. */
export type RelatedLocator = (file: string) => { uri: string; lines: LineIndex } | undefined;

export function toLspDiagnostic(d: Diagnostic, lines: LineIndex, locate?: RelatedLocator): LspDiagnostic {
  const lsp: LspDiagnostic = {
    range: lspRange(lines, d.span),
    severity: LSP_SEVERITY[d.severity],
    code: d.rule,
    source: 'insertlint',
    message: d.message,
  };
  if (findRule(d.rule)) lsp.codeDescription = { href: ruleDocUrl(d.rule) };
  const related = d.related?.flatMap((r) => {
    const where = locate?.(r.file);
    return where ? [{ location: { uri: where.uri, range: lspRange(where.lines, r.span) }, message: r.message }] : [];
  });
  if (related?.length) lsp.relatedInformation = related;
  return lsp;
}

function lspRange(lines: LineIndex, span: { start: number; end: number }): Range {
  const s = lines.position(span.start);
  const e = lines.position(Math.max(span.start, span.end));
  return { start: { line: s.line, character: s.column }, end: { line: e.line, character: e.column } };
}

function wordAt(text: string, offset: number): { text: string; span: { start: number; end: number } } | undefined {
  const isWord = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_$#@]/.test(c);
  let start = offset;
  let end = offset;
  while (start > 0 && isWord(text[start - 1])) start--;
  while (end < text.length && isWord(text[end])) end++;
  if (end <= start || start < offset - 128) return undefined;
  return { text: text.slice(start, end), span: { start, end } };
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** Starts the server on the transport named on the command line (--stdio, --node-ipc, --socket=N); see transport.ts. */
export function startServer(): void {
  const { connection, inputPending } = createServerTransport();
  new InsertLintServer(connection, { inputPending }).listen();
}
