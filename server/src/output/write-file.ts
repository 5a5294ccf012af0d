// Output files (baselines, SARIF, checklists, plans written with --output) are replaced whole or not at all:
// the text goes to a temporary file in the same folder, is flushed, then renamed over the target. An
// interrupted run leaves the previous file as it was (and at worst a stray .insertlint-*.tmp next to it).
import { closeSync, fsyncSync, openSync, realpathSync, renameSync, statSync, unlinkSync, writeSync, chmodSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const target = resolveLink(path);
  const existing = statOrUndefined(target);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  // A pipe or device (--output /dev/stdout) cannot be replaced, and a half-written stream is all it can get.
  if (existing && !existing.isFile()) return writeAll(openSync(target, 'w'), bytes);
  const folder = dirname(target);
  // Said of the folder: the error of the temporary file would name a file the user never asked for.
  if (!existing && !statOrUndefined(folder)?.isDirectory()) throw new Error(`the folder ${folder} does not exist`);
  const { fd, temp } = openTemporary(folder, basename(target), existing ? existing.mode & 0o7777 : 0o666);
  try {
    writeAll(fd, bytes, true);
    if (existing) chmodSync(temp, existing.mode & 0o7777);
    renameSync(temp, target);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // never created, or already renamed
    }
    throw error;
  }
}

function writeAll(fd: number, bytes: Uint8Array, sync = false): void {
  try {
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    if (sync) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A symbolic link is written through (the link stays a link), like writeFileSync does. */
function resolveLink(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * A new temporary file next to the target, opened for writing. Its name need not be unguessable, only new: it is
 * created exclusively ('wx'), and a name taken meanwhile is tried again with another suffix. Math.random, not
 * node:crypto, which took 3-5 ms to load in every run that wrote a file.
 */
function openTemporary(folder: string, name: string, mode: number): { fd: number; temp: string } {
  for (let attempt = 1; ; attempt++) {
    const suffix = Math.floor(Math.random() * 0x100000000).toString(16).padStart(8, '0');
    const temp = join(folder, `.insertlint-${name}.${process.pid}.${suffix}.tmp`);
    try {
      return { fd: openSync(temp, 'wx', mode), temp };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 100) throw error;
    }
  }
}
