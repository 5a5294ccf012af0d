// Fuzz driver for the code front ends (not part of npm test): damages the real files of a corpus folder
// (../shared/corpus/code) in ways real input gets damaged, reads each mutant through the engine as `check` does
// (a Workspace per repository holding its other files unchanged, so copybooks, DDL and cross-file calls are
// there), and reports exceptions, rule failures, "fault of InsertLint" left-outs, slow mutants, findings and
// statement names whose file positions are outside the file or do not hold the text they name, and growth of
// the time with a block repeated n, 2n, 4n, 8n times.
// Usage: node bench/bundle.mjs bench/fuzz-code.ts /tmp/fuzz.cjs
//        node /tmp/fuzz.cjs CORPUS_DIR [--per-kind N] [--seed S] [--kinds a,b] [--only SUBSTR] [--growth] [--progress FILE]
//        [--slow-ms MS] [--replay 'file|kind|index']
// Prints one JSON line per problem and a summary line last.
import { readdirSync, readFileSync, statSync, openSync, writeSync, closeSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadCodeFrontEnd, type TreeSitterCodeFrontEnd } from '../server/src/code/frontend';
import { allRules } from '../server/src/engine/registry';
import { languageOf, resolveConfig } from '../server/src/engine/config';
import { Workspace } from '../server/src/engine/workspace';
import type { Diagnostic, FileLanguage, FileModel, SourceFile } from '../server/src/engine/types';
import type { QualifiedName, Statement } from '../server/src/sql/ast';

const args = process.argv.slice(2);
const corpus = args[0];
const opt = (name: string, fallback?: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const perKind = Number(opt('per-kind', '3'));
const seed = Number(opt('seed', '1'));
const only = opt('only');
const slowMs = Number(opt('slow-ms', '3000'));
const progressFile = opt('progress');
const replay = opt('replay');
const growth = args.includes('--growth');

// ---- random numbers, reproducible per (file, kind, index) ----
function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
function rng(key: string): () => number {
  let a = hash(key) ^ seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
type Rand = () => number;
const int = (r: Rand, n: number) => Math.floor(r() * n);
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[int(r, xs.length)];

// ---- mutations ----
/** Offsets just after any of `needles` (for truncating mid-string, mid-comment, mid-heredoc). */
function offsetsAfter(text: string, needles: RegExp): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(needles)) out.push(m.index! + m[0].length);
  return out;
}
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}
function lineRange(r: Rand, text: string, maxLines: number): [number, number] {
  const starts = lineStarts(text);
  const first = int(r, starts.length);
  const count = 1 + int(r, maxLines);
  const end = first + count < starts.length ? starts[first + count] : text.length;
  return [starts[first], end];
}
const insertAt = (text: string, at: number, piece: string) => text.slice(0, at) + piece + text.slice(at);
const SQLISH = /INSERT|insert|VALUES|values|"""|'''|`|EXEC SQL|<<-?\s*['"]?\w+/g;

const PIECES = ['"', "'", '`', '"""', "'''", '${', '{', '}', '(', ')', '[', ']', '/*', '*/', '//', '#', '--', '\\', '\n', '+ "', '" +', 'f"', "r'", 'R"(', ')"', '<<EOF\n', '<<\'EOF\'\n', 'EOF\n', 'EXEC SQL', 'END-EXEC', '.', '*>', '      *', 'for (;;) {', 'while True:', 'conn.commit();', 'ps.executeUpdate("INSERT INTO T VALUES (?)");', 'cursor.execute("INSERT INTO T VALUES (%s)" % x)', 'db2 "INSERT INTO T VALUES (1)"', '\\\n', '\t', '\u0000', '\ufeff', '\ud800', '\udc00', '\ufffd', 'é', '日本', '\ud83d\ude00', '\r'];

