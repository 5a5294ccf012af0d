// A COMMIT for every inserted row: a commit call inside the insert loop with no counter guard, or a
// script that follows each INSERT with COMMIT.
import type { Rule } from '../server/src/engine/types';
import type { Statement } from '../server/src/sql/ast';
import { insertsOf, runsRows, sameLoop, scriptStatements } from '../server/src/code/facts';

const CommitPerRowRule: Rule = {
  meta: {
    id: 'commit-per-row',
    description: 'A commit after every inserted row',
    defaultSeverity: 'warning',
    evidence: ['000 tests 61-68', '000 tests 69-78'],
    defaultOptions: { minPairs: 3 },
    messages: {
      loop:
        'This commit runs on every pass of the {loop} loop that inserts: each commit waits for a synchronous log write. Seed 000: 10,000 prepared single-row inserts took 22.3 s committing every 5 rows vs 7.6 s every 1000 (tests 65, 68). Commit every 1000 rows or so, e.g. if (++n % 1000 == 0), and once after the loop.',
      script:
        'COMMIT after each INSERT ({count} times in this script): a synchronous log write per row. Seed 000: committing every 5 rows took 118.4 s for 10,000 rows vs 102.9 s every 1000 (tests 61, 64), and 22.3 s vs 7.6 s with a prepared statement (tests 65, 68). Commit every 1000 rows or so.',
    },
  },
  check({ file, options, report }) {
    if (file.code) {
      const inserting = file.code.executions.filter((e) => e.loop && runsRows(e) && insertsOf(e).length > 0);
      for (const commit of file.code.commits) {
        if (!commit.loop || commit.guarded) continue;
        if (!inserting.some((e) => sameLoop(e.loop, commit.loop))) continue;
        report({ messageId: 'loop', data: { loop: commit.loop.kind }, span: commit.callSpan });
      }
      return;
    }
    const statements = scriptStatements(file) ?? [];
    const pairs: Statement[] = [];
    for (let i = 1; i < statements.length; i++) {
      if (statements[i].kind === 'commit' && statements[i - 1].kind === 'insert') pairs.push(statements[i]);
    }
    if (pairs.length >= Number(options.minPairs)) report({ messageId: 'script', data: { count: pairs.length }, stmt: pairs[0], span: pairs[0].span });
  },
};

export default CommitPerRowRule;
