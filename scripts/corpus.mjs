// Parser coverage and findings over the shared SQL corpus (../shared/corpus/sql, not part of a user's clone),
// measured exactly as `insertlint check ../shared/corpus/sql` sees it: the same file discovery, the same
// terminator inference, the same engine. Nothing here is smarter than the product.
// Prints files, statements (and those inside routine bodies), unreadable and opaque statements, the
// terminators the engine inferred, routine INSERTs, findings per rule, and the worst files.
// Usage: npm run corpus   (builds first)   or   node scripts/corpus.mjs [--all-errors] [--kinds] [--largest] [--show=KIND]
import { existsSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const corpusDir = join(repoRoot, '..', 'shared', 'corpus', 'sql');
const args = new Set(process.argv.slice(2));

if (!existsSync(corpusDir)) {
  console.log(`No SQL corpus at ${corpusDir}; nothing to measure (the corpus is not part of the repository).`);
  process.exit(0);
}
const bundle = join(repoRoot, 'out', 'corpus-lint.js');
if (!existsSync(bundle)) {
  console.error(`Missing ${relative(repoRoot, bundle)}: run "node scripts/build.mjs" first (npm run corpus does).`);
  process.exit(1);
}
const { lintPaths, coverageOf, inferTerminator, forEachStatement } = createRequire(import.meta.url)(bundle);

// IBM replication templates for federated targets hold the target's own dialect (Oracle MODIFY, Informix
// DATETIME YEAR TO FRACTION, Teradata FORMAT, …). They are in the figure like every file; the breakdown
// below says how many of the unreadable statements are theirs.
const OTHER_DIALECT = /^ibm-samples\/repl\/(.*(infx|mssql|ora|syb|teradata)[^/]*|.*\/asnoq[^/]*)$/i;

const t0 = performance.now();
const run = await lintPaths({ paths: [corpusDir], cwd: repoRoot });
const ms = performance.now() - t0;

const total = { statements: 0, inBodies: 0, parseErrors: 0, otherDialect: 0, opaque: 0 };
const otherDialect = { files: 0, parseErrors: 0 };
const terminators = [];
const opaqueKeywords = new Map();
const kinds = new Map();
const routineInserts = { all: 0, inLoops: 0 };
const perFile = [];
const largest = [];
const shown = [];
const showKind = process.argv.find((a) => a.startsWith('--show='))?.slice('--show='.length);
for (const file of run.files) {
  const model = run.workspace.model(file);
  const rel = relative(corpusDir, file).split('\\').join('/');
  const text = model.source.text;
  const coverage = coverageOf(model);
  for (const k of Object.keys(total)) total[k] += coverage[k];
  const inferred = inferTerminator(text);
  if (inferred) terminators.push(`${rel}: ${JSON.stringify(inferred.terminator)} (${inferred.reason})`);
  const inLoop = new Set();
  for (const e of model.code?.executions ?? []) if (e.api === 'sqlpl' && e.loop && !e.loop.chunked) for (const s of e.statements) inLoop.add(s);
  const errors = [];
  forEachStatement(model.statements, (s, parent) => {
    const key = s.kind === 'other' ? `other:${s.keyword}` : s.kind;
    kinds.set(key, (kinds.get(key) ?? 0) + 1);
    if (s.kind === 'other') opaqueKeywords.set(s.keyword, (opaqueKeywords.get(s.keyword) ?? 0) + 1);
    if (s.parseError) errors.push(s);
    if (parent && parent.kind !== 'createTrigger' && s.kind === 'insert') {
      routineInserts.all++;
      if (inLoop.has(s)) routineInserts.inLoops++;
    }
    if (showKind === key) shown.push({ rel, head: text.slice(s.origin.toFile(s.span.start), s.origin.toFile(s.span.start) + 120).replace(/\s+/g, ' ') });
    if (args.has('--largest') && !parent) {
      // Very long statements that hold no SQL PL hint at a missed terminator (one statement swallowing others).
      const lines = text.slice(s.span.start, s.span.end).split('\n').length;
      if (lines > 40 && !/PROCEDURE|FUNCTION|TRIGGER|MODULE|BEGIN|VIEW|SELECT|WITH|XQUERY|createTable|createTrigger|createRoutine|compound|insert/.test(key)) {
        largest.push({ lines, key, rel, head: text.slice(s.span.start, s.span.start + 90).replace(/\s+/g, ' ') });
      }
    }
  });
  if (OTHER_DIALECT.test(rel)) {
    otherDialect.files++;
    otherDialect.parseErrors += errors.length;
  }
  if (errors.length > 0) {
    const first = errors[0];
    const line = text.slice(0, first.origin.toFile(first.parseError.span.start)).split('\n').length;
    perFile.push({ rel, count: errors.length, total: coverage.statements + coverage.inBodies, first: `line ${line}: ${first.parseError.message}`, errors, text });
  }
}

const findings = new Map();
for (const d of run.diagnostics) if (!d.suppressed) findings.set(d.rule, (findings.get(d.rule) ?? 0) + 1);
const all = total.statements + total.inBodies;
const pct = (n, of) => (of ? (100 * n) / of : 0).toFixed(3);

console.log(`Corpus: ${corpusDir} (as insertlint check reads it)`);
console.log(`Terminator inferred for ${terminators.length} files (a -td comment, line ends, lone / or @ lines, END@):`);
for (const t of terminators) console.log(`  ${t}`);
console.log('');
console.log(`files:                        ${run.files.length} (${run.skipped.length} skipped: ${run.skipped.map((s) => relative(corpusDir, s.path)).join(', ')})`);
console.log(`statements:                   ${total.statements} (+ ${total.inBodies} inside routine, trigger and block bodies = ${all})`);
console.log(`statements with parseError:   ${total.parseErrors} (${pct(total.parseErrors, total.statements)}% of script statements, ${pct(total.parseErrors, all)}% of all)`);
console.log(`another database's SQL:       ${total.otherDialect} statements Db2 rejects as written (Oracle MODIFY, SQL Server ALTER COLUMN c type, …), reported apart`);
console.log(`  unreadable or foreign in the ${otherDialect.files} IBM replication templates for Oracle, Informix, SQL Server, Sybase, Teradata: ${otherDialect.parseErrors}`);
console.log(`opaque (kept as text):        ${total.opaque} (${pct(total.opaque, all)}%): ${[...opaqueKeywords].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, n]) => `${k || '?'} ${n}`).join(', ')}, …`);
console.log(`INSERTs inside routines:      ${routineInserts.all} analysed (${routineInserts.inLoops} in row-by-row loops)`);
console.log(`rule failures:                ${run.workspace.ruleFailures.length}`);
console.log(`check time:                   ${ms.toFixed(0)} ms`);
console.log('');
console.log('Findings per rule:');
for (const [rule, n] of [...findings].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(5)}  ${rule}`);
console.log('');
perFile.sort((a, b) => b.count - a.count || a.rel.localeCompare(b.rel));
console.log('Worst files (statements with errors / statements, first error):');
for (const f of perFile.slice(0, 15)) console.log(`  ${f.count}/${f.total}  ${f.rel}  ${f.first}`);
if (args.has('--kinds')) {
  console.log('\nStatement kinds (all depths):');
  for (const [k, n] of [...kinds].sort((a, b) => b[1] - a[1])) console.log(`  ${n}\t${k}`);
}
if (args.has('--largest')) {
  console.log('\nLongest statements that are not routines, triggers, views or queries:');
  for (const l of largest.sort((a, b) => b.lines - a.lines).slice(0, 25)) console.log(`  ${l.lines} lines  ${l.key}  ${l.rel}  ${l.head}`);
}
if (showKind) {
  // --show=other:SELECT lists where statements of that kind are (spot checks of the splitter).
  console.log(`\nStatements of kind ${showKind}:`);
  for (const w of shown.slice(0, 20)) console.log(`  ${w.rel}: ${w.head}`);
}
if (args.has('--all-errors')) {
  console.log('\nAll errors:');
  for (const f of perFile) {
    for (const s of f.errors) {
      const at = s.origin.toFile(s.parseError.span.start);
      const line = f.text.slice(0, at).split('\n').length;
      const snippet = f.text.slice(s.origin.toFile(s.span.start), Math.min(s.origin.toFile(s.span.end), s.origin.toFile(s.span.start) + 160)).replace(/\s+/g, ' ');
      console.log(`${f.rel}:${line}: ${s.parseError.message}\n    ${snippet}`);
    }
  }
}
if (run.workspace.ruleFailures.length > 0) process.exitCode = 1;