export const KINDS: Record<string, (text: string, r: Rand) => string> = {
  truncate: (t, r) => t.slice(0, int(r, t.length + 1)),
  'truncate-sql': (t, r) => {
    const at = offsetsAfter(t, SQLISH);
    if (at.length === 0) return t.slice(0, int(r, t.length + 1));
    const p = pick(r, at);
    return t.slice(0, Math.min(t.length, p + int(r, 60)));
  },
  'truncate-comment': (t, r) => {
    const at = offsetsAfter(t, /\/\*|\/\/|#|--|\*>|^\s{6}\*/gm);
    return at.length ? t.slice(0, Math.min(t.length, pick(r, at) + int(r, 30))) : t;
  },
  'delete-lines': (t, r) => {
    let out = t;
    for (let k = 1 + int(r, 4); k > 0; k--) {
      const [a, b] = lineRange(r, out, 5);
      out = out.slice(0, a) + out.slice(b);
    }
    return out;
  },
  'duplicate-lines': (t, r) => {
    let out = t;
    for (let k = 1 + int(r, 4); k > 0; k--) {
      const [a, b] = lineRange(r, out, 8);
      out = out.slice(0, b) + out.slice(a, b) + out.slice(b);
    }
    return out;
  },
  nul: (t, r) => {
    let out = t;
    for (let k = 1 + int(r, 5); k > 0; k--) out = insertAt(out, int(r, out.length + 1), '\u0000'.repeat(1 + int(r, 3)));
    return out;
  },
  'bad-unicode': (t, r) => {
    let out = t;
    for (let k = 1 + int(r, 5); k > 0; k--) out = insertAt(out, int(r, out.length + 1), pick(r, ['\ud800', '\udc00', '\ufffd', '\ufffd\ufffd', '\u0080', '\ufeff', '\u2028', '\u2029', '\u0085', '\u00a0']));
    return out;
  },
  'utf16-misread': (t) => new TextDecoder('utf-16le').decode(Buffer.from(t, 'utf8')),
  'bom-inside': (t, r) => insertAt(t, int(r, t.length + 1), '\ufeff'),
  'one-line': (t, r) => t.replace(/\r?\n/g, pick(r, [' ', '', ';'])),
  repeat100: (t, r) => {
    const [a, b] = lineRange(r, t, 20);
    return t.slice(0, b) + t.slice(a, b).repeat(99) + t.slice(b);
  },
  'nest-open': (t, r) => insertAt(t, int(r, t.length + 1), pick(r, ['(', '{', '[', '((', '( ']).repeat(pick(r, [1000, 5000, 20000]))),
  'nest-balanced': (t, r) => {
    const n = pick(r, [1000, 5000, 20000]);
    const [o, c] = pick(r, [['(', ')'], ['{', '}'], ['[', ']'], ['(1+', ')']]);
    return insertAt(t, int(r, t.length + 1), o.repeat(n) + c.repeat(n));
  },
  'nest-in-sql': (t, r) => {
    const at = offsetsAfter(t, /VALUES\s*|values\s*/g);
    const n = pick(r, [500, 3000, 10000]);
    const p = at.length ? pick(r, at) : int(r, t.length + 1);
    return insertAt(t, p, '('.repeat(n) + '1' + ')'.repeat(int(r, 2) ? n : 0));
  },
  quotes: (t, r) => {
    let out = t;
    const at = offsetsAfter(out, SQLISH);
    for (let k = 1 + int(r, 3); k > 0; k--) {
      const p = at.length && r() < 0.6 ? Math.min(out.length, pick(r, at) + int(r, 40)) : int(r, out.length + 1);
      out = insertAt(out, p, pick(r, ['"', "'", '`', '"""', "'''", '${', '"\'', '\\', '\\"', "\\'"]));
    }
    return out;
  },
  pieces: (t, r) => {
    let out = t;
    for (let k = 1 + int(r, 4); k > 0; k--) out = insertAt(out, int(r, out.length + 1), pick(r, PIECES));
    return out;
  },
  crlf: (t) => t.replace(/\r?\n/g, '\r\n'),
  cr: (t) => t.replace(/\r?\n/g, '\r'),
  'mixed-eol': (t, r) => t.replace(/\r?\n/g, () => pick(r, ['\n', '\r\n', '\r'])),
  'long-line': (t, r) => {
    const starts = lineStarts(t);
    const at = pick(r, starts);
    const mb = 1 << 20;
    const line = pick(r, [
      'x'.repeat(mb),
      '// ' + 'c'.repeat(mb),
      '# ' + 'c'.repeat(mb),
      '"INSERT INTO T VALUES (\'' + 'v'.repeat(mb) + '\')"',
      '"' + 'INSERT INTO T VALUES (1);'.repeat(mb / 25) + '"',
      'a'.repeat(mb / 2) + ' + ' + 'b'.repeat(mb / 2),
      ' + "x"'.repeat(mb / 6),
      '      * ' + 'c'.repeat(mb),
    ]);
    return insertAt(t, at, line + '\n');
  },
  // States the grammars' external scanners keep between tokens (indents, heredoc and string delimiters,
  // template nesting): tree-sitter gives them 1 KB to serialize into.
  'scanner-stress': (t, r) => {
    const n = pick(r, [50, 200, 600, 1500]);
    const p = pick(r, lineStarts(t));
    const piece = pick(r, [
      Array.from({ length: n }, (_, i) => ' '.repeat(i) + 'if x:\n').join(''),
      Array.from({ length: n }, (_, i) => '\t'.repeat(i) + 'for y in z:\n').join(''),
      'f"{'.repeat(n) + 'x' + '}"'.repeat(n) + '\n',
      "f'{f\"{".repeat(n) + '\n',
      '`${'.repeat(n) + 'x' + '}`'.repeat(n) + '\n',
      '`${`'.repeat(n) + '\n',
      Array.from({ length: n }, (_, i) => `cat <<EOF${i}\n`).join('') + 'INSERT\n',
      'cat <<' + 'E'.repeat(n * 4) + '\nINSERT INTO T VALUES (1)\n',
      'R"' + 'd'.repeat(Math.min(n, 2000)) + '(INSERT INTO T VALUES (1))' + 'd'.repeat(Math.min(n, 2000)) + '"\n',
      '"""\n' + "'''".repeat(n) + '\n',
      '$('.repeat(n) + 'db2 "INSERT INTO T VALUES (1)"' + ')'.repeat(n) + '\n',
      '${x:-'.repeat(n) + '\n',
    ]);
    return t.slice(0, p) + piece + t.slice(p);
  },
  'long-line-sql': (t, r) => {
    const at = offsetsAfter(t, /VALUES\s*\(|values\s*\(/g);
    if (at.length === 0) return t;
    return insertAt(t, pick(r, at), pick(r, ["'" + 'v'.repeat(1 << 20) + "', ", '1, '.repeat(1 << 18), '?, '.repeat(1 << 18)]));
  },
};

// ---- checks ----
interface Problem {
  file: string;
  kind: string;
  index: number;
  what: string;
  detail?: unknown;
}
const problems: Problem[] = [];
function report(p: Problem): void {
  problems.push(p);
  process.stdout.write(JSON.stringify(p) + '\n');
}

/** Names a statement gives, with the file text their spans map to. */
function namesOf(stmt: Statement): QualifiedName[] {
  const s = stmt as unknown as { kind: string; target?: QualifiedName; table?: QualifiedName; name?: QualifiedName };
  const out: QualifiedName[] = [];
  if (s.kind === 'insert' || s.kind === 'merge') if (s.target?.span) out.push(s.target);
  return out;
}

function normalise(s: string): string {
  return s.replace(/["\s\\]/g, '').toUpperCase();
}

function checkModel(file: string, kind: string, index: number, model: FileModel | undefined, text: string): void {
  if (!model) return;
  if (model.leftOut && /fault of InsertLint/.test(model.leftOut)) report({ file, kind, index, what: 'left out as a fault', detail: model.leftOut });
  for (const stmt of model.statements) {
    const a = stmt.origin.toFile(stmt.span.start);
    const b = stmt.origin.toFile(stmt.span.end);
    // A statement may end before it starts in the file (its last piece a constant defined above the call): only
    // offsets outside the file are wrong here; findings are checked for order below.
    if (!(Number.isInteger(a) && Number.isInteger(b) && a >= 0 && a <= text.length && b >= 0 && b <= text.length)) report({ file, kind, index, what: 'statement maps outside the file', detail: { a, b, len: text.length, stmtKind: stmt.kind } });
    for (const name of namesOf(stmt)) {
      const s = stmt.origin.toFile(name.span.start);
      const e = stmt.origin.toFile(name.span.end);
      const shown = text.slice(s, e);
      const wanted = (name.schema ? name.schema + '.' : '') + name.name;
      // A spliced name reads as 'Zzz…' in the SQL text: the file shows the host expression.
      if (/^Z+z*$/.test(name.name) || /^ZZ+$/.test(name.name)) continue;
      if (!normalise(shown).endsWith(normalise(name.name)) && e - s < 400) report({ file, kind, index, what: 'name maps to other text', detail: { wanted, shown: shown.slice(0, 120), s, e } });
    }
  }
}

function checkDiagnostics(file: string, kind: string, index: number, diags: Diagnostic[], text: string): void {
  for (const d of diags) {
    const { start, end } = d.span;
    if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && end >= start && end <= text.length)) report({ file, kind, index, what: 'finding outside the file', detail: { rule: d.rule, start, end, len: text.length } });
    for (const rel of d.related ?? []) {
      const r = rel as unknown as { file?: string; span?: { start: number; end: number } };
      if (r.span && (r.span.start < 0 || r.span.end < r.span.start)) report({ file, kind, index, what: 'related location bad', detail: { rule: d.rule, span: r.span } });
    }
  }
}

// ---- canaries: one small file per language, read after every mutant ----
const CANARIES: Record<string, string> = {
  java: 'import java.sql.*;\nclass C {\n  void f(Connection c, int[] xs) throws Exception {\n    for (int x : xs) c.createStatement().executeUpdate("INSERT INTO T VALUES (" + x + ")");\n  }\n}\n',
  python: 'import ibm_db\nconn = ibm_db.connect("SAMPLE", "", "")\nfor r in rows:\n    if r:\n        ibm_db.exec_immediate(conn, f"INSERT INTO T VALUES ({r})")\n',
  javascript: "const ibmdb = require('ibm_db');\nfor (const r of rows) conn.querySync(`INSERT INTO T VALUES (${r})`);\n",
  typescript: "import * as ibmdb from 'ibm_db';\nfor (const r of rows) conn.querySync(`INSERT INTO T VALUES (${r})`);\n",
  c: '#include <sqlcli1.h>\nvoid f(SQLHSTMT h, int n) {\n  for (int i = 0; i < n; i++) SQLExecDirect(h, (SQLCHAR *) "INSERT INTO T VALUES (1)", SQL_NTS);\n}\n',
  cpp: '#include <sqlcli1.h>\nvoid f(SQLHSTMT h, int n) {\n  for (int i = 0; i < n; i++) SQLExecDirect(h, (SQLCHAR *) R"x(INSERT INTO T VALUES (1))x", SQL_NTS);\n}\n',
  shell: 'db2 connect to X\nfor f in *.csv; do\n  db2 "INSERT INTO T VALUES (1)"\ndone\ncat <<EOF > x.sql\nINSERT INTO T VALUES (2);\nEOF\n',
};

function canaryReading(frontEnd: TreeSitterCodeFrontEnd, source: SourceFile): string {
  const read = frontEnd.read(source);
  return JSON.stringify({ s: read.statements.map((s) => [s.kind, s.origin.toFile(s.span.start), s.origin.toFile(s.span.end)]), e: read.code?.executions.length, x: read.syntaxError, l: read.leftOut });
}

// ---- corpus ----
function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

async function main(): Promise<void> {
  const config = resolveConfig(allRules());
  config.root = corpus;
  const frontEnd = await loadCodeFrontEnd();
  const repos = readdirSync(corpus).filter((d) => statSync(join(corpus, d)).isDirectory());
  const canaries = new Map<string, { source: SourceFile; reading: string }>();
  for (const [language, text] of Object.entries(CANARIES)) {
    const source = { path: `canary.${language}`, text, language: language as FileLanguage };
    canaries.set(language, { source, reading: canaryReading(frontEnd, source) });
  }
  const progress = progressFile ? openSync(progressFile, 'w') : undefined;
  let mutants = 0;
  const kinds = (opt('kinds') ?? Object.keys(KINDS).join(',')).split(',');
  const byKind: Record<string, { n: number; ms: number; max: number; maxAt?: string }> = {};
  const started = performance.now();
  for (const repo of repos) {
    const files = walk(join(corpus, repo)).filter((f) => languageOf(f, config) !== undefined);
    const texts = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));
    const ws = new Workspace(config, [frontEnd]);
    ws.keepForEdits = false;
    ws.addFiles(files.map((path) => ({ path, text: texts.get(path)! })), () => {
      for (const f of files) ws.setFile(f, texts.get(f)!);
    });
    ws.allDiagnostics();
    for (const f of files) {
      const rel = relative(corpus, f);
      const language = languageOf(f, config)!;
      if (language === 'sql') continue;
      if (only && !rel.includes(only)) continue;
      const original = texts.get(f)!;
      // Baseline: the original's own problems are not the mutants'.
      if (!args.includes('--quiet-original')) checkModel(rel, 'original', 0, ws.model(f), original);
      checkDiagnostics(rel, 'original', 0, ws.diagnostics(f), original);
      const canary = canaries.get(language);
      const runOne = (kind: string, index: number, text: string): number => {
        if (progress !== undefined) writeSync(progress, `${rel}|${kind}|${index}\n`);
        const t0 = performance.now();
        let diags: Diagnostic[] = [];
        try {
          ws.setFile(f, text);
          diags = ws.diagnostics(f);
        } catch (error) {
          report({ file: rel, kind, index, what: 'exception', detail: (error as Error).stack?.split('\n').slice(0, 8).join('\n') });
        }
        const ms = performance.now() - t0;
        mutants++;
        const k = (byKind[kind] ??= { n: 0, ms: 0, max: 0 });
        k.n++;
        k.ms += ms;
        if (ms > k.max) {
          k.max = ms;
          k.maxAt = `${rel}|${index}`;
        }
        if (ms > slowMs) report({ file: rel, kind, index, what: 'slow', detail: { ms: Math.round(ms), chars: text.length } });
        if (ws.ruleFailures.length > 0) {
          report({ file: rel, kind, index, what: 'rule failure', detail: ws.ruleFailures.map((x) => `${x.file} ${x.rule}: ${(x.error as Error)?.stack?.split('\n').slice(0, 6).join(' | ')}`) });
          ws.ruleFailures.length = 0;
        }
        // A parser left damaged by this mutant reads the next file wrong: a small file of the language, read
        // again, must read as it did at the start.
        if (canary) {
          const now = canaryReading(frontEnd, canary.source);
          if (now !== canary.reading) report({ file: rel, kind, index, what: 'parser damaged (canary reads differently)', detail: { language, was: canary.reading.slice(0, 200), now: now.slice(0, 200) } });
        }
        try {
          checkModel(rel, kind, index, ws.model(f), text);
          checkDiagnostics(rel, kind, index, diags, text);
        } catch (error) {
          report({ file: rel, kind, index, what: 'check threw', detail: (error as Error).stack?.split('\n').slice(0, 5).join('\n') });
        }
        return ms;
      };
      if (replay) {
        const [rf, rk, ri] = replay.split('|');
        if (rf !== rel) continue;
        const text = KINDS[rk](original, rng(`${rel}|${rk}|${ri}`));
        const dump = opt('dump');
        if (dump) writeFileSync(dump, text);
        runOne(rk, Number(ri), text);
      } else if (growth) {
        // A block of lines repeated n, 2n, 4n, 8n times; the time of 8n over n should stay near 8 (linear).
        for (let i = 0; i < perKind; i++) {
          const r = rng(`${rel}|growth|${i}`);
          const [a, b] = lineRange(r, original, 12);
          const block = original.slice(a, b);
          if (!block.trim()) continue;
          const n = Math.max(20, Math.ceil(4000 / Math.max(1, block.length)));
          const times: number[] = [];
          for (const m of [n, 2 * n, 4 * n, 8 * n]) {
            const text = original.slice(0, b) + block.repeat(m) + original.slice(b);
            // best of two (first read warms the caches)
            const t1 = runOne('growth', m, text);
            const t2 = runOne('growth', m, text);
            times.push(Math.min(t1, t2));
          }
          const ratio = times[3] / Math.max(1, times[0]);
          if (ratio > 14 && times[3] > 300) report({ file: rel, kind: 'growth', index: i, what: 'super-linear', detail: { block: block.slice(0, 200), n, times: times.map(Math.round), ratio: ratio.toFixed(1) } });
        }
      } else {
        for (const kind of kinds) {
          for (let i = 0; i < perKind; i++) {
            const text = KINDS[kind](original, rng(`${rel}|${kind}|${i}`));
            if (text === original && i > 0) continue;
            runOne(kind, i, text);
          }
        }
      }
      // Back to the original for the next file's mutants.
      ws.setFile(f, original);
    }
  }
  if (progress !== undefined) closeSync(progress);
  const summary = { summary: true, mutants, problems: problems.length, seconds: Math.round((performance.now() - started) / 1000), byKind: Object.fromEntries(Object.entries(byKind).map(([k, v]) => [k, { n: v.n, avgMs: Math.round(v.ms / v.n), maxMs: Math.round(v.max), maxAt: v.maxAt }])) };
  process.stdout.write(JSON.stringify(summary) + '\n');
}

main().catch((error) => {
  process.stdout.write(JSON.stringify({ fatal: (error as Error).stack }) + '\n');
  process.exit(3);
});
