// Warm per-file speed: lints a tree RUNS times in one process with lintPaths (the function behind
// `insertlint check`: configuration, file discovery, the code front end, Workspace, rules; quick fixes off as for
// `check --format json`) and reports, per file, the readMs + rulesMs of the first run (cold: the first file to
// reach a code path pays for V8's interpreter and compilation) and the median of the later runs (warm). Lists the
// files under MIN lines/s warm, slowest first: those are slow for a reason of their own, not for running first.
// A diagnostic tool, not a test; the machine's load moves the figures, so look at the warm ones.
// Usage: node scripts/build.mjs && node bench/warm-files.mjs DIR [RUNS=7] [MIN=50000] [--all] [--json=OUT.json]
//   --all: list every file (slowest warm first), not only the slow ones. --json: write the per-file rows.
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const positional = argv.filter((a) => !a.startsWith('--'));
const [dir, runsArg = '7', minArg = '50000'] = positional;
const listAll = argv.includes('--all');
const jsonOut = argv.find((a) => a.startsWith('--json='))?.slice(7);
if (!dir) {
  console.error('usage: node bench/warm-files.mjs DIR [RUNS=7] [MIN_LINES_PER_S=50000] [--all] [--json=OUT.json]');
  process.exit(2);
}
const bundle = join(repoRoot, 'out', 'corpus-lint.js');
if (!existsSync(bundle)) {
  console.error(`Missing ${relative(process.cwd(), bundle)}: run "node scripts/build.mjs" first.`);
  process.exit(1);
}
const { lintPaths } = createRequire(import.meta.url)(bundle);
const root = resolve(dir);
const runs = Math.max(2, Number(runsArg));
const min = Number(minArg);

const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** file -> { lines, ms: [readMs + rulesMs of each run] } */
const byFile = new Map();
const totals = [];
for (let run = 0; run < runs; run++) {
  const started = performance.now();
  const result = await lintPaths({ paths: [root], cwd: root, fixes: false });
  totals.push(performance.now() - started);
  for (const t of result.workspace.timings()) {
    const row = byFile.get(t.file) ?? { lines: t.lines, ms: [] };
    row.ms.push(t.readMs + t.rulesMs);
    byFile.set(t.file, row);
  }
}

const rows = [...byFile].map(([file, { lines, ms }]) => {
  const warm = median(ms.slice(1));
  return { file: relative(root, file), lines, coldMs: ms[0], warmMs: warm, warmLinesPerS: warm > 0 ? (lines / warm) * 1000 : Infinity };
});
rows.sort((a, b) => b.warmMs - a.warmMs);
const slowCold = rows.filter((r) => (r.lines / r.coldMs) * 1000 < min);
const slowWarm = rows.filter((r) => r.warmLinesPerS < min);
console.log(`${rows.length} files in ${root}; ${runs} runs: ${totals.map((t) => t.toFixed(0)).join(', ')} ms`);
console.log(`under ${min} lines/s: ${slowCold.length} in the first run (cold), ${slowWarm.length} warm (median of runs 2-${runs})`);
console.log(`${'warm ms'.padStart(9)} ${'cold ms'.padStart(9)} ${'lines'.padStart(6)} ${'lines/s'.padStart(9)}  file`);
for (const r of listAll ? rows : slowWarm) {
  console.log(`${r.warmMs.toFixed(2).padStart(9)} ${r.coldMs.toFixed(2).padStart(9)} ${String(r.lines).padStart(6)} ${Math.round(r.warmLinesPerS).toString().padStart(9)}  ${r.file}`);
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(rows, null, 1) + '\n');
