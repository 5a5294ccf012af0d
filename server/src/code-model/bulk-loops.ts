// Which loops make a table's rows many: asked by the rules (through code-model/facts.ts) and by the schema, which
// must agree on it (a table is a bulk target when a statement runs in such a loop).
import type { Statement } from '../sql/ast';
import type { FileModel } from '../engine/types';
import type { LoopInfo } from './types';

/** Up to this many passes (a counting loop with a constant bound), a loop is not a bulk load: a few rows cost little. */
export const SMALL_LOOP_PASSES = 10;

/**
 * A loop that may run row by row for many rows: not a counting loop of SMALL_LOOP_PASSES passes or fewer, not a
 * loop over sets (chunked), not a routine's walk over the array it was handed (one call's elements), not a walk
 * over what an administrative routine returned.
 */
export function isBulkLoop(loop: LoopInfo | undefined): loop is LoopInfo {
  return !!loop && !loop.chunked && !loop.walksArray && !loop.readsAdminOutput && (loop.passes === undefined || loop.passes > SMALL_LOOP_PASSES);
}

/** The statements a file's code runs in bulk loops (isBulkLoop). */
export function statementsInBulkLoops(file: FileModel): Set<Statement> {
  const inLoop = new Set<Statement>();
  for (const e of file.code?.executions ?? []) if (isBulkLoop(e.loop)) for (const s of e.statements) inLoop.add(s);
  return inLoop;
}
