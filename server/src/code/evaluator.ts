// Evaluates host expressions to SQL text: the adapter reads literals and operators, this class follows
// variables through the scopes the walk built (latest assignment before the use, appends included).
import type { Node } from 'web-tree-sitter';
import { assignmentsNamed, scopesNaming, type Assignment, type Evaluator, type LanguageAdapter, type Scope } from './adapter';
import { joinTexts, type HostText, type TextPiece } from './sqltext';

const MAX_DEPTH = 12;

/** Words of a statement's structure: a text holding one is more than values (the INSERT itself, a VALUES clause). */
const STATEMENT_WORD = /\b(?:INSERT|INTO|VALUES|SELECT|FROM|WHERE|MERGE|UPDATE|DELETE|USING|SET|CALL|WITH)\b/i;

export class HostEvaluator implements Evaluator {
  private depth = 0;
  private readonly active = new Set<string>();
  /** The expressions being evaluated, innermost last: the reference a variable() call was made for. */
  private readonly nodes: Node[] = [];
  constructor(
    readonly source: string,
    private readonly adapter: LanguageAdapter,
    private scope: Scope,
  ) {}

  at(scope: Scope): this {
    this.scope = scope;
    return this;
  }

  evaluate(node: Node): HostText | undefined {
    if (this.depth > MAX_DEPTH) return undefined;
    this.depth++;
    this.nodes.push(node);
    try {
      const text = this.adapter.evaluate(node, this);
      // The expression an adapter hands over (a call's SQL argument): where its statements' spans fall back
      // (SqlOrigin.extent). Noted on a copy: a text may be shared (a variable's value read again).
      return text && this.depth === 1 ? { ...text, from: { start: node.startIndex, end: node.endIndex } } : text;
    } finally {
      this.nodes.pop();
      this.depth--;
    }
  }

  splice(node: Node): HostText {
    return { pieces: [{ kind: 'splice', span: { start: node.startIndex, end: node.endIndex } }], kind: 'concatenation' };
  }

  assignedBefore(name: string, at: number): readonly Assignment[] | undefined {
    for (const scope of scopesNaming(this.scope, name)) {
      const own = assignmentsNamed(scope, name);
      if (own.length === 0) continue;
      const before = own.filter((a) => a.at <= at);
      let base = -1;
      for (let i = before.length - 1; i >= 0; i--) if (!before[i].append) { base = i; break; }
      return base < 0 ? undefined : before.slice(base);
    }
    return undefined;
  }

  variable(name: string, at: number): HostText | undefined {
    const key = `${name}@${at}`;
    if (this.active.has(key)) return undefined;
    this.active.add(key);
    const saved = this.scope;
    // The reference being read (`insert_row` in f"… VALUES ({insert_row})"): adapters call variable() from evaluate().
    const top = this.nodes[this.nodes.length - 1];
    const ref = top && top.startIndex === at ? top : undefined;
    try {
      for (const scope of scopesNaming(this.scope, name)) {
        const own = assignmentsNamed(scope, name);
        if (own.length === 0) continue;
        const inner = scope === saved;
        const before = own.filter((a) => a.at <= at);
        const candidates = before.length > 0 || inner ? before : own;
        let base = -1;
        for (let i = candidates.length - 1; i >= 0; i--) if (!candidates[i].append) { base = i; break; }
        if (base < 0) return undefined;
        const parts: HostText[] = [];
        for (let i = base; i < candidates.length; i++) {
          const a = candidates[i];
          // An append inside a loop that the use is not in repeats an unknown number of times.
          if (a.append && a.loop && !(a.loop.span.start <= at && at <= a.loop.span.end)) return undefined;
          this.scope = scope;
          const value = this.evaluate(a.value);
          // An appended value that is not a known string is spliced in (sb.append(name)).
          if (!value && (!a.append || parts.length === 0)) return undefined;
          parts.push(value ?? this.splice(a.value));
        }
        const joined = joinTexts(parts, parts.length > 1 ? 'concatenation' : parts[0].kind);
        return { pieces: ref ? shownThrough(joined.pieces, ref) : joined.pieces, kind: joined.kind === 'constant' ? 'variable' : joined.kind };
      }
      return undefined;
    } finally {
      this.scope = saved;
      this.active.delete(key);
    }
  }
}

/**
 * A variable that holds values built from spliced expressions, and no statement words (`insert_row` built from
 * `value`: f"{insert_row},{value}"), is what the statement's text shows: its splices are named by it. The outermost
 * such variable wins, as the evaluation returns outwards; a variable holding the INSERT itself names nothing.
 */
function shownThrough(pieces: TextPiece[], ref: Node): TextPiece[] {
  if (!pieces.some((p) => p.kind === 'splice')) return pieces;
  // The text outside quoted literals: 'NULL' or 'x' inside quotes is data, not a word of the statement.
  let words = '';
  let quoted = false;
  for (const p of pieces) {
    if (p.kind !== 'text') continue;
    for (const c of p.text) {
      if (c === "'") quoted = !quoted;
      else if (!quoted) words += c;
    }
    words += ' ';
  }
  if (STATEMENT_WORD.test(words)) return pieces;
  const shown = { start: ref.startIndex, end: ref.endIndex };
  return pieces.map((p) => (p.kind === 'splice' ? { ...p, shown } : p));
}
