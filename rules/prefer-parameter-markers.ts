// Literal values where parameter markers would let Db2 compile an INSERT once: values spliced into the SQL
// text in application code, literal-valued INSERTs executed from code (in a loop, or several into one table
// from one function), and runs of literal-valued single-row INSERTs in scripts.
import type { Rule, RuleContext } from '../server/src/engine/types';
import type { InsertStatement } from '../server/src/sql/ast';
import type { LoopInfo, SqlExecution } from '../server/src/code-model/types';
import { displayKey } from '../server/src/schema/schema';
import { countText, runReportOf } from './support/runs';
import { insertsReferenceData, writesSeedRows } from './support/targets';
import { andList } from '../server/src/engine/merge';
import { insertsOf, isBulkLoop, isLiteralValues, spliceAt, isSingleRowValues, loopName, nameList, rowAtATimeLoopKey, scriptUnits, sharedPathLoop, splicedInsertValues, targetName, splicesRowList, rowWritersOf, within } from '../server/src/code-model/facts';

const HOW: Record<string, string> = {
  concatenation: 'string concatenation',
  template: 'an interpolated string',
  format: 'a format template',
  variable: 'a string built above',
  constant: 'the text',
  unknown: 'the text',
};

/** Tests 1-2 (autocommit on) and 64/68 (commit every 1000 rows): SQLExecDirect per row vs one prepared INSERT. */
const COST_DIRECT =
  'Db2 INSERT tips, tests 1-2: 10,000 rows took 180.6 s with SQLExecDirect per row vs 92.1 s with one prepared INSERT; committing every 1000 rows, 102.9 s vs 7.6 s (tests 64, 68)';

/** The values are escaped by the code (quotes doubled) before they are spliced: no open hole, but hand-made quoting. */
const QUOTED = ', and the values are quoted by hand (quotes doubled) instead of bound';

/** The values go through an escape function of the code (`this.escape(v)`) before they are spliced: quoted by code, not bound. */
const ESCAPED = ', and the values are escaped by the code (an escape function) instead of bound';

/** What a message says of the risk of spliced values that are not numbers (`values`: their splices). */
function riskOf(values: readonly (Splice | undefined)[]): string {
  if (values.length === 0) return '';
  if (values.every((x) => x?.quoted)) return QUOTED;
  if (values.every((x) => x?.quoted || x?.escaped)) return ESCAPED;
  return ', and a spliced value is an SQL-injection risk';
}

/**
 * A MERGE's source rows bound to markers: a marker in USING (VALUES …) has no type of its own, and Db2 takes it from
 * the marker's use (the target column it is compared with or inserted into); a source column it cannot type so (not
 * used again, or used as two types) fails to prepare (SQL0418N; SQLCODE -20433 on z/OS) unless the marker is cast.
 */
function castNoteOf(statement: 'INSERT' | 'MERGE', api?: string): string {
  const marker = api === 'sqlalchemy' ? ':name' : '?';
  return statement === 'MERGE' ? `; in USING (VALUES …), cast a marker whose type Db2 cannot tell from its use (CAST(${marker} AS INTEGER))` : '';
}

/**
 * How a message tells the code to bind its values, by API. SQLAlchemy's text() takes named bound parameters (`:name`,
 * which it turns into the driver's markers) and their values as a dict; the others write Db2's `?` markers.
 */
function bindingOf(api: string): { markers: string; bindValues: string; bindLoop: string } {
  if (api === 'sqlalchemy') {
    return {
      markers: 'bound parameters (:name) in the text()',
      bindValues: 'Write bound parameters (:name) in the text() and pass the values in a dict, conn.execute(text(sql), {"name": value}): SQLAlchemy sends them as markers',
      bindLoop: 'Write bound parameters (:name) in the text() once, before the loop, and pass each row\'s values in a dict; better, pass all the rows as one list of dicts (SQLAlchemy runs it as an executemany)',
    };
  }
  if (api === 'sequelize') {
    // sequelize.query: `replacements` are escaped into the text; `bind` parameters ($1, $name) reach Db2 as markers.
    return {
      markers: 'bind parameters ($1, $2) given with the bind option',
      bindValues: 'Pass the values with the bind option instead of replacements, sequelize.query(sql, { bind: [a, b] }) with $1, $2 in the text: Sequelize sends bind parameters to Db2 as parameter markers, while it writes replacements into the text',
      bindLoop: 'Write bind parameters ($1, $2) in the text and pass each row\'s values with the bind option; better, insert the rows together with sequelize.getQueryInterface().bulkInsert(table, rows)',
    };
  }
  return {
    markers: 'parameter markers (?)',
    bindValues: 'Use parameter markers (?) and bind the values',
    bindLoop: 'Prepare it once with parameter markers (?) before the loop and bind the values on each pass',
  };
}

