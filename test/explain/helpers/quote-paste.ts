// What an e-mail reply does to a pasted db2exfmt text: every line quoted with "> " (">> " or "> > " a level deeper),
// and lines longer than the client's width wrapped, before the quoting (the sender's client) or after it, the
// wrapped-off rest of a line quoted again or not, depending on the client.
import { wrapLine, type WrapMode } from './wrap-paste';

export type QuoteStyle =
  /** Wrapped by the sender's client, then every line quoted by the reply (no line of the reply is cut). */
  | 'wrap-then-quote'
  /** Quoted, then wrapped: the rest of a cut line starts a line without the quote (a client that hard-wraps what it sends). */
  | 'quote-then-wrap'
  /** Quoted, then wrapped: the rest of a cut line is quoted too (a client that re-wraps quoted text, as Thunderbird does). */
  | 'quote-then-rewrap';

export const QUOTE_STYLES: QuoteStyle[] = ['wrap-then-quote', 'quote-then-wrap', 'quote-then-rewrap'];

/** One level of replying. */
export interface QuoteStep {
  style: QuoteStyle;
  /** "> " (the first level; "> > " a level deeper) or ">" (a deeper level: ">> "). */
  prefix: '> ' | '>';
  width: number;
  mode: WrapMode;
  /** An empty line quoted as ">" (most clients) or with the whole prefix. */
  bareEmptyLines?: boolean;
}

/** The text after each step in turn: the first step is the first reply, the next one quotes that reply. */
export function quotePaste(text: string, steps: readonly QuoteStep[]): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  let lines = text.split(/\r?\n/);
  for (const step of steps) lines = quoteOnce(lines, step);
  return lines.join(eol);
}

function quoteOnce(lines: string[], step: QuoteStep): string[] {
  const quote = (l: string) => (l === '' && step.bareEmptyLines ? step.prefix.trimEnd() || '>' : step.prefix + l);
  switch (step.style) {
    case 'wrap-then-quote':
      return lines.flatMap((l) => wrapLine(l, step.width, step.mode)).map(quote);
    case 'quote-then-wrap':
      return lines.flatMap((l) => wrapLine(quote(l), step.width, step.mode, quotedPart(quote(l))));
    case 'quote-then-rewrap':
      return lines.flatMap((l) => {
        const q = quote(l);
        const keep = quotedPart(q);
        return wrapLine(q, step.width, step.mode, keep, q.slice(0, keep));
      });
  }
}

/** The length of a line's quote prefix: its leading ">" and the blanks between them. */
function quotedPart(line: string): number {
  return /^(?:> ?)*/.exec(line)![0].length;
}
