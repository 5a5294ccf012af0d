// Finding and reading schema files: the "schema" entries of .insertlintrc.json, --schema on the command
// line and the editor's insertlint.schema. Each entry is a file (any name: db2look output is often
// *.db2look or *.out), a folder (its SQL files) or a glob (`**`, `*`, `?`, `{a,b}`), and may lie outside
// the repository (`../dba/prod.db2look`). Problems are returned as sentences, never thrown.
import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ResolvedConfig } from '../engine/config';
import type { Workspace } from '../engine/workspace';
import { readSourceFile, type SourceEncoding } from '../cli/files';

/** Files a folder entry contributes besides those linted as SQL: db2look's habitual names. */
const EXTRA_SCHEMA_EXTENSIONS = ['.db2look', '.ddl', '.sql', '.db2'];
/** A glob such as `/**` must not walk a whole disk: the walk stops after this many entries, with a message. */
const MAX_WALKED_ENTRIES = 50_000;
const SKIPPED_DIRS = new Set(['.git', 'node_modules', '.hg', '.svn']);

/** Entries of one configuration layer made absolute against the folder they are relative to. */
export function anchorSchemaEntries(entries: readonly string[] | undefined, baseDir: string): string[] | undefined {
  return entries?.map((entry) => (isAbsolute(entry) ? entry : join(baseDir, entry)));
}

export interface SchemaFileList {
  /** Absolute paths, in entry order, each once. */
  files: string[];
  /** Entries that matched nothing, walks cut short. */
  problems: string[];
  /** The files named on their own (not found in a folder or by a glob). */
  named: Set<string>;
}

const GLOB_CHARS = /[*?{[]/;

/** Expands absolute schema entries (see anchorSchemaEntries) into files. */
export function resolveSchemaEntries(entries: readonly string[], config?: Pick<ResolvedConfig, 'languages'>): SchemaFileList {
  const out: SchemaFileList = { files: [], problems: [], named: new Set() };
  const seen = new Set<string>();
  const add = (file: string) => {
    if (!seen.has(file)) {
      seen.add(file);
      out.files.push(file);
    }
  };
  const sqlExtensions = new Set(EXTRA_SCHEMA_EXTENSIONS);
  for (const [ext, language] of Object.entries(config?.languages ?? {})) if (language === 'sql') sqlExtensions.add(ext.toLowerCase());
  for (const entry of entries) {
    const normalized = entry.split(sep).join('/');
    const found: string[] = [];
    if (!GLOB_CHARS.test(normalized)) {
      let stat;
      try {
        stat = statSync(entry);
      } catch {
        out.problems.push(`schema file ${entry} does not exist`);
        continue;
      }
      if (stat.isFile()) {
        found.push(resolve(entry));
        out.named.add(resolve(entry));
      }
      else if (!walk(resolve(entry), (file) => sqlExtensions.has(extensionOf(file)), found)) out.problems.push(`schema folder ${entry} has more than ${MAX_WALKED_ENTRIES} entries; only the first were read`);
      if (found.length === 0) out.problems.push(`schema folder ${entry} holds no SQL files (${[...sqlExtensions].sort().join(' ')})`);
    } else {
      const { base, pattern } = splitGlob(normalized);
      const matcher = globRegExp(pattern);
      const complete = walk(resolve(base), (file) => matcher.test(relative(resolve(base), file).split(sep).join('/')), found);
      if (!complete) out.problems.push(`schema glob ${entry} walked more than ${MAX_WALKED_ENTRIES} entries; narrow it`);
      if (found.length === 0) out.problems.push(`schema glob ${entry} matches no file`);
    }
    found.sort();
    for (const file of found) add(file);
  }
  return out;
}

/** Whether a file is named by one of the (absolute) entries: the file itself, under a folder, or matching a glob. */
export function isSchemaEntryMatch(path: string, entries: readonly string[]): boolean {
  const file = resolve(path).split(sep).join('/');
  return entries.some((entry) => {
    const normalized = entry.split(sep).join('/');
    if (!GLOB_CHARS.test(normalized)) {
      const base = resolve(entry).split(sep).join('/');
      return file === base || file.startsWith(base.endsWith('/') ? base : base + '/');
    }
    const { base, pattern } = splitGlob(normalized);
    const rel = relative(resolve(base), path).split(sep).join('/');
    return !rel.startsWith('..') && globRegExp(pattern).test(rel);
  });
}

function extensionOf(path: string): string {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const dot = path.lastIndexOf('.');
  return dot > slash ? path.slice(dot).toLowerCase() : '';
}

/** Collects the files under `dir` that `keep` accepts; false when the walk was cut short. */
function walk(dir: string, keep: (file: string) => boolean, out: string[]): boolean {
  let budget = MAX_WALKED_ENTRIES;
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop()!;
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (--budget < 0) return false;
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) stack.push(path);
      } else if (entry.isFile() && keep(path)) {
        out.push(path);
      }
    }
  }
  return true;
}

