// Binary search over sorted items, shared by the places that look up an offset, a line or a column among
// items kept in order (statements, comments, assignments, plan boxes).

/**
 * The index of the first of `items[from…]` for which `before` is false, when `before` holds for a prefix of
 * them and for none after (items in order of what `before` compares): items.length when it holds for all.
 */
export function partitionPoint<T>(items: readonly T[], before: (item: T) => boolean, from = 0): number {
  let low = from;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (before(items[mid])) low = mid + 1;
    else high = mid;
  }
  return low;
}
