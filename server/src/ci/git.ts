// What a change touched, from git: changed files (renames and deletions included) and the changed line
// ranges of each, relative to a base revision. Runs the git command line; no library, no network.
import { join, resolve } from 'node:path';
import { childEnvironment } from '../explain/driver';

export class GitError extends Error {}

const MAX_OUTPUT = 512 * 1024 * 1024;

function git(cwd: string, args: string[]): string {
  try {
    return childProcess().execFileSync('git', ['-c', 'core.quotePath=false', ...args], {
      cwd,
      encoding: 'utf8',
      maxBuffer: MAX_OUTPUT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: childEnvironment(),
    });
  } catch (error) {
    const e = error as { code?: string; stderr?: string; message: string };
    if (e.code === 'ENOENT') throw new GitError('git is not installed or not on PATH');
    throw new GitError(`git ${args.join(' ')} failed: ${(e.stderr || e.message).trim()}`);
  }
}

function tryGit(cwd: string, args: string[]): string | undefined {
  try {
    return git(cwd, args);
  } catch {
    return undefined;
  }
}

export type ChangeStatus = 'added' | 'modified' | 'renamed' | 'copied' | 'deleted' | 'typeChanged';

export interface ChangedFile {
  status: ChangeStatus;
  /** Absolute path in the work tree (for deletions: where the file was). */
  path: string;
  /** Path relative to the repository root, forward slashes. */
  repoPath: string;
  /** Renames and copies: the old path relative to the repository root. */
  oldRepoPath?: string;
  /** 1-based line numbers of the new text that the change added or modified (deletions mark their neighbours). */
  changedLines: Set<number>;
  /** Every line is new (added files). */
  allLinesChanged: boolean;
}

export interface ChangeSet {
  root: string;
  /** The revision as given. */
  base: string;
  /** The commit compared against: the merge base of `base` and HEAD when there is one, else `base`. */
  baseCommit: string;
  /** True when `baseCommit` is the merge base (three-dot semantics), false when `base` itself was used. */
  mergeBase: boolean;
  files: ChangedFile[];
  /** Set when something about the comparison deserves a word to the user (e.g. no merge base found). */
  warning?: string;
}

export function repositoryRoot(cwd: string): string {
  const out = tryGit(cwd, ['rev-parse', '--show-toplevel']);
  if (out === undefined) throw new GitError(`${cwd} is not inside a git work tree (--base needs a git repository)`);
  return out.trim();
}

function isShallow(root: string): boolean {
  return tryGit(root, ['rev-parse', '--is-shallow-repository'])?.trim() === 'true';
}

