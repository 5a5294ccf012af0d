// Parser coverage over the shared SQL corpus (../shared/corpus/sql, not part of a user's clone).
// Prints files, statements, statements with parseError, the percentage, and the worst files.
// Usage: npm run corpus   (builds first)   or   node scripts/corpus.mjs [--all-errors] [--kinds] [--largest] [--show=KIND]
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, dirname, relative, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const corpusDir = join(repoRoot, '..', 'shared', 'corpus', 'sql');
const args = new Set(process.argv.slice(2));

if (!existsSync(corpusDir)) {
  console.log(`No SQL corpus at ${corpusDir}; nothing to measure (the corpus is not part of the repository).`);
  process.exit(0);
}
const bundle = join(repoRoot, 'out', 'corpus-parse.js');
if (!existsSync(bundle)) {
  console.error(`Missing ${relative(repoRoot, bundle)}: run "node scripts/build.mjs" first (npm run corpus does).`);
  process.exit(1);
}
const { parseSql } = createRequire(import.meta.url)(bundle);

const SQL_EXTENSIONS = new Set(['.sql', '.db2', '.ddl', '.clp', '.cli', '.txt']);
// sqlfluff's .yml parse trees, licenses and notes are not SQL.
const SKIP_NAMES = /^(license|notice|readme)/i;

function walk(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) walk(p, out);
    else if (SQL_EXTENSIONS.has(extname(entry.name).toLowerCase()) && !SKIP_NAMES.test(entry.name)) out.push(p);
  }
  return out;
}

/**
 * IBM samples are often run with `db2 -td@ -vf file` and carry no `--#SET TERMINATOR` line. Guess the
 * terminator: a header comment naming -td<x>, or (no `;` at line ends but lines ending in @ or !).
 */
