// Starts the real language server (out/server.js) as a child process over stdio and speaks
// JSON-RPC to it, like an editor would. No mocked connection: what the tests see is what an editor sees.
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';

export const REPO_ROOT = resolve(__dirname, '..', '..', '..');
export const SERVER_JS = join(REPO_ROOT, 'out', 'server.js');

export interface LspDiagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity?: number;
  code?: string | number;
  codeDescription?: { href: string };
  source?: string;
  message: string;
  relatedInformation?: { location: unknown; message: string }[];
}

export interface Position {
  line: number;
  character: number;
}

export class LspSession {
  readonly connection: MessageConnection;
  readonly diagnostics = new Map<string, LspDiagnostic[]>();
  /** The document versions each publishDiagnostics of a URI carried, in order. */
  readonly publishedVersions = new Map<string, number[]>();
  readonly logs: string[] = [];
  readonly statuses: { state: string; findings: number; files: number }[] = [];
  readonly progress: unknown[] = [];
  private waiters: { check: () => boolean; resolve: () => void }[] = [];
  private versions = new Map<string, number>();
  private stderr = '';

  private constructor(private readonly child: ChildProcess) {
    this.connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    child.stderr!.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.connection.onNotification('textDocument/publishDiagnostics', (p: { uri: string; version?: number; diagnostics: LspDiagnostic[] }) => {
      this.diagnostics.set(p.uri, p.diagnostics);
      if (p.version !== undefined) this.publishedVersions.set(p.uri, [...(this.publishedVersions.get(p.uri) ?? []), p.version]);
      this.poke();
    });
    this.connection.onNotification('window/logMessage', (p: { message: string }) => {
      this.logs.push(p.message);
      this.poke();
    });
    this.connection.onNotification('insertlint/status', (p: { state: string; findings: number; files: number }) => {
      this.statuses.push(p);
      this.poke();
    });
    this.connection.onNotification('$/progress', (p: unknown) => {
      this.progress.push(p);
      this.poke();
    });
    this.connection.onRequest('window/workDoneProgress/create', () => null);
    this.connection.onRequest('client/registerCapability', () => null);
    // Section "insertlint" gets the settings; "files.encoding" the editor's encoding, as VS Code answers.
    this.connection.onRequest('workspace/configuration', (p: { items: { section?: string }[] }): unknown[] =>
      p.items.map((item) => (item.section === 'files.encoding' ? (this.filesEncoding ?? null) : this.settings)),
    );
    this.connection.onRequest('workspace/codeLens/refresh', () => {
      this.codeLensRefreshes++;
      this.poke();
      return null;
    });
    this.connection.onRequest('window/showDocument', (_params: unknown): { success: boolean } => ({ success: true }));
    this.connection.onRequest('window/showMessageRequest', (p: { message: string }) => {
      if (this.answersMessageRequests === false) throw new Error('this client does not show message boxes');
      this.logs.push(`showMessageRequest: ${p.message}`);
      this.messages.push(p.message);
      this.poke();
      return null;
    });
    this.connection.onNotification('window/showMessage', (p: { message: string }) => {
      this.logs.push(`showMessage: ${p.message}`);
      this.messages.push(p.message);
      this.poke();
    });
    this.connection.listen();
  }

  settings: unknown = {};
  /** VS Code's files.encoding (utf8, iso88591, windows1252…); undefined answers null. */
  filesEncoding: string | undefined;
  codeLensRefreshes = 0;
  /** false: window/showMessageRequest fails, as with a client that has no message boxes. */
  answersMessageRequests = true;
  readonly messages: string[] = [];

  /** New editor settings, announced as VS Code does (the server pulls them again). */
  configure(settings: unknown): void {
    this.settings = settings;
    this.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
  }
  initializeResult: { capabilities: { experimental?: { insertlint?: { secretKey: string } } } } = { capabilities: {} };

  /** `uid`: the user the server runs as (a test as root runs it as another, for whom file permissions count). */
  static async start(workspaceFolder?: string, settings: unknown = {}, initializationOptions: unknown = {}, filesEncoding?: string, uid?: number): Promise<LspSession> {
    if (!existsSync(SERVER_JS)) throw new Error(`${SERVER_JS} is missing: build first (npm test builds it)`);
    const child = spawn(process.execPath, [SERVER_JS, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'], ...(uid !== undefined ? { uid, gid: uid } : {}) });
    const session = new LspSession(child);
    session.settings = settings;
    session.filesEncoding = filesEncoding;
    session.initializeResult = await session.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: workspaceFolder ? pathToFileURL(workspaceFolder).toString() : null,
      workspaceFolders: workspaceFolder ? [{ uri: pathToFileURL(workspaceFolder).toString(), name: 'ws' }] : null,
      capabilities: {
        workspace: { configuration: true, didChangeWatchedFiles: { dynamicRegistration: true }, codeLens: { refreshSupport: true } },
        window: { workDoneProgress: true },
        textDocument: { publishDiagnostics: { codeDescriptionSupport: true }, synchronization: { didSave: true } },
      },
      initializationOptions,
    });
    session.connection.sendNotification('initialized', {});
    return session;
  }

  private poke(): void {
    this.waiters = this.waiters.filter((w) => {
      if (w.check()) {
        w.resolve();
        return false;
      }
      return true;
    });
  }