/** The commit of `base`, with a message that says how to get it when the clone lacks it. */
export function resolveBase(root: string, base: string): string {
  if (base.startsWith('-')) throw new GitError(`--base "${base}" is not a revision`);
  const out = tryGit(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${base}^{commit}`]);
  if (out) return out.trim();
  const hint = isShallow(root)
    ? 'This is a shallow clone, so the base commit was probably not fetched. With actions/checkout use `fetch-depth: 0`, or run `git fetch --deepen=100` (or `git fetch origin <base-sha>`) before InsertLint.'
    : 'Check the revision name, or fetch it first (e.g. `git fetch origin <branch>`).';
  throw new GitError(`the base revision "${base}" is not in this repository. ${hint}`);
}

/**
 * The change set between `base` and the work tree. Like a pull request, it compares against the merge base
 * of `base` and HEAD, so commits that landed on the base branch meanwhile do not count as part of the change.
 */
export function changesSince(cwd: string, base: string): ChangeSet {
  const root = repositoryRoot(cwd);
  // A repository with no commit yet (pre-commit on the first commit): the base is the empty tree, every line new.
  if (!base.startsWith('-') && tryGit(root, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']) === undefined) return changesInFirstCommit(root, base);
  const baseResolved = resolveBase(root, base);
  const mergeBaseOut = tryGit(root, ['merge-base', baseResolved, 'HEAD'])?.trim();
  const baseCommit = mergeBaseOut || baseResolved;
  const files = parseNameStatus(git(root, ['diff', '--no-color', '--no-ext-diff', '-M', '--name-status', '-z', baseCommit, '--']), root);
  const hunks = parseUnifiedZero(git(root, ['diff', '--no-color', '--no-ext-diff', '-M', '--src-prefix=a/', '--dst-prefix=b/', '--unified=0', baseCommit, '--']));
  for (const file of files) {
    const lines = hunks.get(file.repoPath);
    if (lines) file.changedLines = lines;
  }
  const warning = mergeBaseOut
    ? undefined
    : `found no common ancestor of ${base} and HEAD${isShallow(root) ? ' (this is a shallow clone: fetch more history, e.g. `git fetch --deepen=100`)' : ''}; comparing with ${base} itself, so changes made on its side since the branches split count as part of the change`;
  return { root, base, baseCommit, mergeBase: Boolean(mergeBaseOut), files, warning };
}

/** The empty tree's object name, per object format: what an unborn branch is compared against. */
const EMPTY_TREE: Record<string, string> = {
  sha1: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  sha256: '6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321',
};

/** The change set of a repository without commits: the files git tracks (staged), every line of them changed. */
function changesInFirstCommit(root: string, base: string): ChangeSet {
  const format = tryGit(root, ['rev-parse', '--show-object-format'])?.trim() || 'sha1';
  const empty = EMPTY_TREE[format] ?? EMPTY_TREE.sha1;
  const files = parseNameStatus(git(root, ['diff', '--no-color', '--no-ext-diff', '--name-status', '-z', empty, '--']), root);
  const warning = `the repository has no commit yet, so there is no ${base} to compare with: every line of the files git tracks counts as changed`;
  return { root, base, baseCommit: empty, mergeBase: false, files, warning };
}

/** Files of the work tree git does not track and does not ignore (absolute paths): no diff shows them. */
export function untrackedFiles(root: string): Set<string> {
  const out = tryGit(root, ['ls-files', '--others', '--exclude-standard', '-z']) ?? '';
  return new Set(out.split('\0').filter(Boolean).map((p) => resolve(join(root, p))));
}

const STATUS: Record<string, ChangeStatus> = { A: 'added', M: 'modified', R: 'renamed', C: 'copied', D: 'deleted', T: 'typeChanged' };

/** `git diff --name-status -z`: STATUS NUL path NUL, or for renames/copies STATUS NUL old NUL new NUL. */
export function parseNameStatus(output: string, root: string): ChangedFile[] {
  const fields = output.split('\0');
  const files: ChangedFile[] = [];
  for (let i = 0; i < fields.length; ) {
    const code = fields[i++];
    if (!code) continue;
    const status = STATUS[code[0]];
    if (code[0] === 'R' || code[0] === 'C') {
      const oldPath = fields[i++];
      const newPath = fields[i++];
      files.push({ status, path: resolve(join(root, newPath)), repoPath: newPath, oldRepoPath: oldPath, changedLines: new Set(), allLinesChanged: false });
    } else {
      const path = fields[i++];
      // Unmerged (U) and unknown (X) entries are listed as modified: their text is what will be linted.
      files.push({ status: status ?? 'modified', path: resolve(join(root, path)), repoPath: path, changedLines: new Set(), allLinesChanged: status === 'added' });
    }
  }
  return files;
}

/** Undoes git's C-style quoting of unusual paths ("a\tb", "\303\251"). */
export function unquoteGitPath(path: string): string {
  if (!path.startsWith('"') || !path.endsWith('"')) return path;
  const bytes: number[] = [];
  const body = path.slice(1, -1);
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, '"': 34, '\\': 92, a: 7, b: 8, f: 12, v: 11 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = body[i + 1];
    if (/[0-7]/.test(next ?? '')) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(simple[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

const HUNK = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/;

/**
 * Changed line numbers (new side) per file from `git diff --unified=0`. A hunk that only deletes lines marks
 * the lines on both sides of the gap, since the statement around it changed.
 */
export function parseUnifiedZero(output: string): Map<string, Set<number>> {
  const result = new Map<string, Set<number>>();
  let current: Set<number> | undefined;
  for (const line of output.split('\n')) {
    if (line.startsWith('diff --git ')) {
      current = undefined;
    } else if (line.startsWith('+++ ')) {
      const target = line.slice(4).replace(/\t$/, '');
      if (target === '/dev/null') {
        current = undefined;
        continue;
      }
      const rel = unquoteGitPath(target).replace(/^b\//, '');
      current = result.get(rel) ?? new Set();
      result.set(rel, current);
    } else if (current && line.startsWith('@@')) {
      const m = HUNK.exec(line);
      if (!m) continue;
      const start = Number(m[1]);
      const count = m[2] === undefined ? 1 : Number(m[2]);
      if (count === 0) {
        if (start > 0) current.add(start);
        current.add(start + 1);
      } else {
        for (let n = start; n < start + count; n++) current.add(n);
      }
    }
  }
  return result;
}

/** A file's bytes at a revision, or undefined when it is missing there or larger than `maxBytes`. */
export function fileAtRevision(root: string, rev: string, repoPath: string, maxBytes: number): Buffer | undefined {
  const object = `${rev}:${repoPath}`;
  const size = Number(tryGit(root, ['cat-file', '-s', object])?.trim());
  if (!Number.isFinite(size) || size > maxBytes) return undefined;
  try {
    return childProcess().execFileSync('git', ['cat-file', 'blob', object], { cwd: root, maxBuffer: maxBytes + 1024, stdio: ['ignore', 'pipe', 'ignore'], env: childEnvironment() });
  } catch {
    return undefined;
  }
}

/**
 * True when a change touches a finding: any line of its span, or of its extent for a finding about a run of
 * statements (a row appended to the run or edited in its middle touches the run's one finding).
 */
export function touchesFinding(file: ChangedFile, d: { line: number; endLine: number; extentLines?: { line: number; endLine: number } }): boolean {
  return touchesChangedLines(file, d.line, d.endLine) || (d.extentLines !== undefined && touchesChangedLines(file, d.extentLines.line, d.extentLines.endLine));
}

/** True when any line of [line, endLine] is among the changed lines. */
export function touchesChangedLines(file: ChangedFile, line: number, endLine: number): boolean {
  if (file.allLinesChanged) return true;
  for (let n = line; n <= endLine; n++) if (file.changedLines.has(n)) return true;
  return false;
}

/** node:child_process, loaded when git is first run (--only-changed, checklist), not at every start-up (~3 ms). */
function childProcess(): typeof import('node:child_process') {
  return require('node:child_process') as typeof import('node:child_process');
}
