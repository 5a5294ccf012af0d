#!/usr/bin/env node
'use strict';
const path = require('node:path');
const fs = require('node:fs');
// A built checkout runs its own build of the sources (out/, from `npm run build` or `npm test`) unless the
// committed bundle dist/cli.js is newer: after a pull that brought a new dist/ and no rebuild, out/ is an older
// engine, and its findings are not those of the sources checked out. An installed package (npm, pre-commit's
// git install) has no out/ and runs dist/cli.js.
const root = path.join(__dirname, '..');
const cli = newest([path.join(root, 'out', 'cli.js'), path.join(root, 'dist', 'cli.js')]);
if (!cli) {
  process.stderr.write('insertlint: neither out/cli.js nor dist/cli.js is in ' + root + '; run `npm run build` there\n');
  process.exit(2);
}
const runHere = () => loadBundle(cli).runFromProcess();
// A large run on a machine with fewer than 5 cores starts again with a smaller V8 thread pool (bin/v8-pool.js).
if (!require('./v8-pool.js').relaunchWithV8Pool(__filename, runHere)) runHere();

/** The most recently written of these files that exist (the first on a tie), or undefined. */
function newest(files) {
  let found;
  let time = -Infinity;
  for (const f of files) {
    let stat;
    try {
      stat = fs.statSync(f);
    } catch {
      continue;
    }
    if (stat.isFile() && stat.mtimeMs > time) {
      found = f;
      time = stat.mtimeMs;
    }
  }
  return found;
}

/**
 * Loads the CLI bundle as require() would, but with V8's code cache: compiling the 1.4 MB bundle was ~25 ms of
 * every run (a fifth of `check` on a small file, what pre-commit and editors pay per call), and a cache written
 * after a run, with the functions that run already compiled, brings it under 10 ms. Node 20 has no
 * module.enableCompileCache (22.1+), hence vm.Script with cachedData. Anything wrong with the cache (missing,
 * unreadable, made for another build, refused by V8) just means compiling as before and writing it again.
 */
function loadBundle(file) {
  const vm = require('node:vm');
  const Module = require('node:module');
  const cache = codeCache(file);
  const cached = cache && cache.read();
  const script = new vm.Script(Module.wrap(fs.readFileSync(file, 'utf8')), { filename: file, cachedData: cached && cached.data });
  const bundle = new Module(file, module);
  if (cache) {
    process.once('exit', () => {
      // Written again when it was missing or refused, or when this run ran code paths (a command, a language,
      // an output format: the bundle's codePathsRun) that the run which wrote it did not: a cache written
      // after a run over an empty file held none of the parser and the rules, so every run compiled them again
      // in its first files. Each write adds at least one path, so a user's runs settle after a few writes.
      const ran = typeof bundle.exports.codePathsRun === 'function' ? bundle.exports.codePathsRun() : [];
      const had = cached && !script.cachedDataRejected ? cached.paths : undefined;
      if (!had || ran.some((p) => !had.includes(p))) {
        // V8 flags the run changed are set back first: V8 refuses a cache made under other flags.
        if (typeof bundle.exports.beforeCodeCache === 'function') bundle.exports.beforeCodeCache();
        cache.write(script, [...new Set([...(had || []), ...ran])].sort());
      }
    });
  }
  bundle.filename = file;
  script.runInThisContext().call(bundle.exports, bundle.exports, Module.createRequire(file), bundle, file, path.dirname(file));
  return bundle.exports;
}

/**
 * The code cache of one bundle: a file in the user's cache folder (INSERTLINT_CACHE_DIR; "off" for none), one
 * per bundle path and Node version, so rebuilding a checkout replaces its file instead of adding one. Its first
 * line names the bundle's path, size and modification time and the Node version: V8 itself only checks the
 * source's length, so a rebuilt bundle of the same length must not meet the old cache.
 */