  /** Resolves when `check` holds, re-checked on every message from the server; rejects after `ms`. */
  waitFor(what: string, check: () => boolean, ms = 10000): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolvePromise, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        reject(new Error(`timed out waiting for ${what}; server log:\n${this.logs.join('\n')}\n${this.stderr}`));
      }, ms);
      const done = () => {
        clearTimeout(timer);
        resolvePromise();
      };
      this.waiters.push({ check, resolve: done });
    });
  }

  /** Waits until the workspace index is done and its findings are published. */
  async waitIdle(): Promise<void> {
    await this.waitFor('the index to finish', () => this.logs.some((l) => /^indexed \d+ files/.test(l)));
    const seen = this.statuses.length;
    await this.waitFor('the findings of the index', () => this.statuses.length > seen && this.statuses[this.statuses.length - 1].state === 'idle');
  }

  open(uri: string, text: string, languageId = 'sql'): void {
    this.versions.set(uri, 1);
    this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
  }

  /** An incremental change: replace `range` with `text`. */
  change(uri: string, range: { start: Position; end: Position }, text: string): void {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ range, text }] });
  }

  /**
   * Edits an open document holding `text` as an editor does, one incremental change at a time: `edit(from, to, nth)`
   * replaces the `nth` (0-based) occurrence of `from` with `to`; `text()` is the document's text now.
   */
  editor(uri: string, text: string): { edit: (from: string, to: string, nth?: number) => void; text: () => string } {
    let current = text;
    const edit = (from: string, to: string, nth = 0) => {
      let at = -1;
      for (let i = 0; i <= nth; i++) at = current.indexOf(from, at + 1);
      if (at < 0) throw new Error(`${JSON.stringify(from)} (occurrence ${nth}) is not in ${uri}`);
      const before = current.slice(0, at).split('\n');
      const start = { line: before.length - 1, character: before[before.length - 1].length };
      const after = current.slice(0, at + from.length).split('\n');
      const end = { line: after.length - 1, character: after[after.length - 1].length };
      this.change(uri, { start, end }, to);
      current = current.slice(0, at) + to + current.slice(at + from.length);
    };
    return { edit, text: () => current };
  }

  save(uri: string): void {
    this.connection.sendNotification('textDocument/didSave', { textDocument: { uri } });
  }

  close(uri: string): void {
    this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  request<T>(method: string, params: unknown): Promise<T> {
    return this.connection.sendRequest(method, params) as Promise<T>;
  }

  get serverStderr(): string {
    return this.stderr;
  }

  get exited(): boolean {
    return this.child.exitCode !== null;
  }

  stop(): Promise<void> {
    return stopServer(this.connection, this.child);
  }
}

/** shutdown + exit, as an editor ends the server; killed when it does not go within 2 s. */
export async function stopServer(connection: MessageConnection, child: ChildProcess): Promise<void> {
  try {
    await Promise.race([connection.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
    connection.sendNotification('exit');
  } catch {
    // already gone
  }
  await new Promise<void>((r) => {
    if (child.exitCode !== null || child.signalCode !== null) return r();
    const timer = setTimeout(() => {
      child.kill();
      r();
    }, 2000);
    child.once('exit', () => {
      clearTimeout(timer);
      r();
    });
  });
  connection.dispose();
}

/** The workspace fixture the LSP tests copy. */
export const FIXTURE = join(REPO_ROOT, 'test', 'lsp', 'fixtures', 'ws');

export interface TextEdit {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  newText: string;
}

/** Applies LSP edits to a text (edits must not overlap). */
export function applyEdits(text: string, edits: TextEdit[]): string {
  const lines = text.split('\n');
  const offset = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  for (const e of sorted) text = text.slice(0, offset(e.range.start)) + e.newText + text.slice(offset(e.range.end));
  return text;
}

export interface CodeAction {
  title: string;
  kind?: string;
  isPreferred?: boolean;
  diagnostics?: LspDiagnostic[];
  edit?: { changes: Record<string, TextEdit[]> };
  command?: { command: string; arguments?: unknown[] };
}

export function uriOf(path: string): string {
  return pathToFileURL(path).toString();
}

export interface TempWorkspace {
  /** The folder of the running test (a new one for each test). */
  readonly dir: string;
  /** Starts a server on `dir` (LspSession.start's other arguments); it is stopped after the test. */
  start(...args: Parameters<typeof LspSession.start> extends [unknown?, ...infer Rest] ? Rest : never): Promise<LspSession>;
  /** A server started otherwise (on no folder) is stopped after the test too. */
  track(session: LspSession): LspSession;
  /**
   * Writes `files` (name: text) into `dir`, starts a server on it (no debounce), opens the files named in `open` and
   * waits until each has been analysed once; `uri` gives a file's URI.
   */
  openDocuments(files: Record<string, string>, open: readonly string[]): Promise<{ s: LspSession; uri: (name: string) => string }>;
}

/**
 * For a describe block: a new temporary workspace folder before each test and the servers started on it, stopped
 * (and the folder removed) after each test. `prefix` names the folder, so that a leftover one says which test made it.
 */
export function tempWorkspace(prefix: string): TempWorkspace {
  let dir = '';
  const sessions: LspSession[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    for (const session of sessions.splice(0)) await session.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    async start(...args) {
      return this.track(await LspSession.start(dir, ...args));
    },
    track(session) {
      sessions.push(session);
      return session;
    },
    async openDocuments(files, open) {
      for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
      const s = await this.start({ debounceMs: 0 });
      await s.waitIdle();
      const uri = (name: string) => uriOf(join(dir, name));
      for (const name of open) s.open(uri(name), files[name]);
      await s.waitFor(`${open.join(' and ')} analysed`, () => open.every((name) => (s.publishedVersions.get(uri(name)) ?? []).includes(1)));
      return { s, uri };
    },
  };
}
