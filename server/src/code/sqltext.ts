// SQL text rebuilt from host-language strings, with a map from every SQL character back to the file.
// A host string can be split over concatenations, lines, escapes and spliced values; the SQL parser
// sees one plain text, and `origin.toFile` sends each of its offsets back to the exact file character.
import type { Span, SqlOrigin } from '../sql/ast';
import { SPLICE_CONTEXT, splicePlaceholder } from '../sql/splice';

/** A piece of SQL text: characters from the file, or a value spliced in at run time. */
export type TextPiece =
  | { kind: 'text'; text: string; /** file offset of each character of `text` */ offsets: number[] }
  | {
      kind: 'splice';
      span: Span;
      /**
       * The expression written in the statement's text that this value reached it through, when that is not the
       * value itself: `insert_row` in `f"INSERT INTO t VALUES ({insert_row})"`, built from `value` (HostEvaluator).
       */
      shown?: Span;
    };

/** How the SQL text of a call was built (see SqlExecution.textKind). */
export type TextKind = 'constant' | 'concatenation' | 'template' | 'format' | 'variable' | 'unknown';

export interface HostText {
  pieces: TextPiece[];
  kind: TextKind;
  /** The file span of the expression it was read from (HostEvaluator.evaluate), when an adapter read one. */
  from?: Span;
}

/** Text pieces for a literal that maps character by character (no escapes) starting at `start`. */
export function plainPiece(text: string, start: number): TextPiece {
  const offsets = new Array<number>(text.length);
  for (let i = 0; i < text.length; i++) offsets[i] = start + i;
  return { kind: 'text', text, offsets };
}

export function joinTexts(parts: HostText[], kind: TextKind): HostText {
  return { pieces: parts.flatMap((p) => p.pieces), kind };
}

/** The rebuilt SQL text with its origin and where each splice sits in it. */
export interface MappedSql {
  text: string;
  origin: SqlOrigin;
  /**
   * SQL-text span of each spliced value's placeholder, with the file span of the host expression and, when the
   * value came in through a variable written in the text (TextPiece `shown`), that variable's span.
   */
  splices: { sqlSpan: Span; fileSpan: Span; shown?: Span }[];
}

const TAIL = SPLICE_CONTEXT;

/**
 * Flattens pieces into one SQL text. A splice becomes a placeholder that parses as what it stands for
 * (sql/splice.ts): characters inside a quoted literal, a name where SQL expects one (after INTO, FROM, AS, USING …,
 * in a column list, before a qualifier's `.`), a number where a value goes. The
 * placeholder has the length of the host expression, so spans on it map exactly onto that expression.
 * `extent`: the file span of the expression the text was built from (the call's SQL argument), SqlOrigin.extent.
 */
export function buildMappedSql(host: HostText, extent?: Span): MappedSql {
  // The text is built from parts and joined once, and the splice tests read only the last 400 characters
  // (`tail`): slicing the end of a growing string flattened all of it for every splice, so a text
  // concatenated from 40,000 values took 30 s.
  const parts: string[] = [];
  let length = 0;
  let tail = '';
  const append = (part: string) => {
    parts.push(part);
    length += part.length;
    tail = part.length >= TAIL ? part.slice(-TAIL) : (tail + part).slice(-TAIL);
  };
  const map: number[] = [];
  const splices: MappedSql['splices'] = [];
  const spliced = new Set<number>();
  let quotes = 0; // parity of single quotes so far: odd means inside a string literal
  const pieces = host.pieces;
  for (let k = 0; k < pieces.length; k++) {
    const piece = pieces[k];
    if (piece.kind === 'text') {
      append(piece.text);
      for (let i = 0; i < piece.text.length; i++) {
        map.push(piece.offsets[i]);
        if (piece.text.charCodeAt(i) === 39) quotes++;
      }
      continue;
    }
    const size = Math.max(1, Math.min(piece.span.end - piece.span.start, 200));
    const next = pieces[k + 1];
    const placeholder = splicePlaceholder(tail, quotes % 2 === 1, size, next?.kind === 'text' ? next.text.slice(0, 8) : '');
    const start = length;
    for (let i = 0; i < size; i++) spliced.add(start + i);
    append(placeholder);
    const lastChar = Math.max(piece.span.start, piece.span.end - 1);
    for (let i = 0; i < size; i++) map.push(Math.min(piece.span.start + i, lastChar));
    splices.push(piece.shown ? { sqlSpan: { start, end: start + size }, fileSpan: piece.span, shown: piece.shown } : { sqlSpan: { start, end: start + size }, fileSpan: piece.span });
  }
  const text = parts.join('');
  const last = map.length > 0 ? map[map.length - 1] + 1 : 0;
  const origin: SqlOrigin = {
    // The expression the text was built from (fileSpanOf: a span whose ends map out of order falls back on it).
    ...(extent ? { extent } : {}),
    toFile(offset: number): number {
      if (offset < 0) return map.length > 0 ? map[0] : 0;
      if (offset >= map.length) return last;
      // Where two host pieces meet, an offset is either a token's start (next piece) or the end of
      // the previous token; a token never starts with white space, so there it is an end.
      // After a spliced value the next host piece is elsewhere in the file: there it is the value's end.
      if (offset > 0 && map[offset] !== map[offset - 1] + 1 && (/\s/.test(text[offset]) || spliced.has(offset - 1))) return map[offset - 1] + 1;
      return map[offset];
    },
  };
  return { text, origin, splices };
}

/** True when a text looks like an SQL statement this linter cares about (used to ignore other strings). */
export function looksLikeSql(text: string): boolean {
  return /^\s*(?:\(\s*)?(?:INSERT|UPDATE|DELETE|MERGE|SELECT|WITH|VALUES|CALL|CREATE|ALTER|DROP|DECLARE|SET|COMMIT|ROLLBACK|LOCK|TRUNCATE|EXECUTE|LOAD|IMPORT|EXPORT)\b/i.test(text);
}
