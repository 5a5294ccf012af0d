// Catastrophic-backtracking audit of regular-expression literals: each is run on "pumped" strings (one or
// two characters repeated, after a short prefix, before a character that makes the match fail) at two
// lengths; a regex whose time grows quadratically or worse on some pump is reported with that pump.
// Used by test/robustness/regex.test.ts and bench/regex-audit.ts (which writes bench/REGEX-AUDIT.md).
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';

export interface FoundRegex {
  where: string;
  source: string;
  flags: string;
}

/** Regex literals of every .ts file under the folders, found with the TypeScript parser (a devDependency). */
export function findRegexLiterals(root: string, folders: string[]): FoundRegex[] {
  // Loaded at run time, not bundled: the compiler is large and only this test needs it.
  const ts = createRequire(join(root, 'package.json'))('typescript') as typeof import('typescript');
  const out: FoundRegex[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
        const visit = (node: import('typescript').Node): void => {
          if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
            const text = node.getText(file);
            const slash = text.lastIndexOf('/');
            const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
            out.push({ where: `${relative(root, path)}:${line}`, source: text.slice(1, slash), flags: text.slice(slash + 1) });
          }
          ts.forEachChild(node, visit);
        };
        visit(file);
      }
    }
  };
  for (const folder of folders) walk(join(root, folder));
  return out;
}

// Characters that regexes in a SQL/plan/code linter care about; pumps are built from these and from the
// literal characters of each regex.
const ALPHABET = [' ', '\t', '\n', 'a', 'A', 'Z', 'x', '0', '1', '.', ',', '-', '_', '(', ')', '[', ']', '{', '}', '*', '/', '\\', '"', "'", ':', ';', '%', '$', '#', '@', '|', '`', '+', '=', '>', '<', '!', '&', '^', '?'];
const PREFIXES = ['', 'A', 'a', 'ABC: ', 'Abc', '1) ', '" ', '* ', '[', '{', '%', ' (', '--', '/'];
const FAIL = '\u0001';

function literalChars(source: string): string[] {
  const chars = new Set<string>();
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (/[A-Za-z0-9 :;,.#@"'=<>!%&_-]/.test(c)) chars.add(c);
  }
  return [...chars];
}

/**
 * Words the regex spells out (`QUERYNO`, `Version`), each followed by a space and by ": ", so that a pump
 * reaches the part of the regex after a keyword it requires.
 */
function literalPrefixes(source: string): string[] {
  const words = (source.replace(/\\./g, '\u0000').match(/[A-Za-z][A-Za-z0-9_]{2,}/g) ?? []).slice(0, 3);
  return words.flatMap((word) => [`${word} `, `${word}: `]);
}

/** Time of one full use of the regex on `input` (all matches for /g), in ms. */
function timeOf(re: RegExp, input: string): number {
  const t0 = process.hrtime.bigint();
  if (re.global || re.sticky) {
    re.lastIndex = 0;
    input.replace(re, '');
  } else {
    re.exec(input);
  }
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

export const SMALL = 400;
export const LARGE = 3200; // 8×: linear ≈ 8×, quadratic ≈ 64×, cubic ≈ 512×

/**
 * The first pump that shows super-linear time, or undefined. Linear work on a few thousand characters takes
 * microseconds, so a pump is only timed at the large size when the small one was measurable at all, and a
 * pump that already takes milliseconds at the small size (cubic and worse) is reported without the large run.
 */
export function slowPump(re: RegExp): { pump: string; prefix: string; shape: string; smallMs: number; largeMs?: number } | undefined {
  const literals = literalChars(re.source);
  const pumps = [...new Set([...ALPHABET, ...literals])];
  for (const a of literals.length ? literals : ['a']) for (const b of [' ', 'a', '0', ...literals]) if (a !== b) pumps.push(a + b);
  for (const shape of SHAPES) {
    for (const prefix of [...PREFIXES, ...literalPrefixes(re.source)]) {
      for (const pump of shape.pumps === 'single' ? pumps.filter((p) => p.length === 1) : pumps) {
        const small = prefix + shape.build(pump, SMALL / pump.length) + FAIL;
        const smallMs = Math.min(timeOf(re, small), timeOf(re, small));
        if (smallMs > 5 && Math.min(timeOf(re, small), timeOf(re, small)) > 5) return { pump, prefix, shape: shape.name, smallMs };
        const large = prefix + shape.build(pump, LARGE / pump.length) + FAIL;
        const largeMs = timeOf(re, large);
        if (largeMs < 3) continue;
        const again = Math.min(largeMs, timeOf(re, large));
        if (again < 3 || again / Math.max(smallMs, 0.01) <= 24) continue;
        // A busy machine or a garbage collection can make one run slow: confirm at 4× the large size, where
        // linear time grows 4× and quadratic 16×.
        const huge = prefix + shape.build(pump, (4 * LARGE) / pump.length) + FAIL;
        const hugeMs = Math.min(timeOf(re, huge), timeOf(re, huge));
        if (hugeMs / Math.max(again, 0.01) > 10) return { pump, prefix, shape: shape.name, smallMs, largeMs: again };
      }
    }
  }
  return undefined;
}

/**
 * How a pump is laid out. A pump at the end alone misses lazy-then-greedy patterns such as `(.*?)\s*$`: V8
 * fails those fast on one run, but a run, one other character, then a second run makes every lazy step rescan
 * the second run (a 211 KB db2exfmt header line took 40 s that way).
 */
const SHAPES: { name: string; pumps: 'all' | 'single'; build: (pump: string, times: number) => string }[] = [
  { name: 'pump', pumps: 'all', build: (pump, times) => pump.repeat(times) },
  { name: 'pump + "a" + pump', pumps: 'single', build: (pump, times) => pump.repeat(times) + 'a' + pump.repeat(times) },
];

/**
 * Super-linear regexes whose input is bounded where they are used, checked by reading the code:
 * file + source → why it is safe. Anything else the pumps catch fails the test.
 */
export const BOUNDED_INPUT: Record<string, string> = {
  'server/src/code/host.ts /([A-Za-z_$][\\w$]*)\\s*$/': 'simpleName() runs it on at most the last 200 characters',
  'server/src/output/sarif.ts /!?\\[([^\\]]*)\\]\\([^)]*\\)/g': 'plainText() only reads the rule docs shipped in rules/*.md',
};

export type Verdict = { kind: 'linear' } | { kind: 'bounded'; why: string } | { kind: 'super-linear'; witness: string } | { kind: 'invalid' };

/** The audit of one regex: linear on every pump, super-linear (with the witness), or allow-listed. */
export function auditRegex({ where, source, flags }: FoundRegex): Verdict {
  let re: RegExp;
  try {
    re = new RegExp(source, flags);
  } catch {
    return { kind: 'invalid' };
  }
  const why = BOUNDED_INPUT[`${where.replace(/:\d+$/, '')} /${source}/${flags}`];
  if (why) return { kind: 'bounded', why };
  const slowOne = slowPump(re);
  if (!slowOne) return { kind: 'linear' };
  const { pump, prefix, shape, smallMs, largeMs } = slowOne;
  const times =
    largeMs === undefined
      ? `×${SMALL / pump.length} already took ${smallMs.toFixed(0)} ms (worse than quadratic)`
      : `×${LARGE / pump.length} took ${largeMs.toFixed(0)} ms, ${(largeMs / Math.max(smallMs, 0.01)).toFixed(0)}× the time of an 8× shorter pump`;
  return { kind: 'super-linear', witness: `${JSON.stringify(prefix)} + ${JSON.stringify(pump)} laid out as ${shape}: ${times}, then a non-matching end` };
}
