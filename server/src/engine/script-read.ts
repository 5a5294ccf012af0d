// Reading a SQL script into a FileModel, and reading it again after an edit (issue 15: the editor re-reads only
// what an edit touched). What one read leaves for the next (ScriptState) rides on the workspace's file entry:
// the terminator found and how, whether the model came from a re-parse, and where the text shows its dialect.
import { parseSql, scriptTerminator } from '../sql/parser';
import { fitsLengths, reparseScript, textChange, type TextChange } from '../sql/incremental';
import { inferenceReads, rescanTerminator, scanAfterEdit, scanTerminator, type SemicolonComment, type TerminatorScan } from '../sql/terminator';
import { dialectWords, inferDialect, statedZosVersion, wordsAfterEdit, type DialectWords } from '../sql/dialect';
import type { ParsedSql, Statement } from '../sql/ast';
import type { SqlExecution } from '../code-model/types';
import { sqlplCodeModel } from '../sql/sqlpl-code-model';
import type { Dialect, FileModel, SourceFile } from './types';
import { LineIndex } from './lines';

/** What a read of a script leaves for reading it again after an edit. */
export interface ScriptState {
  /** The terminator the script was parsed with (configured, inferred, or ';'): an edit re-parses with it incrementally. */
  parsedWith?: string;
  /** The model came from an incremental re-parse: no SQL PL and no terminator directive in it (see reparseScript's hints). */
  plain?: boolean;
  /** Where the text shows its dialect (sql/dialect.ts), when it is inferred: updated by an edit. */
  dialectWords?: DialectWords;
  /** How the terminator was inferred (sql/terminator.ts), when it was: an edit scans again around itself. */
  terminatorScan?: TerminatorScan;
}

/** The last read of the same path: its model, the configured terminator and dialect it was read with, its state. */
export interface PreviousRead extends ScriptState {
  model: FileModel;
  terminator?: string;
  dialect?: string;
}

/**
 * Reads a script with the configured `terminator` and `dialect` (undefined: inferred). After an edit, from
 * `previous` (whose statements are used up) and `hint`, where the text changed when the caller knows it.
 */
export function readScript(source: SourceFile, terminator: string | undefined, dialect: Dialect | undefined, previous?: PreviousRead, hint?: TextChange): ScriptState & { model: FileModel } {
  const before = previous?.model;
  const reusable = before && !before.timedOut && before.source.language === 'sql' && previous.terminator === terminator && previous.dialect === dialect;
  const change = reusable ? (hint && fitsLengths(hint, before.source.text.length, source.text.length) ? hint : textChange(before.source.text, source.text)) : undefined;
  let parsedWith: string;
  let scan: TerminatorScan | undefined;
  if (terminator !== undefined) parsedWith = terminator;
  else if (change && previous?.parsedWith !== undefined && !inferenceReads(change.start, source.text.length, change.newEnd)) {
    // The inference reads the first megabyte and the end only: an edit between keeps what it found (~10 ms per keystroke at 3 MB).
    parsedWith = previous.parsedWith;
    scan = previous.terminatorScan && scanAfterEdit(previous.terminatorScan, change);
  } else {
    // As scriptTerminator infers it; after an edit, the lines around it are scanned again (~6 ms per keystroke at 5,000 lines otherwise).
    scan = change && previous?.terminatorScan ? rescanTerminator(previous.terminatorScan, before!.source.text, source.text, change) : scanTerminator(source.text, { name: source.path });
    parsedWith = scriptTerminator(source.text, undefined, scan);
  }
  const reparsed = reusable && previous.parsedWith === parsedWith ? reparseScript(before.source.text, before, source.text, parsedWith, { change, plain: previous.plain }) : undefined;
  const words = dialect !== undefined ? undefined : change && previous?.dialectWords ? wordsAfterEdit(previous.dialectWords, source.text, change) : dialectWords(source.text);
  const model = scriptModel(source, reparsed ?? parseSql(source.text, { terminator: parsedWith }), dialect, words);
  noteTerminator(model, terminator, scan?.semicolonComment);
  return { model, parsedWith, plain: reparsed !== undefined, dialectWords: words, terminatorScan: scan };
}

/**
 * Notes in a script's model how its terminator was chosen: the `configured` one, or else what the inference
 * found that rules read (`semicolon`: a comment naming `db2 -t`, TerminatorScan.semicolonComment).
 */
export function noteTerminator(model: FileModel, configured: string | undefined, semicolon: SemicolonComment | undefined): void {
  if (configured !== undefined) model.configuredTerminator = configured;
  else if (semicolon) model.semicolonComment = semicolon;
}

/** The model of a SQL script from its statements (`words`: where its text shows its dialect, when known). */
export function scriptModel(source: SourceFile, parsed: ParsedSql, dialect: Dialect | undefined, words?: DialectWords): FileModel {
  const model: FileModel = { source, statements: parsed.statements, comments: parsed.comments };
  const chosen = dialect ?? inferDialect(parsed.statements, source.text, words);
  if (chosen) model.dialect = chosen;
  const version = statedZosVersion(parsed.comments, parsed.statements);
  if (version !== undefined) model.statedZosVersion = version;
  // Routines and blocks run statements in loops: their facts in the shape code analysis gives (sql/sqlpl-code-model.ts).
  let lines: LineIndex | undefined;
  const lineAt = (offset: number) => (lines ??= new LineIndex(source.text)).line(offset) + 1;
  const code = sqlplCodeModel(parsed.statements, () => scriptExecution(source, parsed.statements), lineAt);
  if (code) model.code = code;
  return model;
}

/** A CLP script as the one execution that runs all its statements, for the rules that read scripts (code-model/facts.ts scriptUnits). */
function scriptExecution(source: SourceFile, statements: Statement[]): SqlExecution {
  return { callSpan: { start: 0, end: source.text.length }, api: 'clp', action: 'executeDirect', statements, textKind: 'constant', splicedValues: [], batched: false, script: true };
}
