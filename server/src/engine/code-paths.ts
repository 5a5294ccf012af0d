// What a CLI run ran, for bin/insertlint.js's code cache (the CLI's entry point exports codePathsRun and
// beforeCodeCache). V8's cache of the bundle holds the functions compiled when it was written, so a cache
// written after `insertlint --version` or a run over an empty file held none of the parser, the rules or a
// language's front end: every later run compiled those again, lazily, inside the
// time of its first files (the corpus's per-file times, issue 15). The loader writes the cache again when a run
// ran a path the cache was not written after (see bin/insertlint.js); the paths are few, so it settles quickly.
const ran = new Set<string>();

/** Notes a code path of this run: a command, a language read and how much of it, a kind of statement, an output format. */
export function noteCodePath(path: string): void {
  ran.add(path);
}

/** The code paths this run ran, sorted (the bundle exports it for bin/insertlint.js). */
export function codePathsRun(): string[] {
  return [...ran].sort();
}

/**
 * Called by bin/insertlint.js as the process ends, before it writes V8's code cache: sets back the V8 flags the
 * run changed (code/wasm-tiering.ts), which V8 would otherwise stamp into the cache and refuse the next run for.
 */
export function beforeCodeCache(): void {
  // Only where the code front end changed flags (its module and node:v8 are not loaded otherwise).
  restoreFlags?.();
}

let restoreFlags: (() => void) | undefined;

/** The code front end (code/wasm-tiering.ts) registers how to set back the V8 flags it changed (see beforeCodeCache). */
export function onBeforeCodeCache(restore: () => void): void {
  restoreFlags = restore;
}
