// How many passes a loop makes, when the code says so with constants: `for (int i = 0; i < 5; i++)`,
// `i <= N` with `final int N = 8`, `i = FIRST; i < FIRST + N`, `for x in range(1, 6)`. The per-row rules leave small loops alone.
import type { Node } from 'web-tree-sitter';
import { assignmentsNamed, scopesNaming, type Scope } from './adapter';

/**
 * Passes of a counting loop with a constant bound: for (i = 0; i < 5; i++), i <= N with N assigned a number,
 * for x in range(5) / range(1, 6). Undefined for anything else.
 */
export function constantPasses(loop: Node, scope: Scope): number | undefined {
  const condition = loop.childForFieldName('condition');
  if (condition?.type === 'binary_expression' && condition.childForFieldName('left')?.type === 'identifier') {
    const op = condition.childForFieldName('operator')?.text;
    // The start: what the initializer assigns (int i = 0, let i = FIRST, i = 1); not one of several (i = 0, j = 5).
    const initText = loop.childForFieldName('initializer')?.text ?? loop.childForFieldName('init')?.text ?? '';
    const init = initText.includes(',') ? null : /=\s*([^=;]+?)\s*;?\s*$/.exec(initText);
    const start = init ? valueOfText(init[1], scope) : undefined;
    const limit = valueOfText(condition.childForFieldName('right')?.text ?? '', scope);
    if (start === undefined || limit === undefined || (op !== '<' && op !== '<=')) return undefined;
    return Math.max(0, limit - start + (op === '<=' ? 1 : 0));
  }
  const range = loop.childForFieldName('right');
  if (range?.type === 'call' && /^x?range$/.test(range.childForFieldName('function')?.text ?? '')) {
    const args = range.childForFieldName('arguments')?.namedChildren.filter((a): a is Node => !!a) ?? [];
    const bounds = args.map((a) => valueOfText(a.text, scope));
    if (args.length === 1 && bounds[0] !== undefined) return bounds[0];
    if (args.length === 2 && bounds[0] !== undefined && bounds[1] !== undefined) return bounds[1] - bounds[0];
  }
  return undefined;
}

/**
 * The value of a constant integer expression as written: a literal, a name of an enclosing scope assigned one
 * literal (final int N = 5), or a sum or difference of those, in parentheses or not (STARTING_ID + RECORDS).
 */
function valueOfText(text: string, scope: Scope): number | undefined {
  const terms = /^\(?\s*([A-Za-z_]\w*|\d{1,9})\s*(?:([-+])\s*([A-Za-z_]\w*|\d{1,9})\s*)?\)?$/.exec(text.trim());
  if (!terms) return undefined;
  const first = termValue(terms[1], scope);
  if (first === undefined || terms[2] === undefined) return first;
  const second = termValue(terms[3], scope);
  if (second === undefined) return undefined;
  return terms[2] === '+' ? first + second : first - second;
}

/** An integer literal, or a variable of an enclosing scope assigned one (final int N = 5). */
function termValue(term: string, scope: Scope): number | undefined {
  if (/^\d{1,9}$/.test(term)) return Number(term);
  for (const s of scopesNaming(scope, term)) {
    const own = assignmentsNamed(s, term);
    if (own.length > 0) return own.length === 1 && /^\d{1,9}$/.test(own[0].value.text) ? Number(own[0].value.text) : undefined;
  }
  return undefined;
}

/**
 * What a C/C++ loop counts to or walks when its function was handed it: `i < *numSlots`, `i < n`, `i < batch->count`
 * (a parameter, through a pointer or its fields), `for (auto& row : rows)`. The function then has the rows of all the
 * loop's passes at once (LoopInfo.receives). Undefined for anything else.
 */
export function receivedBound(loop: Node, scope: Scope): { fn: string; count: string } | undefined {
  const fn = scope.fn;
  if (!fn?.functionName || !fn.params || fn.params.length === 0) return undefined;
  let bound: Node | null = null;
  const condition = loop.childForFieldName('condition');
  const walks = loop.type === 'for_range_loop';
  if (condition?.type === 'binary_expression' && condition.childForFieldName('left')?.type === 'identifier') {
    const op = condition.childForFieldName('operator')?.text;
    if (op === '<' || op === '<=' || op === '!=') bound = condition.childForFieldName('right');
  } else if (walks) {
    bound = loop.childForFieldName('right');
  }
  if (!bound || bound.text.length > 100) return undefined;
  const text = bound.text.replace(/\s+/g, '');
  const root = RECEIVED.exec(text);
  if (!root || !fn.params.includes(root[1])) return undefined;
  return { fn: fn.functionName, count: walks ? `the size of ${text}` : text };
}

/** `n`, `*numSlots`, `(*numSlots)`, `batch->count`, `rows.size()`: the name it starts from. */
const RECEIVED = /^\(?\*?([A-Za-z_]\w*)(?:(?:->|\.)[A-Za-z_]\w*(?:\(\))?){0,3}\)?$/;