function codeCache(bundle) {
  const dir = cacheDir();
  if (!dir) return undefined;
  let stat;
  try {
    stat = fs.statSync(bundle);
  } catch {
    return undefined;
  }
  // The first line: the stamp, then the code paths the cache was written after (a JSON array; see loadBundle).
  const stamp = JSON.stringify({ bundle, size: stat.size, mtimeMs: stat.mtimeMs, node: process.version, arch: process.arch });
  const file = path.join(dir, `code-cache-${hashText([bundle, process.version, process.arch].join('\0'))}.bin`);
  return {
    read() {
      try {
        const data = fs.readFileSync(file);
        const end = data.indexOf(10) + 1;
        const head = end > 0 ? data.toString('utf8', 0, end - 1) : '';
        if (!head.startsWith(stamp + '\t')) return undefined;
        const paths = JSON.parse(head.slice(stamp.length + 1));
        return Array.isArray(paths) ? { data: data.subarray(end), paths } : undefined;
      } catch {
        return undefined;
      }
    },
    write(script, paths) {
      // Written whole under another name, then renamed: a run starting meanwhile (pre-commit starts several)
      // reads the old file or the new one, never half of one.
      const partial = `${file}.${process.pid}.tmp`;
      try {
        makeFolder(dir);
        fs.writeFileSync(partial, Buffer.concat([Buffer.from(`${stamp}\t${JSON.stringify(paths)}\n`), script.createCachedData()]), { mode: 0o600 });
        fs.renameSync(partial, file);
        pruneCaches(dir);
      } catch {
        // Not writable here (read-only home, a file in the way): the next run compiles again, nothing else changes.
        try {
          fs.rmSync(partial, { force: true });
        } catch {
          // Nothing was written.
        }
      }
    },
  };
}

/**
 * mkdir -p, one level at a time: Node's recursive mkdir never returns under /proc (ENOENT for the folder, EEXIST
 * for its parent, again and again), and a cache folder there (HOME=/proc in some containers) hung every run.
 */
function makeFolder(dir) {
  const missing = [];
  for (let at = dir; !fs.existsSync(at); at = path.dirname(at)) {
    if (at === path.dirname(at)) break;
    missing.push(at);
  }
  for (const folder of missing.reverse()) fs.mkdirSync(folder, { mode: 0o700 });
}

/** Caches kept in the folder: one per installed copy and Node version in use, the least recently written go. */
const MAX_CACHES = 16;

/**
 * Removes all but the MAX_CACHES most recently written caches: every copy of the package in a temporary
 * folder (npx, CI, tests) adds a file, and nothing else would ever remove them. Runs only after a write.
 */
function pruneCaches(dir) {
  const caches = fs
    .readdirSync(dir)
    .filter((name) => /^code-cache-[0-9a-f]{8}\.bin$/.test(name))
    .map((name) => ({ path: path.join(dir, name), written: fs.statSync(path.join(dir, name)).mtimeMs }))
    .sort((a, b) => b.written - a.written);
  for (const old of caches.slice(MAX_CACHES)) fs.rmSync(old.path, { force: true });
}

/** Where the user's caches go on this platform, or undefined when INSERTLINT_CACHE_DIR is "off" or there is no home. */
function cacheDir() {
  const configured = process.env.INSERTLINT_CACHE_DIR;
  if (configured) return configured === 'off' ? undefined : path.resolve(configured);
  let home;
  try {
    home = require('node:os').homedir();
  } catch {
    // No home directory for this user (some containers).
  }
  if (process.platform === 'win32' && process.env.LOCALAPPDATA) return path.join(process.env.LOCALAPPDATA, 'insertlint', 'Cache');
  if (!home) return undefined;
  if (process.platform === 'win32') return path.join(home, 'AppData', 'Local', 'insertlint', 'Cache');
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Caches', 'insertlint');
  return path.join(process.env.XDG_CACHE_HOME || path.join(home, '.cache'), 'insertlint');
}

/** FNV-1a of a short text, as 8 hex digits: a file name per bundle path (collisions only cost a recompile). */
function hashText(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}
