// `npm run bench [-- --quick] [-- --no-sqlfluff] [-- --no-peers] [-- --no-jobs] [-- --no-build] [-- --profile] [-- --corpora-only]`
// (--quick: a smaller subset, results to bench/.work/RESULTS-quick.md; --profile: a CPU profile of the largest workload,
// summarised into the results; --corpora-only: only the real repositories whole, printed, RESULTS.md left alone). Measures the CLI on generated Db2 insert workloads and the shared corpus (whole, with the slowest
// files), sqlfluff, squawk and sqruff (bench/peers.mjs) on the same files in the same run, code-analysis and explain throughput, and writes bench/RESULTS.md (the measured
// part between the bench markers; hand-written notes outside the markers are kept).
// Nothing here asserts a time: it reports what it measured, with ratios against the peer.
import { spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, readdirSync, openSync, closeSync, rmSync } from 'node:fs';
import { join, dirname, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { PEERS, peerBinary, runPeer, statementChunks } from './peers.mjs';
import { generateWorkload } from './generate.mjs';
import { generateLoaders } from './generate-code.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = join(root, 'bench/.work');
const cli = join(root, 'bin/insertlint.js');
const benchConfig = join(work, 'bench.insertlintrc.json');
const args = new Set(process.argv.slice(2));
const quick = args.has('--quick');
const withSqlfluff = !args.has('--no-sqlfluff');
const corpusDir = join(root, '../shared/corpus/sql');
const SQL_EXTENSIONS = new Set(['.sql', '.db2', '.ddl', '.clp']);

mkdirSync(work, { recursive: true });
// The 1M-line file is 60 MB, over the default 20 MB maxFileBytes; everything else runs on defaults.
writeFileSync(join(work, 'bench.insertlintrc.json'), JSON.stringify({ maxFileBytes: 512 * 2 ** 20 }) + '\n');

function log(msg) {
  process.stderr.write(`[bench] ${msg}\n`);
}

// ---------------------------------------------------------------- machine
function machine() {
  let cpu = 'unknown';
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) cpu = m[1].trim();
  } catch {
    cpu = os.cpus()[0]?.model ?? 'unknown';
  }
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).trim();
    if (dirty) commit += ' (with uncommitted changes)';
  } catch {
    /* not a git checkout */
  }
  return {
    cpu,
    nproc: os.availableParallelism?.() ?? os.cpus().length,
    memoryGiB: (os.totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    commit,
    load: os.loadavg().map((l) => l.toFixed(1)).join(' / '),
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  };
}

// ---------------------------------------------------------------- running a child and measuring it
const timeBinary = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/**
 * Runs a command, stdout to a file; returns wall seconds, peak RSS (MiB, from /usr/bin/time -v, or
 * undefined without it), the exit code and stderr.
 */
