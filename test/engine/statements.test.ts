// statementsOf: the per-kind statement index that rules read instead of walking every statement.
import { strict as assert } from 'node:assert';
import { parseSql } from '../../server/src/sql/parser';
import { heldKey, statementsOf } from '../../server/src/engine/statements';
import type { FileModel } from '../../server/src/engine/types';

function model(text: string): FileModel {
  const parsed = parseSql(text);
  return { source: { path: 'a.sql', text, language: 'sql' }, statements: parsed.statements, comments: parsed.comments };
}

const SCRIPT = [
  'CREATE TABLE A (X INT)',
  'INSERT INTO A VALUES (1)',
  'ALTER TABLE A APPEND ON',
  'INSERT INTO A VALUES (2)',
  'CREATE TABLE B (Y INT)',
  'COMMIT',
  'ALTER TABLE B PCTFREE 0',
].join(';\n');

describe('engine: statementsOf (statements by kind)', () => {
  it('returns the statements of one kind, and of several kinds merged back into file order', () => {
    const file = model(SCRIPT);
    const kindsAt = (list: readonly { span: { start: number } }[]) => list.map((s) => file.statements.indexOf(s as never));
    assert.deepEqual(kindsAt(statementsOf(file, 'createTable')), [0, 4]);
    assert.deepEqual(kindsAt(statementsOf(file, 'insert')), [1, 3]);
    assert.deepEqual(kindsAt(statementsOf(file, 'createTable', 'alterTable')), [0, 2, 4, 6]);
    assert.deepEqual(kindsAt(statementsOf(file, 'alterTable', 'commit', 'createTable')), [0, 2, 4, 5, 6]);
    assert.deepEqual(statementsOf(file, 'createIndex'), []);
    // Kinds the file holds none of: one shared, frozen empty list (no key or list is made per file and rule).
    assert.equal(statementsOf(file, 'createIndex'), statementsOf(file, 'createSequence', 'createTrigger'));
    assert.ok(Object.isFrozen(statementsOf(file, 'createIndex')));
    // Asked twice: the same list, not a new walk.
    assert.equal(statementsOf(file, 'createTable', 'alterTable'), statementsOf(file, 'createTable', 'alterTable'));
  });

  it('indexes again when the statements were replaced or extended', () => {
    const file = model(SCRIPT);
    assert.equal(statementsOf(file, 'commit').length, 1);
    file.statements.push(...parseSql('COMMIT').statements);
    assert.equal(statementsOf(file, 'commit').length, 2);
    file.statements = parseSql('COMMIT; COMMIT; COMMIT').statements;
    assert.equal(statementsOf(file, 'commit').length, 3);
    assert.equal(statementsOf(file, 'createTable').length, 0);
  });

  it('agrees with filtering every statement on a mixed script', () => {
    const parts: string[] = [];
    for (let i = 0; i < 200; i++) parts.push(['CREATE TABLE T (A INT)', 'INSERT INTO T VALUES (1)', 'ALTER TABLE T APPEND ON', 'COMMIT', 'CREATE INDEX I ON T (A)'][(i * 7) % 5]);
    const file = model(parts.join(';\n'));
    for (const kinds of [['insert'], ['createTable', 'alterTable'], ['commit', 'createIndex', 'insert']] as const) {
      const expected = file.statements.filter((s) => (kinds as readonly string[]).includes(s.kind));
      assert.deepEqual(statementsOf(file, ...kinds), expected, kinds.join(','));
    }
  });

  it('heldKey: the kinds a file holds, in any order and however often, and whether it holds code facts', () => {
    assert.equal(heldKey(model('COMMIT')), 'commit');
    assert.equal(heldKey(model('')), '');
    assert.equal(heldKey(model('COMMIT; ALTER TABLE A APPEND ON; COMMIT')), heldKey(model('ALTER TABLE B PCTFREE 0; COMMIT')));
    assert.equal(heldKey(model('CREATE TABLE A (X INT); INSERT INTO A VALUES (1)')), heldKey(model('INSERT INTO A VALUES (1); CREATE TABLE A (X INT)')));
    assert.notEqual(heldKey(model('COMMIT; INSERT INTO A VALUES (1)')), heldKey(model('COMMIT')));
    // Statements inside a routine count, as statementsOf finds them.
    const routine = { ...model('CREATE PROCEDURE P() BEGIN INSERT INTO A VALUES (1); END'), statements: parseSql('CREATE PROCEDURE P() BEGIN INSERT INTO A VALUES (1); END@', { terminator: '@' }).statements };
    assert.match(heldKey(routine), /(^|,)insert(,|$)/);
    // Code facts as holdsWhatRuleReads counts them: executions, commits, SQL texts a function returns.
    const code = (executions: number, commits: number, returned?: number) =>
      ({ ...model('COMMIT'), code: { executions: new Array(executions), commits: new Array(commits), ...(returned !== undefined ? { returnedTexts: new Array(returned) } : {}) } as unknown as FileModel['code'] });
    assert.equal(heldKey(code(0, 0)), 'commit');
    assert.equal(heldKey(code(0, 0, 0)), 'commit');
    assert.notEqual(heldKey(code(1, 0)), 'commit');
    assert.equal(heldKey(code(1, 0)), heldKey(code(0, 2)));
    assert.equal(heldKey(code(0, 0, 1)), heldKey(code(1, 0)));
  });
});
