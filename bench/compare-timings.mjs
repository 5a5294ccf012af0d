// A/B of two CLI builds on the same input, interleaved so that both see the same machine load: each run is
// `check DIR --format json --timings`, and the report gives each build's median wall and CPU time (user + sys,
// all threads, from /usr/bin/time) and each file's median read + rules time.
// Usage: node bench/compare-timings.mjs DIR RUNS CLI_A CLI_B   (e.g. a baseline checkout's bin/insertlint.js and ours)
// Env FILES=a,b,c adds the files whose path contains one of these to the table; SLOW=1 lists each build's files of
// under 50 lines slower than 50,000 lines/s, with the other build's time. Env FRESH_CACHE=1 gives each build a
// code cache of its own (INSERTLINT_CACHE_DIR), first written by a run over an empty file as `npm run bench` does.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const [dir, runs = '5', ...clis] = process.argv.slice(2);
if (!dir || clis.length === 0) {
  console.error('usage: node bench/compare-timings.mjs DIR RUNS CLI_A [CLI_B …]');
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), 'insertlint-compare-'));
const median = (a) => {
  const b = [...a].sort((x, y) => x - y);
  return b.length % 2 ? b[b.length >> 1] : (b[b.length / 2 - 1] + b[b.length / 2]) / 2;
};
const data = clis.map(() => ({ wall: [], cpu: [], load: [], files: new Map() }));
const cacheEnv = clis.map((cli, k) => {
  if (!process.env.FRESH_CACHE) return process.env;
  const env = { ...process.env, INSERTLINT_CACHE_DIR: join(work, `cache-${k}`) };
  writeFileSync(join(work, 'empty.sql'), '');
  execFileSync(process.execPath, [cli, 'check', join(work, 'empty.sql')], { env, stdio: 'ignore' });
  return env;
});
for (let i = 0; i < Number(runs); i++) {
  clis.forEach((cli, k) => {
    const timings = join(work, `t-${k}-${i}.json`);
    const started = performance.now();
    const r = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, cli, 'check', dir, '--format', 'json', '--output', join(work, `out-${k}.json`), '--timings', timings], { stdio: ['ignore', 'ignore', 'pipe'], env: cacheEnv[k], encoding: 'utf8' });
    const stderr = r.stderr;
    const d = data[k];
    d.wall.push(performance.now() - started);
    const [user, sys] = stderr.trim().split('\n').filter((l) => /^[0-9.]+ [0-9.]+$/.test(l)).pop().split(' ').map(Number);
    d.cpu.push((user + sys) * 1000);
    d.load.push(loadavg()[0]);
    for (const row of JSON.parse(readFileSync(timings, 'utf8'))) {
      if (!d.files.has(row.file)) d.files.set(row.file, { lines: row.lines, ms: [] });
      d.files.get(row.file).ms.push(row.readMs + row.rulesMs);
    }
  });
}
const same = clis.every((_, k) => readFileSync(join(work, `out-${k}.json`), 'utf8') === readFileSync(join(work, 'out-0.json'), 'utf8'));
const builds = data.map((d, k) => {
  const rows = [...d.files].map(([file, v]) => ({ file, lines: v.lines, ms: median(v.ms) }));
  return { cli: clis[k], wall: median(d.wall), cpu: median(d.cpu), load: median(d.load), byFile: new Map(rows.map((r) => [r.file, r])), slowest: rows.sort((a, b) => b.ms - a.ms) };
});
// By size as bench/run.mjs counts them (fixed costs weigh on small files); the sum of the files' medians too.
const BANDS = [[0, 50], [50, 200], [200, 1000], [1000, Infinity]];
for (const b of builds) {
  const slow = b.slowest.filter((r) => r.lines > 0 && (r.lines / r.ms) * 1000 < 50_000);
  const bands = BANDS.map(([from, to]) => slow.filter((r) => r.lines >= from && r.lines < to).length);
  const sum = b.slowest.reduce((n, r) => n + (r.lines > 0 ? r.ms : 0), 0);
  console.log(`${b.cli}: wall ${b.wall.toFixed(0)} ms, CPU ${b.cpu.toFixed(0)} ms (medians of ${runs}; 1-min load ~${b.load.toFixed(1)}); ${slow.length} files under 50,000 lines/s (0–49 / 50–199 / 200–999 / 1,000+ lines: ${bands.join(' / ')}); files' medians add up to ${sum.toFixed(0)} ms`);
}
console.log(`JSON output of the last runs: ${same ? 'the same bytes' : 'DIFFERENT'}`);
const named = process.env.FILES ? process.env.FILES.split(',') : [];
const shown = new Set([...builds.flatMap((b) => b.slowest.slice(0, 8).map((r) => r.file)), ...[...builds[0].byFile.keys()].filter((f) => named.some((n) => f.includes(n)))]);
console.log(`\n| file | lines | ${builds.map((_, k) => `ms (${'AB'[k] ?? k}) | lines/s (${'AB'[k] ?? k})`).join(' | ')} |`);
console.log(`|---|---:|${builds.map(() => '---:|---:').join('|')}|`);
for (const file of shown) {
  const lines = builds.map((b) => b.byFile.get(file)?.lines).find((l) => l !== undefined);
  const cells = builds.map((b) => {
    const r = b.byFile.get(file);
    return r ? `${r.ms.toFixed(1)} | ${r.lines ? Math.round((r.lines / r.ms) * 1000).toLocaleString('en') : '–'}` : '– | –';
  });
  console.log(`| ${file.replace(/^.*corpus\//, '')} | ${lines?.toLocaleString('en')} | ${cells.join(' | ')} |`);
}
if (process.env.SLOW) for (const [k, b] of builds.entries()) {
  console.log(`\nslow under 50 lines, build ${'AB'[k]}:`);
  for (const r of b.slowest.filter((r) => r.lines > 0 && r.lines < 50 && (r.lines / r.ms) * 1000 < 50_000).sort((x, y) => x.lines - y.lines)) {
    const other = builds[1 - k]?.byFile.get(r.file);
    console.log(`  ${r.lines} lines ${(r.ms * 1000).toFixed(0)} us (other ${other ? (other.ms * 1000).toFixed(0) : '-'})  ${r.file.replace(/^.*corpus\//, '')}`);
  }
}
