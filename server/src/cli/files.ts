// Finding and reading the files to lint: folders walked honouring .gitignore and the config's ignore globs;
// binary, non-UTF-8 and huge files skipped with a reason instead of failing the run.
import { readdirSync, readFileSync, statSync, existsSync, openSync, readSync, closeSync, fstatSync, type Stats } from 'node:fs';
import { constants as bufferConstants, isAscii } from 'node:buffer';
import { join, relative, resolve, dirname, isAbsolute, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { CONFIG_FILE_NAME, languageOf, type ResolvedConfig } from '../engine/config';
import { withLineFeeds } from '../engine/lines';

export interface SkippedFile {
  path: string;
  reason: string;
}

export interface FileList {
  files: string[];
  skipped: SkippedFile[];
  missing: string[];
}

const ALWAYS_SKIPPED_DIRS = new Set(['.git', 'node_modules', '.hg', '.svn']);

interface IgnoreLayer {
  dir: string;
  rules: Ignore;
}

function gitignoreLayer(dir: string): IgnoreLayer | undefined {
  const file = join(dir, '.gitignore');
  if (!existsSync(file)) return undefined;
  try {
    return { dir, rules: ignore().add(readFileSync(file, 'utf8')) };
  } catch {
    return undefined;
  }
}

function isIgnored(path: string, isDir: boolean, layers: IgnoreLayer[]): boolean {
  for (const layer of layers) {
    const rel = relative(layer.dir, path).split(sep).join('/');
    if (!rel || rel.startsWith('..')) continue;
    if (layer.rules.ignores(isDir ? rel + '/' : rel)) return true;
  }
  return false;
}

/** What a path that is neither a regular file nor a folder is, for "skipped" messages. */
function specialKind(stat: Stats): string {
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/** Expands the given paths into the files to lint, in a stable order; says what it skipped and why. */
export function collectFiles(paths: string[], config: ResolvedConfig, cwd: string, configDir: string = cwd): FileList {
  const result: FileList = { files: [], skipped: [], missing: [] };
  const configIgnore: IgnoreLayer = { dir: configDir, rules: ignore().add(config.ignore) };
  const seen = new Set<string>();
  const add = (file: string) => {
    if (!seen.has(file)) {
      seen.add(file);
      result.files.push(file);
    }
  };
  const skip = (path: string, reason: string) => result.skipped.push({ path, reason });
  for (const given of paths) {
    const abs = resolve(cwd, given);
    let stat;
    try {
      stat = statSync(abs);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') result.missing.push(given);
      else skip(abs, `cannot read it (${(error as Error).message})`);
      continue;
    }
    if (stat.isFile()) {
      if (!languageOf(abs, config)) skip(abs, 'not a file type InsertLint lints (see "languages" in .insertlintrc.json)');
      else add(abs);
      continue;
    }
    if (!stat.isDirectory()) {
      skip(abs, `it is ${specialKind(stat)}; InsertLint reads regular files and folders only`);
      continue;
    }
    // Without "ignore" patterns (the default) the configuration ignores nothing: not asked for every file and folder.
    const layers: IgnoreLayer[] = config.ignore.length > 0 ? [configIgnore] : [];
    // .gitignore files above the walked folder, up to the repository root, apply too.
    for (let dir = dirname(abs); ; dir = dirname(dir)) {
      const layer = gitignoreLayer(dir);
      if (layer) layers.push(layer);
      if (existsSync(join(dir, '.git')) || dirname(dir) === dir) break;
    }
    walk(abs, layers, config, add, skip);
  }
  return result;
}

/**
 * Walks a folder. Links are not followed (they may leave the tree or loop), and pipes and devices are not
 * read; those with a linted file name, and folders that cannot be read, are reported through `skip`.
 */
function walk(dir: string, layers: IgnoreLayer[], config: ResolvedConfig, add: (file: string) => void, skip: (path: string, reason: string) => void): void {
  const own = gitignoreLayer(dir);
  const active = own ? [...layers, own] : layers;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (error) {
    skip(dir, `cannot read this folder (${(error as Error).message})`);
    return;
  }
  for (const entry of entries) {
    const path = entryPath(dir, entry.name);
    if (entry.isDirectory()) {
      if (ALWAYS_SKIPPED_DIRS.has(entry.name) || isIgnored(path, true, active)) continue;
      walk(path, active, config, add, skip);
    } else if (entry.isFile()) {
      if (languageOf(path, config) && !isIgnored(path, false, active)) add(path);
    } else if (entry.isSymbolicLink()) {
      const target = statOrUndefined(path);
      const isDir = target?.isDirectory() ?? false;
      if (isIgnored(path, isDir, active) || (isDir && ALWAYS_SKIPPED_DIRS.has(entry.name))) continue;
      if (isDir) skip(path, 'it is a symbolic link to a folder; links inside folders are not followed (name the folder itself to lint it)');
      else if (!languageOf(path, config)) continue;
      else if (!target) skip(path, 'it is a symbolic link whose target does not exist');
      else skip(path, 'it is a symbolic link; links inside folders are not followed (name the file itself to lint it)');
    } else if (languageOf(path, config) && !isIgnored(path, false, active)) {
      const stat = statOrUndefined(path);
      skip(path, `it is ${stat ? specialKind(stat) : 'not a regular file'}; InsertLint reads regular files only`);
    }
  }
}

/**
 * join(dir, name) for an entry of a folder the walk reads: `dir` is normalised already (resolve, then this) and
 * `name` is a plain name, so there is nothing for join to normalise (~1 µs per file of a run over thousands).
 */
export function entryPath(dir: string, name: string): string {
  return dir.endsWith(sep) ? dir + name : dir + sep + name;
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Why a file is not read: `unreadable` (an error reading it), `over-limit` (over maxFileBytes; `size` in bytes when
 * the file said it), `too-large` (more than a JavaScript string holds), `binary`, `encoding` (text it cannot decode).
 */
export type SkipKind = 'unreadable' | 'over-limit' | 'too-large' | 'binary' | 'encoding';

/**
 * `notUtf8`: skipped for invalid UTF-8, where the advice depends on the caller (a CLI flag, an editor setting).
 * `code`: an unreadable file's error code (EACCES, ENOENT, EISDIR…), for callers that say it in their own words.
 */
export type ReadResult = { text: string } | { skip: string; kind: SkipKind; size?: number; notUtf8?: true; code?: string };

/** The skip of a file whose reading failed with `error`. */
function unreadable(error: unknown): ReadResult {
  const code = (error as NodeJS.ErrnoException)?.code;
  return { skip: `cannot read it (${(error as Error).message})`, kind: 'unreadable', ...(typeof code === 'string' ? { code } : {}) };
}

const MAX_STRING_LENGTH = bufferConstants.MAX_STRING_LENGTH;

/**
 * How files without a byte-order mark are decoded: UTF-8 (the default), ISO 8859-1, or Windows-1252 (which
 * VS Code calls "Western"). A BOM (UTF-8, UTF-16) wins over the setting, as it does in VS Code.
 */
export type SourceEncoding = 'utf-8' | 'latin1' | 'windows-1252';
export const SOURCE_ENCODINGS: readonly SourceEncoding[] = ['utf-8', 'latin1', 'windows-1252'];

/** An encoding name as users write it (CLI --encoding, VS Code files.encoding), or undefined when unknown. */
export function sourceEncoding(name: string | undefined): SourceEncoding | undefined {
  const key = (name ?? '').toLowerCase().replace(/[^a-z0-9]/g, '');
  if (key === 'utf8' || key === 'utf8bom') return 'utf-8';
  if (key === 'latin1' || key === 'iso88591' || key === 'l1') return 'latin1';
  if (key === 'windows1252' || key === 'cp1252') return 'windows-1252';
  return undefined;
}

/**
 * Reads a source file as text: UTF-8 (BOM dropped) or UTF-16 with a BOM; anything else is skipped with a reason.
 * Lone CR line ends come as LF (withLineFeeds). `regular`: the caller found it a regular file (a folder's entry,
 * a path it stat'ed), so a small one is read at once (readSmallFile).
 */
export function readSourceFile(path: string, maxBytes: number, encoding: SourceEncoding = 'utf-8', regular = false): ReadResult {
  if (regular) {
    let small: Uint8Array | undefined;
    try {
      small = readSmallFile(path, maxBytes);
    } catch (error) {
      return unreadable(error);
    }
    // Decoding copies the bytes into the text: the scratch buffer is free again when it returns.
    if (small) return decodeSource(small, encoding);
  }
  let read: BoundedRead;
  try {
    // The size is checked on the open file (readBounded's fstat), not by a stat of the path before: one
    // system call less per file of a run over thousands of small files.
    read = readBounded(path, maxBytes);
  } catch (error) {
    return unreadable(error);
  }
  if (read.size !== undefined) return { skip: `it is ${formatSize(read.size)}, over the ${formatSize(maxBytes)} limit (maxFileBytes)`, kind: 'over-limit', size: read.size };
  if (read.truncated) return { skip: `it is over the ${formatSize(maxBytes)} limit (maxFileBytes)`, kind: 'over-limit' };
  return decodeSource(read.bytes, encoding);
}

export interface BoundedRead {
  bytes: Buffer;
  /** More than maxBytes were there: `bytes` holds only the first maxBytes. */
  truncated: boolean;
  /** A regular file over maxBytes: its size (nothing was read; `bytes` is empty, `truncated` true). */
  size?: number;
}

/**
 * Reads at most maxBytes of a file, then stops: a device or pipe that never ends (/dev/zero, a FIFO fed
 * forever) costs maxBytes of memory and no more. `truncated` tells whether anything was left.
 */
export function readBounded(path: string, maxBytes: number): BoundedRead {
  const fd = openSync(path, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    // A regular file says its size: one buffer of that size (+1 to see growth) instead of a 1 MB chunk per
    // file, which made 20,000 small files cost 20 GB of allocation. Devices and pipes read in 1 MB chunks.
    const stat = fstatSync(fd);
    const regular = stat.isFile();
    // Bounded reading below all the same: the file may grow while it is read.
    if (regular && stat.size > maxBytes) return { bytes: Buffer.alloc(0), truncated: true, size: stat.size };
    let chunkSize = regular ? stat.size + 1 : 1 << 20;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.max(1, Math.min(chunkSize, maxBytes + 1 - total)));
      chunkSize = 1 << 20;
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
      total += n;
      if (total > maxBytes) return { bytes: Buffer.concat(chunks).subarray(0, maxBytes), truncated: true };
      // A regular file reads short only at its end: no second read (and 1 MB buffer) per file to learn that.
      if (regular && n < chunk.length) break;
    }
    // One chunk (a file read whole) is the result as it is: concat would copy it (12 MB: ~8 ms).
    return { bytes: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), truncated: false };
  } finally {
    closeSync(fd);
  }
}