type Splice = NonNullable<SqlExecution['splices']>[number];

const PreferParameterMarkersRule: Rule = {
  meta: {
    id: 'prefer-parameter-markers',
    description: 'INSERT values written into the SQL text instead of bound to parameter markers',
    defaultSeverity: 'warning',
    reads: { statements: ['insert'], code: true },
    group: 'row-at-a-time',
    evidence: ['Db2 INSERT tips, test 1', 'Db2 INSERT tips, test 2', 'Db2 INSERT tips, tests 61-68'],
    defaultOptions: { minRepeats: 3, reportOneOff: false },
    messages: {
      spliced:
        `Values spliced into {statement} INTO {table} through {how}: {names}. Db2 compiles every distinct text as a new statement{loopNote}{risk} (${COST_DIRECT}). {bindValues}{castNote}.`,
      splicedRows:
        `Values spliced into INSERT INTO {table} through {how}: {names}, {rows}. Each such text is a new statement of many rows of literals, up to Db2's 2 MB limit, that Db2 compiles and keeps in its package cache{risk}. Bind the rows instead: {markers} with {bind}.`,
      returnedRows:
        `Rows spliced into the INSERT INTO {table} that {fn} returns: {names}. Built through {how} for its caller to run, every call makes a new statement of many rows of literals, up to Db2's 2 MB limit, that Db2 compiles and keeps in its package cache for that one use{risk}. Build the INSERT with parameter markers (?) and run it with the rows bound (an array insert, executemany, or a batch of executes) instead.`,
      returned:
        `Values spliced into the {statement} INTO {table} that {fn} returns: {names}. Built through {how} for its caller to run, every call makes a new statement text that Db2 compiles{risk} (${COST_DIRECT}). Build the {statement} with parameter markers (?) and bind the values where it runs{castNote}.`,
      splicedClp:
        `Values spliced into {statement} INTO {table} run by the db2 command: {names}. The CLP compiles every distinct text again{loopNote}{risk} (${COST_DIRECT}). Write the rows to a file and IMPORT or LOAD it instead.`,
      splicedRoutine:
        `Values spliced into {statement} INTO {table} through {how}: {names}. Every run is a new SQL text that Db2 compiles again{loopNote}{risk} (${COST_DIRECT}). PREPARE the {statement} once with parameter markers (VALUES (?, ?)) and EXECUTE it USING the values{castNote}.`,
      literalLoop:
        `Literal-valued INSERT INTO {table} executed on every pass of the {loop}. Each pass sends a statement text for Db2 to look up or compile instead of running one prepared INSERT (${COST_DIRECT}). {bindLoop}.`,
      literalRepeated:
        `Literal-valued INSERTs into {table}: {count} executed from {where} ({runLines}). Each is a separate statement text that Db2 compiles (${COST_DIRECT}). Use one prepared INSERT with {markers}, or one multi-row VALUES list.`,
      literalOnce:
        'Literal-valued INSERT INTO {table} executed once here. Fine for a one-off; if it runs for many rows (a caller loops), Db2 compiles each distinct text again (Db2 INSERT tips, tests 1-2): bind the values to parameter markers (?).',
      script:
        `Literal-valued INSERTs into {table}: {count} in this script ({runLines}), each compiled anew by Db2. ${COST_DIRECT}. Load such data with a prepared INSERT using parameter markers, a multi-row VALUES list, or IMPORT/LOAD.`,
      scriptZos:
        `Literal-valued INSERTs into {table}: {count} in this script ({runLines}), each compiled anew by Db2. DSNTIAD and SPUFI run every statement as dynamic SQL and bind no parameters (${COST_DIRECT}). For more than a few seed rows, put the rows in a data set (or inline) and run the LOAD utility instead.`,
    },
  },
  check(context) {
    const { file } = context;
    if (file.code) {
      checkSpliced(context, file.code.executions);
      checkLiteral(context, file.code.executions);
      if (file.code.returnedTexts) checkReturned(context, file.code.returnedTexts);
    }
    checkScripts(context);
  },
};

