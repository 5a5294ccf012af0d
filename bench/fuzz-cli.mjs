// Fuzz driver for `insertlint check` on damaged files (not part of npm test). Copies a corpus folder
// (../shared/corpus/code) with its files damaged at the byte level, runs `check --format json` over the copy
// with a wall-clock bound, and reports: exit codes other than 0/1, stderr that names an internal failure, output
// that is not JSON, files neither linted nor skipped, findings whose line/column lie outside the file as the CLI
// decodes it, and runs over the bound.
//   equivalence mode (--same KIND): every file transformed in a way that must not change the findings (CRLF,
//   a UTF-8 BOM, UTF-16 with a BOM): the findings are compared with those of an unchanged copy.
//   damage mode (default): each file replaced by one mutant of a random kind (one run per seed).
// Usage: node bench/fuzz-cli.mjs CORPUS_DIR [--seeds 1-5] [--same crlf,utf8bom,utf16le,utf16be,cr] [--budget S] [--timeout S]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { fuzzArgs, repo, rng, walk } from './fuzz-common.mjs';

const { corpus, opt } = fuzzArgs();
const work = resolve(opt('work', '/tmp/fuzz-code/cli'));
const timeoutS = Number(opt('timeout', '300'));
const budget = opt('budget', '10');
const files = walk(corpus).filter((f) => !/LICENSE$|\.md$/.test(f));

// The extensions the CLI lints by default (DEFAULT_LANGUAGES in server/src/engine/config.ts, read from its text).
const LINTED_EXTENSIONS = new Set(
  [...readFileSync(join(repo, 'server/src/engine/config.ts'), 'utf8').split('export const DEFAULT_LANGUAGES')[1].split('};')[0].matchAll(/'(\.[A-Za-z0-9]+)':/g)].map((m) => m[1]),
);

const int = (r, n) => Math.floor(r() * n);
const pick = (r, xs) => xs[int(r, xs.length)];
const ins = (buf, at, bytes) => Buffer.concat([buf.subarray(0, at), Buffer.from(bytes), buf.subarray(at)]);

/** Byte-level damage. */
const DAMAGE = {
  truncate: (b, r) => b.subarray(0, int(r, b.length + 1)),
  'truncate-mid-char': (b, r) => {
    // Cut inside a multi-byte UTF-8 character when there is one, else append half of one.
    const at = [];
    for (let i = 0; i < b.length; i++) if (b[i] >= 0xc0) at.push(i + 1);
    return at.length ? b.subarray(0, pick(r, at)) : Buffer.concat([b, Buffer.from([0xe6, 0x97])]);
  },
  'nul-early': (b, r) => ins(b, int(r, Math.min(b.length, 8000) + 1), [0]),
  'nul-late': (b, r) => (b.length > 9000 ? ins(b, 8192 + int(r, b.length - 8192), [0, 0]) : ins(b, b.length, [...Buffer.alloc(9000, 0x20), 0])),
  'invalid-utf8': (b, r) => ins(b, int(r, b.length + 1), pick(r, [[0xff], [0xc3, 0x28], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]])),
  'latin1': (b) => Buffer.from(b.toString('utf8').replace(/\r?\n/, '\n-- caf\u00e9\n'), 'latin1'),
  'utf16-bom-on-utf8': (b) => Buffer.concat([Buffer.from([0xff, 0xfe]), b]),
  'utf16be-bom-on-utf8': (b) => Buffer.concat([Buffer.from([0xfe, 0xff]), b]),
  'utf16-no-bom': (b) => Buffer.from(b.toString('utf8'), 'utf16le'),
  'utf16-odd-length': (b) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(b.toString('utf8'), 'utf16le'), Buffer.from([0x41])]),
  'bom-twice': (b) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), b]),
  empty: () => Buffer.alloc(0),
  'only-bom': () => Buffer.from([0xef, 0xbb, 0xbf]),
  'one-line': (b) => Buffer.from(b.toString('utf8').replace(/\r?\n/g, ' ')),
  'long-line': (b, r) => {
    const t = b.toString('utf8');
    const starts = [0];
    for (let i = 0; i < t.length; i++) if (t[i] === '\n') starts.push(i + 1);
    const at = pick(r, starts);
    return Buffer.from(t.slice(0, at) + pick(r, ['x', '"', "'", '(', '#', '/*']).padEnd(1 << 20, pick(r, ['x', ' ', '('])) + '\n' + t.slice(at));
  },
  'repeat-block': (b, r) => {
    const lines = b.toString('utf8').split('\n');
    const a = int(r, lines.length);
    const block = lines.slice(a, a + 1 + int(r, 15));
    return Buffer.from([...lines.slice(0, a), ...Array(100).fill(block).flat(), ...lines.slice(a)].join('\n'));
  },
  'cr-only': (b) => Buffer.from(b.toString('utf8').replace(/\r?\n/g, '\r')),
  'mixed-eol': (b, r) => Buffer.from(b.toString('utf8').replace(/\r?\n/g, () => pick(r, ['\n', '\r\n', '\r']))),
  'unicode-lines': (b, r) => Buffer.from(b.toString('utf8').replace(/\n/g, () => (r() < 0.05 ? pick(r, ['\u2028', '\u2029', '\u0085', '\f', '\v']) : '\n'))),
  'astral': (b, r) => {
    const t = b.toString('utf8');
    let out = t;
    for (let k = 0; k < 5; k++) {
      const at = int(r, out.length + 1);
      out = out.slice(0, at) + pick(r, ['\u{1F600}', '\u{20000}', '\u00e9', '\u65e5\u672c']) + out.slice(at);
    }
    return Buffer.from(out);
  },
};