function guessTerminator(text) {
  // The file switches the terminator itself; the parser follows that.
  if (/--#SET\s+TERMINATOR/i.test(text)) return { terminator: ';', how: '' };
  const header = /-td(\S)/.exec(text);
  if (header && header[1] !== ';' && header[1] !== 'f' && header[1] !== 'v') {
    return { terminator: header[1], how: `header mentions -td${header[1]}` };
  }
  const stmtTerm = /--\s*SET\s+STATEMENT\s+TERMINATOR\s*=\s*'(\S)'/i.exec(text);
  if (stmtTerm) return { terminator: stmtTerm[1], how: `"SET STATEMENT TERMINATOR='${stmtTerm[1]}'" comment` };
  const lines = text.split(/\r?\n/).filter((l) => !/^\s*--/.test(l));
  const endsWith = (ch) => lines.filter((l) => l.trimEnd().endsWith(ch)).length;
  const semi = endsWith(';');
  // Run with "db2 -vf" (no -t): every line is a command; a trailing backslash continues it.
  const continued = endsWith('\\');
  if (continued > 2 && continued > semi) return { terminator: '\n', how: `no -t: ${continued} lines continue with '\\'` };
  if (semi === 0 && endsWith('@') === 0 && !text.includes(';') && /^\s*(CONNECT|CREATE|DROP|INSERT|UPDATE|DB2|CATALOG)\b/im.test(text)) {
    const commands = lines.filter((l) => l.trim() !== '');
    if (commands.length > 1 && commands.every((l) => /^\s*[A-Za-z!]/.test(l))) return { terminator: '\n', how: 'no terminators; one command per line (db2 -vf)' };
  }
  for (const ch of ['@', '!']) {
    const n = endsWith(ch);
    if (n === 0) continue;
    if (n >= semi) return { terminator: ch, how: `${n} lines end in '${ch}', ${semi} in ';'` };
    // SQL PL files have many inner ';' but their blocks end with "END@" or a lone "@" line.
    const blockEnds = lines.filter((l) => l.trim() === ch || new RegExp(`\\bEND\\s*\\${ch}\\s*$`, 'i').test(l)).length;
    if (blockEnds > 0) return { terminator: ch, how: `${blockEnds} block ends "END${ch}" or "${ch}" lines` };
  }
  return { terminator: ';', how: '' };
}

// IBM replication templates for federated targets hold the target's own dialect (Oracle MODIFY,
// Informix DATETIME YEAR TO FRACTION, Teradata FORMAT, …). They are parsed (no crash allowed) but
// counted apart from the Db2 figure.
const OTHER_DIALECT = /^ibm-samples\/repl\/(.*(infx|mssql|ora|syb|teradata)[^/]*|.*\/asnoq[^/]*)$/i;

const files = walk(corpusDir).sort();
const otherDialect = { files: 0, statements: 0, withError: 0 };
let statements = 0;
let withError = 0;
let crashes = 0;
let bytes = 0;
let ms = 0;
const perFile = [];
const guessed = [];
const kinds = new Map();
const largest = [];
const shown = [];
for (const file of files) {
  const rel = relative(corpusDir, file);
  let text;
  try {
    if (statSync(file).size > 50 * 1024 * 1024) continue;
    text = readFileSync(file, 'utf8');
  } catch (err) {
    console.log(`skip ${rel}: ${err.message}`);
    continue;
  }
  bytes += text.length;
  const { terminator, how } = guessTerminator(text);
  if (how) guessed.push(`${rel}: ${JSON.stringify(terminator)} (${how})`);
  let result;
  const t0 = performance.now();
  try {
    result = parseSql(text, { terminator });
  } catch (err) {
    crashes++;
    console.log(`CRASH ${rel}: ${err && err.stack}`);
    continue;
  }
  ms += performance.now() - t0;
  const errors = result.statements.filter((s) => s.parseError);
  if (OTHER_DIALECT.test(rel.split('\\').join('/'))) {
    otherDialect.files++;
    otherDialect.statements += result.statements.length;
    otherDialect.withError += errors.length;
    continue;
  }
  for (const s of result.statements) {
    const key = s.kind === 'other' ? `other:${s.keyword}` : s.kind;
    kinds.set(key, (kinds.get(key) ?? 0) + 1);
    if (process.argv.some((a) => a === `--show=${key}`)) shown.push({ key, rel, head: text.slice(s.span.start, s.span.start + 120).replace(/\s+/g, ' ') });
  }
  if (args.has('--largest')) {
    // Very long non-routine statements hint at a missed terminator (one statement swallowing others).
    for (const s of result.statements) {
      const lines = text.slice(s.span.start, s.span.end).split('\n').length;
      const key = s.kind === 'other' ? s.keyword : s.kind;
      if (lines > 40 && !/PROCEDURE|FUNCTION|TRIGGER|MODULE|BEGIN|VIEW|SELECT|WITH|XQUERY|createTable|createTrigger|insert/.test(key)) {
        largest.push({ lines, key, rel, head: text.slice(s.span.start, s.span.start + 90).replace(/\s+/g, ' ') });
      }
    }
  }
  statements += result.statements.length;
  withError += errors.length;
  if (errors.length > 0) {
    const first = errors[0];
    const line = text.slice(0, first.parseError.span.start).split('\n').length;
    perFile.push({ rel, count: errors.length, total: result.statements.length, first: `line ${line}: ${first.parseError.message}`, errors, text });
  }
}

const pct = statements ? (100 * withError) / statements : 0;
console.log(`Corpus: ${corpusDir}`);
console.log(`Terminator guessed for ${guessed.length} files without a --#SET TERMINATOR line:`);
for (const g of guessed) console.log(`  ${g}`);
console.log('');
console.log(`files:                        ${files.length - otherDialect.files} (+ ${otherDialect.files} replication templates for non-Db2 targets, counted apart)`);
console.log(`statements:                   ${statements}`);
console.log(`statements with parseError:   ${withError} (${pct.toFixed(3)}%)`);
console.log(`crashes:                      ${crashes}`);
console.log(`non-Db2-target templates:     ${otherDialect.statements} statements, ${otherDialect.withError} with parseError (other dialects; not in the figure above)`);
console.log(`parse time:                   ${ms.toFixed(0)} ms for ${(bytes / 1e6).toFixed(1)} MB`);
console.log('');
perFile.sort((a, b) => b.count - a.count || a.rel.localeCompare(b.rel));
console.log('Worst files (statements with errors / statements, first error):');
for (const f of perFile.slice(0, 15)) console.log(`  ${f.count}/${f.total}  ${f.rel}  ${f.first}`);
if (args.has('--kinds')) {
  console.log('\nStatement kinds:');
  for (const [k, n] of [...kinds].sort((a, b) => b[1] - a[1])) console.log(`  ${n}\t${k}`);
}
if (args.has('--largest')) {
  console.log('\nLongest statements that are not routines, triggers, views or queries:');
  for (const l of largest.sort((a, b) => b.lines - a.lines).slice(0, 25)) console.log(`  ${l.lines} lines  ${l.key}  ${l.rel}  ${l.head}`);
}
const showKind = process.argv.find((a) => a.startsWith('--show='));
if (showKind) {
  // --show=other:SELECT lists where statements of that kind are (spot checks of the splitter).
  const want = showKind.slice('--show='.length);
  console.log(`\nStatements of kind ${want}:`);
  for (const w of shown.filter((x) => x.key === want).slice(0, 20)) console.log(`  ${w.rel}: ${w.head}`);
}
if (args.has('--all-errors')) {
  console.log('\nAll errors:');
  for (const f of perFile) {
    for (const s of f.errors) {
      const line = f.text.slice(0, s.parseError.span.start).split('\n').length;
      const snippet = f.text.slice(s.span.start, Math.min(s.span.end, s.span.start + 160)).replace(/\s+/g, ' ');
      console.log(`${f.rel}:${line}: ${s.parseError.message}\n    ${snippet}`);
    }
  }
}
if (crashes > 0) process.exitCode = 1;
