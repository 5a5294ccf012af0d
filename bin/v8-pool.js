'use strict';
// Node starts V8 with a pool of 4 background threads whatever the machine. V8 runs TurboFan (compiling the
// functions that run hot) and parts of the garbage collector on them, so on a machine with fewer than 5 cores
// they pre-empt the main thread, which does the linting. Measured on 2 cores over the 939 scripts of a real
// corpus: the main thread waited 170-250 ms to run (Linux schedstat) in a 0.9 s run; with a pool of one
// thread it waited under 5 ms, and the run took 0.76 s instead of 0.92 s (CPU 1.26 s instead of 1.56 s).
// Node sizes the pool only as it starts (--v8-pool-size), so a large run on such a machine starts itself
// again with a pool of (cores - 1). A second start costs about 60 ms, so a run is large enough when its
// paths hold at least RELAUNCH_MIN_FILES files; a single file, however large, gains nothing (measured).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/** Node's default pool size: nothing to gain from starting again with it. */
const NODE_DEFAULT_POOL = 4;
/** Below this many files the second start costs more than it saves (measured break-even: 200-300 files). */
const RELAUNCH_MIN_FILES = 400;
/** Commands that read many files. */
const LINT_COMMANDS = ['check', 'checklist'];

/**
 * The pool size to start again with, or undefined to run in this process. `env.INSERTLINT_V8_POOL`: "off"
 * never starts again; a number of threads is used instead of (cores - 1). A pool the user gave Node
 * (node --v8-pool-size, NODE_OPTIONS) is left alone, which is also how the second start knows it is one.
 */
function relaunchPool({ args, env, execArgv, cores, countFiles }) {
  const chosen = env.INSERTLINT_V8_POOL;
  if (chosen === 'off') return undefined;
  if (execArgv.some((a) => a.startsWith('--v8-pool-size')) || /--v8-pool-size/.test(env.NODE_OPTIONS || '')) return undefined;
  if (!LINT_COMMANDS.includes(args[0]) || args.includes('--help') || args.includes('-h')) return undefined;
  const pool = chosen && /^\d{1,3}$/.test(chosen) && Number(chosen) > 0 ? Number(chosen) : Math.max(1, cores - 1);
  if (pool === NODE_DEFAULT_POOL) return undefined;
  return countFiles(lintPaths(args.slice(1)), RELAUNCH_MIN_FILES) >= RELAUNCH_MIN_FILES ? pool : undefined;
}

/**
 * The paths a lint command names, roughly: the arguments that exist on disk (an option's value such as "json"
 * does not; a --config file adds one), or "." when none does. Only a size estimate, never what is linted.
 */
function lintPaths(args) {
  const paths = args.filter((a) => !a.startsWith('-') && fs.existsSync(a));
  return paths.length > 0 ? paths : ['.'];
}

/** Folders the CLI's walk never enters (server/src/cli/files.ts ALWAYS_SKIPPED_DIRS; the bundle is not loaded here). */
const SKIPPED_DIRS = new Set(['.git', 'node_modules', '.hg', '.svn']);

/**
 * Files under `paths`, counted up to `limit`, leaving out the folders the CLI's walk never enters (it also
 * honours .gitignore, which an estimate need not). Bounded: it stops at `limit` files or after 10,000 folders.
 */
function countFiles(paths, limit) {
  let files = 0;
  let folders = 0;
  const stack = [];
  for (const p of paths) {
    try {
      if (fs.statSync(p).isDirectory()) stack.push(p);
      else files++;
    } catch {
      // Gone meanwhile: the CLI reports it.
    }
  }
  while (stack.length > 0 && files < limit && folders++ < 10000) {
    const dir = stack.pop();
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (!e.isDirectory()) files++;
      else if (!SKIPPED_DIRS.has(e.name)) stack.push(path.join(dir, e.name));
      if (files >= limit) break;
    }
  }
  return files;
}

/**
 * Starts `script` again with a right-sized V8 pool when this run is large enough (see above), passing the
 * terminal, signals and exit status through. Returns false when this process should do the run itself;
 * `fallback` runs it here if the second process cannot be started.
 */
function relaunchWithV8Pool(script, fallback) {
  const args = process.argv.slice(2);
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  const pool = relaunchPool({ args, env: process.env, execArgv: process.execArgv, cores, countFiles });
  if (pool === undefined) return false;
  const { spawn } = require('node:child_process');
  // check and checklist never connect to Db2: the second process goes without the password (docs/security.md).
  const env = { ...process.env };
  delete env.INSERTLINT_DB2_PASSWORD;
  const child = spawn(process.execPath, [`--v8-pool-size=${pool}`, ...process.execArgv, script, ...args], { stdio: 'inherit', env, windowsHide: true });
  const forward = (signal) => child.kill(signal);
  const signals = process.platform === 'win32' ? ['SIGINT'] : ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.on(s, forward);
  child.once('error', () => {
    // Not started (no process left, no memory): this process does the run, as without a relaunch.
    for (const s of signals) process.off(s, forward);
    fallback();
  });
  child.once('exit', (code, signal) => {
    for (const s of signals) process.off(s, forward);
    // Ended by a signal: end the same way, so a caller sees what it would have seen without the relaunch.
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
  return true;
}

module.exports = { relaunchPool, relaunchWithV8Pool, countFiles, RELAUNCH_MIN_FILES };
