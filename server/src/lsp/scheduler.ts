// When each open document is analysed: at most one pending run per document, always for its newest
// version. A run waits for the debounce delay, and at least as long as the document's analysis takes
// (so analysing can take at most about half the time while edits keep coming, and reading them the rest),
// then for one more turn of the event loop, so that edits already received are handled first and make it
// stale. Before this, with debounce 0 the timer fired between edits whenever reading a message took a
// millisecond, and each of 2,000 edits to a large document was analysed in turn: seconds of backlog.
// A keystroke in a document analysed within a keystroke's time is the exception (isInstant): analysed at once.
import { nowMs } from '../engine/clock';

const MAX_INPUT_WAIT_MS = 250;

/**
 * A document whose analysis takes less than this is analysed at once after a keystroke, without waiting
 * for the analysis before to be an analysis' time ago: it is done before a fast typist's next keystroke
 * (about 100 ms apart at 120 words a minute), so analysing each one wastes nothing that waiting would
 * save. (At 50 ms, a 50,000-line script analysed in ~65 ms waited 65 ms for the debounce, then 65 ms to
 * keep runs apart: issue 15's bench kept its keystrokes at twice the analysis.)
 */
export const INSTANT_ANALYSIS_MS = 100;

/**
 * How long a document's analysis takes, from its last two: the shorter. One slow analysis is an event (the
 * first one after opening, a paste), not the document's pace. (A DDL edit's rebuild of the workspace's schema
 * is not counted at all: see DocumentScheduler's `run`. In issue 15's bench the keystroke after a DDL edit
 * waited as long as the rebuild took, and made the slowest twentieth of all keystrokes.)
 */
export function typicalAnalysisMs(last: number, before: number): number {
  return Math.min(last, before);
}

/** What an edit did, as far as the debounce cares: one character typed or deleted, or more, and where. */
export interface EditShape {
  /** One content change that inserts or removes at most one character on one line (typing, backspace). */
  keystroke: boolean;
  /**
   * The kind of statement the edit fell in ('' when unknown or outside any): analyses are timed per kind,
   * since an edit in a CREATE TABLE re-checks every insert into the table and one in an INSERT its statement.
   */
  statementKind?: string;
}

/**
 * The quiet time before analysing an edit (issue 15: none for a keystroke in a small document). A keystroke
 * waits for nothing when the document's analysis is quick (isInstant), and otherwise for as long as that
 * analysis takes, up to the configured `debounceMs`; a paste, an undo or several changes at once wait
 * `debounceMs`. The scheduler also keeps runs at least one analysis apart, but for an instant keystroke.
 */
export function debounceFor(edit: EditShape | undefined, lastAnalysisMs: number | undefined, debounceMs: number): number {
  if (!edit?.keystroke) return debounceMs;
  if (isInstant(edit, lastAnalysisMs)) return 0;
  return Math.min(debounceMs, Math.round(lastAnalysisMs!));
}

/** A keystroke in a document analysed in under INSTANT_ANALYSIS_MS (or not analysed yet): analysed at once. */
export function isInstant(edit: EditShape | undefined, lastAnalysisMs: number | undefined): boolean {
  return edit?.keystroke === true && (lastAnalysisMs === undefined || lastAnalysisMs < INSTANT_ANALYSIS_MS);
}

/** Whether LSP content changes are one keystroke: a single range change of at most one character. */
export function isKeystroke(changes: readonly { range?: { start: { line: number; character: number }; end: { line: number; character: number } }; text: string }[]): boolean {
  if (changes.length !== 1) return false;
  const { range, text } = changes[0];
  if (!range || text.length > 1 || text === '\n' || text === '\r') return false;
  if (range.start.line !== range.end.line) return false;
  return range.end.character - range.start.character <= 1;
}

interface Pending {
  version: number;
  /** The analysis counts toward the document's pace (not the one of a document just opened). */
  paced: boolean;
  /** The kind of statement its edits fell in (EditShape.statementKind); undefined when they fell in several. */
  kind: string | undefined;
  timer?: NodeJS.Timeout;
  immediate?: NodeJS.Immediate;
}

export class DocumentScheduler {
  private readonly pending = new Map<string, Pending>();
  /**
   * When the document's last analysis ended, and per kind of edit (EditShape.statementKind) how long the
   * last analysis after one took and the one before it. (Timed together, two DDL edits made the analysis of
   * a keystroke in an INSERT after them wait as long as their own: the slowest keystrokes of issue 15's bench.)
   */
  private readonly last = new Map<string, { end: number; paces: Map<string, { took: number; before?: number }> }>();

