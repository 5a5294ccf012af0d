// The language server's input over a byte stream (--stdio, --socket): vscode-jsonrpc stops reading for good
// after one malformed header, and a wrong Content-Length swallows the messages after it. This filter sits in
// front of it, passes well-framed messages through byte for byte, and resynchronises on the next valid header
// after garbage, saying what it dropped. --node-ipc carries whole messages and needs none of this.
import { Transform, type TransformCallback } from 'node:stream';
import { createConnection as createSocket } from 'node:net';
import { format } from 'node:util';
import { createConnection, StreamMessageWriter, type Connection, type MessageReader } from 'vscode-languageserver/node';
import { asciiJsonEncoder } from './lsp-json';

/** Longer header blocks are garbage (real ones are under 100 bytes). */
const MAX_HEADER_BYTES = 8192;
/** A message body above this is refused rather than buffered (documents above 20 MB are not linted anyway). */
export const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;
const HEADER_END = Buffer.from('\r\n\r\n');
/** Where a header may start; searched for after garbage. */
const HEADER_START = /Content-(?:Length|Type)[ \t]*:/i;
/**
 * A header inside a body means the body's Content-Length was too large: JSON cannot hold a raw CR LF in
 * a string, nor a bare Content-Length token outside one, so no well-formed body contains this.
 */
const HEADER_IN_BODY = /Content-Length[ \t]*:[ \t]*\d+[ \t]*\r\n/i;
/** Bytes of the previous chunk kept to find a header cut in two by chunking. */
const OVERLAP = 64;

type Header = { length: number } | { error: string };

export function parseHeader(block: string): Header {
  let length: number | undefined;
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) return { error: `a header line without "name: value" (${JSON.stringify(line.slice(0, 40))})` };
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-length') {
      if (!/^\d{1,10}$/.test(value)) return { error: `Content-Length is not a number (${JSON.stringify(value.slice(0, 20))})` };
      length = Number(value);
    }
  }
  if (length === undefined) return { error: 'a header without Content-Length' };
  if (length > MAX_MESSAGE_BYTES) return { error: `Content-Length ${length} is above the ${MAX_MESSAGE_BYTES / 1048576} MB limit` };
  return { length };
}

export class FrameFilter extends Transform {
  private pending: Buffer = Buffer.alloc(0);
  private body?: { header: Buffer; need: number; got: number; chunks: Buffer[]; tail: Buffer };

  /** `onDiscard` hears what was dropped and why (never the dropped bytes: they may be anything). */
  constructor(private readonly onDiscard: (message: string) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    this.drain();
    done();
  }

  override _flush(done: TransformCallback): void {
    const partial = this.body ? this.body.header.length + this.body.got : 0;
    if (partial > 0 || /\S/.test(this.pending.toString('latin1'))) this.onDiscard(`input ended inside a message; ${partial + this.pending.length} bytes dropped`);
    done();
  }

  private drain(): void {
    for (;;) {
      if (this.body) {
        if (!this.readBody()) return;
        continue;
      }
      // Blank lines between messages are harmless: skip them without a word.
      let start = 0;
      while (start < this.pending.length && (this.pending[start] === 13 || this.pending[start] === 10)) start++;
      if (start) this.pending = this.pending.subarray(start);
      if (this.pending.length === 0) return;
      const end = this.pending.indexOf(HEADER_END);
      if (end < 0) {
        if (this.pending.length > MAX_HEADER_BYTES) this.resync('a header longer than 8 KB');
        return;
      }
      const header = parseHeader(this.pending.toString('latin1', 0, end));
      if ('error' in header) {
        this.resync(header.error);
        continue;
      }
      this.body = { header: this.pending.subarray(0, end + 4), need: header.length, got: 0, chunks: [], tail: Buffer.alloc(0) };
      this.pending = this.pending.subarray(end + 4);
    }
  }

  /** Part of a message has arrived and the rest is on its way (the server should read before analysing). */
  get midMessage(): boolean {
    return this.body !== undefined || this.pending.length > 0;
  }

