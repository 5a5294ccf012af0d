// The JSON of the messages the server writes on a byte stream (--stdio, --socket). The same values as
// vscode-jsonrpc's JSON.stringify, in ASCII (other characters as \u escapes, which every JSON reader reads
// back to the same string), and a diagnostic object's JSON made once: a keystroke in a 50,000-line script
// republishes 3,452 findings, all but a few the same objects as before (LspDiagnosticCache), and writing
// their 2.5 MB afresh took ~20 ms, half of it turning the text into UTF-8 because one "–" in each message
// made the whole text two bytes a character; the client read it in half the time as ASCII (issue 15).
// --node-ipc (VS Code's default) hands messages to Node's own channel, which makes its JSON itself.
import type { Message } from 'vscode-languageserver/node';

const PUBLISH_DIAGNOSTICS = 'textDocument/publishDiagnostics';
const NON_ASCII = /[^\x00-\x7f]/;
const NON_ASCII_ALL = /[^\x00-\x7f]/g;

/** JSON text of each diagnostic object sent, in ASCII. */
const fragments = new WeakMap<object, string>();

/** A value's JSON with every character outside ASCII written as a \u escape (JSON.stringify leaves them as they are). */
export function asciiJson(value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined || !NON_ASCII.test(json)) return json;
  const escaped = json.replace(NON_ASCII_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  // A string of two bytes a character stays so after replace; through latin1 it is one byte a character again.
  return Buffer.from(escaped, 'latin1').toString('latin1');
}

/** The JSON of a message as one ASCII string: publishDiagnostics from the diagnostics' kept JSON. */
export function messageJson(msg: Message): string {
  return messageParts(msg).join('');
}

/** The JSON of a message in ASCII pieces, in order. */
function messageParts(msg: Message): string[] {
  const { method, params } = msg as { method?: unknown; params?: { diagnostics?: unknown } };
  if (method !== PUBLISH_DIAGNOSTICS || typeof params !== 'object' || params === null || !Array.isArray(params.diagnostics)) return [asciiJson(msg)];
  const parts: string[] = [];
  // Key by key as JSON.stringify writes an object (undefined values left out), the diagnostics from fragments.
  const object = (value: object, write: (key: string, v: unknown) => void) => {
    parts.push('{');
    let first = true;
    for (const [key, v] of Object.entries(value)) {
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      parts.push(first ? '' : ',', asciiJson(key), ':');
      write(key, v);
      first = false;
    }
    parts.push('}');
  };
  object(msg, (key, v) => {
    if (key !== 'params') return void parts.push(asciiJson(v));
    object(v as object, (k, p) => {
      if (k !== 'diagnostics') return void parts.push(asciiJson(p));
      parts.push('[');
      (p as unknown[]).forEach((d, i) => {
        let json = typeof d === 'object' && d !== null ? fragments.get(d) : undefined;
        if (json === undefined) {
          json = asciiJson(d) ?? 'null';
          if (typeof d === 'object' && d !== null) fragments.set(d, json);
        }
        parts.push(i === 0 ? json : `,${json}`);
      });
      parts.push(']');
    });
  });
  return parts;
}

/**
 * vscode-jsonrpc's content type encoder for application/json, writing messageJson's text: its pieces straight
 * into the bytes (ASCII: a character a byte), without joining them into a 2.5 MB string first.
 */
export const asciiJsonEncoder = {
  name: 'application/json',
  encode(msg: Message): Promise<Uint8Array> {
    try {
      const parts = messageParts(msg);
      let length = 0;
      for (const part of parts) length += part.length;
      const bytes = Buffer.allocUnsafe(length);
      let at = 0;
      for (const part of parts) at += bytes.write(part, at, 'latin1');
      return Promise.resolve(bytes);
    } catch (error) {
      return Promise.reject(error);
    }
  },
};
