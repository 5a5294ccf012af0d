// The text a COBOL data item holds when dynamic SQL runs it (`PREPARE s FROM :WS-SQL`, `EXECUTE IMMEDIATE
// :WS-SQL`): a `VALUE 'literal'` (continued literals joined), `MOVE 'literal' TO item`, `MOVE other TO item`,
// or `STRING 'INSERT … VALUES (' WS-ACCT ', ' … DELIMITED BY SIZE INTO item`, where a data item whose text
// is not known is spliced in (sqltext.ts: a placeholder that maps onto the item's name). For a VARCHAR host
// variable (a group whose 49-level items are the length and the text) the text item's value is used.
import type { Span } from '../../sql/ast';
import { plainPiece, type HostText, type TextPiece } from '../sqltext';
import type { Expanded, PlacedToken } from './expand';
import { appendAll } from '../../engine/append';
import { partitionPoint } from '../../engine/sorted';

interface Assignment {
  /** Token index of the statement, to take the last one before the use. */
  index: number;
  text: HostText;
}

export interface DataTexts {
  /** The text item `name` holds at token `index` (the last assignment before it, else any), or undefined. */
  textOf(name: string, index: number): HostText | undefined;
}

const LEVEL = /^(?:0?[1-9]|[1-4][0-9]|77)$/;

export function dataTexts(program: Expanded): DataTexts {
  const tokens = program.tokens;
  const assignments = new Map<string, Assignment[]>();
  /** Group item → its 49-level children (VARCHAR length + text). */
  const children = new Map<string, string[]>();
  const assign = (name: string, index: number, text: HostText) => {
    const list = assignments.get(name);
    if (list) list.push({ index, text });
    else assignments.set(name, [{ index, text }]);
  };
  const lookup = (name: string, index: number, depth = 0): HostText | undefined => {
    const list = assignments.get(name);
    if (list && list.length > 0) {
      // In token order: the last one before `index` (binary search), else the last of all.
      const after = partitionPoint(list, (a) => a.index < index);
      return (after > 0 ? list[after - 1] : list[list.length - 1]).text;
    }
    if (depth > 2) return undefined;
    for (const child of [...(children.get(name) ?? [])].reverse()) {
      const text = lookup(child, index, depth + 1);
      if (text) return text;
    }
    return undefined;
  };
  const groups: { name: string; level: number }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i].token;
    if (t.kind !== 'word') continue;
    if (LEVEL.test(t.text) && tokens[i + 1]?.token.kind === 'word' && (i === 0 || tokens[i - 1].token.kind === 'period')) {
      const level = Number(t.text);
      const name = tokens[i + 1].token.text;
      while (groups.length > 0 && groups[groups.length - 1].level >= level) groups.pop();
      if (level === 49 && groups.length > 0) {
        const parent = groups[groups.length - 1].name;
        children.set(parent, [...(children.get(parent) ?? []), name]);
      }
      groups.push({ name, level });
      let j = i + 2;
      while (j < tokens.length && tokens[j].token.kind !== 'period' && tokens[j].token.text !== 'VALUE' && tokens[j].token.text !== 'VALUES') j++;
      if (tokens[j]?.token.text === 'VALUE' || tokens[j]?.token.text === 'VALUES') {
        if (tokens[j + 1]?.token.text === 'IS') j++;
        const literal = literalsAt(program, j + 1);
        if (literal) assign(name, i, literal.text);
      }
      continue;
    }
    if (t.text === 'MOVE') {
      const source = tokens[i + 1];
      const literal = literalsAt(program, i + 1);
      const to = literal ? literal.next : i + 2;
      if (tokens[to]?.token.text !== 'TO') continue;
      const target = tokens[to + 1]?.token;
      if (target?.kind !== 'word') continue;
      const text = literal?.text ?? (source?.token.kind === 'word' ? lookup(source.token.text, i) : undefined);
      if (text) assign(target.text, i, text);
      continue;
    }
    if (t.text === 'STRING') {
      const built = stringStatement(program, i, lookup);
      if (built) assign(built.into, i, built.text);
    }
  }
  return { textOf: (name, index) => lookup(name.toUpperCase(), index) };
}

/** Consecutive literal tokens from `i` (a literal continued on the next line is two tokens), joined. */
function literalsAt(program: Expanded, i: number): { text: HostText; next: number } | undefined {
  const pieces: TextPiece[] = [];
  let j = i;
  while (program.tokens[j]?.token.kind === 'literal') {
    pieces.push(literalPiece(program, program.tokens[j]));
    j++;
  }
  return pieces.length > 0 ? { text: { pieces, kind: 'constant' }, next: j } : undefined;
}

/** The characters inside a literal, doubled quotes undoubled, each mapped to the file (or to the COPY line). */
function literalPiece(program: Expanded, placed: PlacedToken): TextPiece {
  const raw = placed.token.text;
  const quote = raw[0];
  const closed = raw.length > 1 && raw.endsWith(quote);
  const inner = raw.slice(1, closed ? -1 : undefined);
  let text = '';
  const offsets: number[] = [];
  const base = placed.token.start + 1;
  for (let k = 0; k < inner.length; k++) {
    text += inner[k];
    offsets.push(placed.unit === 0 ? base + k : clampTo(placed.at, k));
    if (inner[k] === quote && inner[k + 1] === quote) k++;
  }
  return placed.unit === 0 && text.length === inner.length ? plainPiece(text, base) : { kind: 'text', text, offsets };
}

function clampTo(at: Span, k: number): number {
  return at.start + Math.min(k, Math.max(0, at.end - at.start - 1));
}

/**
 * `STRING item … DELIMITED BY x … INTO target`: literals are text, items with a known text are that text,
 * other items are spliced values (their span; the rules name them).
 */
function stringStatement(program: Expanded, i: number, lookup: (name: string, index: number) => HostText | undefined): { into: string; text: HostText } | undefined {
  const tokens = program.tokens;
  const pieces: TextPiece[] = [];
  let kind: HostText['kind'] = 'constant';
  for (let j = i + 1; j < tokens.length && j < i + 400; j++) {
    const t = tokens[j].token;
    if (t.kind === 'period' || t.kind === 'exec') return undefined;
    if (t.text === 'DELIMITED') {
      j += tokens[j + 1]?.token.text === 'BY' ? 2 : 1;
      continue;
    }
    if (t.text === 'INTO') {
      const target = tokens[j + 1]?.token;
      return target?.kind === 'word' ? { into: target.text, text: { pieces, kind } } : undefined;
    }
    if (t.kind === 'literal') pieces.push(literalPiece(program, tokens[j]));
    else if (t.kind === 'word' && (/^\d+$/.test(t.text) || t.text === 'SPACE' || t.text === 'SPACES')) {
      pieces.push(plainPiece(/^\d/.test(t.text) ? t.text : ' ', tokens[j].at.start));
    } else if (t.kind === 'word') {
      const known = lookup(t.text, i);
      if (known) appendAll(pieces, known.pieces);
      else {
        pieces.push({ kind: 'splice', span: tokens[j].at });
        kind = 'concatenation';
      }
    }
  }
  return undefined;
}
