// A COMMIT for every inserted row: a commit call inside the insert loop with no counter guard, or a
// script that follows each INSERT with COMMIT.
import type { FileLanguage, Rule } from '../server/src/engine/types';
import type { Statement } from '../server/src/sql/ast';
import type { CommitCall, LoopInfo, SqlExecution } from '../server/src/code-model/types';
import { countText, runReportOf } from './support/runs';
import { writesSeedRows } from './support/targets';
import { andList } from '../server/src/engine/merge';
import { perRowCallee, isBulkLoop, isSingleRowValues, loopName, runsRows, scriptUnits, singleRowInsertOf, targetName } from '../server/src/code-model/facts';

/** Seed 000, committing every 5 rows against every 1000: prepared once (tests 65, 68), a new text per row (tests 61, 64). */
const MEASURED_PREPARED = '10,000 prepared single-row inserts at 22.3 s committing every 5 rows vs 7.6 s every 1000 (tests 65, 68)';
const MEASURED_LITERAL = '10,000 single-row inserts whose text carries the values, each compiled anew, at 118.4 s committing every 5 rows vs 102.9 s every 1000 (tests 61, 64): the compiles weigh more than the commits there';

/**
 * The fix for a code loop. A loop lent through a function it calls once per row (DayTrader's populate loop calling
 * createQuote(), which commits): that function cannot count rows across calls, so the commit moves to the caller.
 */
/** A loop's place in its file: what sameLoop compares. */
function loopSpanKey(loop: LoopInfo): string {
  return `${loop.span.start}:${loop.span.end}`;
}

function loopAdvice(loop: LoopInfo, counter: string, api: string, execution: SqlExecution): string {
  const connection = execution.connection?.name;
  const first = perRowCallee(loop);
  if (first) {
    return `The loop calls ${first}() once per row and each call commits: leave the commit to the caller, which can commit every 1000 rows or so with a counter (${counter}) and once after the loop.`;
  }
  // SQLAlchemy: a `with engine.begin()` block opened per row commits at its end, as a commit() per row does. Its two
  // styles are not mixed: "commit as you go" on one connection or session (commit() when the counter says), or one
  // engine.begin() block for all the rows.
  if (api === 'sqlalchemy' && execution.construct === 'orm') {
    // The ORM sends the objects added since the last flush at the commit: one commit after the loop sends them together.
    const name = connection ?? 'session';
    return `Keep one ${name} for the whole loop and commit it once after the loop, or every 1000 rows or so with a counter (${counter}): each commit flushes the objects added since the last one together; or pass the rows as one list of dicts to ${name}.execute(insert(Model), rows).`;
  }
  if (api === 'jpa' || api === 'hibernate') {
    // A commit flushes what was persisted since the last one: one commit after the loop sends the entities together.
    return `Commit once after the loop, or every 1000 entities or so with a counter (${counter}), with flush() and clear() there to keep the persistence context small: the flush at a commit sends the entities persisted since the last one together (as JDBC batches when hibernate.jdbc.batch_size is set).`;
  }
  if (api === 'sqlalchemy') {
    const name = connection ?? 'conn';
    return `Keep one ${name} for the whole loop, opened before it (with engine.connect() as conn:, or with Session(engine) as session:), and commit as you go: ${name}.commit() every 1000 rows or so with a counter (${counter}) and once after the loop; or pass the rows as one list of dicts to ${name}.execute(${execution.construct === 'core' ? 'insert(table)' : 'text(sql)'}, rows).`;
  }
  if (api === 'django') {
    // A `with transaction.atomic():` block opened on every pass commits at its end on every pass.
    return `Open the transaction.atomic() block around the loop rather than inside it (or one per 1000 rows or so: a block around each chunk of rows): the outermost atomic block commits at its end; better, insert the objects with one Model.objects.bulk_create(objs, batch_size=1000) inside it.`;
  }
  if (api === 'sequelize') {
    // sequelize.transaction() opened and committed per pass, or a managed transaction (callback) per pass.
    return `Open one transaction before the loop (const t = await sequelize.transaction()), pass { transaction: t } to each call and commit it once after the loop, or every 1000 rows or so with a counter (${counter}), opening the next one then; or insert the rows with one Model.bulkCreate(rows, { transaction: t }).`;
  }
  return `Commit every 1000 rows or so, with a counter (${counter}), and once after the loop.`;
}

