// The engine's clock: milliseconds from a fixed point of the process (or worker thread), for file timings and
// time budgets. Read from process.hrtime, not the global `performance`: that global is a lazy getter which
// loads node:perf_hooks and a dozen internal modules on first use, ~0.8 ms (several on a loaded machine) of
// every CLI run, all of it charged to the first file read. Only differences of two readings on one thread mean
// anything, as with performance.now().

const origin = process.hrtime.bigint();

/** Milliseconds since this module was loaded, with sub-microsecond resolution. */
export function nowMs(): number {
  return Number(process.hrtime.bigint() - origin) / 1e6;
}