/** Where small files are read (readSmallFile): one buffer for a run, not one per file. */
let scratch: Buffer | undefined;
const SCRATCH_BYTES = 64 * 1024;

/**
 * The bytes of a regular file of fewer than 64 kB (and at most maxBytes), read with one call into a buffer shared
 * by all reads (valid until the next one): no fstat for its size and no buffer of its own, which were a third of
 * reading a one-line script. Undefined when the file fills that much: readBounded then reads it from the start,
 * as any file. A regular file reads short only at its end, as readBounded has it.
 */
function readSmallFile(path: string, maxBytes: number): Uint8Array | undefined {
  const fd = openSync(path, 'r');
  try {
    scratch ??= Buffer.allocUnsafe(SCRATCH_BYTES);
    const room = Math.min(SCRATCH_BYTES, maxBytes + 1);
    const n = readSync(fd, scratch, 0, room, null);
    return n < room ? scratch.subarray(0, n) : undefined;
  } finally {
    closeSync(fd);
  }
}

/** A size for messages: "512 bytes", "20.5 KB", "20.0 MB" (binary units, as maxFileBytes is usually written). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1048576) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1048576).toFixed(1)} MB`;
}

/**
 * Windows-1252 at 0x80-0x9F (the rest is Latin-1). Written out because Node 20's TextDecoder('windows-1252')
 * decodes these bytes as Latin-1; the five bytes the code page leaves undefined stay C1 controls, as in VS Code.
 */
