// Project evidence found on disk for the CLI and the language server (the engine does not look at the disk): what a
// project's configuration says that its source files do not (SQLAlchemy, Django or Sequelize on Db2, SQLAlchemy's
// autoflush, Hibernate's batching, MyBatis's mapper XML files and executor, a connection pool's autocommit). The looks
// live by language (evidence-python.ts, evidence-java.ts, evidence-javascript.ts); this module holds what they share:
// how they read the disk, each source file's part in a look, and the walk up to a project's top.
//
// Cheap: a look lists only the folders from a source file that needs it up to its project's top (once each per run),
// and reads only files named like configuration, of 256 KB at most.
//
// The language server looks again when a watched file changes (lsp/disk-files.ts; evidence-watch.ts says which): it
// hands the looks a RememberedLook, which keeps each source file's part while its text stays the same and what the
// disk showed until told that a file or folder changed (forget), so that a save re-reads only what it can have changed.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import type { SessionFactories } from '../code/sqlalchemy-sessions';

const MAX_BYTES = 256 * 1024;
/** Files read per folder by a look (bounds). */
export const MAX_FILES_PER_FOLDER = 40;
/** Folders walked up from a file to find its project's top. */
export const MAX_LEVELS = 12;

/** How the looks read the disk (a RememberedLook keeps what they read between the language server's looks). */
export interface EvidenceDisk {
  /** A folder's names, sorted; none when it cannot be listed. */
  list(dir: string): string[];
  /** A file's text when it is a file of 256 KB at most, else undefined. */
  read(path: string): string | undefined;
  isFile(path: string): boolean;
}

/**
 * What one source file brings to a look: its folder, to look from up to its project's top, and `db2`, why the file
 * itself shows Db2 (a Db2 SQLAlchemy URL, Sequelize made for Db2), worded with its path. Undefined: nothing.
 */
export interface FilePart {
  dir: string;
  db2?: string;
  /** The SQLAlchemy session factories and constructors the file builds (a Python file's; code/sqlalchemy-sessions.ts). */
  sessions?: SessionFactories;
  /** A Python file that does not use SQLAlchemy and only configures a session factory (its sessions' configures). */
  configuresOnly?: boolean;
  /** Django: the settings that show Db2 also set ATOMIC_REQUESTS (DjangoProject.atomicRequests). */
  atomicRequests?: boolean;
  /** Java: the file sets a connection pool up with autocommit off (evidence-java.ts hibernatePart). */
  poolAutocommitOff?: boolean;
}

export type PartOf = (path: string, text: string) => FilePart | undefined;

/** What a look reads: the disk, and each source file's part. */
export interface LookInputs {
  readonly disk: EvidenceDisk;
  part(of: PartOf, path: string, text: string): FilePart | undefined;
}

/** The disk as it is, and every file's part worked out: one run of the CLI. */
export const AS_IS: LookInputs = {
  disk: { list: listed, read: readSmall, isFile },
  part: (of, path, text) => of(path, text),
};

/**
 * The looks of a language server (lsp/disk-files.ts): each source file's part is kept while its text stays the same,
 * and each folder's names, each file's text and whether a path is a file are kept until forget() is told that the
 * path, a folder above it or a file in it changed. A look over unchanged inputs then reads nothing again and finds
 * what a look as it is would. Only the file .sequelizerc points to is read each time (it may be any file, which no
 * watcher need cover).
 */
export class RememberedLook implements LookInputs {
  private readonly parts = new Map<PartOf, Map<string, { text: string; part: FilePart | undefined }>>();
  private readonly names = new Map<string, string[]>();
  private readonly texts = new Map<string, string | undefined>();
  private readonly files = new Map<string, boolean>();

  constructor(private readonly base: EvidenceDisk = AS_IS.disk) {}

  readonly disk: EvidenceDisk = {
    list: (dir) => remembered(this.names, dir, () => this.base.list(dir)),
    read: (path) => remembered(this.texts, path, () => this.base.read(path)),
    isFile: (path) => remembered(this.files, path, () => this.base.isFile(path)),
  };

  part(of: PartOf, path: string, text: string): FilePart | undefined {
    let byPath = this.parts.get(of);
    if (!byPath) this.parts.set(of, (byPath = new Map()));
    const known = byPath.get(path);
    if (known?.text === text) return known.part;
    const part = of(path, text);
    byPath.set(path, { text, part });
    return part;
  }

  /**
   * A file or folder changed, came or went: what the disk showed of it, of what lies under it (a folder), and the names
   * of the folder it is in, are read again by the next look; a source file's part is worked out again if its text
   * changed.
   */
  forget(path: string): void {
    const under = path.endsWith(sep) ? path : path + sep;
    for (const known of [this.names, this.texts, this.files]) {
      for (const key of known.keys()) if (key === path || key.startsWith(under)) known.delete(key);
    }
    this.names.delete(dirname(path));
    for (const byPath of this.parts.values()) byPath.delete(path);
  }

  /** Everything read again (an index pass, "Lint workspace"). */
  clear(): void {
    for (const known of [this.parts, this.names, this.texts, this.files]) known.clear();
  }
}

function remembered<T>(known: Map<string, T>, key: string, read: () => T): T {
  if (known.has(key)) return known.get(key) as T;
  const value = read();
  known.set(key, value);
  return value;
}

/** A folder's names, each folder listed once per look (a folder up is asked for by each folder below it). */
export function listedOnce(inputs: LookInputs): (dir: string) => string[] {
  const looked = new Map<string, string[]>();
  return (dir) => {
    let names = looked.get(dir);
    if (!names) looked.set(dir, (names = inputs.disk.list(dir)));
    return names;
  };
}

// No such file is the common answer (a package.json looked for in each folder up): told without an exception.
function isFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}

export function readSmall(path: string): string | undefined {
  try {
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat?.isFile() && stat.size <= MAX_BYTES ? readFileSync(path, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

function listed(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** The nearest folder from `start` up (MAX_LEVELS at most) that `isTop` accepts, or null. */
export function nearestUp(start: string, isTop: (dir: string) => boolean): string | null {
  for (let dir = start, level = 0; level < MAX_LEVELS; level++) {
    if (isTop(dir)) return dir;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}
