// SQL text that SQL PL builds at run time: the string expression of EXECUTE IMMEDIATE and PREPARE … FROM,
// and of the SET/DECLARE … DEFAULT that filled a variable used there. Literals and values joined with ||
// (or CONCAT) become one text where each value is a placeholder that parses as what it stands for; the
// text is parsed like any SQL, with an origin that maps every offset back to the file.
import type { DynamicSql, Span, SqlOrigin } from '../ast';
import { TK_STRING, TK_WORD, TK_LPAREN, TK_RPAREN, TK_OP } from '../lexer';
import type { Parser } from '../parser';
import { splicePlaceholder } from '../splice';

/** A piece of built SQL text: characters of a literal (with the parser-text offset of each), or a value. */
export type TextPiece = { kind: 'text'; text: string; offsets: number[] } | { kind: 'splice'; span: Span };

/** The pieces of a string expression and how it was built; undefined when it holds no SQL text at all. */
export interface BuiltText {
  pieces: TextPiece[];
  textKind: DynamicSql['textKind'];
}

/**
 * Most pieces a text may have. A routine that appends to a variable statement after statement copies its
 * pieces each time; past this the text is taken as unknown, so time stays linear in the routine.
 */
const MAX_PIECES = 400;

/**
 * Reads the string expression in tokens [a, b): operands joined by || or CONCAT at nesting level 0.
 * A literal is text; a variable whose text is known (`known`) brings its pieces; anything else is a value
 * spliced in. Undefined when no operand is a literal or a known variable (the text cannot be known).
 */
export function readStringExpression(p: Parser, a: number, b: number, known: ReadonlyMap<string, TextPiece[]>): BuiltText | undefined {
  // EXECUTE IMMEDIATE ('…' || x): parentheses around the whole expression.
  while (b - a > 2 && p.t.kind[a] === TK_LPAREN && p.afterBalanced(a) === b) {
    a++;
    b--;
  }
  const pieces: TextPiece[] = [];
  let operands = 0;
  let fromText = 0;
  let fromVariable = 0;
  let depth = 0;
  let start = a;
  const operand = (x: number, y: number): void => {
    if (y <= x) return;
    operands++;
    if (y - x === 1 && p.t.kind[x] === TK_STRING && isPlainString(p, x)) {
      pieces.push(literalPiece(p, x));
      fromText++;
      return;
    }
    const variable = y - x === 1 && p.t.kind[x] === TK_WORD ? known.get(p.upper(x)) : undefined;
    if (variable) {
      for (const piece of variable) pieces.push(piece);
      fromVariable++;
      return;
    }
    pieces.push({ kind: 'splice', span: p.rangeSpan(x, y) });
  };
  for (let i = a; i < b; i++) {
    const k = p.t.kind[i];
    if (k === TK_LPAREN) depth++;
    else if (k === TK_RPAREN) depth--;
    else if (depth === 0 && ((k === TK_OP && p.isOp(i, '||')) || p.kw(i, 'CONCAT'))) {
      operand(start, i);
      start = i + 1;
    }
  }
  operand(start, b);
  if ((fromText === 0 && fromVariable === 0) || pieces.length > MAX_PIECES) return undefined;
  const textKind = operands === 1 ? (fromText === 1 ? 'constant' : 'variable') : 'concatenation';
  return { pieces, textKind };
}

/** A quoted literal without a prefix (X'…', N'…' and U&'…' are not SQL text). */
function isPlainString(p: Parser, i: number): boolean {
  return p.text.charCodeAt(p.t.start[i]) === 39;
}

/** The characters of '…' with '' read as one quote, each mapped to its offset in the parser's text. */
function literalPiece(p: Parser, i: number): TextPiece {
  const s = p.t.start[i] + 1;
  const e = Math.max(s, p.t.end[i] - 1);
  let text = '';
  const offsets: number[] = [];
  for (let j = s; j < e; j++) {
    const c = p.text.charCodeAt(j);
    text += p.text[j];
    offsets.push(j);
    if (c === 39 && p.text.charCodeAt(j + 1) === 39) j++;
  }
  return { kind: 'text', text, offsets };
}

/** The built text, its map to the parser's text, and the placeholders standing for spliced values. */
export function flatten(pieces: readonly TextPiece[]): { text: string; map: number[]; spliced: boolean[]; splices: Span[] } {
  let text = '';
  const map: number[] = [];
  const spliced: boolean[] = [];
  const splices: Span[] = [];
  let quotes = 0; // parity of single quotes so far: odd means inside a string literal
  for (let k = 0; k < pieces.length; k++) {
    const piece = pieces[k];
    if (piece.kind === 'text') {
      text += piece.text;
      for (let i = 0; i < piece.text.length; i++) {
        map.push(piece.offsets[i]);
        spliced.push(false);
        if (piece.text.charCodeAt(i) === 39) quotes++;
      }
      continue;
    }
    // A placeholder as long as the value's expression, so spans on it map onto the expression exactly.
    const length = Math.max(1, Math.min(piece.span.end - piece.span.start, 200));
    const next = pieces[k + 1];
    text += splicePlaceholder(text, quotes % 2 === 1, length, next?.kind === 'text' ? next.text.slice(0, 8) : '');
    const last = Math.max(piece.span.start, piece.span.end - 1);
    for (let i = 0; i < length; i++) {
      map.push(Math.min(piece.span.start + i, last));
      spliced.push(true);
    }
    splices.push(piece.span);
  }
  return { text, map, spliced, splices };
}

/**
 * An origin for text built from pieces: through `map` into the parser's text, then through its origin. `extent`: the
 * file span of the string expression it was built from (SqlOrigin.extent), for a span whose ends map out of order
 * (a variable SET after the one it is joined to: `SET s = head || tail`).
 */
export function builtOrigin(built: { text: string; map: readonly number[]; spliced: readonly boolean[] }, outer: SqlOrigin, extent?: Span): SqlOrigin {
  const { text, map, spliced } = built;
  const end = map.length > 0 ? map[map.length - 1] + 1 : 0;
  return {
    ...(extent ? { extent } : {}),
    toFile(offset: number): number {
      if (map.length === 0) return outer.toFile(0);
      if (offset <= 0) return outer.toFile(map[0]);
      if (offset >= map.length) return outer.toFile(end);
      // Where two pieces meet, an offset is a token's start (next piece) or the end of the token before:
      // a token never starts with white space, and after a spliced value the next piece is elsewhere.
      if (map[offset] !== map[offset - 1] + 1 && (/\s/.test(text[offset]) || spliced[offset - 1])) return outer.toFile(map[offset - 1] + 1);
      return outer.toFile(map[offset]);
    },
  };
}
