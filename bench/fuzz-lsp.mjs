// Fuzz driver for the language server on damaged application code (not part of npm test): opens damaged
// copies of corpus files (untitled documents named like the originals) in out/server.js over --stdio, then damages
// them further with incremental edits, and reports a server that exits or stops answering, error lines in its
// log, and published diagnostics whose range lies outside the document version they were published for.
// Usage: node bench/fuzz-lsp.mjs CORPUS_DIR [--files N] [--edits N] [--seed S]
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { fuzzArgs, repo, rng, walk } from './fuzz-common.mjs';
const { createMessageConnection, StreamMessageReader, StreamMessageWriter } = createRequire(import.meta.url)('vscode-jsonrpc/node');

const { corpus, opt } = fuzzArgs();
const fileCount = Number(opt('files', '40'));
const editCount = Number(opt('edits', '20'));
const rand = rng(Number(opt('seed', '1')) * 2654435761);
const int = (n) => Math.floor(rand() * n);
const pick = (xs) => xs[int(xs.length)];

const all = walk(corpus, (name) => /\.(java|py|js|ts|c|h|cpp|sh|cbl|cpy|jcl|ctl)$/.test(name));
const chosen = Array.from({ length: Math.min(fileCount, all.length) }, () => pick(all));

const PIECES = ['"', "'", '`', '"""', '${', '{', '}', '(', ')', '/*', '//', '#', '\\', '\n', '\r', '\r\n', '\u0000', '\ud800', '\ufeff', '\u2028', 'EXEC SQL', 'END-EXEC', '"INSERT INTO T VALUES (1)"', '('.repeat(3000), '\u{1F600}'];
function damage(text) {
  switch (int(6)) {
    case 0: return text.slice(0, int(text.length + 1));
    case 1: return text.replace(/\r?\n/g, pick(['\r', '\r\n', ' ']));
    case 2: { const at = int(text.length + 1); return text.slice(0, at) + 'x'.repeat(1 << int(21)) + text.slice(at); }
    default: {
      let out = text;
      for (let k = 1 + int(5); k > 0; k--) { const at = int(out.length + 1); out = out.slice(0, at) + pick(PIECES) + out.slice(at); }
      return out;
    }
  }
}

/** LSP position (UTF-16 units, lines ending at \r\n, \n or \r) of an offset, and the line lengths. */
function lineLengths(text) {
  const out = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) { out.push(i - start - (text.charCodeAt(i - 1) === 13 ? 1 : 0)); start = i + 1; }
    else if (c === 13 && text.charCodeAt(i + 1) !== 10) { out.push(i - start); start = i + 1; }
  }
  out.push(text.length - start);
  return out;
}
function offsetAt(text, line, character) {
  let l = 0;
  let i = 0;
  while (l < line && i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) l++;
    i++;
  }
  return Math.min(text.length, i + character);
}

const problems = [];
const report = (p) => { problems.push(p); console.log(JSON.stringify(p)); };

const child = spawn(process.execPath, [join(repo, 'out/server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
let stderr = '';
child.stderr.on('data', (d) => (stderr += d));
const conn = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
const logs = [];
const docs = new Map(); // uri -> { versions: Map<version, text> }
const published = [];
conn.onNotification('window/logMessage', (p) => logs.push(p.message));
conn.onNotification('textDocument/publishDiagnostics', (p) => published.push(p));
conn.onRequest('workspace/configuration', (p) => p.items.map(() => ({})));
conn.onRequest('client/registerCapability', () => null);
conn.onRequest('window/workDoneProgress/create', () => null);
conn.onNotification('insertlint/status', () => undefined);
conn.onNotification('$/progress', () => undefined);
conn.listen();
await conn.sendRequest('initialize', { processId: process.pid, rootUri: null, workspaceFolders: null, capabilities: { workspace: { configuration: true } } });
conn.sendNotification('initialized', {});

const started = Date.now();
let opened = 0;
for (const [n, file] of chosen.entries()) {
  const rel = relative(corpus, file);
  const uri = `untitled:/fuzz/${n}/${rel}`;
  let text = damage(readFileSync(file, 'utf8'));
  const versions = new Map([[1, text]]);
  docs.set(uri, versions);
  conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'plaintext', version: 1, text } });
  opened++;
  for (let v = 2; v <= 1 + int(editCount); v++) {
    // An incremental edit: replace a random range with a piece, or delete it.
    const lens = lineLengths(text);
    const l1 = int(lens.length);
    const c1 = int(lens[l1] + 1);
    const l2 = Math.min(lens.length - 1, l1 + int(3));
    const c2 = l2 === l1 ? c1 + int(lens[l1] - c1 + 1) : int(lens[l2] + 1);
    const piece = rand() < 0.4 ? '' : pick(PIECES);
    const a = offsetAt(text, l1, c1);
    const b = offsetAt(text, l2, c2);
    text = text.slice(0, a) + piece + text.slice(Math.max(a, b));
    versions.set(v, text);
    conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: v }, contentChanges: [{ range: { start: { line: l1, character: c1 }, end: { line: l2, character: c2 } }, text: piece }] });
  }
}
// Wait for each document's last version to be published (or a bound).
const lastOf = (uri) => Math.max(...docs.get(uri).keys());
const until = Date.now() + 240_000;
while (Date.now() < until) {
  const done = [...docs.keys()].every((uri) => published.some((p) => p.uri === uri && p.version === lastOf(uri)));
  if (done || child.exitCode !== null) break;
  await new Promise((r) => setTimeout(r, 50));
}
for (const uri of docs.keys()) if (!published.some((p) => p.uri === uri && p.version === lastOf(uri))) report({ what: 'last version not published', uri, last: lastOf(uri), got: published.filter((p) => p.uri === uri).map((p) => p.version) });
if (child.exitCode !== null) report({ what: 'server exited', code: child.exitCode, stderr: stderr.slice(0, 2000) });
// Every published range inside the text of its version.
for (const p of published) {
  const text = docs.get(p.uri)?.get(p.version);
  if (text === undefined) continue;
  const lens = lineLengths(text);
  for (const d of p.diagnostics) {
    const { start, end } = d.range;
    const ok = (pos) => pos.line >= 0 && pos.line < lens.length && pos.character >= 0 && pos.character <= lens[pos.line];
    const order = start.line < end.line || (start.line === end.line && start.character <= end.character);
    if (!ok(start) || !ok(end) || !order) {
      mkdirSync('/tmp/fuzz-code/lsp', { recursive: true });
      writeFileSync(`/tmp/fuzz-code/lsp/${problems.length}.txt`, text);
    }
    if (!ok(start) || !ok(end) || !order) report({ what: 'range outside the document', uri: p.uri, version: p.version, code: d.code, range: d.range, lines: lens.length, lineLen: lens[start.line] });
  }
}
const bad = logs.filter((l) => /error|fault|exception|failed|stack/i.test(l));
if (bad.length) report({ what: 'log lines', lines: bad.slice(0, 10) });
console.log(JSON.stringify({ summary: true, documents: opened, versions: [...docs.values()].reduce((n, v) => n + v.size, 0), published: published.length, seconds: Math.round((Date.now() - started) / 1000), problems: problems.length }));
try {
  await Promise.race([conn.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 5000))]);
  conn.sendNotification('exit');
} catch {}
setTimeout(() => { child.kill(); process.exit(0); }, 1000);
