// Lints ../shared/corpus/code (real application code that talks to Db2; not part of a user's clone) with
// lintPaths, the function behind `insertlint check`, and prints what a user would see: findings per rule,
// files left out and why, and the slowest files. No analysis of its own: the figures are the product's.
// Usage: npm run corpus:code   (builds first)   or   node scripts/corpus-code.mjs [--list] [--sample=N] [--seed=S] [--rule=ID]
import { readdirSync, existsSync } from 'node:fs';
import { join, dirname, relative, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const corpusDir = join(repoRoot, '..', 'shared', 'corpus', 'code');
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const value = (name) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

if (!existsSync(corpusDir)) {
  console.log(`No code corpus at ${corpusDir}; nothing to measure (the corpus is not part of the repository).`);
  process.exit(0);
}
const bundle = join(repoRoot, 'out', 'corpus-lint.js');
if (!existsSync(bundle)) {
  console.error(`Missing ${relative(repoRoot, bundle)}: run "node scripts/build.mjs" first (npm run corpus:code does).`);
  process.exit(1);
}
const { lintPaths, displayPath } = createRequire(import.meta.url)(bundle);

function walk(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

const t0 = performance.now();
const run = await lintPaths({ paths: [corpusDir], cwd: corpusDir });
const totalMs = performance.now() - t0;
const show = (file) => displayPath(corpusDir, file);
const isCode = (file) => run.workspace.model(file).source.language !== 'sql';

// ---- findings per rule -------------------------------------------------------------------------
const findings = [];
for (const file of run.files) {
  const lines = run.workspace.lines(file);
  for (const d of run.workspace.diagnostics(file)) {
    if (d.suppressed) continue;
    findings.push({ file: show(file), line: lines.position(d.span.start).line + 1, code: isCode(file), rule: d.rule, severity: d.severity, message: d.message });
  }
}
const byRule = new Map();
for (const f of findings) {
  const r = byRule.get(f.rule) ?? { code: 0, sql: 0, severities: new Map() };
  r[f.code ? 'code' : 'sql']++;
  r.severities.set(f.severity, (r.severities.get(f.severity) ?? 0) + 1);
  byRule.set(f.rule, r);
}

const codeFiles = run.files.filter(isCode);
const leftOut = codeFiles.filter((f) => run.workspace.model(f).leftOut);
const all = walk(corpusDir).filter((f) => !/(^|\/)(LICENSE|SOURCES\.md)$/.test(f));
const read = new Set([...run.files, ...run.skipped.map((s) => s.path)]);
const notLinted = all.filter((f) => !read.has(f));

console.log(`Code corpus: ${corpusDir}`);
console.log(`files: ${all.length} (${run.files.length} read by insertlint check: ${codeFiles.length} code, ${run.files.length - codeFiles.length} SQL; ${notLinted.length} not a linted file type; ${run.skipped.length} skipped)`);
console.log(`code files analysed: ${codeFiles.length - leftOut.length}, left out: ${leftOut.length}`);
console.log(`findings: ${findings.length} (${findings.filter((f) => f.code).length} in code files), ${totalMs.toFixed(0)} ms for the whole run`);
console.log('\nFindings per rule (in code files / in SQL files; by severity):');
for (const [rule, r] of [...byRule].sort((a, b) => b[1].code + b[1].sql - (a[1].code + a[1].sql) || a[0].localeCompare(b[0]))) {
  const sev = [...r.severities].map(([s, n]) => `${s} ${n}`).join(', ');
  console.log(`  ${rule.padEnd(32)} ${String(r.code).padStart(4)} / ${String(r.sql).padEnd(4)} (${sev})`);
}

// ---- files left out and why --------------------------------------------------------------------
console.log('\nFiles left out and why:');
const reasons = new Map();
for (const f of leftOut) {
  const reason = run.workspace.model(f).leftOut;
  reasons.set(reason, [...(reasons.get(reason) ?? []), show(f)]);
}
for (const s of run.skipped) reasons.set(`skipped: ${s.reason}`, [...(reasons.get(`skipped: ${s.reason}`) ?? []), show(s.path)]);
const byExt = new Map();
for (const f of notLinted) byExt.set(extname(f) || '(none)', (byExt.get(extname(f) || '(none)') ?? 0) + 1);
for (const [reason, files] of reasons) {
  console.log(`  ${files.length}  ${reason}`);
  for (const f of files.slice(0, flag('list') ? files.length : 8)) console.log(`        ${f}`);
  if (!flag('list') && files.length > 8) console.log(`        … and ${files.length - 8} more (--list shows all)`);
}
console.log(`  ${notLinted.length}  not a file type insertlint lints: ${[...byExt].sort((a, b) => b[1] - a[1]).map(([e, n]) => `${e} ${n}`).join(', ')}`);

// ---- slowest files -----------------------------------------------------------------------------
// Each code file linted again alone (after a warm-up), so a file's time is its own front end and rules.
await lintPaths({ paths: [codeFiles[0]], cwd: corpusDir });
const times = [];
for (const f of codeFiles) {
  const start = performance.now();
  await lintPaths({ paths: [f], cwd: corpusDir });
  times.push({ file: show(f), ms: performance.now() - start });
}
times.sort((a, b) => b.ms - a.ms);
console.log(`\nSlowest code files (each linted alone; all ${codeFiles.length} took ${times.reduce((s, t) => s + t.ms, 0).toFixed(0)} ms):`);
for (const t of times.slice(0, 10)) console.log(`  ${t.ms.toFixed(1).padStart(7)} ms  ${t.file}`);

// ---- for the review ----------------------------------------------------------------------------
const rule = value('rule');
let listed = findings.filter((f) => f.code && (!rule || f.rule === rule));
const sample = Number(value('sample') ?? 0);
if (sample > 0) {
  // A seeded shuffle, so that a review can name the sample it read.
  let seed = Number(value('seed') ?? 1) >>> 0 || 1;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  listed = [...listed];
  for (let i = listed.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [listed[i], listed[j]] = [listed[j], listed[i]];
  }
  listed = listed.slice(0, sample).sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}
if (sample > 0 || flag('list')) {
  console.log(`\n${sample > 0 ? `A random sample of ${listed.length} findings in code files (seed ${value('seed') ?? 1})` : 'Findings in code files'}:`);
  for (const f of listed) console.log(`  ${f.file}:${f.line}  ${f.rule} (${f.severity})  ${f.message.split(/(?<=\.)\s/)[0]}`);
}