function measure(command, commandArgs, { cwd = work, stdoutFile, env } = {}) {
  const out = stdoutFile ? openSync(stdoutFile, 'w') : 'ignore';
  const [file, argv] = timeBinary ? [timeBinary, ['-v', command, ...commandArgs]] : [command, commandArgs];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(file, argv, { cwd, stdio: ['ignore', out, 'pipe'], env: env ?? process.env, maxBuffer: 64 * 2 ** 20 });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (typeof out === 'number') closeSync(out);
  const stderr = r.stderr?.toString() ?? '';
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
  const exit = /Exit status: (\d+)/.exec(stderr);
  return {
    seconds,
    rssMiB: rss ? Number(rss[1]) / 1024 : undefined,
    code: exit ? Number(exit[1]) : r.status,
    stderr: stderr.replace(/\n\tCommand being timed:[\s\S]*$/, ''),
    error: r.error,
  };
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Runs `insertlint check --format json` on `target` `runs` times; median wall time, max RSS. */
function runInsertLint(target, runs, label, extra = []) {
  const results = [];
  let summary;
  for (let i = 0; i < runs; i++) {
    const stdoutFile = join(work, `${label}.out.json`);
    const extraArgs = typeof extra === 'function' ? extra(i) : extra;
    const r = measure(process.execPath, [cli, 'check', '--config', benchConfig, '--format', 'json', ...extraArgs, ...[target].flat()], { stdoutFile });
    if (r.error || (r.code !== 0 && r.code !== 1)) {
      throw new Error(`insertlint failed on ${target} (exit ${r.code}): ${r.error?.message ?? r.stderr.slice(0, 2000)}`);
    }
    const json = JSON.parse(readFileSync(stdoutFile, 'utf8'));
    summary = { ...json.summary, diagnostics: json.diagnostics.length };
    results.push(r);
  }
  return {
    seconds: median(results.map((r) => r.seconds)),
    best: Math.min(...results.map((r) => r.seconds)),
    rssMiB: Math.max(...results.map((r) => r.rssMiB ?? 0)) || undefined,
    runs,
    summary,
    stderrLines: results[0].stderr.split('\n').filter(Boolean).length,
  };
}

/**
 * Per-file times of several runs' --timings: each file's row from the run whose read + rules is its median,
 * slowest first; the "(grammar load)" and "(schema of all files)" rows (once per process) apart.
 */
function medianTimings(runs) {
  const byFile = new Map();
  const loads = [];
  const schemas = [];
  for (const rows of runs) {
    for (const row of rows) {
      if (row.file === '(grammar load)') loads.push(row);
      else if (row.file === '(schema of all files)') schemas.push(row);
      else byFile.set(row.file, [...(byFile.get(row.file) ?? []), row]);
    }
  }
  const total = (row) => row.readMs + row.rulesMs;
  const perFile = [...byFile.values()].map((rows) => rows.sort((a, b) => total(a) - total(b))[rows.length >> 1]).sort((a, b) => total(b) - total(a));
  loads.sort((a, b) => a.readMs - b.readMs);
  const load = loads[loads.length >> 1];
  schemas.sort((a, b) => a.rulesMs - b.rulesMs);
  const schema = schemas[schemas.length >> 1];
  return { perFile, grammarLoad: load ? { ms: load.readMs, grammars: load.grammars ?? [] } : undefined, schemaMs: schema?.rulesMs };
}

/** Issue 15's goal per file, 50,000 lines/s: how many files are under it, by size band (fixed costs weigh on small files). */
const GOAL_LINES_PER_S = 50_000;
function underGoalBySize(perFile) {
  const bands = [[0, 50], [50, 200], [200, 1000], [1000, Infinity]];
  return bands.map(([from, to]) => {
    const files = perFile.filter((f) => f.lines >= from && f.lines < to);
    const under = files.filter((f) => (f.lines / (f.readMs + f.rulesMs)) * 1000 < GOAL_LINES_PER_S);
    return { from, to, files: files.length, under: under.length };
  });
}

function countText(files) {
  let lines = 0;
  let bytes = 0;
  for (const f of files) {
    const buf = readFileSync(f);
    bytes += buf.length;
    let n = 0;
    for (let i = 0; i < buf.length; i++) if (buf[i] === 10) n++;
    if (buf.length && buf[buf.length - 1] !== 10) n++;
    lines += n;
  }
  return { lines, bytes };
}

function walkFiles(dir, keep, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walkFiles(p, keep, out);
    else if (e.isFile() && keep(p)) out.push(p);
  }
  return out;
}

// ---------------------------------------------------------------- sqlfluff
function sqlfluffBinary() {
  const venv = join(work, 'venv');
  const bin = join(venv, 'bin/sqlfluff');
  if (existsSync(bin)) return bin;
  log('installing sqlfluff 4.5.0 into bench/.work/venv (once)…');
  const mk = spawnSync('python3', ['-m', 'venv', venv], { stdio: 'inherit' });
  if (mk.status !== 0) return undefined;
  const pip = spawnSync(join(venv, 'bin/pip'), ['install', '--quiet', 'sqlfluff==4.5.0'], { stdio: 'inherit' });
  return pip.status === 0 && existsSync(bin) ? bin : undefined;
}

function runSqlfluff(bin, file) {
  // Without this sqlfluff silently skips files over 20,000 bytes (see ../shared/ENVIRONMENT.md).
  // max_parse_nodes = 0: sqlfluff 4.5 otherwise refuses files of more than 100,000 tokens ("Maximum parse
  // node count exceeded") without parsing them, which would time a refusal instead of a lint.
  writeFileSync(join(work, '.sqlfluff'), '[sqlfluff]\ndialect = db2\nlarge_file_skip_byte_limit = 0\nmax_parse_nodes = 0\n');
  const stdoutFile = join(work, 'sqlfluff.out.json');
  const r = measure(bin, ['lint', '--dialect', 'db2', '--format', 'json', '--nocolor', file], { stdoutFile });
  let violations;
  let unparsable;
  let refused = false;
  try {
    const json = JSON.parse(readFileSync(stdoutFile, 'utf8'));
    violations = json.reduce((n, f) => n + f.violations.length, 0);
    unparsable = json.reduce((n, f) => n + f.violations.filter((v) => v.code === 'PRS').length, 0);
    refused = json.some((f) => f.violations.some((v) => /Maximum parse (node count|depth)/.test(v.description)));
  } catch {
    /* reported below as "no output" */
  }
  const version = execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim().replace(/^sqlfluff, version /, '');
  return { ...r, violations, unparsable, refused, version };
}

