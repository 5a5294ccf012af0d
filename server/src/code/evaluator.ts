// Evaluates host expressions to SQL text: the adapter reads literals and operators, this class follows
// variables through the scopes the walk built (latest assignment before the use, appends included).
import type { Node } from 'web-tree-sitter';
import { assignmentsNamed, scopesNaming, type Evaluator, type LanguageAdapter, type Scope } from './adapter';
import { joinTexts, type HostText } from './sqltext';

const MAX_DEPTH = 12;

export class HostEvaluator implements Evaluator {
  private depth = 0;
  private readonly active = new Set<string>();
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
    try {
      return this.adapter.evaluate(node, this);
    } finally {
      this.depth--;
    }
  }

  splice(node: Node): HostText {
    return { pieces: [{ kind: 'splice', span: { start: node.startIndex, end: node.endIndex } }], kind: 'concatenation' };
  }

  variable(name: string, at: number): HostText | undefined {
    const key = `${name}@${at}`;
    if (this.active.has(key)) return undefined;
    this.active.add(key);
    const saved = this.scope;
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
        return { pieces: joined.pieces, kind: joined.kind === 'constant' ? 'variable' : joined.kind };
      }
      return undefined;
    } finally {
      this.scope = saved;
      this.active.delete(key);
    }
  }
}

