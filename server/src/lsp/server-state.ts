// What every part of the language server reads: the connection, the open documents, the engine's
// Workspace, the configuration in force, and how paths and URIs map onto each other. The feature
// modules (diagnostics.ts, configuration.ts, disk-files.ts, indexer.ts, hover.ts, code-actions.ts,
// code-lens.ts, commands.ts) share one instance; language-server.ts wires them to the protocol.
import { TextDocuments, type Connection } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Workspace } from '../engine/workspace';
import type { ConfigFile, ResolvedConfig } from '../engine/config';
import type { FileLanguage, RegisteredRule } from '../engine/types';
import type { CodeFrontEnd } from '../code/frontend';
import { DEFAULT_SETTINGS, type ServerSettings } from './settings';
import { commandUri, type DiagnosticStyle, type RelatedLocator } from './lsp-convert';
import { CLIENT_COMMANDS } from './protocol';
import { SecretReceiver } from './secret-channel';
import { isKeystroke, type EditShape } from './scheduler';
import { UnreadChanges } from './text-changes';
import { statementAt } from './model-queries';

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

export type LogLevel = 'info' | 'warn' | 'error';

export class ServerState {
  /** The shape of each open document's last edit (for the adaptive debounce), by URI. */
  readonly lastEdit = new Map<string, EditShape>();
  /** What changed in each open document since the engine last read it (text-changes.ts). */
  readonly changes = new UnreadChanges();
  readonly documents: TextDocuments<TextDocument> = new TextDocuments({
    create: TextDocument.create,
    update: (document, changes, version) => {
      const updated = this.changes.update(document, changes, version);
      this.lastEdit.set(document.uri, { keystroke: isKeystroke(changes as Parameters<typeof isKeystroke>[0]), statementKind: this.statementKindAt(document.uri) });
      return updated;
    },
  });
  workspace!: Workspace;
  codeFrontEnd?: CodeFrontEnd;
  folders: string[] = [];
  settings: ServerSettings = DEFAULT_SETTINGS;
  /** The time budget per file when insertlint.fileTimeBudget is not set (3 s, or an embedder's). */
  defaultFileBudgetMs = 3000;
  fileConfig?: ConfigFile;
  fileConfigPath?: string;
  config!: ResolvedConfig;
  /** maxFileBytes as .insertlintrc.json (or the engine's default) says, before insertlint.index.maxFileKilobytes. */
  configMaxFileBytes = Infinity;
  trusted = true;
  clientCommands = new Set<string>();
  canPullConfiguration = false;
  canWatchFiles = false;
  canReportProgress = false;
  canRefreshCodeLens = false;
  /** Rule ids link to the client's rule documentation command (the docs shipped with the extension). */
  ruleDocsByCommand = false;
  /** The URI a path was opened or published under (so that we answer with the client's spelling). */
  readonly uriOfPath = new Map<string, string>();
  /** Paths read from disk by the index or watchers (open documents are not in here). */
  readonly onDisk = new Set<string>();
  /** Schema files (config "schema", insertlint.schema): read for the schema model, never linted or published. */
  schemaPaths = new Set<string>();
  /** Opens the Explain password the client seals (it never crosses the connection in plain text). */
  readonly secrets = new SecretReceiver();

  readonly locate: RelatedLocator = (file) => {
    const lines = this.workspace.lines(file);
    return lines ? { uri: this.uriOf(file), lines } : undefined;
  };

  constructor(
    readonly connection: Connection,
    readonly rules: readonly RegisteredRule[],
  ) {}

  log(level: LogLevel, message: string): void {
    const c = this.connection.console;
    if (level === 'error') c.error(message);
    else if (level === 'warn') c.warn(message);
    else c.info(message);
  }

  /**
   * A message box in the editor. window/showMessageRequest is a request: a client that does not answer it
   * (or fails) must not leave an unhandled rejection, which would end the server.
   */
  showMessage(kind: 'info' | 'warning', message: string): void {
    const w = this.connection.window;
    const shown: unknown = kind === 'info' ? w.showInformationMessage(message) : w.showWarningMessage(message);
    Promise.resolve(shown).catch(() => this.log('info', `(message not shown) ${message}`));
  }

  /** The kind of the statement where a document's unread edits begin, in the model the engine holds ('' if none). */
  private statementKindAt(uri: string): string {
    const offset = this.changes.startOf(uri);
    const model = offset === undefined ? undefined : this.workspace?.model(this.pathOf(uri));
    return (model && statementAt(model, offset!)?.kind) ?? '';
  }

  /** Engine path of a URI: the file system path for file: URIs, the URI itself otherwise. */
  pathOf(uri: string): string {
    if (uri.startsWith('file:')) {
      try {
        return fileURLToPath(uri);
      } catch {
        return uri;
      }
    }
    return uri;
  }

  uriOf(path: string): string {
    return this.uriOfPath.get(path) ?? (path.includes(':') && !/^[a-zA-Z]:[\\/]/.test(path) ? path : pathToFileURL(path).toString());
  }

  languageFor(path: string, languageId?: string): FileLanguage | undefined {
    return this.workspace.languageOf(path) ?? (languageId ? LANGUAGE_IDS[languageId] : undefined);
  }

  /** How findings are written for this editor (insertlint.messageStyle, where rule ids link to). */
  diagnosticStyle(): DiagnosticStyle {
    return {
      messageStyle: this.settings.messageStyle,
      docLink: this.ruleDocsByCommand ? (id) => commandUri(CLIENT_COMMANDS.showRuleDocumentation, [id]) : undefined,
    };
  }

  /** The time budget per file in force: insertlint.fileTimeBudget, else the default. */
  fileBudgetMs(): number {
    return this.settings.fileBudgetMs ?? this.defaultFileBudgetMs;
  }

  /** Whether a file's findings are shown: InsertLint enabled and its language linted (insertlint.languages). */
  shows(path: string): boolean {
    if (!this.settings.enable) return false;
    const doc = this.documents.get(this.uriOf(path));
    // A language id the server does not know (a .cbl or .jcl shown as plain text): the file name decides.
    if (doc && LANGUAGE_IDS[doc.languageId] !== undefined) return this.settings.languages.includes(doc.languageId);
    const language = this.workspace.languageOf(path);
    return this.settings.languages.some((id) => LANGUAGE_IDS[id] !== undefined && LANGUAGE_IDS[id] === language);
  }

  /** Open documents the engine holds, as paths. */
  openPaths(): string[] {
    return this.documents.all().map((d) => this.pathOf(d.uri)).filter((p) => this.workspace.hasFile(p));
  }

  /** Files whose findings are shown (insertlint.diagnostics.scope). */
  publishablePaths(): string[] {
    return this.settings.diagnosticsScope === 'workspace' ? this.workspace.paths() : this.openPaths();
  }
}

export function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

export const yieldToEvents = () => new Promise<void>((resolve) => setImmediate(resolve));
