// Runs the end-to-end test several times in a row while another build loads the machine (issue 14, item 8:
// "five runs in a row must pass while another build runs beside them"), and writes what happened to a
// Markdown summary: per run the result, the failed steps, the duration, each step's time and the load average.
//
//   node test/e2e/reliability.mjs [--runs 5] [--out test/e2e/RELIABILITY.md] [--load "shell command"]
//
// The load, unless --load says otherwise, is this repository's own build in a loop: the esbuild bundles with the
// tests, then the type check (`tsc --noEmit`), over and over, from a copy in a temporary folder. It stops when
// the runs end. The runs stop at the first failure: a count of runs in a row starts again after a fix.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const value = (name, fallback) => (args.indexOf(name) >= 0 ? args[args.indexOf(name) + 1] : fallback);
const runs = Number(value('--runs', '5'));
const out = resolve(root, value('--out', join('test', 'e2e', 'RELIABILITY.md')));
const log = (...m) => console.log('[reliability]', ...m);

/** A copy of the repository (sources only; node_modules linked) where the load builds, away from out/ here. */
function loadCopy() {
  const dir = mkdtempSync(join(tmpdir(), 'insertlint-load-'));
  for (const entry of ['package.json', 'tsconfig.json', 'scripts', 'server', 'client', 'rules', 'test', 'types', 'schemas', 'syntaxes']) {
    if (existsSync(join(root, entry))) cpSync(join(root, entry), join(dir, entry), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

function startLoad() {
  const custom = value('--load');
  const dir = custom ? root : loadCopy();
  const command = custom ?? 'while true; do node scripts/build.mjs --tests >/dev/null 2>&1; node node_modules/typescript/bin/tsc -p tsconfig.json --noEmit >/dev/null 2>&1; echo cycle; done';
  const child = spawn('sh', ['-c', command], { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  let cycles = 0;
  child.stdout.on('data', (d) => (cycles += String(d).split('cycle').length - 1));
  return {
    description: custom ? `\`${custom}\`` : 'this repository\'s build in a loop (`node scripts/build.mjs --tests`, then `tsc -p tsconfig.json --noEmit`) in a copy',
    cycles: () => cycles,
    stop() {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      if (!custom) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One e2e run: its output, exit code, duration and the load average sampled every 5 s. */
function runOnce(index) {
  return new Promise((resolvePromise) => {
    const started = Date.now();
    const samples = [loadavg()[0]];
    const timer = setInterval(() => samples.push(loadavg()[0]), 5000);
    // The first run packages the extension; the others install the same .vsix again.
    const e2eArgs = [join(root, 'test', 'e2e', 'e2e.mjs'), '--no-setup', ...(index > 1 ? ['--no-package'] : [])];
    const child = spawn(process.execPath, e2eArgs, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (d) => {
      output += d;
      process.stdout.write(d);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('exit', (code) => {
      clearInterval(timer);
      samples.push(loadavg()[0]);
      resolvePromise({ index, code, ms: Date.now() - started, output, samples, at: new Date(started).toISOString().slice(11, 19) });
    });
  });
}

function summarize(run) {
  const failed = [...run.output.matchAll(/\[e2e\] FAILED: ([^\n]*)/g)].map((m) => m[1]);
  const steps = [...run.output.matchAll(/\[e2e\] step ([\w-]+): (\d+) ms/g)].map((m) => [m[1], Number(m[2])]);
  const retries = [...run.output.matchAll(/\[e2e\] (quick fix|command): [^\n]*/g)].length;
  const mean = run.samples.reduce((a, b) => a + b, 0) / run.samples.length;
  return { ...run, failed, steps, retries, load: { min: Math.min(...run.samples), mean, max: Math.max(...run.samples) } };
}

const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
const dirty = spawnSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' }).stdout.trim() ? ' (with uncommitted changes)' : '';
const load = startLoad();
log(`load: ${load.description}`);
const results = [];
try {
  for (let i = 1; i <= runs; i++) {
    log(`run ${i} of ${runs}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    const r = summarize(await runOnce(i));
    results.push(r);
    log(`run ${i}: ${r.code === 0 ? 'passed' : `FAILED (${r.failed.join('; ') || `exit ${r.code}`})`} in ${(r.ms / 1000).toFixed(0)} s`);
    if (r.code !== 0) break;
  }
} finally {
  load.stop();
}

const passedInARow = results.findIndex((r) => r.code !== 0) < 0 ? results.length : results.findIndex((r) => r.code !== 0);
const fmt = (n) => n.toFixed(2);
const allSteps = [...new Set(results.flatMap((r) => r.steps.map(([name]) => name)))];
const lines = [
  '# End-to-end test under load',
  '',
  `\`node test/e2e/reliability.mjs --runs ${runs}\` on ${new Date().toISOString().slice(0, 10)}, commit ${commit}${dirty}: ${passedInARow} of ${runs} runs passed in a row` +
    `${results.length && results[results.length - 1].code !== 0 ? ` (run ${results.length} failed)` : ''}.`,
  `Machine: ${cpus().length} cores, shared with other sessions' builds and tests. Beside the runs: ${load.description} (${load.cycles()} cycles finished).`,
  'Load average: the 1-minute figure, sampled every 5 s during the run. Timings are reported here, never asserted by the test.',
  '',
  '| run | started (UTC) | result | duration | load min / mean / max | palettes or Quick Fix menus reopened, or slow |',
  '|---|---|---|---|---|---|',
  ...results.map((r) => `| ${r.index} | ${r.at} | ${r.code === 0 ? 'passed' : `**failed**: ${r.failed.join('; ').replace(/\|/g, '\\|') || `exit ${r.code}`}`} | ${(r.ms / 1000).toFixed(0)} s | ${fmt(r.load.min)} / ${fmt(r.load.mean)} / ${fmt(r.load.max)} | ${r.retries} |`),
  '',
  '## Step times (ms)',
  '',
  `| step | ${results.map((r) => `run ${r.index}`).join(' | ')} |`,
  `|---|${results.map(() => '---|').join('')}`,
  ...allSteps.map((name) => `| ${name} | ${results.map((r) => r.steps.find(([n]) => n === name)?.[1] ?? '–').join(' | ')} |`),
  '',
];
// Earlier attempts (written by hand: what failed and what was fixed) stay below the new table.
const earlier = existsSync(out) ? readFileSync(out, 'utf8').split(/^(?=## Earlier attempts)/m)[1] : undefined;
writeFileSync(out, lines.join('\n') + (earlier ? `\n${earlier}` : ''));
log(`summary written to ${out}`);
process.exitCode = passedInARow === runs ? 0 : 1;