/** The spliced executions of one loop that one finding reports (or one execution outside loops). */
interface SplicedGroup {
  first: SqlExecution;
  last: SqlExecution;
  messageId: 'spliced' | 'splicedRows' | 'splicedClp' | 'splicedRoutine';
  statement: 'INSERT' | 'MERGE';
  tables: string[];
  hows: string[];
  /** The spliced expressions (undefined where a front end does not give them: SQL PL) and their count. */
  names: (string | undefined)[];
  numbersOnly: boolean;
  /** The spliced values that are not numbers (their quoting decides the message's risk: riskOf). */
  values: (Splice | undefined)[];
  /** The text grows a row at a time (db2magic's insert_sql), rather than splicing a list of rows (row_string). */
  grows: boolean;
  /** The loop as each execution sees it (one loop, maybe through different calls: LoopInfo.via). */
  loops: LoopInfo[];
}

function checkSpliced({ schema, report }: RuleContext, executions: readonly SqlExecution[]): void {
  const groups: SplicedGroup[] = [];
  const byLoop = new Map<string, SplicedGroup>();
  for (const execution of executions) {
    const spliced = splicedInsertValues(execution);
    if (spliced.length === 0) continue;
    // Numbers only (int id) outside a bulk loop: no injection, and a handful of compiles.
    const splices = spliced.map((s) => spliceAt(execution, s));
    const numbersOnly = splices.every((x) => x?.numeric);
    if (!isBulkLoop(execution.loop) && numbersOnly) continue;
    // An INSERT, or a MERGE … USING (VALUES …) upserting the rows it writes out (Sequelize's upsert).
    const stmt = rowWritersOf(execution)[0];
    // VALUES (%s) filled with row_string: a whole multi-row list per text, so the per-row compile figures do not
    // apply; with numbers only there is no injection risk either, and nothing to report.
    const rowList = stmt.kind === 'insert' && (execution.rowList === true || splicesRowList(execution, stmt));
    if (rowList && numbersOnly) continue;
    const messageId = rowList ? 'splicedRows' : execution.api === 'clp' ? 'splicedClp' : execution.api === 'sqlpl' ? 'splicedRoutine' : 'spliced';
    const statement = stmt.kind === 'merge' ? 'MERGE' : 'INSERT';
    const values = splices.filter((x) => !x?.numeric);
    const table = targetName(execution, stmt, schema);
    // sequelize.query(sql, { replacements }): the values Sequelize escapes into the text (languages/javascript-sequelize.ts).
    const how = execution.api === 'sequelize' && execution.textKind === 'format' ? "Sequelize's replacements" : (HOW[execution.textKind] ?? 'the text');
    const names = spliced.map((s, i) => (splices[i] ? splices[i]!.text : undefined));
    // The values spliced into INSERTs on each pass of one loop are one finding, into one table or several
    // (Debezium's test loop into TABLEA and TABLEB), as single-row-insert reports the loop once.
    const key = execution.loop && !execution.guarded && !rowList ? `${rowAtATimeLoopKey(execution.loop)}:${messageId}:${statement}` : undefined;
    const group = key ? byLoop.get(key) : undefined;
    if (group) {
      group.last = execution;
      if (!group.tables.includes(table)) group.tables.push(table);
      if (!group.hows.includes(how)) group.hows.push(how);
      group.names.push(...names);
      group.numbersOnly &&= numbersOnly;
      group.values.push(...values);
      if (execution.loop) group.loops.push(execution.loop);
      continue;
    }
    const created: SplicedGroup = { first: execution, last: execution, messageId, statement, tables: [table], hows: [how], names, numbersOnly, values, grows: execution.rowList === true, loops: execution.loop ? [execution.loop] : [] };
    groups.push(created);
    if (key) byLoop.set(key, created);
  }
  for (const g of groups) {
    const execution = g.first;
    const known = g.names.every((n) => n !== undefined);
    report({
      messageId: g.messageId,
      data: {
        statement: g.statement,
        castNote: castNoteOf(g.statement, execution.api),
        ...bindingOf(execution.api),
        table: andList(g.tables),
        how: andList(g.hows),
        // A front end that does not give the expressions (SQL PL today): say how many.
        names: known ? nameList(g.names as string[]) : `${g.names.length} value${g.names.length === 1 ? '' : 's'}`,
        rows: g.grows ? 'appended to one text row by row' : 'a list of rows',
        bind: ROW_BINDING[execution.api] ?? 'an array insert or executemany',
        // Under a counter check (if (n % 1000 == 0) run the text built so far) it runs every n passes, not each.
        loopNote: execution.loop && !execution.guarded ? ` on each pass of the ${loopName(sharedPathLoop(g.loops))}` : '',
        // Numbers (int id) cannot carry SQL: the cost stands, the injection warning does not. Quotes doubled by the
        // code (addquotes, .replace("'", "''")) are said as such, not as an open hole.
        risk: g.numbersOnly ? '' : riskOf(g.values),
      },
      span: execution.callSpan,
      ...(g.last !== g.first ? { extent: { first: { span: g.first.callSpan }, last: { span: g.last.callSpan } } } : {}),
    });
  }
}

