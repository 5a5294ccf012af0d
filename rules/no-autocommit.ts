// Row-by-row inserts in a loop (or many inserts in a CLP script) on a connection that the code shows to
// commit every statement. A connection whose autocommit the file does not show is not reported.
import type { Rule } from '../server/src/engine/types';
import type { Statement } from '../server/src/sql/ast';
import { countText, runReportOf } from './support/runs';
import { writesSeedRows } from './support/targets';
import { forEachWithAutocommit, isBulkLoop, isSingleRowValues, loopName, runsRows, scriptUnits, singleRowInsertOf, targetName } from '../server/src/code-model/facts';

const NoAutocommitRule: Rule = {
  meta: {
    id: 'no-autocommit',
    description: 'Inserts in a loop with autocommit on: a commit (a synchronous log write) per row',
    defaultSeverity: 'warning',
    reads: { statements: ['insert'], code: true },
    group: 'row-at-a-time',
    evidence: ['Db2 INSERT tips, tests 1-3', 'Db2 INSERT tips, tests 61-68'],
    defaultOptions: { minInserts: 3 },
    messages: {
      loop:
        'Autocommit is on for {connection} ({why}) while the {loop} inserts into {table} one row per call. Every INSERT is its own transaction and waits for a log write: Db2 INSERT tips measured 10,000 prepared single-row inserts at 92.1 s committing each row vs 7.6 s committing every 1000 (tests 2, 68). Switch autocommit off ({how}) and commit every 1000 rows or so.',
      django:
        "Django's autocommit commits each {what} of the {loop} into {table} on its own. Outside transaction.atomic() every INSERT is its own transaction and waits for a log write: Db2 INSERT tips measured 10,000 prepared single-row inserts at 92.1 s committing each row vs 7.6 s committing every 1000 (tests 2, 68). Run the loop in one transaction (with transaction.atomic(): around it, or @transaction.atomic on its function), or one per 1000 rows or so; better, insert the objects with one Model.objects.bulk_create(objs, batch_size=1000).",
      script:
        'Single-row INSERTs committed one by one by the CLP\'s autocommit: {count} in this script ({runLines}). Each commit waits for a log write: Db2 INSERT tips, 10,000 rows committed one by one took 183.6 s vs 102.9 s committing every 1000 (tests 1, 64). Add UPDATE COMMAND OPTIONS USING C OFF (or run db2 +c) and COMMIT every 1000 rows or so.',
    },
  },
  check({ file, schema, options, report }) {
    if (file.code) {
      const seenLoops = new Set<number>();
      for (const execution of file.code.executions) {
        // A batch or array per call commits once per batch, which is what the rule asks for; a set-based
        // INSERT … SELECT moves many rows per statement.
        if (!isBulkLoop(execution.loop) || execution.batched || !runsRows(execution) || execution.connection?.autocommit !== 'on') continue;
        const insert = singleRowInsertOf(execution);
        if (!insert || seenLoops.has(execution.loop.span.start)) continue;
        seenLoops.add(execution.loop.span.start);
        const { connection } = execution;
        if (execution.api === 'django') {
          // (get_or_create / update_or_create: named, with the query each runs first.)
          const what = execution.queriesFirst ? `${execution.queriesFirst} (a SELECT, then an INSERT for a row it does not find)` : 'save() or create()';
          report({ messageId: 'django', data: { what, loop: loopName(execution.loop), table: targetName(execution, insert, schema) }, span: execution.callSpan });
          continue;
        }
        report({
          messageId: 'loop',
          data: {
            connection: execution.api === 'clp' ? 'the db2 command line processor' : connection.name ? `'${connection.name}'` : 'this connection',
            why: connection.libraryAutocommit
              ? 'SQLAlchemy 1.x commits on its own each INSERT it runs outside a transaction'
              : connection.autocommitSpan
              ? execution.api === 'sqlalchemy'
                ? 'isolation_level="AUTOCOMMIT" set by the code'
                : 'switched on by the code'
              : execution.api === 'clp'
                ? 'the CLP default'
                : connection.pooled
                  ? "the pool's and driver's default for a connection from a DataSource; no pool configuration was found that switches it off"
                  : connection.declaredAs
                  ? `the driver default for ${connection.declaredAs} field that this file never switches`
                  : 'the driver default for a connection this file opens',
            loop: loopName(execution.loop),
            table: targetName(execution, insert, schema),
            how: connection.libraryAutocommit ? LIBRARY_HOW : connection.pooled ? POOLED_HOW : (HOW[connection.driver ?? execution.api] ?? HOW[execution.api] ?? "with the driver's autocommit setting"),
          },
          span: execution.callSpan,
        });
      }
    }
    // A CLP script commits after every statement unless it says UPDATE COMMAND OPTIONS USING C OFF.
    for (const unit of scriptUnits(file)) {
      const committed: Statement[] = [];
      forEachWithAutocommit(unit, (stmt, autocommit) => {
        if (autocommit && isSingleRowValues(stmt) && !writesSeedRows(schema, stmt)) committed.push(stmt);
      });
      // One finding per script, on its minInserts-th such INSERT, extending over all of them (see rules/support/runs.ts).
      const minInserts = Number(options.minInserts);
      if (committed.length >= minInserts) report({ messageId: 'script', data: { count: countText(committed.length) }, ...runReportOf(committed, minInserts, (stmt) => ({ span: stmt.span, stmt })) });
    }
  },
};

const HOW: Record<string, string> = {
  jdbc: 'conn.setAutoCommit(false)',
  ibm_db: 'ibm_db.autocommit(conn, ibm_db.SQL_AUTOCOMMIT_OFF)',
  dbapi: 'conn.autocommit = False',
  jaydebeapi: 'conn.jconn.setAutoCommit(False)',
  sqlalchemy: 'drop isolation_level="AUTOCOMMIT" from create_engine or execution_options, and run the loop in one transaction: with engine.begin() as conn:',
  'node-ibm_db': 'conn.beginTransaction() before the loop',
  cli: 'SQLSetConnectAttr(hdbc, SQL_ATTR_AUTOCOMMIT, SQL_AUTOCOMMIT_OFF, 0)',
  clp: 'db2 +c, or db2 "UPDATE COMMAND OPTIONS USING C OFF"',
};

/** A connection from a DataSource: in the code, or for all of them in the pool's configuration. */
const POOLED_HOW = 'conn.setAutoCommit(false), or in the pool\'s configuration: spring.datasource.hikari.auto-commit=false, HikariConfig.setAutoCommit(false), DBCP2 or Tomcat JDBC defaultAutoCommit=false';

/** SQLAlchemy 1.x's own commit of DML run outside a transaction: a transaction around the loop stops it. */
const LIBRARY_HOW = 'run the loop inside one transaction: with engine.begin() as conn:, or trans = conn.begin() before it and trans.commit() after';

export default NoAutocommitRule;
