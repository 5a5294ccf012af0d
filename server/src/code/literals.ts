// Host-language string values: quoted literals decoded character by character (each character keeps its
// file offset), format templates (printf, Python braces, java.text.MessageFormat) filled with their
// arguments, `+` concatenations and joins. A value that is not a known string becomes a splice.
import type { Node } from 'web-tree-sitter';
import type { Span } from '../sql/ast';
import type { Evaluator } from './adapter';
import { joinTexts, type HostText, type TextPiece } from './sqltext';
import { appendAll } from '../engine/append';

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0', v: '\v', a: '\x07', s: ' ' };

/**
 * Decodes the characters of a quoted literal between `start` and `end` (file offsets), mapping each
 * decoded character to the offset of its source. `style` says which escapes exist; `splices` are
 * interpolation nodes inside the literal (f-string fields, ${…}, $var) that become spliced values, or the
 * text they evaluate to when `evaluate` knows it (f"INSERT INTO {TABLE} …" with TABLE a constant).
 */
export function decodeQuoted(
  source: string,
  start: number,
  end: number,
  style: 'c' | 'none' | 'bash' | 'python-f',
  splices: Node[] = [],
  evaluate?: (expression: Node) => HostText | undefined,
): TextPiece[] {
  const pieces: TextPiece[] = [];
  let text = '';
  let offsets: number[] = [];
  const flush = () => {
    if (text) pieces.push({ kind: 'text', text, offsets });
    text = '';
    offsets = [];
  };
  const sorted = splices.filter((s) => s.startIndex >= start && s.endIndex <= end).sort((a, b) => a.startIndex - b.startIndex);
  let next = 0;
  let i = start;
  while (i < end) {
    if (next < sorted.length && i === sorted[next].startIndex) {
      flush();
      const s = sorted[next++];
      const inner = innerExpression(s);
      const known = inner && evaluate ? evaluate(inner) : undefined;
      if (known) appendAll(pieces, known.pieces);
      else pieces.push({ kind: 'splice', span: innerSpliceSpan(s) });
      i = s.endIndex;
      continue;
    }
    const c = source[i];
    if (c === '\\' && style !== 'none' && i + 1 < end) {
      const d = source[i + 1];
      if (style === 'bash') {
        // In double quotes only \$ \` \" \\ and \newline are escapes.
        if (d === '\n') { i += 2; continue; }
        if ('$`"\\'.includes(d)) { text += d; offsets.push(i); i += 2; continue; }
        text += c; offsets.push(i); i++; continue;
      }
      if (d === '\n' || d === '\r') {
        // Line continuation inside a literal.
        i += d === '\r' && source[i + 2] === '\n' ? 3 : 2;
        continue;
      }
      let len = 2;
      let ch = SIMPLE_ESCAPES[d] ?? d;
      if (d === 'u' && /^[0-9a-fA-F]{4}$/.test(source.slice(i + 2, i + 6))) { ch = String.fromCharCode(parseInt(source.slice(i + 2, i + 6), 16)); len = 6; }
      else if (d === 'x' && /^[0-9a-fA-F]{2}$/.test(source.slice(i + 2, i + 4))) { ch = String.fromCharCode(parseInt(source.slice(i + 2, i + 4), 16)); len = 4; }
      else if (/[0-7]/.test(d)) {
        const m = /^[0-7]{1,3}/.exec(source.slice(i + 1, i + 4))!;
        ch = String.fromCharCode(parseInt(m[0], 8)); len = 1 + m[0].length;
      }
      text += ch; offsets.push(i); i += len; continue;
    }
    if (style === 'python-f' && (c === '{' || c === '}') && source[i + 1] === c) {
      text += c; offsets.push(i); i += 2; continue;
    }
    text += c; offsets.push(i); i++;
  }
  flush();
  return pieces;
}

const NOT_EXPRESSIONS = new Set(['format_specifier', 'type_conversion', 'comment']);

// (Each read of a node's `type` is a call into wasm: read once.)
function expressionChildren(node: Node): Node[] {
  return node.namedChildren.filter((c): c is Node => !!c && !NOT_EXPRESSIONS.has(c.type));
}

function isInterpolation(node: Node): boolean {
  const type = node.type;
  return type === 'interpolation' || type === 'template_substitution';
}

/** The one expression inside an interpolation node (`{x}`, `${x}`), if it is one. */
function innerExpression(node: Node): Node | undefined {
  if (!isInterpolation(node)) return undefined;
  const named = expressionChildren(node);
  return named.length === 1 ? named[0] : undefined;
}

/** The expression inside an interpolation node: `{x}` → x, `${x}` → x, `$x` → $x as a whole. */
function innerSpliceSpan(node: Node): Span {
  const named = expressionChildren(node);
  if (isInterpolation(node) && named.length > 0) {
    return { start: named[0].startIndex, end: named[named.length - 1].endIndex };
  }
  return { start: node.startIndex, end: node.endIndex };
}

