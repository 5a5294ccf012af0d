// The text of an open document as the engine reads it: each lone CR (classic Mac OS line ends, a CR not followed
// by LF) as LF, as files read from disk come (cli/files.ts decodeSource, engine/lines.ts withLineFeeds). VS Code
// sends LF or CRLF, other clients send what the file holds: a `-td@` script with lone CRs was one line to the
// terminator scan. The length does not change, so every offset and LSP position stays as it is (the protocol ends
// lines at CR, LF and CRLF, as LineIndex does). Per keystroke nothing is scanned but around the change, once the
// document is known to hold no lone CR.
import { withLineFeeds } from '../engine/lines';
import type { TextChange } from '../sql/incremental';

interface Fed {
  /** The document's text as the editor sent it. */
  raw: string;
  /** What the engine was handed for it (`raw` itself when it holds no lone CR). */
  text: string;
  lone: boolean;
}

export class DocumentLineFeeds {
  private readonly byUri = new Map<string, Fed>();

  /**
   * The editor's text behind `held`, the text the engine holds for the document, when it is what this made of it
   * (what the editor's change events start from: text-changes.ts); otherwise `held`.
   */
  rawOf(uri: string, held: string | undefined): string | undefined {
    const fed = this.byUri.get(uri);
    if (fed && held !== undefined && fed.text === held) return fed.raw;
    // The engine holds another text: what was noted of the last one says nothing of it.
    this.byUri.delete(uri);
    return held;
  }

  /**
   * The text the engine reads for the editor's `raw`, and `change` (where `raw` differs from the editor's text
   * behind what the engine holds, when known) for it: one character earlier when a CR stands just before it, since
   * that CR may have lost or gained the LF after it.
   */
  read(uri: string, raw: string, change?: TextChange): { text: string; change?: TextChange } {
    const fed = this.byUri.get(uri);
    // Known to hold none before the change: only a CR in it or just before it can be a lone one now.
    const lone = change && fed && !fed.lone ? loneCrIn(raw, change.start - 1, change.newEnd) : hasLoneCr(raw);
    const text = lone ? withLineFeeds(raw) : raw;
    this.byUri.set(uri, { raw, text, lone });
    if (change && change.start > 0 && raw.charCodeAt(change.start - 1) === CR) change = { ...change, start: change.start - 1 };
    return { text, change };
  }

  forget(uri: string): void {
    this.byUri.delete(uri);
  }
}

const CR = 13;
const LF = 10;

function hasLoneCr(text: string): boolean {
  return text.indexOf('\r') >= 0 && /\r(?!\n)/.test(text);
}

/** Whether a lone CR starts in [from, to) of `text`. */
function loneCrIn(text: string, from: number, to: number): boolean {
  const end = Math.min(to, text.length);
  for (let i = Math.max(from, 0); i < end; i++) if (text.charCodeAt(i) === CR && text.charCodeAt(i + 1) !== LF) return true;
  return false;
}