// ---------------------------------------------------------------- explain
function runExplainBench() {
  const entry = join(root, 'bench/explain-bench.ts');
  const parser = join(root, 'server/src/explain/exfmt.ts');
  if (!existsSync(entry) || !existsSync(parser)) return { missing: 'server/src/explain/exfmt.ts does not exist yet' };
  const bundle = join(work, 'explain-bench.cjs');
  const b = spawnSync(process.execPath, [join(root, 'bench/bundle.mjs'), entry, bundle], { cwd: root, encoding: 'utf8' });
  if (b.status !== 0) return { missing: `the explain benchmark does not build: ${b.stderr.trim().split('\n').slice(0, 6).join(' / ')}` };
  const r = spawnSync(process.execPath, [bundle, quick ? '3' : '10', '500'], { cwd: work, encoding: 'utf8', timeout: 600_000 });
  if (r.status !== 0) return { missing: `the explain benchmark failed: ${r.stderr.trim().split('\n').slice(0, 6).join(' / ')}` };
  return JSON.parse(r.stdout);
}

// ---------------------------------------------------------------- the run
const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const results = { machine: machine(), workloads: [], quick };

if (!args.has('--no-build')) {
  log('building (npm run build)…');
  const b = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) {
    console.error('bench: the build failed');
    process.exit(1);
  }
}
if (!existsSync(join(root, 'out/cli.js'))) {
  console.error('bench: out/cli.js is missing (npm run build)');
  process.exit(1);
}

// Real repositories whole (../shared/corpus): files/s and the slowest files by their own read + rule time.
function measureCorpora() {
  const corpora = [];
  for (const [name, dir] of [['sql', corpusDir], ['code', join(root, '../shared/corpus/code')]]) {
    if (!existsSync(dir)) continue;
    const runs = quick ? 1 : 3;
    const timings = (i) => join(work, `timings-${name}-${i}.json`);
    log(`insertlint on ../shared/corpus/${name} with --timings…`);
    const r = runInsertLint(dir, runs, `corpus-${name}`, (i) => ['--timings', timings(i)]);
    const { perFile, grammarLoad, schemaMs } = medianTimings(Array.from({ length: runs }, (_, i) => JSON.parse(readFileSync(timings(i), 'utf8'))));
    const lines = perFile.reduce((n, f) => n + f.lines, 0);
    corpora.push({ name, dir: `../shared/corpus/${name}`, files: perFile.length, lines, slowest: perFile.slice(0, 5), underGoal: underGoalBySize(perFile), grammarLoad, schemaMs, ...r });
  }
  return corpora;
}

// --corpora-only: the corpus part alone (e.g. after a change to per-file costs), printed; RESULTS.md is left alone.
// For an A/B of two builds in the same minutes, bench/compare-timings.mjs alternates them.
if (args.has('--corpora-only')) {
  for (const c of measureCorpora()) {
    const under = c.underGoal.map((b) => `${b.to === Infinity ? `${fmt(b.from)}+` : `${fmt(b.from)}–${fmt(b.to - 1)}`} lines: ${b.under} of ${b.files}`).join('; ');
    console.log(`${c.dir}: ${fmt(c.files)} files, ${fmt(c.seconds, 2)} s wall (median of ${c.runs}); under 50,000 lines/s: ${c.underGoal.reduce((n, b) => n + b.under, 0)} (${under}); load ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')}`);
  }
  process.exit(0);
}

// Fixed cost: node start, bundle load, rule registry, on an empty file.
const empty = join(work, 'empty.sql');
writeFileSync(empty, '');
const startup = runInsertLint(empty, 3, 'empty');
log(`startup ${startup.seconds.toFixed(3)} s`);

const sizes = quick ? [1_000, 10_000, 100_000] : [1_000, 10_000, 100_000, 200_000, 1_000_000];
for (const lines of sizes) {
  const file = join(work, `workload-${lines}.sql`);
  if (!existsSync(file)) writeFileSync(file, generateWorkload(lines));
  const { lines: actualLines, bytes } = countText([file]);
  const runs = lines >= 1_000_000 ? 3 : quick ? 1 : 3;
  log(`insertlint on ${fmt(actualLines)} lines (${runs} run${runs > 1 ? 's' : ''})…`);
  const r = runInsertLint(file, runs, `workload-${lines}`);
  results.workloads.push({ name: `generated ${fmt(lines)}`, file, lines: actualLines, bytes, ...r });
}

if (existsSync(corpusDir)) {
  const files = walkFiles(corpusDir, (p) => SQL_EXTENSIONS.has(extname(p).toLowerCase()));
  const { lines, bytes } = countText(files);
  log(`insertlint on the corpus (${files.length} files, ${fmt(lines)} lines)…`);
  const r = runInsertLint(corpusDir, quick ? 1 : 3, 'corpus');
  results.corpus = { files: files.length, lines, bytes, ...r };
}

