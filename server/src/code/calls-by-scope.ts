// Calls on a handle or a connection kept by scope, for "the latest one before this call, in its function or an
// enclosing one" in time that does not grow with the number of functions (code/model.ts, code/autocommit.ts).
import { within, type Scope } from './adapter';
import { partitionPoint } from '../engine/sorted';

/**
 * The calls on one handle or connection (a statement handle's prepares or array sizes, a connection's autocommit
 * switches), by the scope they are in, each scope's in the order the walk meets them (document order: `at` never
 * decreases within a scope). The latest before a call in its scope or an enclosing one is found without looking at
 * every call on the handle: in a file of 16,000 functions that each prepare, size and execute `hstmt`, every
 * execute went through all 32,000 of them.
 */
export class CallsByScope<T extends { at: number }> {
  /** Per scope its calls, each with its place among all calls on the handle (`seq`: the order they were added). */
  private readonly byScope = new Map<Scope, { call: T; seq: number }[]>();
  private added = 0;
  /** The last call added (in the file's document order). */
  last: T | undefined;

  add(scope: Scope, call: T): void {
    const entry = { call, seq: this.added++ };
    const list = this.byScope.get(scope);
    if (list) list.push(entry);
    else this.byScope.set(scope, [entry]);
    this.last = call;
  }

  /**
   * The last call added among those at or before `at` in `scope` or a scope enclosing it (`within`), and whether
   * any of those scopes has a call on the handle at all (before or after `at`). The enclosing scopes are the chain
   * of parents (the walk nests scopes as their nodes nest): whichever is shorter, that chain or the scopes with
   * calls, is gone through.
   */
  latest(at: number, scope: Scope): { latest?: T; enclosing: boolean } {
    let best: { call: T; seq: number } | undefined;
    let enclosing = false;
    const consider = (list: readonly { call: T; seq: number }[]) => {
      enclosing = true;
      // The first call after `at`: the one before it is this scope's latest at or before `at`.
      const after = partitionPoint(list, (entry) => entry.call.at <= at);
      if (after > 0 && (!best || list[after - 1].seq > best.seq)) best = list[after - 1];
    };
    if (this.byScope.size <= scope.depth + 1) {
      for (const [s, list] of this.byScope) if (within(scope, s)) consider(list);
    } else {
      for (let s: Scope | undefined = scope; s; s = s.parent) {
        const list = this.byScope.get(s);
        if (list) consider(list);
      }
    }
    return { latest: best?.call, enclosing };
  }
}
