// The language server as a child process with its wire exposed: raw bytes can be written to its input,
// and every byte it writes (stdout, stderr) plus every message the client side traces is recorded.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, Trace, type MessageConnection } from 'vscode-jsonrpc/node';
import { repoRoot } from './support';
import { stopServer } from '../lsp/harness';

export class ServerWire {
  readonly connection: MessageConnection;
  /** Everything the server wrote to stdout and stderr, and everything written to its stdin. */
  readonly stdout: Buffer[] = [];
  readonly stderr: Buffer[] = [];
  readonly stdin: Buffer[] = [];
  /** What a client with tracing set to verbose would show in its output channel. */
  readonly trace: string[] = [];
  readonly logs: string[] = [];
  readonly published: { uri: string; version?: number; count: number; at: number }[] = [];
  initializeResult: { capabilities: { experimental?: { insertlint?: { secretKey: string } } } } = { capabilities: {} };

  private constructor(private readonly child: ChildProcess) {
    child.stdout!.on('data', (d: Buffer) => this.stdout.push(d));
    child.stderr!.on('data', (d: Buffer) => this.stderr.push(d));
    const input = child.stdin!;
    const write = input.write.bind(input);
    // Record the client's bytes too: a request is written somewhere before it is sent.
    input.write = ((chunk: unknown, ...rest: unknown[]) => {
      this.stdin.push(Buffer.from(chunk as string));
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof input.write;
    this.connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    this.connection.onNotification('window/logMessage', (p: { message: string }) => void this.logs.push(p.message));
    this.connection.onNotification('textDocument/publishDiagnostics', (p: { uri: string; version?: number; diagnostics: unknown[] }) => {
      this.published.push({ uri: p.uri, version: p.version, count: p.diagnostics.length, at: Date.now() });
    });
    this.connection.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => this.settings));
    this.connection.onRequest('client/registerCapability', () => null);
    this.connection.onRequest('window/workDoneProgress/create', () => null);
    this.connection.onNotification('insertlint/status', () => undefined);
    this.connection.onNotification('$/progress', () => undefined);
    this.connection.listen();
  }

  settings: unknown = {};

  static async start(options: { folder?: string; settings?: unknown; env?: NodeJS.ProcessEnv; verbose?: boolean } = {}): Promise<ServerWire> {
    const server = join(repoRoot(), 'out', 'server.js');
    if (!existsSync(server)) throw new Error(`${server} is missing: build first`);
    const child = spawn(process.execPath, [server, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'], env: options.env ?? process.env });
    const wire = new ServerWire(child);
    wire.settings = options.settings ?? {};
    if (options.verbose) {
      await wire.connection.trace(Trace.Verbose, { log: (message: string, data?: string) => wire.trace.push(data ? `${message}\n${data}` : message) });
    }
    const folder = options.folder;
    wire.initializeResult = await wire.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: folder ? pathToFileURL(folder).toString() : null,
      workspaceFolders: folder ? [{ uri: pathToFileURL(folder).toString(), name: 'ws' }] : null,
      capabilities: { workspace: { configuration: true } },
      trace: options.verbose ? 'verbose' : 'off',
    });
    wire.connection.sendNotification('initialized', {});
    if (options.verbose) wire.connection.sendNotification('$/setTrace', { value: 'verbose' });
    return wire;
  }

  /** Writes bytes to the server's input as they are (no framing), and waits until they are handed over. */
  raw(bytes: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.child.stdin!.write(bytes, (error) => (error ? reject(error) : resolve())));
  }

  /** All bytes that crossed the wire or were logged, as one string per place. */
  everything(): Record<string, string> {
    return {
      stdin: Buffer.concat(this.stdin).toString('latin1'),
      stdout: Buffer.concat(this.stdout).toString('latin1'),
      stderr: Buffer.concat(this.stderr).toString('latin1'),
      trace: this.trace.join('\n'),
      logs: this.logs.join('\n'),
    };
  }

  get exited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  async waitFor(what: string, check: () => boolean, ms = 15000): Promise<void> {
    const until = Date.now() + ms;
    while (!check()) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}; server log:\n${this.logs.join('\n')}\n${Buffer.concat(this.stderr).toString()}`);
      if (this.exited) throw new Error(`the server exited while waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  stop(): Promise<void> {
    return stopServer(this.connection, this.child);
  }
}

/** One LSP frame: header and body, as a client writes it. */
export function frame(message: unknown): string {
  const body = JSON.stringify(message);
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}