/**
 * INSERT/MERGE texts a function builds with values spliced in and returns for its callers to run (a query generator:
 * CodeModel.returnedTexts): one finding per text, where its INSERT is written. No loop or driver is known here, so
 * numbers alone are left alone as outside bulk loops, and the remedy names no driver call.
 */
function checkReturned({ schema, report }: RuleContext, texts: readonly SqlExecution[]): void {
  for (const text of texts) {
    const spliced = splicedInsertValues(text);
    const splices = spliced.map((s) => spliceAt(text, s));
    const numbersOnly = splices.every((x) => x?.numeric);
    if (spliced.length === 0 || numbersOnly) continue;
    // The INSERT written where the front end placed the text (CodeModel.returnedTexts), else the first.
    const writers = rowWritersOf(text);
    const stmt = writers.find((st) => within({ start: st.origin.toFile(st.span.start), end: st.origin.toFile(st.span.start) + 1 }, text.callSpan)) ?? writers[0];
    const rows = stmt.kind === 'insert' && (text.rowList === true || splicesRowList(text, stmt));
    const values = splices.filter((x) => !x?.numeric);
    const fn = text.inFunction?.name;
    report({
      messageId: rows ? 'returnedRows' : 'returned',
      data: {
        statement: stmt.kind === 'merge' ? 'MERGE' : 'INSERT',
        castNote: castNoteOf(stmt.kind === 'merge' ? 'MERGE' : 'INSERT'),
        table: targetName(text, stmt, schema),
        how: HOW[text.textKind] ?? 'the text',
        names: nameList(splices.map((x, i) => x?.text ?? `value ${i + 1}`)),
        fn: fn ? `${fn}()` : 'this function',
        risk: riskOf(values),
      },
      span: text.callSpan,
    });
  }
}

/** How each driver sends many rows bound to one prepared INSERT (the multi-row literal text's remedy). */
const ROW_BINDING: Partial<Record<string, string>> = {
  ibm_db: 'ibm_db.execute_many',
  dbapi: 'cursor.executemany',
  sqlalchemy: 'a list of dicts given to one conn.execute(text(sql), rows), which SQLAlchemy runs as an executemany',
  jdbc: 'addBatch() and executeBatch()',
  spring: 'JdbcTemplate.batchUpdate',
  'node-ibm_db': 'an array insert (ArraySize)',
  cli: 'parameter arrays (SQL_ATTR_PARAMSET_SIZE)',
};

