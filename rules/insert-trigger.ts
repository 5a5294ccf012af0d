// INSERT triggers on a table that receives inserts: the trigger body runs for every row.
import type { Rule } from '../server/src/engine/types';
import { statementsOf } from '../server/src/engine/statements';
import type { CreateTriggerStatement, Statement } from '../server/src/sql/ast';
import { INSERTING_TRIGGER_SECONDS, UPDATING_TRIGGER_SECONDS, secsOf } from './support/measurements';
import { extraForCount, knownVolume } from './support/known-volume';
import { insertTargetFor, tableName } from './support/targets';

const InsertTriggerRule: Rule = {
  meta: {
    id: 'insert-trigger',
    description: 'INSERT trigger on a table that receives inserts',
    defaultSeverity: 'warning',
    reads: { statements: ['createTrigger'] },
    evidence: ['Db2 INSERT tips, test 11', 'Db2 INSERT tips, test 18', 'Db2 INSERT tips, test 19', 'Db2 INSERT tips, test 20', 'Db2 INSERT tips, test 21'],
    messages: {
      row:
        'Trigger {trigger} runs {body} for every row inserted into {table}{others}. Measured on 100,000 inserts (Db2 INSERT tips, tests {tests}): {one} with one such trigger, {two} with two, against 31.5 s without (test 11).{volume} Fold the work into the load itself (INSERT … SELECT, a set-based UPDATE afterwards), or disable the trigger for bulk loads when the data allows it.',
      statement:
        'Statement trigger {trigger} on {table}{others} runs once per INSERT statement. With single-row inserts that is once per row: it runs {body}. Measured on 100,000 rows (Db2 INSERT tips, tests {tests}): {one} with one row trigger of this kind, {two} with two, against 31.5 s without (test 11).{volume} Insert many rows per statement, or fold the trigger\'s work into the load.',
    },
  },
  check({ file, schema, report }) {
    for (const stmt of statementsOf(file, 'createTrigger')) {
      if (stmt.kind !== 'createTrigger' || !stmt.events.includes('insert')) continue;
      // A BEFORE trigger that only sets the new row's values or signals an error does no SQL work per row: what the
      // seed measured (tests 18-21) is a trigger that inserts or updates elsewhere.
      if (stmt.body.length > 0 && stmt.body.every(onlySetsValues)) continue;
      const table = schema.table(stmt.table, stmt);
      const target = table && insertTargetFor(schema, table, { file: file.source.path, stmt });
      if (!table || !target) continue;
      const { body, updating } = describeBody(stmt);
      const measured = updating ? UPDATING_TRIGGER_SECONDS : INSERTING_TRIGGER_SECONDS;
      const otherCount = table.triggers.filter((t) => t.name !== stmt.trigger.name && t.stmt.events.includes('insert')).length;
      // The table's INSERT triggers together, against none (test 11): one or two measured, more at two's cost each.
      // A statement trigger runs at most once per row: the rows bound its cost.
      const triggers = 1 + otherCount;
      const extra = extraForCount(measured, triggers);
      const tests = `tests ${(updating ? 20 : 18) + Math.min(triggers, 2) - 1} and 11`;
      const volume = knownVolume(schema, target, extra, triggers > 2 ? `${tests}, for ${triggers} triggers` : tests);
      report({
        messageId: stmt.granularity === 'statement' ? 'statement' : 'row',
        data: {
          trigger: stmt.trigger.name,
          body,
          table: tableName(table),
          others: otherCount > 0 ? ` (and ${otherCount} more INSERT trigger${otherCount > 1 ? 's' : ''} on it)` : '',
          tests: updating ? '20 and 21' : '18 and 19',
          one: secsOf(measured[0]),
          two: secsOf(measured[1]),
          volume: volume.sentence,
        },
        stmt,
        span: stmt.trigger.span,
        maxSeverity: volume.maxSeverity,
      });
    }
  },
};

/** SET of variables or transition columns without a fullselect, SIGNAL, and blocks of only those. */
function onlySetsValues(stmt: Statement): boolean {
  switch (stmt.kind) {
    case 'setVariable':
      return !stmt.selects;
    case 'signal':
    case 'resignal':
      return true;
    case 'compound':
      return stmt.body.every(onlySetsValues);
    default:
      return false;
  }
}

/** What the body does, for the message, and whether it updates rather than inserts (tests 20/21 vs 18/19). */
function describeBody(stmt: CreateTriggerStatement): { body: string; updating: boolean } {
  const counts = new Map<string, number>();
  for (const inner of stmt.body) {
    const kind = inner.kind === 'insert' ? 'INSERT' : inner.kind === 'other' ? inner.keyword.split(' ')[0] : inner.kind.toUpperCase();
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  const parts = [...counts].filter(([k]) => ['INSERT', 'UPDATE', 'DELETE', 'MERGE'].includes(k)).map(([k, n]) => `${n} ${k}${n > 1 ? 's' : ''}`);
  const updating = !counts.has('INSERT') && (counts.has('UPDATE') || counts.has('MERGE'));
  return { body: parts.length > 0 ? `its body (${parts.join(', ')})` : 'its body', updating };
}

export default InsertTriggerRule;