/** The folder part of a glob without wildcards, and the rest: `/repo/db/ddl/**\/*.sql` → `/repo/db/ddl`, `**\/*.sql`. */
function splitGlob(glob: string): { base: string; pattern: string } {
  const parts = glob.split('/');
  const first = parts.findIndex((p) => GLOB_CHARS.test(p));
  const base = parts.slice(0, first).join('/') || '/';
  return { base, pattern: parts.slice(first).join('/') };
}

/** A glob as a regular expression over '/'-separated relative paths. */
export function globRegExp(pattern: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      // `**/` matches any number of folders (none included); a trailing `**` anything.
      if (pattern[i + 2] === '/') {
        out += '(?:.*/)?';
        i += 2;
      } else {
        out += '.*';
        i += 1;
      }
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') {
      const close = pattern.indexOf('}', i);
      if (close < 0) out += '\\{';
      else {
        out += `(?:${pattern.slice(i + 1, close).split(',').map(escapeRegExp).join('|')})`;
        i = close;
      }
    } else out += escapeRegExp(c);
  }
  return new RegExp(`^${out}$`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface LoadedSchema {
  files: string[];
  /** Sentences for the user: missing entries, unreadable files, DDL the parser could not read. */
  problems: string[];
}

/**
 * Makes the workspace's schema files those of `entries`: reads new or changed ones, drops the others.
 * `alreadyRead`: the text of a file the caller has read (`check` reads every listed file before it knows
 * which are schema files), so that it is not read from disk twice.
 */
export function loadSchemaFiles(
  workspace: Workspace,
  entries: readonly string[],
  config: Pick<ResolvedConfig, 'languages' | 'maxFileBytes'> & { encoding?: SourceEncoding },
  alreadyRead: (path: string) => string | undefined = () => undefined): LoadedSchema {
  const list = resolveSchemaEntries(entries, config);
  const problems = [...list.problems];
  const files: string[] = [];
  const wanted = new Set(list.files);
  for (const old of workspace.schemaFilePaths()) if (!wanted.has(old)) workspace.removeSchemaFile(old);
  for (const file of list.files) {
    const known = alreadyRead(file);
    const read = known !== undefined ? { text: known } : readSourceFile(file, config.maxFileBytes, config.encoding);
    if ('skip' in read) {
      problems.push(`schema file ${file} skipped: ${read.skip}`);
      workspace.removeSchemaFile(file);
      continue;
    }
    const model = workspace.setSchemaFile(file, read.text);
    files.push(file);
    const unreadable = model.statements.filter((s) => s.parseError);
    // A file named on its own that defines nothing is likely the wrong path (a folder or glob may hold seed scripts).
    if (model.statements.length === 0 && list.named.has(file)) problems.push(`schema file ${file} holds no DDL (no CREATE or ALTER statement InsertLint could read); is it the file meant?`);
    if (unreadable.length > 0) {
      const first = unreadable[0];
      const line = workspace.lines(file)!.position(first.span.start).line + 1;
      problems.push(`schema file ${file}: ${unreadable.length} DDL statement${unreadable.length > 1 ? 's' : ''} could not be read (the first at line ${line}: ${first.parseError!.message}); what they define is missing from the schema`);
    }
  }
  return { files, problems };
}