/** Executions that run a literal-valued INSERT text themselves (not static SQL, not a prepared handle, not a script). */
function literalInsertOf(execution: SqlExecution): InsertStatement | undefined {
  if (execution.action === 'prepare' || execution.preparedAt || execution.script || execution.batched) return undefined;
  // Static embedded SQL is bound at precompile time, and an SQL routine's static statements when the routine is
  // created (its EXECUTE of a PREPAREd text is a prepared execute too): nothing is compiled when they run.
  if (execution.api === 'esql' || execution.api === 'sqlj' || (execution.api === 'sqlpl' && execution.action === 'executePrepared')) return undefined;
  if (splicedInsertValues(execution).length > 0) return undefined;
  return insertsOf(execution).find(isLiteralValues);
}

function checkLiteral({ schema, options, report }: RuleContext, executions: readonly SqlExecution[]): void {
  const minRepeats = Number(options.minRepeats);
  const groups = new Map<string, { execution: SqlExecution; insert: InsertStatement }[]>();
  for (const execution of executions) {
    const insert = literalInsertOf(execution);
    if (!insert || (!isBulkLoop(execution.loop) && insertsReferenceData(schema, insert))) continue;
    if (isBulkLoop(execution.loop)) {
      report({ messageId: 'literalLoop', data: { table: targetName(execution, insert, schema), loop: loopName(execution.loop), bindLoop: bindingOf(execution.api).bindLoop }, span: execution.callSpan });
      continue;
    }
    // Several literal INSERTs into one table from one function (or from file-level code) read like a script.
    const key = `${execution.inFunction?.span.start ?? -1}\u0000${schema.keyOf(insert.target, insert)}`;
    const group = groups.get(key);
    if (group) group.push({ execution, insert });
    else groups.set(key, [{ execution, insert }]);
  }
  for (const list of groups.values()) {
    const { execution, insert } = list[0];
    const table = targetName(execution, insert, schema);
    if (list.length >= minRepeats) {
      const fn = execution.inFunction;
      const where = fn ? (fn.name ? `${fn.name}()` : 'one function') : 'the top level of this file';
      // One finding per group, on its minRepeats-th execution, extending over all of them (see rules/support/runs.ts).
      report({ messageId: 'literalRepeated', data: { count: countText(list.length), table, where, markers: bindingOf(execution.api).markers }, ...runReportOf(list, minRepeats, (item) => ({ span: item.execution.callSpan })) });
    } else if (options.reportOneOff) {
      for (const item of list) report({ messageId: 'literalOnce', data: { table: targetName(item.execution, item.insert, schema) }, span: item.execution.callSpan, maxSeverity: 'hint' });
    }
  }
}

function checkScripts({ file, schema, options, report }: RuleContext): void {
  const minRepeats = Number(options.minRepeats);
  for (const unit of scriptUnits(file)) {
    const groups = new Map<string, InsertStatement[]>();
    const statements = unit.statements;
    for (let i = 0; i < statements.length; i++) {
      const stmt = statements[i];
      if (!isSingleRowValues(stmt) || !isLiteralValues(stmt) || writesSeedRows(schema, stmt)) continue;
      const key = schema.keyOf(stmt.target, stmt);
      const group = groups.get(key);
      if (group) group.push(stmt);
      else groups.set(key, [stmt]);
    }
    for (const [key, list] of groups) {
      // One finding per table, on its minRepeats-th INSERT as the other row-at-a-time rules (their findings on
      // one INSERT merge into one), extending over all of them (see rules/support/runs.ts).
      if (list.length < minRepeats) continue;
      // Db2 for z/OS scripts (SPUFI, DSNTIAD in JCL) have neither parameter markers, multi-row VALUES nor IMPORT.
      const messageId = file.dialect === 'zos' ? 'scriptZos' : 'script';
      report({ messageId, data: { count: countText(list.length), table: displayKey(key) }, ...runReportOf(list, minRepeats, (stmt) => ({ span: stmt.span, stmt })) });
    }
  }
}

export default PreferParameterMarkersRule;
