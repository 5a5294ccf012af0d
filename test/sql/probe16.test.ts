// The 16 core statements of an insert workload (test/fixtures/sql/probe-16.sql) must all parse, with the
// right model. The fixture holds one statement per line in a fixed order.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseSql } from '../../server/src/sql/parser';
import type { Span, Statement } from '../../server/src/sql/ast';

const REPO_ROOT = resolve(__dirname, '..', '..', '..');
const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'sql', 'probe-16.sql');

function as<K extends Statement['kind']>(s: Statement, kind: K): Statement & { kind: K } {
  assert.equal(s.kind, kind);
  return s as Statement & { kind: K };
}

describe('sql parser: probe-16 (the core statements of an insert workload)', () => {
  const text = readFileSync(FIXTURE, 'utf8');
  const { statements } = parseSql(text);
  const at = (span: Span | undefined): string => {
    assert.ok(span);
    return text.slice(span.start, span.end);
  };

  it('reads 16 statements without a parse error', () => {
    assert.equal(statements.length, 16);
    for (const s of statements) assert.equal(s.parseError, undefined, `${s.kind}: ${s.parseError?.message}`);
  });

  it('1–3: VALUES inserts with literals, markers and several rows', () => {
    const a = as(statements[0], 'insert');
    assert.equal(a.target.name, 'MYTABLE');
    assert.ok(a.source.kind === 'values');
    assert.deepEqual(
      a.source.rows.map((r) => r.values.map((v) => v.kind)),
      [['literal', 'literal']],
    );
    const b = as(statements[1], 'insert');
    assert.ok(b.source.kind === 'values');
    assert.deepEqual(
      b.source.rows[0].values.map((v) => v.kind),
      ['marker', 'marker'],
    );
    const c = as(statements[2], 'insert');
    assert.ok(c.source.kind === 'values');
    assert.equal(c.source.rows.length, 3);
    assert.deepEqual(
      c.source.rows.map((r) => at(r.span)),
      ["(1, 'abc')", "(2, 'def')", "(3, 'ghi')"],
    );
  });

  it('4: INSERT … SELECT with the table it reads', () => {
    const s = as(statements[3], 'insert');
    assert.equal(s.target.schema, 'MYSCHEMA');
    assert.equal(s.target.name, 'NEW_STAFF');
    assert.ok(s.source.kind === 'select');
    assert.deepEqual(
      s.source.tables.map((t) => t.name),
      ['STAFF'],
    );
  });

  it('5–6: generated column and IDENTITY … NO CACHE', () => {
    const t1 = as(statements[4], 'createTable');
    assert.equal(t1.table.name, 'T1');
    assert.deepEqual(
      t1.columns.map((c) => [c.name, c.type.name, c.type.length]),
      [
        ['C1', 'CHAR', 5],
        ['C2', 'CHAR', 5],
      ],
    );
    assert.equal(at(t1.columns[1].generatedExpression), 'UPPER(c1)');
    const t2 = as(statements[5], 'createTable');
    const id = t2.columns[0];
    assert.equal(id.notNull, true);
    assert.ok(id.identity);
    assert.equal(id.identity.always, true);
    assert.equal(id.identity.start, 1);
    assert.equal(id.identity.increment, 1);
    assert.equal(id.identity.cache, 0);
    assert.equal(at(id.identity.cacheSpan), 'NO CACHE');
    assert.equal(t2.columns[1].type.name, 'VARCHAR');
  });

  it('7: MQT with REFRESH IMMEDIATE over STAFF', () => {
    const t = as(statements[6], 'createTable');
    assert.equal(t.table.name, 'STAFFSUM');
    assert.ok(t.mqt);
    assert.equal(t.mqt.refresh, 'immediate');
    assert.equal(at(t.mqt.refreshSpan), 'refresh immediate');
    assert.deepEqual(
      t.mqt.baseTables.map((b) => b.name),
      ['STAFF'],
    );
    assert.equal(t.mqt.summary, false);
  });

  it('8: clustering index', () => {
    const ix = as(statements[7], 'createIndex');
    assert.equal(ix.index.name, 'IX1');
    assert.equal(ix.table.name, 'T1');
    assert.deepEqual(ix.columns, [{ name: 'C1', descending: false }]);
    assert.equal(ix.cluster, true);
    assert.equal(at(ix.clusterSpan), 'CLUSTER');
  });

  it('9: sequence with NO CACHE', () => {
    const s = as(statements[8], 'createSequence');
    assert.equal(s.sequence.name, 'SEQ1');
    assert.equal(s.start, 1);
    assert.equal(s.increment, 1);
    assert.equal(s.cache, 0);
  });

  it('10–11: APPEND ON and ACTIVATE NOT LOGGED INITIALLY', () => {
    const a = as(statements[9], 'alterTable');
    assert.deepEqual(
      a.actions.map((x) => (x.kind === 'append' ? `append:${x.on}` : x.kind)),
      ['append:true'],
    );
    const b = as(statements[10], 'alterTable');
    assert.deepEqual(
      b.actions.map((x) => (x.kind === 'activateNotLoggedInitially' ? `nli:${x.withEmptyTable}` : x.kind)),
      ['nli:false'],
    );
  });

  it('12: LOB columns with sizes and logging, primary key, table space', () => {
    const t = as(statements[11], 'createTable');
    assert.deepEqual(
      t.columns.map((c) => [c.name, c.type.name, c.type.length ?? null, c.type.isLob]),
      [
        ['ID', 'INTEGER', null, false],
        ['DOC', 'CLOB', 1048576, true],
        ['PIC', 'BLOB', 512000, true],
      ],
    );
    assert.equal(t.columns[2].lobLogged, true);
    assert.equal(t.columns[2].lobCompact, false);
    assert.deepEqual(
      t.constraints.map((c) => c.kind),
      ['primaryKey'],
    );
    assert.equal(t.tablespace.data, 'TS1');
  });

  it('13: informational foreign key', () => {
    const a = as(statements[12], 'alterTable');
    const add = a.actions[0];
    assert.ok(add.kind === 'addConstraint' && add.constraint.kind === 'foreignKey');
    assert.equal(add.constraint.name, 'FK1');
    assert.deepEqual(add.constraint.columns, ['PID']);
    assert.equal(add.constraint.parent.name, 'PARENT');
    assert.deepEqual(add.constraint.parentColumns, ['ID']);
    assert.equal(add.constraint.enforced, false);
  });

  it('14: row trigger with its INSERT body', () => {
    const t = as(statements[13], 'createTrigger');
    assert.equal(t.trigger.name, 'TRG1');
    assert.equal(t.timing, 'after');
    assert.deepEqual(t.events, ['insert']);
    assert.equal(t.table.name, 'T1');
    assert.equal(t.granularity, 'row');
    assert.equal(t.body.length, 1);
    const body = as(t.body[0], 'insert');
    assert.equal(body.target.name, 'AUDIT');
  });

  it('15: MERGE with update and insert', () => {
    const m = as(statements[14], 'merge');
    assert.equal(m.target.name, 'T');
    assert.equal(at(m.source), 's');
    assert.deepEqual([m.hasInsert, m.hasUpdate, m.hasDelete], [true, true, false]);
  });

  it('16: SELECT … WITH UR is an other statement', () => {
    const s = as(statements[15], 'other');
    assert.equal(s.keyword, 'SELECT');
  });
});