// sqlfluff on the same generated files as two of our rows; ratios are over those same files. The main
// comparison is the sqlfluff-parsable variant (sqlfluff gives up at its first unparsable statement and
// reports the rest of the file as one unparsable section, which times giving up rather than linting).
{
  const lines = quick ? 1_000 : 10_000;
  const file = join(work, `workload-${lines}-peer.sql`);
  if (!existsSync(file)) writeFileSync(file, generateWorkload(lines, { peerParsable: true }));
  const counted = countText([file]);
  log(`insertlint on the sqlfluff-parsable ${fmt(counted.lines)} lines…`);
  const r = runInsertLint(file, 3, `workload-${lines}-peer`);
  results.workloads.push({ name: `generated ${fmt(lines)}, sqlfluff-parsable subset`, file, ...counted, ...r, peer: true });
}
if (withSqlfluff) {
  const bin = sqlfluffBinary();
  if (!bin) results.sqlfluff = { missing: 'sqlfluff could not be installed (python3 -m venv / pip failed)' };
  else {
    const lines = quick ? 1_000 : 10_000;
    results.sqlfluff = { runs: [] };
    for (const ours of [results.workloads.find((w) => w.peer), results.workloads.find((w) => w.name === `generated ${fmt(lines)}`)]) {
      log(`sqlfluff lint --dialect db2 on ${ours.name} (${fmt(ours.lines)} lines; slow)…`);
      const r = runSqlfluff(bin, ours.file);
      results.sqlfluff.version = r.version;
      results.sqlfluff.runs.push({ ...r, lines: ours.lines, bytes: ours.bytes, ours });
    }
  }
}

// Code analysis: generated Java/Python/JS loaders.
{
  const perLanguage = quick ? 100 : 400;
  // Outside the repository: bench/.work is in .gitignore, which the CLI honours when it walks a folder.
  const dir = join(os.tmpdir(), `insertlint-bench-code-${perLanguage}`);
  const files = generateLoaders(dir, perLanguage);
  const { lines, bytes } = countText(files);
  log(`insertlint on ${files.length} generated loaders…`);
  const r = runInsertLint(dir, quick ? 1 : 3, 'code');
  results.code = { files: files.length, lines, bytes, ...r };
}

results.corpora = measureCorpora();

// check --jobs (issue 15 item 4): the same inputs read on one thread and in one worker per core; the JSON
// output must be the same bytes (it is compared, and a difference is reported in the table).
results.jobs = [];
if (!args.has('--no-jobs')) {
  const jobs = results.machine.nproc;
  const perFile = quick ? 20_000 : 100_000;
  const tree = [0, 1, 2, 3].map((i) => {
    const file = join(work, `tree-${perFile}-${i}.sql`);
    if (!existsSync(file)) writeFileSync(file, generateWorkload(perFile, { seed: 7 + i }));
    return file;
  });
  const inputs = [[`4 generated scripts of ${fmt(perFile)} lines`, tree]];
  // One script too large for one thread's comfort: read in statement-aligned pieces (sql/pieces.ts).
  const largest = sizes[sizes.length - 1];
  inputs.push([`1 generated script of ${fmt(largest)} lines (read in pieces)`, [join(work, `workload-${largest}.sql`)]]);
  if (existsSync(corpusDir)) inputs.push(['../shared/corpus/sql', [corpusDir]]);
  for (const [name, paths] of inputs) {
    log(`insertlint --jobs 1 and --jobs ${jobs} on ${name}…`);
    const one = runInsertLint(paths, 3, 'jobs-one', ['--jobs', '1']);
    const many = runInsertLint(paths, 3, 'jobs-many', ['--jobs', String(jobs)]);
    const same = readFileSync(join(work, 'jobs-one.out.json'), 'utf8') === readFileSync(join(work, 'jobs-many.out.json'), 'utf8');
    results.jobs.push({ name, jobs, one, many, same, load: os.loadavg()[0].toFixed(1) });
  }
}

