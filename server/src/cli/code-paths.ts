// What a CLI run ran, for bin/insertlint.js's code cache. V8's cache of the bundle holds the functions compiled
// when it was written, so a cache written after `insertlint --version` or a run over an empty file held none of
// the parser, the rules or a language's front end: every later run compiled those again, lazily, inside the
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
