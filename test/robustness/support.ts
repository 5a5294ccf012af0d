// Shared pieces of the robustness tests: fixture reading, SQL-shaped random input, mutation of real
// inputs, and a growth check that catches super-linear time without a wall-clock threshold.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { LineIndex } from '../../server/src/engine/lines';
import type { FileModel } from '../../server/src/engine/types';

/** The repository root (tests run from out/test/…, fixtures stay in test/fixtures/). */
export function repoRoot(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'test/fixtures'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no repository root above ${__dirname}`);
  }
}

export function fixture(name: string): string {
  return readFileSync(join(repoRoot(), 'test/fixtures/robustness', name), 'utf8');
}

/** Pieces that stress a Db2 lexer/splitter: quotes, comment openers, terminators, block words, odd code units. */
export const SQL_PIECES = [
  ' ', '  ', '\n', '\r\n', '\r', '\t', '\f', '\u00a0', '\ufeff', '\u0000',
  "'", "''", '"', '""', '--', '-', '/*', '*/', '/', '*', '#', '!', '@', ';', ':', '?', '.', ',', '(', ')', '((', '))',
  '--#SET TERMINATOR @\n', '--#SET TERMINATOR ;\n', '--#SET TERMINATOR END\n', '<ScriptOptions statementTerminator="!"/>',
  'BEGIN', 'BEGIN ATOMIC', 'END', 'END IF', 'END CASE', 'END WHILE', 'END FOR', 'CASE', 'IF', 'THEN', 'ELSE', 'DO',
  'WHILE', 'FOR', 'LOOP', 'REPEAT', 'CREATE', 'PROCEDURE', 'TRIGGER', 'FUNCTION', 'ALTER', 'TABLE', 'INSERT', 'INTO',
  'VALUES', 'SELECT', 'FROM', 'WITH', 'ECHO', 'label:', "X'", "x'4142'", "U&'", 'U&"', "G'", "N'", "GX'", "BX'", 'UX',
  ':h', ':h:i', ':"q', '1', '1.5', '.5', '1e', '1E+', '2e-3', '¬=', '^=', '!=', '<>', '<=', '||', '=>', '**', 'é',
  '日本', '\ud83d\ude00', '\ud800', '\udc00', 'x', 'APP.T', 'NO CACHE', 'CACHE 20',
];

/** Random text built from SQL_PIECES (most bugs hide where pieces meet). */
export function sqlish(maxPieces = 60): fc.Arbitrary<string> {
  return fc.array(fc.constantFrom(...SQL_PIECES), { maxLength: maxPieces }).map((parts) => parts.join(''));
}

/** Any JavaScript string, lone surrogates and control characters included. */
export const anyText: fc.Arbitrary<string> = fc.string({ unit: 'binary', maxLength: 200 });

type Mutation = { kind: 'delete' | 'duplicate' | 'insert' | 'truncate' | 'swap'; at: number; length: number; piece: string; other: number };

const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('delete', 'duplicate', 'insert', 'truncate', 'swap'),
  at: fc.nat(),
  length: fc.nat({ max: 40 }),
  piece: fc.oneof(fc.constantFrom(...SQL_PIECES), anyText),
  other: fc.nat(),
});

function applyMutation(text: string, m: Mutation): string {
  if (text.length === 0) return m.piece;
  const at = m.at % (text.length + 1);
  const end = Math.min(text.length, at + m.length);
  switch (m.kind) {
    case 'delete':
      return text.slice(0, at) + text.slice(end);
    case 'duplicate':
      return text.slice(0, end) + text.slice(at, end) + text.slice(end);
    case 'insert':
      return text.slice(0, at) + m.piece + text.slice(at);
    case 'truncate':
      return text.slice(0, at);
    case 'swap': {
      const other = m.other % (text.length + 1);
      const [a, b] = at < other ? [at, other] : [other, at];
      return text.slice(0, a) + text.slice(b) + text.slice(a, b);
    }
  }
}

/** The text with 1–8 random edits (deletions, duplications, insertions, truncation, swapped halves). */
export function mutated(seed: string): fc.Arbitrary<string> {
  return fc.array(mutationArb, { minLength: 1, maxLength: 8 }).map((ms) => ms.reduce(applyMutation, seed));
}

/** CPU time (user + system) of this process in ms: unlike wall time, other processes' load barely moves it. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function bestOf(runs: number, fn: () => void): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = cpuMs();
    fn();
    best = Math.min(best, cpuMs() - t0);
  }
  return best;
}

/**
 * How much more CPU time `run` takes when its input grows `factor` times: best-of-5 on make(n) against
 * best-of-3 on make(factor·n). Linear work gives about `factor` (somewhat more with garbage collection);
 * quadratic about factor². Tests compare it with a generous bound between the two (factor 8: linear ≈ 8–16,
 * quadratic ≈ 64, bound 24). A ratio over `bound` is measured up to four times more and the lowest figure kept, so
 * a scheduling or garbage-collection spike on a busy machine does not fail a test while a real quadratic
 * fails every time.
 */
export function growthRatio(
  make: (n: number) => string,
  run: (input: string) => void,
  n: number,
  factor = 8,
  bound = 24,
): { ratio: number; smallMs: number; largeMs: number } {
  const small = make(n);
  const large = make(n * factor);
  // Warm-up on both sizes: the JIT compiles the hot paths and the heap grows to its working size first.
  run(small);
  run(large);
  let best = { ratio: Infinity, smallMs: 0, largeMs: 0 };
  // (Five attempts: in a full suite a collection of its large heap landed in all three runs of the large input of
  // three attempts, 0.6 ms -> 16.3 ms for an input parsed in 2.5-5.6 ms otherwise.)
  for (let attempt = 0; attempt < 5 && best.ratio >= bound; attempt++) {
    const smallMs = Math.max(bestOf(5, () => run(small)), 0.5);
    const largeMs = bestOf(3, () => run(large));
    if (largeMs / smallMs < best.ratio) best = { ratio: largeMs / smallMs, smallMs, largeMs };
  }
  return best;
}

/**
 * growthRatio over the sizes n, 2n, 4n and 8n: the CPU time of each (best of 5, of 3 for 8n, after a warm-up run of
 * each) and the ratio of 8n's to n's, measured up to four times more when it is over `bound` (the lowest kept). Linear
 * work about doubles at each step and gives 8-16 over the three; quadratic about quadruples and gives ~64.
 */
export function growthSeries(make: (n: number) => string, run: (input: string) => void, n: number, bound = 24): { ratio: number; ms: number[] } {
  const inputs = [n, 2 * n, 4 * n, 8 * n].map(make);
  for (const input of inputs) run(input);
  let best = { ratio: Infinity, ms: [] as number[] };
  for (let attempt = 0; attempt < 5 && best.ratio >= bound; attempt++) {
    const ms = inputs.map((input, i) => Math.max(bestOf(i === 3 ? 3 : 5, () => run(input)), 0.5));
    if (ms[3] / ms[0] < best.ratio) best = { ratio: ms[3] / ms[0], ms };
  }
  return best;
}

/** A rule context's lineOf for `file`, as the engine gives it: one line index per file, made on first use. */
export function lineOfFile(file: FileModel): (offset: number) => number {
  let lines: LineIndex | undefined;
  return (offset) => (lines ??= new LineIndex(file.source.text)).line(offset) + 1;
}
