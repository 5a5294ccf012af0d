// Why a file the editor does not have open shows no findings, said in the Problems panel rather than only in the
// InsertLint log: a workspace file the index could not read (over the size limit per file, binary, in an encoding it
// cannot decode, an I/O error such as permission denied) and a schema file whose rules ran past the time budget per file each get one Information diagnostic
// on line 1. Files left out by configuration (ignore, .gitignore) get none: they are not meant to be linted. Open
// documents' own notices (over the size limit, past the time budget) are made in diagnostics.ts.
import { DiagnosticSeverity, type Diagnostic as LspDiagnostic } from 'vscode-languageserver/node';
import { formatSize, type ReadResult } from '../cli/files';
import { withBudgetHint } from '../engine/deadline';
import type { ServerState } from './server-state';

/** The code of the diagnostic that tells why a file has no findings: its reading or rules ran past the time budget. */
export const TIME_BUDGET_CODE = 'time-budget';
/** The code of the diagnostic that tells why a file is not linted: its size, or text that cannot be read. */
export const FILE_SKIPPED_CODE = 'file-skipped';

/** A time-budget message as the editor says it: raise the setting (the CLI's says --file-time-budget). */
export function editorBudgetReason(reason: string): string {
  return withBudgetHint(reason, 'raise insertlint.fileTimeBudget');
}

/**
 * A text's size in UTF-8 when it is over `limit` bytes, else undefined: an open document is over the size limit per
 * file when the file would be, as the CLI counts bytes read from disk. A UTF-16 unit is 1 to 3 bytes in UTF-8, so most
 * texts are settled by their length, without counting.
 */
export function bytesOverLimit(text: string, limit: number): number | undefined {
  if (text.length * 3 <= limit) return undefined;
  const bytes = Buffer.byteLength(text, 'utf8');
  return bytes > limit ? bytes : undefined;
}

/** The setting that sets the size limit per file in force: the editor's, .insertlintrc.json's, or both when equal. */
export function sizeLimitName(state: ServerState): string {
  const setting = state.settings.index.maxFileBytes;
  const file = state.configMaxFileBytes;
  const names: string[] = [];
  if (setting <= file) names.push('insertlint.index.maxFileKilobytes');
  if (file <= setting) names.push('maxFileBytes in .insertlintrc.json');
  return `raise ${names.join(' and ')}`;
}

/** Why a file of `size` bytes (unknown: a file that grew while read) is not linted, naming the setting to raise. */
export function overLimitReason(state: ServerState, size: number | undefined): string {
  const limit = formatSize(state.config.maxFileBytes);
  return `${size === undefined ? 'it is' : `it is ${formatSize(size)},`} over the ${limit} limit per file (${sizeLimitName(state)})`;
}

/** A skip that means there is no file at the path any more (deleted after it was listed or changed) or never was (a folder named like one). */
export function isNoFile(read: Extract<ReadResult, { skip: string }>): boolean {
  return read.kind === 'unreadable' && (read.code === 'ENOENT' || read.code === 'ENOTDIR' || read.code === 'EISDIR');
}

/** Why a file read from disk was skipped, in the editor's words: files.encoding for text that is not UTF-8, an I/O error said plainly. */
export function diskSkipReason(read: Extract<ReadResult, { skip: string }>): string {
  // An editor user sets files.encoding (the CLI's --encoding flag means nothing to them).
  if (read.notUtf8) return 'it is not valid UTF-8 (for Latin-1 or Windows-1252 text, set files.encoding to iso88591 or windows1252; or convert it to UTF-8)';
  if (read.kind === 'unreadable') return `it could not be read: ${ioErrorWords(read)}`;
  return read.skip;
}

/** Common I/O errors in words; others as the system says them (`EIO: i/o error, read`), without the path. */
const IO_ERRORS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EBUSY: 'it is locked or in use by another program',
  ETXTBSY: 'it is locked or in use by another program',
  EMFILE: 'too many files are open',
  ENFILE: 'too many files are open',
  EIO: 'an input/output error (a disk or network drive problem)',
  ELOOP: 'too many symbolic links',
  ETIMEDOUT: 'the network drive did not answer in time',
};

function ioErrorWords(read: Extract<ReadResult, { skip: string }>): string {
  const known = read.code ? IO_ERRORS[read.code] : undefined;
  if (known) return known;
  // "cannot read it (EXDEV: cross-device link not permitted, open '/w/a.sql')": what is in the parentheses, path left out.
  return read.skip.replace(/^cannot read it \((.*)\)$/s, '$1').replace(/, (?:open|read) '.*'$/s, '');
}

/** One Information diagnostic saying why a file has no findings (not a finding: nothing is wrong with the file). */
export function notice(range: LspDiagnostic['range'], code: string, message: string): LspDiagnostic {
  return { range, severity: DiagnosticSeverity.Information, code, source: 'insertlint', message };
}

