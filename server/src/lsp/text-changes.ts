// Where an open document changed since the engine last read it, from the editor's change events (LSP
// incremental sync): a keystroke in a 3 MB script is then re-parsed around its range without comparing the
// old and new texts (sql/incremental.ts). Changes that arrive before the engine reads the document (a
// debounced burst of typing) are composed into one.
import { TextDocument, type TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { composeChanges, type TextChange } from '../sql/incremental';

interface Unread {
  /** The text the engine read last (what the changes start from). */
  base: string;
  /** The change since, 'none' before the first, undefined once a change replaced the whole text. */
  change: TextChange | 'none' | undefined;
}

export class UnreadChanges {
  private readonly byUri = new Map<string, Unread>();

  /** Applies content changes to a document (as TextDocument.update does) and notes where they changed it. */
  update(document: TextDocument, changes: readonly TextDocumentContentChangeEvent[], version: number): TextDocument {
    let unread = this.byUri.get(document.uri);
    if (!unread) this.byUri.set(document.uri, (unread = { base: document.getText(), change: 'none' }));
    // One change at a time, each in the offsets of the text the ones before it left (as the protocol says).
    for (const change of changes) {
      const known = unread.change;
      let next: TextChange | undefined;
      if (known !== undefined && 'range' in change && change.range) {
        // (A range given end first is taken as TextDocument.update takes it: from the smaller offset.)
        const a = document.offsetAt(change.range.start);
        const b = document.offsetAt(change.range.end);
        const start = Math.min(a, b);
        // (Offsets a malformed range gave (NaN) say nothing: the engine compares the texts instead.)
        if (Number.isInteger(a) && Number.isInteger(b)) next = { start, oldEnd: Math.max(a, b), newEnd: start + change.text.length };
      }
      // Unknown until the change is applied: if applying it throws, what the text is now is not known here.
      unread.change = undefined;
      document = TextDocument.update(document, [change], version);
      if (next && known !== undefined) unread.change = known === 'none' ? next : composeChanges(known, next);
    }
    return document;
  }

  /**
   * The change from the text the engine holds for a document (`held`) to its current text, when the change
   * events tell it; undefined when they do not (a whole-text change, or the engine holds another text).
   * Called when the engine reads the document: the next change starts from its current text.
   */
  take(uri: string, held: string | undefined): TextChange | undefined {
    const unread = this.byUri.get(uri);
    this.byUri.delete(uri);
    if (!unread || unread.change === 'none' || unread.change === undefined || held !== unread.base) return undefined;
    return unread.change;
  }

  /** Where the changes not yet read begin, in the offsets of the text the engine last read (undefined: not known). */
  startOf(uri: string): number | undefined {
    const change = this.byUri.get(uri)?.change;
    return change === undefined || change === 'none' ? undefined : change.start;
  }

  /** The document was closed. */
  forget(uri: string): void {
    this.byUri.delete(uri);
  }
}