  /**
   * `run` analyses a version and may return the milliseconds of it spent on the workspace rather than on the
   * document (rebuilding the schema of all files), which do not count toward the document's pace.
   * `inputPending`: part of a message has been read and the rest is on its way (it may be a newer edit);
   * a due run waits for it, up to MAX_INPUT_WAIT_MS so that a stalled client cannot hold analysis back.
   */
  constructor(
    private readonly run: (uri: string, version: number) => number | void,
    private readonly inputPending: () => boolean = () => false,
  ) {}

  /**
   * Analysis of `version` in `delayMs`; replaces what was pending for the document. `keepApart` false (an
   * instant keystroke): no wait for the last analysis to be an analysis' time ago. Keystrokes held down come
   * faster than such a document is analysed, and are still analysed only in their newest version.
   * `paced` false (a document just opened): the analysis reads the whole text, a keystroke's re-reads a
   * statement (sql/incremental.ts), so its time is not the document's pace; one slow analysis is an event
   * (typicalAnalysisMs), and the first keystroke after opening a 50,000-line script waited a debounce for it
   * (issue 15). `kind`: the kind of statement the edit fell in, whose analyses set the pace. Returns the wait (ms).
   */
  schedule(uri: string, version: number, delayMs: number, keepApart = true, paced = true, kind = ''): number {
    const replaced = this.pending.get(uri);
    this.cancel(uri);
    // A run for edits of several kinds is no kind's pace.
    const entry: Pending = { version, paced, kind: replaced && replaced.kind !== kind ? undefined : kind };
    const pace = keepApart ? this.lastAnalysisMs(uri, kind) : undefined;
    const wait = pace !== undefined ? Math.max(delayMs, this.last.get(uri)!.end + pace - Date.now()) : delayMs;
    const due = Date.now() + wait;
    const whenInputRead = () => {
      entry.timer = undefined;
      if (this.inputPending() && Date.now() - due < MAX_INPUT_WAIT_MS) entry.timer = setTimeout(whenInputRead, 1);
      else entry.immediate = setImmediate(() => this.fire(uri, entry));
    };
    entry.timer = setTimeout(whenInputRead, wait);
    this.pending.set(uri, entry);
    return wait;
  }

  /**
   * How long the document's analysis after an edit of `kind` takes (ms; typicalAnalysisMs of its last two),
   * once two were timed: the first runs cold code and fills caches (the first keystroke in a 50,000-line
   * script took 200 ms, the next ones 60, and the second keystroke waited a debounce for the first).
   */
  lastAnalysisMs(uri: string, kind = ''): number | undefined {
    const pace = this.last.get(uri)?.paces.get(kind);
    return pace?.before === undefined ? undefined : typicalAnalysisMs(pace.took, pace.before);
  }

  /** The version waiting to be analysed, if any. */
  pendingVersion(uri: string): number | undefined {
    return this.pending.get(uri)?.version;
  }

  /** Runs the pending analysis now (requests need the model of the text the client sees). */
  flush(uri: string): void {
    const entry = this.pending.get(uri);
    if (entry) this.fire(uri, entry);
  }

  cancel(uri: string): void {
    const entry = this.pending.get(uri);
    if (!entry) return;
    if (entry.timer) clearTimeout(entry.timer);
    if (entry.immediate) clearImmediate(entry.immediate);
    this.pending.delete(uri);
  }

  /** The document is closed: nothing pending, nothing remembered. */
  forget(uri: string): void {
    this.cancel(uri);
    this.last.delete(uri);
  }

  cancelAll(): void {
    for (const uri of [...this.pending.keys()]) this.cancel(uri);
  }

  private fire(uri: string, entry: Pending): void {
    if (this.pending.get(uri) !== entry) return;
    this.cancel(uri);
    const start = nowMs();
    let workspaceMs: number | void = 0;
    try {
      workspaceMs = this.run(uri, entry.version);
    } finally {
      const took = Math.max(0, nowMs() - start - (workspaceMs || 0));
      let last = this.last.get(uri);
      if (!last) this.last.set(uri, (last = { end: 0, paces: new Map() }));
      last.end = Date.now();
      if (entry.paced && entry.kind !== undefined) last.paces.set(entry.kind, { took, before: last.paces.get(entry.kind)?.took });
    }
  }
}
