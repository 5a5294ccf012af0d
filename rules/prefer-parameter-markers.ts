// Literal values where parameter markers would let Db2 compile an INSERT once: values spliced into
// the SQL text in application code, and runs of literal-valued single-row INSERTs in scripts.
import type { Rule } from '../server/src/engine/types';
import type { InsertStatement } from '../server/src/sql/ast';
import { displayKey } from '../server/src/schema/schema';
import { isSingleRowValues, scriptUnits, splicedInsertValues } from '../server/src/code/facts';

const HOW: Record<string, string> = {
  concatenation: 'string concatenation',
  template: 'an interpolated string',
  format: 'a format call',
  variable: 'a string built above',
  constant: 'the text',
  unknown: 'the text',
};

const PreferParameterMarkersRule: Rule = {
  meta: {
    id: 'prefer-parameter-markers',
    description: 'INSERT values written into the SQL text instead of bound to parameter markers',
    defaultSeverity: 'warning',
    evidence: ['000 test 1', '000 test 2', '000 tests 61-68'],
    defaultOptions: { minRepeats: 3 },
    messages: {
      spliced:
        '{count} value(s) spliced into this INSERT through {how}: every row is a new SQL text that Db2 must compile again (seed 000: 10,000 rows took 180.6 s with a new statement per row vs 92.1 s prepared once, tests 1-2), and a spliced value is an SQL-injection risk. Use parameter markers (?) and bind the values.',
      splicedClp:
        '{count} value(s) spliced into this INSERT: the CLP compiles every distinct text again (seed 000: 180.6 s vs 92.1 s for 10,000 rows, tests 1-2) and a spliced value is an SQL-injection risk. Write the rows to a file and IMPORT or LOAD it instead.',
      splicedRoutine:
        '{count} value(s) spliced into this INSERT through {how}: every run is a new SQL text that Db2 must compile again (seed 000: 10,000 rows took 180.6 s with a new statement per row vs 92.1 s prepared once, tests 1-2), and a spliced value is an SQL-injection risk. PREPARE the INSERT once with parameter markers (VALUES (?, ?)) and EXECUTE it USING the values.',
      script:
        '{count} single-row INSERTs into {table} with literal values: Db2 compiles each one as a new statement (seed 000: 180.6 s for 10,000 rows vs 92.1 s with one prepared statement, tests 1-2). Load such data with a prepared INSERT using parameter markers, a multi-row VALUES list, or IMPORT/LOAD.',
    },
  },
  check({ file, schema, options, report }) {
    if (file.code) {
      for (const execution of file.code.executions) {
        const spliced = splicedInsertValues(execution);
        if (spliced.length === 0) continue;
        report({
          messageId: execution.api === 'clp' ? 'splicedClp' : execution.api === 'sqlpl' ? 'splicedRoutine' : 'spliced',
          data: { count: spliced.length, how: HOW[execution.textKind] ?? 'the text' },
          span: { start: spliced[0].start, end: spliced[spliced.length - 1].end },
        });
      }
    }
    const minRepeats = Number(options.minRepeats);
    for (const unit of scriptUnits(file)) {
      const groups = new Map<string, InsertStatement[]>();
      for (const stmt of unit.statements) {
        if (!isSingleRowValues(stmt) || stmt.source.kind !== 'values') continue;
        const values = stmt.source.rows[0].values;
        if (!values.some((v) => v.kind === 'literal') || values.some((v) => v.kind === 'marker' || v.kind === 'host')) continue;
        const key = schema.keyOf(stmt.target, stmt);
        const list = groups.get(key) ?? [];
        list.push(stmt);
        groups.set(key, list);
      }
      for (const [key, list] of groups) {
        if (list.length < minRepeats) continue;
        const first = list[0];
        report({ messageId: 'script', data: { count: list.length, table: displayKey(key) }, stmt: first, span: first.source.span });
      }
    }
  },
};

export default PreferParameterMarkersRule;
