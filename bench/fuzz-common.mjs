// What the fuzz drivers (bench/fuzz-cli.mjs, bench/fuzz-lsp.mjs) share: the repository root, their command
// line (a corpus folder, then --name value options), the corpus's files and a seeded random generator.
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The corpus folder (first argument) and the value of an option `--name value` (else `fallback`). */
export function fuzzArgs(args = process.argv.slice(2)) {
  const opt = (name, fallback) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : fallback;
  };
  return { corpus: resolve(args[0]), args, opt };
}

/** Every file under `dir` whose name `keep` accepts. */
export function walk(dir, keep = () => true, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, keep, out);
    else if (e.isFile() && keep(e.name)) out.push(p);
  }
  return out;
}

/** A seeded generator of numbers in [0, 1) (mulberry32): the same seed gives the same mutants. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
