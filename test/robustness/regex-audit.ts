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
export function slowPump(re: RegExp): { pump: string; prefix: string; smallMs: number; largeMs?: number } | undefined {
  const literals = literalChars(re.source);
  const pumps = [...new Set([...ALPHABET, ...literals])];
  for (const a of literals.length ? literals : ['a']) for (const b of [' ', 'a', '0', ...literals]) if (a !== b) pumps.push(a + b);
  for (const prefix of PREFIXES) {
    for (const pump of pumps) {
      const small = prefix + pump.repeat(SMALL / pump.length) + FAIL;
      const smallMs = Math.min(timeOf(re, small), timeOf(re, small));
      if (smallMs > 5) return { pump, prefix, smallMs };
      const large = prefix + pump.repeat(LARGE / pump.length) + FAIL;
      const largeMs = timeOf(re, large);
      if (largeMs < 3) continue;
      // The best of several runs: on a loaded machine one or two runs can be descheduled for milliseconds.
      let again = largeMs;
      for (let k = 0; k < 4 && again >= 3; k++) again = Math.min(again, timeOf(re, large));
      if (again >= 3 && again / Math.max(smallMs, 0.01) > 24) return { pump, prefix, smallMs, largeMs: again };
    }
  }
  return undefined;
}

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
  const { pump, prefix, smallMs, largeMs } = slowOne;
  const times =
    largeMs === undefined
      ? `×${SMALL / pump.length} already took ${smallMs.toFixed(0)} ms (worse than quadratic)`
      : `×${LARGE / pump.length} took ${largeMs.toFixed(0)} ms, ${(largeMs / Math.max(smallMs, 0.01)).toFixed(0)}× the time of an 8× shorter pump`;
  return { kind: 'super-linear', witness: `${JSON.stringify(prefix)} + ${JSON.stringify(pump)}${times}, then a non-matching end` };
}