// The Rust linters on the same generated workloads (bench/peers.mjs).
results.peers = [];
if (!args.has('--no-peers')) {
  for (const lines of quick ? [100_000] : [200_000, 1_000_000]) {
    const ours = results.workloads.find((w) => w.name === `generated ${fmt(lines)}`);
    for (const name of Object.keys(PEERS)) {
      // sqruff lints about 4,000 lines/s: the 1,000,000-line file would take minutes; it runs on 200,000.
      if (name === 'sqruff' && lines > 200_000) continue;
      const bin = peerBinary(work, name, log);
      if (!bin) {
        results.peers.push({ name, lines, missing: `pip could not install ${PEERS[name].pip}` });
        continue;
      }
      log(`${name} on ${fmt(lines)} lines…`);
      if (name === 'sqruff') {
        // sqruff reads the workload cut into statement-aligned files: InsertLint is timed on the same files.
        // One sqruff run (45 s at 200,000 lines): it is about 80x slower, no run-to-run swing changes that.
        const theirs = runPeer(name, bin, ours.file, { work, measure });
        const same = runInsertLint(statementChunks(ours.file), 3, `chunks-${lines}`);
        results.peers.push({ ...theirs, lines, runs: 1, ours: { seconds: same.seconds, input: 'the same statement-aligned files' } });
        continue;
      }
      // squawk and InsertLint taken in turns, medians of both: a single squawk run swung 2.06-2.57 s between
      // runs at 200,000 lines, and InsertLint's runs above were minutes earlier. Seven turns where the ratio is
      // near the goal (200,000 lines; a squawk run is ~2 s there), three at 1,000,000 (~12 s each).
      const rounds = quick ? 1 : lines > 200_000 ? 3 : 7;
      const theirs = [];
      const mine = [];
      for (let k = 0; k < rounds; k++) {
        theirs.push(runPeer(name, bin, ours.file, { work, measure }));
        mine.push(runInsertLint(ours.file, 1, `peer-${lines}`).seconds);
      }
      const middle = [...theirs].sort((a, b) => a.seconds - b.seconds)[rounds >> 1];
      // Each turn's own ratio (its squawk run over the InsertLint run right after it): how far the load moved it.
      const turnRatios = theirs.map((t, k) => t.seconds / mine[k]);
      results.peers.push({ ...middle, rssMiB: Math.max(...theirs.map((t) => t.rssMiB ?? 0)) || undefined, lines, runs: rounds, turnRatios, ours: { seconds: median(mine), input: 'the Db2 file' } });
    }
  }
}

results.explain = runExplainBench();

// A CPU profile of the largest workload, summarised by function (self time): what to optimise next.
if (args.has('--profile')) {
  const biggest = results.workloads.filter((w) => !w.peer).at(-1);
  const dir = join(work, 'profile');
  rmSync(dir, { recursive: true, force: true });
  log(`profiling insertlint on ${fmt(biggest.lines)} lines…`);
  spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, cli, 'check', '--config', benchConfig, '--format', 'json', biggest.file], { cwd: work, stdio: 'ignore' });
  const profile = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  const summary = profile ? spawnSync(process.execPath, [join(root, 'bench/profile-summary.mjs'), join(dir, profile), '15'], { encoding: 'utf8' }).stdout : '';
  results.profile = { lines: biggest.lines, summary };
}

writeResults(results);
log(`wrote ${quick ? 'bench/.work/RESULTS-quick.md' : 'bench/RESULTS.md'}`);

