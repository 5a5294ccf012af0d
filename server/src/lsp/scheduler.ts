// When each open document is analysed: at most one pending run per document, always for its newest
// version. A run waits for the debounce delay, and at least as long as the document's last analysis took
// (so analysing can take at most about half the time while edits keep coming, and reading them the rest),
// then for one more turn of the event loop, so that edits already received are handled first and make it
// stale. Before this, with debounce 0 the timer fired between edits whenever reading a message took a
// millisecond, and each of 2,000 edits to a large document was analysed in turn: seconds of backlog.

const MAX_INPUT_WAIT_MS = 250;

interface Pending {
  version: number;
  timer?: NodeJS.Timeout;
  immediate?: NodeJS.Immediate;
}

export class DocumentScheduler {
  private readonly pending = new Map<string, Pending>();
  /** When the document's last analysis ended and how long it took. */
  private readonly last = new Map<string, { end: number; took: number }>();

  /**
   * `inputPending`: part of a message has been read and the rest is on its way (it may be a newer edit);
   * a due run waits for it, up to MAX_INPUT_WAIT_MS so that a stalled client cannot hold analysis back.
   */
  constructor(
    private readonly run: (uri: string, version: number) => void,
    private readonly inputPending: () => boolean = () => false,
  ) {}

  /** Analysis of `version` in `delayMs`; replaces what was pending for the document. */
  schedule(uri: string, version: number, delayMs: number): void {
    this.cancel(uri);
    const entry: Pending = { version };
    const last = this.last.get(uri);
    const wait = last ? Math.max(delayMs, last.end + last.took - Date.now()) : delayMs;
    const due = Date.now() + wait;
    const whenInputRead = () => {
      entry.timer = undefined;
      if (this.inputPending() && Date.now() - due < MAX_INPUT_WAIT_MS) entry.timer = setTimeout(whenInputRead, 1);
      else entry.immediate = setImmediate(() => this.fire(uri, entry));
    };
    entry.timer = setTimeout(whenInputRead, wait);
    this.pending.set(uri, entry);
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
    const start = Date.now();
    try {
      this.run(uri, entry.version);
    } finally {
      const end = Date.now();
      this.last.set(uri, { end, took: end - start });
    }
  }
}
