// The same INSERT/MERGE text prepared again on every pass of the loop that executes it. A loop that prepares
// a different statement each pass (a list of statements, a CALL or SELECT per item) is something else.
import type { Rule } from '../server/src/engine/types';
import { firstRowAtATimeCall, isBulkLoop, loopName, targetName, within } from '../server/src/code-model/facts';

const PrepareInLoopRule: Rule = {
  meta: {
    id: 'prepare-in-loop',
    description: 'The same INSERT or MERGE prepared again on every pass of the loop that executes it',
    defaultSeverity: 'warning',
    reads: { code: true },
    group: 'row-at-a-time',
    evidence: ['Db2 INSERT tips, test 1', 'Db2 INSERT tips, test 2'],
    messages: {
      loop:
        '{verb} INTO {table} is prepared again on every pass of the {loop}. The text is the same each pass, so Db2 usually finds its plan in the package cache and skips the full compile; unless the driver or application server caches prepared statements, each pass still prepares (a request to the server and a lookup) and builds a new statement handle before it executes. Prepare it once before the loop and only bind and execute inside it. A full compile per row, as literal values cause, is the upper bound: Db2 INSERT tips measured 180.6 s for 10,000 rows compiled one by one vs 92.1 s prepared once (tests 1-2).',
    },
  },
  check({ file, schema, report }) {
    if (!file.code) return;
    for (const prepare of file.code.executions) {
      if (prepare.action !== 'prepare' || !isBulkLoop(prepare.loop)) continue;
      // The same text each pass: an INSERT or MERGE with nothing spliced in (a spliced value or table name
      // makes each pass a different statement, which prefer-parameter-markers reports).
      const target = prepare.statements.find((s) => s.kind === 'insert' || s.kind === 'merge');
      if (!target || prepare.splicedValues.length > 0) continue;
      const loop = prepare.loop;
      const runs = file.code.executions.filter(
        (e) => e.preparedAt && e.preparedAt.start === prepare.callSpan.start && e.loop && within(e.loop.span, loop.span),
      );
      if (runs.length === 0) continue;
      const table = 'target' in target ? targetName(prepare, target, schema) : 'the table';
      // Executed a row at a time, the statement gets single-row-insert's warning for the same pass, on its execute:
      // the prepare is the smaller part of that cost (one cause, one warning), so it is information, shown as part
      // of that finding (related information pointing here). Alone (that rule off or silenced) it stays here.
      const oneRowAtATime = runs.every((e) => !e.batched);
      const data = { verb: target.kind === 'merge' ? 'MERGE' : 'INSERT', table, loop: loopName(loop) };
      // single-row-insert reports each loop once, on its first such call (into this table or another).
      const reported = firstRowAtATimeCall(file.code.executions, runs[0]) ?? runs[0];
      report({ messageId: 'loop', data, span: prepare.callSpan, ...(oneRowAtATime ? { maxSeverity: 'information' as const, partOf: { span: reported.callSpan } } : {}) });
    }
  },
};

export default PrepareInLoopRule;
