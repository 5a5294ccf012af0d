// Writes bench/REGEX-AUDIT.md: every regular-expression literal in server/src and rules/ with its verdict
// from the pumped-input audit (test/robustness/regex-audit.ts). Usage (from the repository root):
//   node bench/bundle.mjs bench/regex-audit.ts bench/.work/regex-audit.cjs && node bench/.work/regex-audit.cjs
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditRegex, findRegexLiterals, LARGE, SMALL } from '../test/robustness/regex-audit';

const root = process.cwd();
const regexes = findRegexLiterals(root, ['server/src', 'rules']);
const rows: string[] = [];
const counts: Record<string, number> = { linear: 0, bounded: 0, 'super-linear': 0, invalid: 0 };
for (const found of regexes) {
  const verdict = auditRegex(found);
  counts[verdict.kind]++;
  const text =
    verdict.kind === 'linear'
      ? 'linear on every pump'
      : verdict.kind === 'bounded'
        ? `super-linear, but only on bounded input: ${verdict.why}`
        : verdict.kind === 'super-linear'
          ? `**SUPER-LINEAR**: ${verdict.witness}`
          : 'not valid in this Node';
  const pattern = `/${found.source}/${found.flags}`.replace(/\|/g, '\\|').replace(/`/g, '\\`');
  rows.push(`| ${found.where} | \`${pattern}\` | ${text} |`);
}
const doc = [
  '# Regex audit (catastrophic backtracking)',
  '',
  `Generated ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} by bench/regex-audit.ts; the same check runs in test/robustness/regex.test.ts.`,
  `Each regex literal in server/src and rules/ was run on pumped strings (14 prefixes × one- and two-character pumps from a`,
  `40-character alphabet plus the regex's own literal characters, then a character that makes it fail) of ${SMALL} and ${LARGE}`,
  'characters. Linear matching grows 8×; a regex is reported when it grows more than 24× (quadratic ≈ 64×) or already takes',
  `over 5 ms at ${SMALL} characters. "Linear on every pump" is evidence, not proof: the pumps are a heuristic.`,
  '',
  `${regexes.length} regexes: ${counts.linear} linear, ${counts.bounded} super-linear on bounded input only, ${counts['super-linear']} super-linear, ${counts.invalid} not compiled.`,
  '',
  '| where | regex | verdict |',
  '|---|---|---|',
  ...rows,
  '',
].join('\n');
writeFileSync(join(root, 'bench/REGEX-AUDIT.md'), doc);
console.log(`${regexes.length} regexes: ${JSON.stringify(counts)}`);