// ---------------------------------------------------------------- RESULTS.md
function writeResults(res) {
  const m = res.machine;
  const L = [];
  L.push(`Measured ${m.date} by \`npm run bench${res.quick ? ' -- --quick' : ''}\` at commit ${m.commit}.`);
  L.push('');
  L.push(`Machine: ${m.cpu}, ${m.nproc} CPUs (nproc), ${m.memoryGiB} GiB memory, ${m.os}, Node ${m.node}. Load average when the run started (1/5/15 min): ${m.load}; the machine is shared with other work, so times are upper bounds.`);
  L.push('Wall time is the median of the runs of the whole CLI process (`bin/insertlint.js check --config bench/.work/bench.insertlintrc.json --format json FILE`,');
  L.push('the config only raising maxFileBytes to 512 MiB; output');
  L.push('to a file), start-up included; peak RSS is the largest "Maximum resident set size" that `/usr/bin/time -v` reported.');
  L.push('');
  L.push(`Start-up on an empty file: ${startupLine()}.`);
  L.push('');
  L.push('### InsertLint on generated Db2 insert workloads (bench/generate.mjs)');
  L.push('');
  L.push('| workload | lines | MB | statements | findings | runs | wall s (median) | lines/s | MB/s | peak RSS MiB | RSS / line (bytes) |');
  L.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const w of res.workloads) L.push(row(w.name, w));
  if (res.corpus) {
    L.push(row(`corpus ../shared/corpus/sql (${res.corpus.files} files, ${res.corpus.summary.parseErrors} parse errors)`, res.corpus));
  } else {
    L.push('| corpus ../shared/corpus/sql | not present on this machine | | | | | | | | | |');
  }
  L.push('');
  const big = res.workloads.find((w) => w.lines >= 1_000_000);
  if (startup.rssMiB !== undefined) {
    L.push('Memory growth (peak RSS minus the empty-file RSS, per line):');
    for (const w of res.workloads.filter((x) => !x.peer)) {
      if (w.rssMiB === undefined || startup.rssMiB === undefined) continue;
      const grown = (w.rssMiB - startup.rssMiB) * 2 ** 20;
      L.push(`- ${fmt(w.lines)} lines: ${fmt(w.rssMiB, 1)} MiB peak, ${fmt(grown / w.lines, 0)} bytes above start-up per line`);
    }
    L.push('');
  }
  L.push('### sqlfluff, the peer, in the same run');
  L.push('');
  const s = res.sqlfluff;
  let peerRate;
  if (!s) L.push('Not run (--no-sqlfluff).');
  else if (s.missing) L.push(`Not measured: ${s.missing}.`);
  else {
    L.push(`\`sqlfluff lint --dialect db2 --format json\` (sqlfluff ${s.version}, \`large_file_skip_byte_limit = 0\` in bench/.work/.sqlfluff) and InsertLint on the same files; both wall times include start-up:`);
    L.push('');
    L.push('| file | lines | sqlfluff wall s | sqlfluff lines/s | sqlfluff peak RSS MiB | sqlfluff output | InsertLint wall s | InsertLint lines/s | ratio |');
    L.push('|---|---:|---:|---:|---:|---|---:|---:|---:|');
    for (const run of s.runs) {
      const theirs = run.lines / run.seconds;
      const ours = run.ours.lines / run.ours.seconds;
      if (run.ours.peer) peerRate = theirs;
      L.push(`| ${run.ours.name} | ${fmt(run.lines)} | ${fmt(run.seconds, 2)} | ${fmt(theirs, 0)} | ${run.rssMiB ? fmt(run.rssMiB, 0) : '?'} | ${run.refused ? 'REFUSED the file (parse limit), not linted; ' : ''}${run.violations ?? 'no'} violations, ${run.unparsable ?? '?'} unparsable sections, exit ${run.code} | ${fmt(run.ours.seconds, 3)} | ${fmt(ours, 0)} | **${fmt(ours / theirs, 0)}×** |`);
    }
    L.push('');
    L.push('On the full mix sqlfluff reports one unparsable section from its first statement it cannot read (IDENTITY … NO CACHE, parameter markers) to the end of the file, so that row times sqlfluff giving up; the sqlfluff-parsable row is the fair comparison.');
    if (big && peerRate) {
      const bigRate = big.lines / big.seconds;
      L.push(`InsertLint's rate on the ${fmt(big.lines)}-line file (${fmt(bigRate, 0)} lines/s, start-up amortised) is ${fmt(bigRate / peerRate, 0)}× the lines/s sqlfluff reached on the sqlfluff-parsable file; sqlfluff itself was not run on the large file.`);
    }
  }
  L.push('');
  L.push('### The Rust linters squawk and sqruff, in the same run (bench/peers.mjs)');
  L.push('');
  if (!res.peers.length) L.push('Not run (--no-peers).');
  else {
    L.push('squawk reads a PostgreSQL-syntax copy of the workload (markers as $1, identity and table options PostgreSQL reads); sqruff (`dialect = db2`, `large_file_skip_byte_limit = 0`) reads the Db2 text cut into statement-aligned files of about 2,000 lines, because it refuses one file of more than 100,000 parse nodes and with that limit lifted had not finished 200,000 lines after 8 minutes. Wall times include start-up; squawk and InsertLint run in turns (seven turns at 200,000 lines, three at 1,000,000), and the table gives both medians; sqruff runs once, InsertLint three times on its files.');
    L.push('');
    L.push('| peer | lines | peer wall s | peer lines/s | peer peak RSS MiB | exit | InsertLint wall s (input) | InsertLint ÷ peer |');
    L.push('|---|---:|---:|---:|---:|---:|---|---:|');
    for (const p of res.peers) {
      if (p.missing) L.push(`| ${p.name} | ${fmt(p.lines)} | not measured: ${p.missing} | | | | | |`);
      else L.push(`| ${p.version} | ${fmt(p.lines)} | ${fmt(p.seconds, 2)} | ${fmt(p.lines / p.seconds, 0)} | ${p.rssMiB ? fmt(p.rssMiB, 0) : '?'} | ${p.code} | ${fmt(p.ours.seconds, 3)} (${p.ours.input}) | **${fmt(p.seconds / p.ours.seconds, 1)}×** |`);
    }
    for (const lines of [...new Set(res.peers.map((p) => p.lines))]) {
      const measured = res.peers.filter((p) => p.lines === lines && !p.missing);
      if (!measured.length) continue;
      const fastest = measured.reduce((a, b) => (a.seconds < b.seconds ? a : b));
      const ratio = fastest.seconds / fastest.ours.seconds;
      L.push('');
      const turns = fastest.turnRatios ? [...fastest.turnRatios].sort((a, b) => a - b) : [];
      const spread = turns.length > 1 ? ` Turn by turn (each ${fastest.name} run over the InsertLint run after it): ${turns.map((r) => `${fmt(r, 1)}×`).join(', ')}.` : '';
      L.push(`- Goal (issue 15) at ${fmt(lines)} lines: at least 5× the fastest peer (${fastest.name}): ${fmt(ratio, 1)}× (${ratio >= 5 ? 'met' : 'NOT met'}).${spread}`);
    }
  }
  L.push('');
  L.push('### Real repositories whole (../shared/corpus), with each file\'s own time (`check --timings`)');
  L.push('');
  if (!res.corpora.length) L.push('../shared/corpus is not on this machine.');
  for (const c of res.corpora) {
    L.push(`**${c.dir}**: ${fmt(c.files)} files, ${fmt(c.lines)} lines, ${fmt(c.seconds, 2)} s wall (median of ${c.runs}, start-up included): **${fmt(c.files / c.seconds, 0)} files/s**, ${fmt(c.lines / c.seconds, 0)} lines/s; ${fmt(c.summary.diagnostics)} findings.${c.grammarLoad ? ` Loading the tree-sitter grammars (${c.grammarLoad.grammars.join(', ')}), once per run and reported apart from the files: ${fmt(c.grammarLoad.ms, 1)} ms.` : ''}${c.schemaMs !== undefined ? ` Folding the schema of all files, once per run and reported apart: ${fmt(c.schemaMs, 1)} ms.` : ''} The five slowest files (read + rules, each file's median of ${c.runs} run${c.runs === 1 ? '' : 's'}):`);
    L.push('');
    L.push('| file | lines | read ms | rules ms | lines/s |');
    L.push('|---|---:|---:|---:|---:|');
    for (const f of c.slowest) L.push(`| ${f.file.replace(/^.*corpus\//, '')} | ${fmt(f.lines)} | ${fmt(f.readMs, 1)} | ${fmt(f.rulesMs, 1)} | ${fmt((f.lines / (f.readMs + f.rulesMs)) * 1000, 0)} |`);
    L.push('');
    if (c.underGoal) {
      const total = c.underGoal.reduce((n, b) => n + b.under, 0);
      const bands = c.underGoal.map((b) => `${b.to === Infinity ? `${fmt(b.from)} lines or more` : `${fmt(b.from)}–${fmt(b.to - 1)} lines`}: ${b.under} of ${b.files}`).join('; ');
      L.push(`Files under 50,000 lines/s (issue 15's goal: none), by each file's median: **${total} of ${fmt(c.files)}** (${bands}).`);
      L.push('');
    }
  }
  if (res.jobs?.length) {
    L.push('### `check --jobs` (issue 15 item 4): scripts read in worker threads');
    L.push('');
    L.push('Median of 3 whole-process runs each, start-up included; "same output": the JSON reports are the same bytes.');
    L.push('');
    L.push('| input | files | jobs=1 wall s | jobs=N | jobs=N wall s | jobs=1 ÷ jobs=N | peak RSS MiB (1 / N) | same output | 1-min load after |');
    L.push('|---|---:|---:|---:|---:|---:|---:|---|---:|');
    for (const j of res.jobs) {
      L.push(`| ${j.name} | ${fmt(j.one.summary.files)} | ${fmt(j.one.seconds, 3)} | ${j.jobs} | ${fmt(j.many.seconds, 3)} | ${fmt(j.one.seconds / j.many.seconds, 2)}× | ${fmt(j.one.rssMiB ?? 0)} / ${fmt(j.many.rssMiB ?? 0)} | ${j.same ? 'yes' : '**NO**'} | ${j.load} |`);
    }
    L.push('');
  }
  L.push('### Goals (issue 7)');
  L.push('');
  if (peerRate) {
    const best = Math.max(...res.workloads.map((w) => w.lines / w.seconds));
    const same = s.runs.find((r) => r.ours.peer);
    const sameRatio = same.ours.lines / same.ours.seconds / peerRate;
    L.push(`- ≥ 1,000× sqlfluff's lines/s: on the same sqlfluff-parsable file ${fmt(sameRatio, 0)}× (${sameRatio >= 1000 ? 'met' : 'NOT met'}); InsertLint's best rate in this run (${fmt(best, 0)} lines/s) is ${fmt(best / peerRate, 0)}× (${best / peerRate >= 1000 ? 'met' : 'NOT met'}).`);
  }
  if (big) L.push(`- 1,000,000 lines in under 2 s: ${big.seconds < 2 ? 'met' : 'NOT met'} (${fmt(big.seconds, 2)} s median wall, best ${fmt(big.best, 2)} s, for ${fmt(big.lines)} lines).`);
  else L.push('- 1,000,000 lines in under 2 s: not measured in --quick mode.');
  const withRss = res.workloads.filter((w) => w.rssMiB !== undefined && w.lines >= 10_000 && !w.peer);
  if (withRss.length >= 2 && startup.rssMiB !== undefined) {
    const perLine = withRss.map((w) => ((w.rssMiB - startup.rssMiB) * 2 ** 20) / w.lines);
    const growing = perLine[perLine.length - 1] > perLine[0] * 1.5;
    L.push(`- Memory no faster than linear: ${growing ? 'NOT met' : 'met'} (bytes per line above start-up: ${perLine.map((b) => fmt(b, 0)).join(' → ')} for ${withRss.map((w) => fmt(w.lines)).join(' / ')} lines).`);
  }
  L.push('');
  L.push('### Code analysis (generated Java/Python/JavaScript loaders, bench/generate-code.mjs)');
  L.push('');
  const c = res.code;
  L.push(`${c.files} files, ${fmt(c.lines)} lines: ${fmt(c.seconds, 2)} s wall (median of ${c.runs}), **${fmt(c.files / c.seconds, 0)} files/s**, ${fmt(c.lines / c.seconds, 0)} lines/s, peak RSS ${c.rssMiB ? fmt(c.rssMiB, 0) : '?'} MiB; ${c.summary.statements} embedded SQL statements found, ${c.summary.diagnostics} findings.`);
  if (c.summary.files !== c.files) L.push(`Only ${c.summary.files} of the ${c.files} files were linted: the rest were skipped or ignored.`);
  if (c.summary.statements === 0) L.push('The code front end found no SQL in them, so this measures file discovery and reading only.');
  L.push('');
  L.push('### Explain (db2exfmt text of a generated plan)');
  L.push('');
  const e = res.explain;
  if (e.missing) L.push(`Not measured: ${e.missing}.`);
  else {
    L.push(`A generated ${e.operators}-operator INSERT … SELECT plan (bench/explain-bench.ts; ${fmt(e.bytes / 1024, 0)} KiB of db2exfmt text, drawn by test/explain/helpers/exfmt-writer.ts), ${e.iterations} iterations in one process after a warm-up; ${e.parsedOperators} operators read back:`);
    L.push('');
    L.push('| step | median ms |');
    L.push('|---|---:|');
    for (const [step, ms] of Object.entries(e.medianMs)) L.push(`| ${step} | ${fmt(ms, 2)} |`);
  }
  if (res.profile) {
    L.push('');
    L.push(`### CPU profile of the ${fmt(res.profile.lines)}-line run (node --cpu-prof, bench/profile-summary.mjs)`);
    L.push('');
    L.push('```');
    L.push(res.profile.summary.trim());
    L.push('```');
  }
  const body = L.join('\n');
  // --quick is a smoke run: it must not replace the recorded full results.
  const path = res.quick ? join(work, 'RESULTS-quick.md') : join(root, 'bench/RESULTS.md');
  const begin = '<!-- bench:begin (written by bench/run.mjs) -->';
  const end = '<!-- bench:end -->';
  let doc = existsSync(path) ? readFileSync(path, 'utf8') : `# Benchmark results\n\n${begin}\n${end}\n`;
  if (!doc.includes(begin) || !doc.includes(end)) doc += `\n${begin}\n${end}\n`;
  doc = doc.slice(0, doc.indexOf(begin) + begin.length) + '\n' + body + '\n' + doc.slice(doc.indexOf(end));
  writeFileSync(path, doc);
}

function startupLine() {
  return `${fmt(startup.seconds, 3)} s wall, ${startup.rssMiB ? fmt(startup.rssMiB, 0) : '?'} MiB peak RSS`;
}

function row(name, w) {
  const mb = w.bytes / 1e6;
  const rssPerLine = w.rssMiB !== undefined ? (w.rssMiB * 2 ** 20) / w.lines : undefined;
  return `| ${name} | ${fmt(w.lines)} | ${fmt(mb, 1)} | ${fmt(w.summary.statements)} | ${fmt(w.summary.diagnostics)} | ${w.runs} | ${fmt(w.seconds, 3)} | ${fmt(w.lines / w.seconds, 0)} | ${fmt(mb / w.seconds, 1)} | ${w.rssMiB ? fmt(w.rssMiB, 0) : '?'} | ${rssPerLine !== undefined ? fmt(rssPerLine, 0) : '?'} |`;
}