/** Transformations that must leave every finding where it was. */
const SAME = {
  crlf: (b) => Buffer.from(b.toString('utf8').replace(/\r?\n/g, '\r\n')),
  cr: (b) => Buffer.from(b.toString('utf8').replace(/\r?\n/g, '\r')),
  utf8bom: (b) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]),
  utf16le: (b) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(b.toString('utf8'), 'utf16le')]),
  utf16be: (b) => {
    const le = Buffer.from(b.toString('utf8'), 'utf16le');
    for (let i = 0; i + 1 < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1], le[i]];
    return Buffer.concat([Buffer.from([0xfe, 0xff]), le]);
  },
};

/** The text as the CLI decodes it (files.ts decodeSource), undefined when it skips the file. */
function decode(bytes) {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (bytes.subarray(0, 8192).includes(0)) return undefined;
  try {
    const t = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return t.charCodeAt(0) === 0xfeff ? t.slice(1) : t;
  } catch {
    return undefined;
  }
}
function lineLengths(text) {
  const out = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      out.push(i + 1 - start - (c === 10 && text.charCodeAt(i - 1) === 13 ? 2 : 1));
      start = i + 1;
    } else if (c === 13) continue;
  }
  out.push(text.length - start);
  return out;
}

const problems = [];
function report(p) {
  problems.push(p);
  console.log(JSON.stringify(p));
}

function runCheck(dir, label) {
  const out = join(work, `${label}.json`);
  const t0 = performance.now();
  const res = spawnSync(process.execPath, [join(repo, 'bin/insertlint.js'), 'check', dir, '--format', 'json', '--output', out, '--file-time-budget', budget, '--fail-on', 'never'], { cwd: dir, timeout: timeoutS * 1000, encoding: 'utf8', maxBuffer: 1 << 28 });
  const seconds = (performance.now() - t0) / 1000;
  if (res.error || res.status === null) {
    report({ label, what: 'timeout or signal', detail: { error: String(res.error), signal: res.signal, seconds } });
    return undefined;
  }
  if (res.status !== 0) report({ label, what: 'exit code', detail: { status: res.status, stderr: res.stderr.slice(0, 2000) } });
  const badStderr = res.stderr.split('\n').filter((l) => l && !/^insertlint: (skipped|warning: .*analysis stopped after|warning: .*its findings are not reported)/.test(l) && !/: (it looks binary|it is not valid UTF-8|it looks like UTF-16)/.test(l));
  if (badStderr.length) report({ label, what: 'stderr', detail: badStderr.slice(0, 10) });
  try {
    const json = JSON.parse(readFileSync(out, 'utf8'));
    json.seconds = seconds;
    json.stderr = res.stderr;
    return json;
  } catch (error) {
    report({ label, what: 'output not JSON', detail: String(error) });
    return undefined;
  }
}

function writeTree(dir, transform) {
  rmSync(dir, { recursive: true, force: true });
  const written = new Map();
  for (const f of files) {
    const rel = relative(corpus, f);
    const to = join(dir, rel);
    mkdirSync(dirname(to), { recursive: true });
    const { bytes, kind } = transform(readFileSync(f), rel);
    writeFileSync(to, bytes);
    written.set(rel, { bytes, kind });
  }
  return written;
}