const CommitPerRowRule: Rule = {
  meta: {
    id: 'commit-per-row',
    description: 'A commit after every inserted row',
    defaultSeverity: 'warning',
    reads: { statements: ['insert'], code: true },
    group: 'row-at-a-time',
    evidence: ['Db2 INSERT tips, tests 61-68', 'Db2 INSERT tips, tests 69-78'],
    defaultOptions: { minPairs: 3 },
    messages: {
      loop:
        'Commit on every pass of the {loop} that inserts into {table}. Each commit waits for a synchronous log write: Db2 INSERT tips measured {measured}. {advice}',
      cobolLoop:
        'Commit on every pass of the {loop} that inserts into {table}. Each commit waits for a synchronous log write: Db2 INSERT tips measured {measured}. Count the rows (ADD 1 TO WS-ROWS) and commit when the count reaches 1000 or so (IF WS-ROWS >= 1000 … COMMIT … MOVE 0 TO WS-ROWS), and once after the loop.',
      routineLoop:
        'COMMIT on every pass of the {loop} that inserts into {table}. Each commit waits for a synchronous log write: Db2 INSERT tips measured 10,000 single-row inserts at 22.3 s committing every 5 rows vs 7.6 s every 1000 (tests 65, 68). Count the rows and commit every 1000 or so (IF MOD(n, 1000) = 0 THEN COMMIT; END IF), and once after the loop.',
      script:
        'COMMIT after each single-row INSERT: {count} times in this script ({runLines}), a synchronous log write per row. Db2 INSERT tips: committing every 5 rows took 118.4 s for 10,000 rows vs 102.9 s every 1000 (tests 61, 64), and 22.3 s vs 7.6 s with a prepared statement (tests 65, 68). Commit every 1000 rows or so.',
    },
  },
  check({ file, schema, options, report }) {
    if (file.code) {
      // Row-by-row inserts only: a commit per pass of a loop of set-based INSERT … SELECT commits many rows.
      const inserting = file.code.executions.filter((e) => isBulkLoop(e.loop) && !e.batched && runsRows(e) && singleRowInsertOf(e) !== undefined);
      // One finding per loop: its commits in both branches of an if, or in a method and the commit helper it calls
      // (DayTrader's buy() and commit(conn)), are one cause. It names the commit under the fewest ifs, the path most
      // passes take (buy() commits a global transaction under two conditions, else its connection).
      // By loop (its span: sameLoop), so that a file of thousands of loops is not a scan of every execution per commit.
      const insertingIn = new Map<string, SqlExecution[]>();
      for (const e of inserting) {
        const key = loopSpanKey(e.loop!);
        const list = insertingIn.get(key);
        if (list) list.push(e);
        else insertingIn.set(key, [e]);
      }
      const plainest = new Map<string, { commit: CommitCall; execution: SqlExecution }>();
      for (const commit of file.code.commits) {
        if (!isBulkLoop(commit.loop) || commit.guarded) continue;
        const execution = insertingIn.get(loopSpanKey(commit.loop!))?.[0];
        if (!execution) continue;
        const key = `${loopSpanKey(commit.loop!)}\u0000${commit.loop!.file ?? ''}`;
        const found = plainest.get(key);
        if (!found || (commit.conditions ?? 0) < (found.commit.conditions ?? 0)) plainest.set(key, { commit, execution });
      }
      for (const { commit, execution } of plainest.values()) {
        if (!commit.loop) continue;
        const messageId = commit.api === 'sqlpl' ? 'routineLoop' : file.source.language === 'cobol' ? 'cobolLoop' : 'loop';
        // Values spliced into the text make each row's statement new to Db2: the literal series of the seed applies.
        const measured = execution.splicedValues.length > 0 ? MEASURED_LITERAL : MEASURED_PREPARED;
        const counter = COUNTER[file.source.language] ?? COUNTER.java;
        // Through a method called once per row, the commit and the one-row INSERT have one remedy (a method that takes
        // the rows together): a part of single-row-insert's finding on the INSERT (shown alone if that rule is off).
        const partOf = perRowCallee(commit.loop) ? { partOf: { span: execution.callSpan } } : {};
        // Every table the loop fills (Debezium's test loop inserts into TABLEA and TABLEB, then commits).
        const tables = new Set((insertingIn.get(loopSpanKey(commit.loop)) ?? []).map((e) => targetName(e, singleRowInsertOf(e)!, schema)));
        report({ messageId, data: { loop: loopName(commit.loop), table: andList([...tables]), counter, measured, advice: loopAdvice(commit.loop, counter, commit.api, execution) }, span: commit.callSpan, ...partOf });
      }
    }
    // In a script a row is committed on its own by a COMMIT right after its INSERT when no other row was inserted
    // since the COMMIT before (three rows then a COMMIT is a commit every three rows). (The CLP's autocommit
    // committing each row is no-autocommit's finding: one finding for one fact.)
    const minPairs = Number(options.minPairs);
    for (const unit of scriptUnits(file)) {
      const statements = unit.statements;
      const explicit: Statement[] = [];
      // Rows inserted since the last COMMIT: an INSERT of one VALUES row counts 1, any other INSERT or MERGE many.
      let rows = 0;
      for (let i = 0; i < statements.length; i++) {
        const stmt = statements[i];
        if (stmt.kind === 'commit') {
          // The cheap tests first: a schema lookup only for an INSERT that a COMMIT follows.
          if (rows === 1 && isSingleRowValues(statements[i - 1]) && !writesSeedRows(schema, statements[i - 1])) explicit.push(stmt);
          rows = 0;
        } else if (stmt.kind === 'insert' || stmt.kind === 'merge') rows += isSingleRowValues(stmt) ? 1 : 2;
      }
      // One finding per script, on its minPairs-th such COMMIT, extending over all of them (see rules/support/runs.ts).
      if (explicit.length >= minPairs) report({ messageId: 'script', data: { count: countText(explicit.length) }, ...runReportOf(explicit, minPairs, (commit) => ({ span: commit.span, stmt: commit })) });
    }
  },
};

/** The counter test in the file's own language. */
const COUNTER: Partial<Record<FileLanguage, string>> & { java: string } = {
  java: 'if (++n % 1000 == 0)',
  c: 'if (++n % 1000 == 0)',
  cpp: 'if (++n % 1000 == 0)',
  javascript: 'if (++n % 1000 === 0)',
  typescript: 'if (++n % 1000 === 0)',
  python: 'n += 1, then if n % 1000 == 0:',
  shell: 'n=$((n + 1)); if [ $((n % 1000)) -eq 0 ]',
};

export default CommitPerRowRule;