const CP1252_HIGH = '\u20ac\x81\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\x8d\u017d\x8f\x90\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\x9d\u017e\u0178';

export function decodeSource(bytes: Uint8Array, encoding: SourceEncoding = 'utf-8'): ReadResult {
  const read = decodeBytes(bytes, encoding);
  // Classic Mac OS line ends: an editor shows the lines, the SQL and code front ends end lines at LF only (a
  // `-- db2 -td@` comment or a CLP line command took the rest of the file, and its statements were misread).
  if ('text' in read) read.text = withLineFeeds(read.text);
  return read;
}

function decodeBytes(bytes: Uint8Array, encoding: SourceEncoding): ReadResult {
  // A JavaScript string holds at most MAX_STRING_LENGTH UTF-16 units (about 512 M); decoding more throws,
  // and that must read as "too large", not as "not valid UTF-8" (or, for UTF-16, as a crash).
  const tooLarge = (): ReadResult => ({ skip: `it is ${formatSize(bytes.length)}, more text than one JavaScript string holds (${MAX_STRING_LENGTH.toLocaleString('en-US')} characters); split it to lint it`, kind: 'too-large', size: bytes.length });
  const utf16 = bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : undefined;
  if (utf16) {
    if ((bytes.length - 2) / 2 > MAX_STRING_LENGTH) return tooLarge();
    try {
      return { text: new TextDecoder(utf16).decode(bytes.subarray(2)) };
    } catch {
      return tooLarge();
    }
  }
  const probe = bytes.subarray(0, 8192);
  if (probe.includes(0)) {
    const withoutBom = looksLikeUtf16WithoutBom(probe);
    if (withoutBom) return { skip: `it looks like UTF-16 ${withoutBom} without a byte-order mark (save it as UTF-8, or as UTF-16 with a BOM, to lint it)`, kind: 'encoding' };
    return { skip: 'it looks binary (it contains NUL bytes)', kind: 'binary' };
  }
  const utf8Bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  if (encoding !== 'utf-8' && !utf8Bom) {
    if (bytes.length > MAX_STRING_LENGTH) return tooLarge();
    // Every byte is a character in both: these never fail. Latin-1 maps bytes 0x80-0x9F to C1 controls (as
    // VS Code's "Western (ISO 8859-1)" does); Windows-1252 puts €, quotes and dashes there.
    const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
    return { text: encoding === 'latin1' ? latin1 : latin1.replace(/[\x80-\x9f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]) };
  }
  try {
    // ASCII (most scripts): UTF-8 decoding gives each byte as its character, which copying them as Latin-1 does
    // too, without validating every byte (isAscii is vectorised): 12 MB ~13 -> ~7 ms.
    if (isAscii(bytes)) return { text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1') };
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return { text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_ENCODING_INVALID_ENCODED_DATA') {
      return { skip: 'it is not valid UTF-8 (for Latin-1 or Windows-1252 text, pass --encoding latin1 or --encoding windows-1252; or convert it, e.g. with iconv)', kind: 'encoding', notUtf8: true };
    }
    return bytes.length > MAX_STRING_LENGTH ? tooLarge() : { skip: `it cannot be decoded (${(error as Error).message})`, kind: 'encoding' };
  }
}

/**
 * 'LE' or 'BE' when the bytes read like mostly-ASCII text in UTF-16 without a BOM: NULs in (nearly) every
 * odd or every even position and printable characters in the others. Editors on Windows write such files.
 */
function looksLikeUtf16WithoutBom(probe: Uint8Array): 'LE' | 'BE' | undefined {
  const pairs = probe.length >> 1;
  if (pairs < 2) return undefined;
  let zeroHigh = 0;
  let zeroLow = 0;
  let printable = 0;
  for (let i = 0; i + 1 < probe.length; i += 2) {
    const [a, b] = [probe[i], probe[i + 1]];
    if (b === 0 && a !== 0) zeroHigh++;
    if (a === 0 && b !== 0) zeroLow++;
    const c = a || b;
    if (c === 9 || c === 10 || c === 13 || (c >= 32 && c < 127)) printable++;
  }
  if (printable < pairs * 0.9) return undefined;
  if (zeroHigh >= pairs * 0.9) return 'LE';
  if (zeroLow >= pairs * 0.9) return 'BE';
  return undefined;
}

/** The nearest .insertlintrc.json at or above `dir`. */
export function findConfigFile(dir: string): string | undefined {
  for (let current = resolve(dir); ; current = dirname(current)) {
    const candidate = join(current, CONFIG_FILE_NAME);
    if (existsSync(candidate)) return candidate;
    if (dirname(current) === current) return undefined;
  }
}

/**
 * A finder of the repository a file is in: the nearest folder at or above the file's that holds `.git` (a
 * folder, or the file of a worktree or submodule), undefined outside any. The CLI and the language server both
 * give it to the configuration (ResolvedConfig.repositoryOf), so both place "testFiles" alike. Each folder is
 * looked at once per finder: a run over a checkout asks for every file of the same few folders.
 */
export function repositoryFinder(): (path: string) => string | undefined {
  const known = new Map<string, string | null>();
  const repositoryOfFolder = (dir: string): string | null => {
    const seen = known.get(dir);
    if (seen !== undefined) return seen;
    const parent = dirname(dir);
    const found = existsSync(join(dir, '.git')) ? dir : parent === dir ? null : repositoryOfFolder(parent);
    known.set(dir, found);
    return found;
  };
  // (Only a path on disk: an editor's unsaved buffer has none.)
  return (path) => (isAbsolute(path) ? (repositoryOfFolder(dirname(path)) ?? undefined) : undefined);
}
