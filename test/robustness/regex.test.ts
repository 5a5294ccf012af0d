// Every regular-expression literal in server/src and rules/ must match in linear time on pumped input
// (see regex-audit.ts). The source files are this repository's own, not ../shared.
import { strict as assert } from 'node:assert';
import { repoRoot } from './support';
import { auditRegex, findRegexLiterals } from './regex-audit';

describe('robustness: regular expressions in server/src and rules/', function () {
  this.timeout(60_000);
  const regexes = findRegexLiterals(repoRoot(), ['server/src', 'rules']);

  it('finds the regex literals to audit', () => {
    assert.ok(regexes.length > 20, `only ${regexes.length} regex literals found`);
  });

  it('none backtracks super-linearly on pumped input', () => {
    const slow: string[] = [];
    for (const found of regexes) {
      const verdict = auditRegex(found);
      if (verdict.kind === 'super-linear') slow.push(`${found.where} /${found.source}/${found.flags}: ${verdict.witness}`);
    }
    assert.deepEqual(slow, [], `super-linear regexes (use a bounded quantifier, an anchor, trimEnd(), or a loop):\n${slow.join('\n')}`);
  });
});
