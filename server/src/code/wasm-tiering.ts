// V8 compiles WebAssembly lazily with its baseline compiler (Liftoff) and, with dynamic tiering, re-compiles
// a function that runs hot with its optimising compiler (TurboFan) on a background thread. A tree-sitter
// grammar's lexer is one huge function (the C grammar's is 40 KB of wasm, C++'s 89 KB, Bash's 160 KB):
// TurboFan spends 0.4-0.7 s of CPU on each (1.6-4 s on a loaded 2-core machine, competing with the parse
// itself) to make a parse a few percent faster.
//
// V8 (Node 20, V8 11.3) fixes whether a module tiers up dynamically when it compiles the module; a module
// compiled without dynamic tiering tiers up eagerly only while `--wasm-tier-up` is set. So a grammar
// compiled with `--no-wasm-dynamic-tiering --no-wasm-tier-up` stays on Liftoff, while the runtime module (the
// parser proper, compiled before) and grammars compiled with dynamic tiering on keep tiering up. (A CLI run
// with little code keeps the runtime and every grammar on Liftoff: frontend.ts, tierUpPays.)
// `--wasm-tier-up` stays off afterwards: set again, it would tier up every function of the Liftoff-only
// modules eagerly; it affects no module compiled with dynamic tiering (V8's default).
import { setFlagsFromString } from 'node:v8';
import { onBeforeCodeCache } from '../engine/code-paths';

/** V8 wasm tiering flags the user gave (node --…, NODE_OPTIONS): their choice is left alone. */
const USER_WASM_FLAGS = /--(?:no-)?(?:liftoff|liftoff-only|wasm-tier-up|wasm-dynamic-tiering|wasm-lazy-compilation)\b/;

function userChoseTiering(): boolean {
  return process.execArgv.some((a) => USER_WASM_FLAGS.test(a)) || USER_WASM_FLAGS.test(process.env.NODE_OPTIONS ?? '');
}

/**
 * Runs `compile` (which compiles one wasm module); with `tierUp` false the module stays on Liftoff. Nothing
 * changes when the user set V8's wasm tiering flags, or when V8 refuses the flags: the module then tiers
 * up as V8 decides, which is only slower to start.
 */
export async function withWasmTierUp<T>(tierUp: boolean, compile: () => Promise<T>): Promise<T> {
  if (tierUp || userChoseTiering()) return compile();
  try {
    setFlagsFromString('--no-wasm-tier-up');
    tierUpCleared = true;
    onBeforeCodeCache(restoreWasmFlags);
    setFlagsFromString('--no-wasm-dynamic-tiering');
  } catch {
    return compile();
  }
  try {
    return await compile();
  } finally {
    setFlagsFromString('--wasm-dynamic-tiering');
  }
}

/** Whether withWasmTierUp turned `--wasm-tier-up` off in this process. */
let tierUpCleared = false;

/**
 * Sets V8's flags back as the process started with them, for writing V8's code cache as the process ends
 * (bin/insertlint.js): V8 stamps a cache with a hash of the flags and refuses it in a process whose flags
 * differ, so a cache written while `--wasm-tier-up` was off was refused by every later run, which compiled
 * the bundle again and wrote the cache again. Only when no more wasm is to be compiled.
 */
export function restoreWasmFlags(): void {
  if (!tierUpCleared) return;
  setFlagsFromString('--wasm-tier-up');
  tierUpCleared = false;
}