  /** Moves body bytes along; true when the body is complete (or dropped) and more may follow. */
  private readBody(): boolean {
    const b = this.body!;
    const take = Math.min(b.need - b.got, this.pending.length);
    const part = this.pending.subarray(0, take);
    const probe = b.tail.length ? Buffer.concat([b.tail, part]) : part;
    const inside = HEADER_IN_BODY.exec(probe.toString('latin1'));
    if (inside) {
      const at = inside.index;
      this.onDiscard(`a message shorter than its Content-Length (${b.need} bytes); ${b.header.length + b.got - b.tail.length + at} bytes dropped, reading on from the next header`);
      this.pending = Buffer.concat([probe.subarray(at), this.pending.subarray(take)]);
      this.body = undefined;
      return true;
    }
    b.chunks.push(part);
    b.got += take;
    b.tail = probe.subarray(Math.max(0, probe.length - OVERLAP));
    this.pending = this.pending.subarray(take);
    if (b.got < b.need) return false;
    this.push(b.header);
    for (const c of b.chunks) this.push(c);
    this.body = undefined;
    return true;
  }

  /** Drops bytes up to the next place a header may start (at least one byte, so this always moves on). */
  private resync(reason: string): void {
    const text = this.pending.toString('latin1');
    const next = HEADER_START.exec(text.slice(1));
    // Without a candidate, keep a tail that may be the beginning of a header cut by chunking.
    const drop = next ? next.index + 1 : Math.max(1, this.pending.length - 15);
    this.onDiscard(`malformed message header (${reason}); ${drop} bytes dropped, reading on from the next header`);
    this.pending = this.pending.subarray(drop);
  }
}

export interface ServerTransport {
  connection: Connection;
  /** True while a message is partly read (byte-stream transports only). */
  inputPending: () => boolean;
}

/**
 * The server's connection on the transport named on the command line. Byte-stream transports get the
 * resynchronising filter; what it drops is logged to the client.
 */
export function createServerTransport(argv: string[] = process.argv): ServerTransport {
  const socketArg = argv.find((a) => a.startsWith('--socket='));
  const socketPort = socketArg ? Number(socketArg.slice('--socket='.length)) : argv.includes('--socket') ? Number(argv[argv.indexOf('--socket') + 1]) : undefined;
  if (!argv.includes('--stdio') && !socketPort) return { connection: createConnection(), inputPending: () => false };
  let connection: Connection | undefined;
  const filter = new FrameFilter((message) => {
    if (connection) connection.console.error(`insertlint: ${message}`);
    else process.stderr.write(`insertlint: ${message}\n`);
  });
  if (argv.includes('--stdio')) {
    process.stdin.pipe(filter);
    connection = createConnection(readerOf(filter), new StreamMessageWriter(process.stdout, { contentTypeEncoder: asciiJsonEncoder }));
    // As vscode-languageserver does for --stdio: console output must not corrupt the protocol on stdout.
    const log = (level: 'log' | 'info' | 'warn' | 'error') => (...args: unknown[]) => connection!.console[level](format(...args));
    console.log = log('log');
    console.info = log('info');
    console.debug = log('log');
    console.warn = log('warn');
    console.error = log('error');
  } else {
    const socket = createSocket(socketPort!, '127.0.0.1');
    socket.pipe(filter);
    connection = createConnection(readerOf(filter), new StreamMessageWriter(socket, { contentTypeEncoder: asciiJsonEncoder }));
  }
  return { connection, inputPending: () => filter.midMessage };
}

/**
 * The input stream where createConnection takes a reader: it wraps a stream in a reader itself, and only for a
 * stream does it end the process when the input ends (as with `createConnection(stream, stream)`); the writer
 * is ours, for its JSON (lsp-json.ts), and the overloads take two streams or two readers.
 */
function readerOf(stream: NodeJS.ReadableStream): MessageReader {
  return stream as unknown as MessageReader;
}