function checkPositions(label, json, dir, written) {
  const texts = new Map();
  for (const d of json.diagnostics) {
    const rel = relative(dir, resolve(dir, d.file));
    const w = written.get(rel);
    if (!w) {
      if (!rel.startsWith('..')) report({ label, what: 'finding on an unknown file', detail: d.file });
      continue;
    }
    if (!texts.has(rel)) texts.set(rel, decode(w.bytes));
    const text = texts.get(rel);
    if (text === undefined) {
      report({ label, file: rel, kind: w.kind, what: 'finding on a file the CLI should skip', detail: d.rule });
      continue;
    }
    const lens = lineLengths(text);
    const ok = (line, col) => line >= 1 && line <= lens.length && col >= 1 && col <= lens[line - 1] + 1;
    const order = d.line < d.endLine || (d.line === d.endLine && d.column <= d.endColumn);
    if (!ok(d.line, d.column) || !ok(d.endLine, d.endColumn) || !order) report({ label, file: rel, kind: w.kind, what: 'finding outside the file', detail: { rule: d.rule, at: [d.line, d.column, d.endLine, d.endColumn], lines: lens.length, lineLen: lens[d.line - 1] } });
  }
  // Every file linted or skipped.
  const accounted = json.summary.files + json.skipped.length;
  const expected = [...written.keys()].filter((rel) => LINTED_EXTENSIONS.has(extname(rel))).length;
  if (accounted !== expected) report({ label, what: 'files not accounted for', detail: { linted: json.summary.files, skipped: json.skipped.length, expected } });
  for (const s of json.skipped) {
    const rel = relative(dir, resolve(dir, s.file));
    const w = written.get(rel);
    if (w && decode(w.bytes) !== undefined && !/over the .* limit/.test(s.reason)) report({ label, file: rel, kind: w.kind, what: 'skipped a readable file', detail: s.reason });
  }
  for (const l of json.leftOut) if (/fault of InsertLint/.test(l.reason)) report({ label, file: l.file, what: 'left out as a fault', detail: l.reason });
}

const key = (d) => `${d.file}:${d.line}:${d.column}:${d.endLine}:${d.endColumn}:${d.rule}:${d.severity}`;

mkdirSync(work, { recursive: true });
const same = opt('same');
if (same) {
  const baseDir = join(work, 'same-base');
  const baseWritten = writeTree(baseDir, (bytes) => ({ bytes, kind: 'original' }));
  const base = runCheck(baseDir, 'same-base');
  checkPositions('same-base', base, baseDir, baseWritten);
  const baseKeys = base.diagnostics.map(key).sort();
  for (const kind of same.split(',')) {
    const dir = join(work, `same-${kind}`);
    // Same folder name inside, so that display paths compare: copy to a sibling and compare relative keys.
    const written = writeTree(dir, (bytes) => ({ bytes: SAME[kind](bytes), kind }));
    const json = runCheck(dir, `same-${kind}`);
    if (!json) continue;
    checkPositions(`same-${kind}`, json, dir, written);
    const keys = json.diagnostics.map(key).sort();
    const a = new Set(baseKeys);
    const b = new Set(keys);
    const lost = baseKeys.filter((k) => !b.has(k));
    const gained = keys.filter((k) => !a.has(k));
    console.log(JSON.stringify({ same: kind, base: baseKeys.length, now: keys.length, lost: lost.length, gained: gained.length, seconds: Math.round(json.seconds) }));
    if (lost.length || gained.length) report({ label: `same-${kind}`, what: 'findings changed', detail: { lost: lost.slice(0, 20), gained: gained.slice(0, 20) } });
  }
} else {
  const [from, to] = opt('seeds', '1-3').split('-').map(Number);
  const kinds = Object.keys(DAMAGE);
  for (let seed = from; seed <= (to ?? from); seed++) {
    const r = rng(seed * 7919);
    const dir = join(work, `damage-${seed}`);
    const written = writeTree(dir, (bytes, rel) => {
      const kind = pick(r, kinds);
      return { bytes: DAMAGE[kind](bytes, r), kind };
    });
    const json = runCheck(dir, `damage-${seed}`);
    if (json) {
      checkPositions(`damage-${seed}`, json, dir, written);
      const byKind = {};
      for (const { kind } of written.values()) byKind[kind] = (byKind[kind] ?? 0) + 1;
      console.log(JSON.stringify({ seed, files: written.size, linted: json.summary.files, skipped: json.skipped.length, leftOut: json.leftOut.length, findings: json.diagnostics.length, seconds: Math.round(json.seconds), byKind }));
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(JSON.stringify({ summary: true, problems: problems.length }));
