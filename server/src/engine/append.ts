/**
 * Appends `items` to `target` one by one. `target.push(...items)` passes each item as an argument, and past about
 * 125,000 of them V8 throws a RangeError: a JCL step with 150,000 in-stream INSERTs was read as nothing.
 */
export function appendAll<T>(target: T[], items: readonly T[]): T[] {
  for (let i = 0; i < items.length; i++) target.push(items[i]);
  return target;
}