/**
 * Format specifiers by template style: printf (%d, %s, %5.2f, %1$s; %% is a percent sign), Python braces
 * ({} {0} {name}; {{ }} are braces), MessageFormat ({0} {1,number}; '' is a quote, '…' quotes text).
 */
const FORMAT_PATTERNS = {
  // Bounded quantifiers: flags, width and precision overlap on digits, so unbounded ones backtrack.
  printf: /%(?:(\d{1,3})\$)?[-+ #0,(]{0,6}(?:\d{1,4}|\*)?(?:\.\d{1,4})?(?:hh|h|ll|l|L|q|j|z|t)?([diouxXeEfFgGaAcspnbBhHtT%])/g,
  brace: /\{\{|\}\}|\{([^{}!:]{0,100})(?:![rsa])?(?::[^{}]{0,100})?\}/g,
  message: /''|'[^']{0,200}'|\{\s{0,3}(\d{1,3})\s{0,3}(?:,[^{}]{0,100})?\}/g,
};

/** Replaces the format specifiers of a template by the given argument expressions (see FORMAT_PATTERNS). */
export function applyFormat(
  fmt: HostText,
  args: Node[],
  keywords: Map<string, Node>,
  style: keyof typeof FORMAT_PATTERNS,
  spliceOf: (n: Node) => HostText,
): HostText {
  const out: TextPiece[] = [];
  let auto = 0;
  // A fresh RegExp per call: an argument's own template is filled while this loop is in the middle of its text.
  const pattern = new RegExp(FORMAT_PATTERNS[style].source, 'g');
  for (const piece of fmt.pieces) {
    if (piece.kind !== 'text') { out.push(piece); continue; }
    let last = 0;
    let text = '';
    let offsets: number[] = [];
    const keep = (from: number, to: number) => {
      text += piece.text.slice(from, to);
      for (let k = from; k < to; k++) offsets.push(piece.offsets[k]);
    };
    const flush = () => {
      if (text) out.push({ kind: 'text', text, offsets });
      text = '';
      offsets = [];
    };
    pattern.lastIndex = 0;
    for (let m = pattern.exec(piece.text); m; m = pattern.exec(piece.text)) {
      keep(last, m.index);
      last = m.index + m[0].length;
      if (m[0] === '%%' || m[0] === '{{' || m[0] === '}}' || m[0] === "''" || (style === 'printf' && m[2] === '%')) {
        text += m[0][0];
        offsets.push(piece.offsets[m.index]);
        continue;
      }
      if (style === 'message' && m[0].startsWith("'")) {
        // Quoted MessageFormat text is copied without its quotes.
        keep(m.index + 1, last - 1);
        continue;
      }
      let arg: Node | undefined;
      if (style === 'printf') arg = m[1] ? args[Number(m[1]) - 1] : args[auto++];
      else if (style === 'message') arg = args[Number(m[1])];
      else {
        const field = (m[1] ?? '').trim();
        if (field === '') arg = args[auto++];
        else if (/^\d+$/.test(field)) arg = args[Number(field)];
        else arg = keywords.get(field.split(/[.[]/)[0]);
      }
      flush();
      if (arg) appendAll(out, spliceOf(arg).pieces);
      else out.push({ kind: 'splice', span: { start: piece.offsets[m.index], end: piece.offsets[last - 1] + 1 } });
    }
    keep(last, piece.text.length);
    flush();
  }
  return { pieces: out, kind: 'format' };
}

/**
 * `a + b + c …` as a flat list of operands (tree-sitter nests it to the left; long multi-line SQL
 * concatenations would otherwise go deeper than the evaluator's recursion limit). Each operand that is
 * not a known string becomes a spliced value; undefined when no operand is a string.
 */
export function concatenate(node: Node, ev: Evaluator, isPlus: (n: Node) => boolean): HostText | undefined {
  const operands: Node[] = [];
  let n: Node = node;
  while (isPlus(n)) {
    const right = n.childForFieldName('right');
    const left = n.childForFieldName('left');
    if (!left || !right) return undefined;
    operands.push(right);
    n = left;
  }
  operands.push(n);
  operands.reverse();
  const parts = operands.map((o) => ev.evaluate(o));
  if (parts.every((p) => !p)) return undefined;
  return joinTexts(parts.map((p, i) => p ?? ev.splice(operands[i])), 'concatenation');
}

/** `sep.join(items)` / `items.join(sep)`: the elements' texts with the separator between them. */
export function joinWithSeparator(elements: readonly (Node | null)[], sep: HostText, ev: Evaluator): HostText {
  const parts: HostText[] = [];
  for (const el of elements) {
    if (!el || el.type === 'comment') continue;
    if (parts.length > 0) parts.push(sep);
    parts.push(ev.evaluate(el) ?? ev.splice(el));
  }
  return joinTexts(parts, 'concatenation');
}