/** Line 1 of a file whose text the server did not keep (a notice there opens the file at its top). */
const LINE_1: LspDiagnostic['range'] = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** How notices reach the client: Diagnostics, which keeps what was last sent per file (and counts it in the status). */
export interface NoticePublisher {
  publishNotice(path: string, notice: LspDiagnostic, version?: number): void;
  publishEmpty(path: string): void;
}

/** A file read from disk that was not linted, for a reason the user can see to. */
interface DiskSkip {
  kind: 'over-limit' | 'too-large' | 'binary' | 'encoding' | 'unreadable';
  /** Why, as the log says it (over-limit: made again from the size and the limit in force). */
  why: string;
  /** Bytes, when known (over-limit, too-large). */
  size?: number;
}

export class SkipNotices {
  /** Workspace files read from disk and skipped, by path. */
  private readonly disk = new Map<string, DiskSkip>();
  /** Schema files whose notice is published, with the reason it gives. */
  private readonly schema = new Map<string, string>();

  constructor(
    private readonly state: ServerState,
    private readonly publisher: NoticePublisher,
  ) {}

  /** Whether a file's notice stands in for its findings: publishing its (absent) findings must leave it. */
  holds(path: string): boolean {
    return this.disk.has(path) || this.schema.has(path);
  }

  /** A file read from disk was skipped: noted (unless it is not a file InsertLint lints) and shown. */
  diskSkipped(path: string, read: Extract<ReadResult, { skip: string }>, why: string): void {
    if (!this.state.workspace.languageOf(path)) return this.forget(path);
    const skip: DiskSkip = { kind: read.kind, why, size: read.size };
    this.disk.set(path, skip);
    this.show(path, skip);
  }

  /**
   * A file noted as skipped was read (or opened in the editor): its notice is no longer noted. Not cleared here: its
   * findings (or the open document's) are published next and replace it (Diagnostics.publish compares with it).
   */
  read(path: string): void {
    this.disk.delete(path);
  }

  /** A file noted as skipped is gone, ignored, or no longer read at all (code without SQL): its notice is cleared. */
  forget(path: string): void {
    if (this.disk.delete(path)) this.publisher.publishEmpty(path);
  }

  /** The files noted as skipped, and why (Indexer.relint forgets those it did not note again). */
  diskSkips(): ReadonlyMap<string, DiskSkip> {
    return new Map(this.disk);
  }

  /** Forgets the files whose note is still the one in `before`: a new read of the workspace did not skip them again. */
  forgetUnchanged(before: ReadonlyMap<string, DiskSkip>): void {
    for (const [path, skip] of before) if (this.disk.get(path) === skip) this.forget(path);
  }

  /** Whether a file skipped for its size is within the limit in force now (a raised limit): to be read again. */
  nowWithinLimit(path: string): boolean {
    const skip = this.disk.get(path);
    return skip?.kind === 'over-limit' && skip.size !== undefined && skip.size <= this.state.config.maxFileBytes;
  }

  /** Shows a noted file's notice again after a settings change (the limit in its words, whether it is shown at all). */
  reshow(path: string): void {
    const skip = this.disk.get(path);
    if (skip) this.show(path, skip);
  }

  /**
   * Sent only where the file's findings would be: insertlint.diagnostics.scope `workspace`, InsertLint enabled and its
   * language linted; an open document shows its own (diagnostics.ts).
   */
  private show(path: string, skip: DiskSkip): void {
    const s = this.state;
    if (s.settings.diagnosticsScope !== 'workspace' || !s.shows(path) || s.documents.get(s.uriOf(path))) return this.publisher.publishEmpty(path);
    const why = skip.kind === 'over-limit' ? overLimitReason(s, skip.size) : skip.why;
    this.publisher.publishNotice(path, notice(LINE_1, FILE_SKIPPED_CODE, `not linted: ${why}`));
  }

  /**
   * After findings were made (schema files' rules run with the first linted file's that asks for their findings): a
   * schema file whose rules ran past the time budget says so on its line 1, since none of its findings are placed on
   * the inserts; cleared when its rules run within the budget (it changed, the budget was raised), it is no longer a
   * schema file, or InsertLint is disabled. `paths`: the schema files (few: looked at on every publish).
   */
  schemaFilesChecked(paths: readonly string[]): void {
    const { workspace, settings } = this.state;
    for (const path of paths) {
      const why = settings.enable ? workspace.rulesStoppedIn(path) : undefined;
      if (why === this.schema.get(path)) continue;
      if (why === undefined) {
        this.schema.delete(path);
        this.publisher.publishEmpty(path);
        continue;
      }
      this.schema.set(path, why);
      const message = `${editorBudgetReason(why)}; none of this schema file's findings are shown on the inserts`;
      this.publisher.publishNotice(path, notice(LINE_1, TIME_BUDGET_CODE, message));
    }
    if (this.schema.size === 0) return;
    const current = new Set(paths);
    for (const path of this.schema.keys()) {
      if (current.has(path)) continue;
      this.schema.delete(path);
      this.publisher.publishEmpty(path);
    }
  }
}
