// The schema in effect at each statement (SET SCHEMA), which SchemaModel notes only when a name without a schema
// is first resolved: the keys are the same whether that happens while the model is built, after it, or never.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { SchemaModel } from '../../server/src/schema/schema';
import { buildFileModel } from '../../server/src/engine/workspace-files';
import { forEachStatement } from '../../server/src/sql/walk';
import type { QualifiedName, Statement } from '../../server/src/sql/ast';

const model = (path: string, text: string) => buildFileModel({ path, text, language: 'sql' });

/** Each INSERT's target key, in file order (routine and trigger bodies included). */
function targetKeys(schema: SchemaModel, statements: readonly Statement[]): string[] {
  const keys: string[] = [];
  const visit = (list: readonly Statement[]) =>
    forEachStatement(list, (stmt) => {
      if (stmt.kind === 'insert') keys.push(schema.keyOf(stmt.target as QualifiedName, stmt));
      if (stmt.kind === 'createTrigger') visit(stmt.body);
    }, { triggers: false });
  visit(statements);
  return keys;
}

describe('schema: the schema in effect at a statement', () => {
  it('adds the time of noting it for all files to the workspace\'s schema work, once, when first needed', () => {
    const files = Array.from({ length: 20 }, (_, i) => model(`f${i}.sql`, `SET SCHEMA S${i};\n` + 'INSERT INTO T VALUES (1);\n'.repeat(200)));
    const work = { ms: 0 };
    const schema = SchemaModel.build(files, { work });
    const built = work.ms;
    const insert = files[3].statements[1];
    assert.equal(insert.kind, 'insert');
    // A qualified name needs no schema in force: nothing is filled.
    schema.keyOf({ schema: 'X', name: 'T', span: { start: 0, end: 0 } }, insert);
    assert.equal(work.ms, built);
    assert.equal(schema.keyOf({ name: 'T', span: { start: 0, end: 0 } }, insert), 'S3.T');
    const filled = work.ms;
    assert.ok(filled > built, `${built} -> ${filled}`);
    schema.keyOf({ name: 'T', span: { start: 0, end: 0 } }, files[7].statements[1]);
    assert.equal(work.ms, filled, 'filled once for all files');
  });

  it('resolves unqualified names by the last SET SCHEMA of the script before them (routines and triggers too)', () => {
    const text = [
      'INSERT INTO T VALUES (1);',
      'SET SCHEMA A;',
      'INSERT INTO T VALUES (2);',
      'INSERT INTO B.T VALUES (3);',
      'CREATE TRIGGER TR AFTER INSERT ON T FOR EACH ROW INSERT INTO LOG VALUES (1);',
      'CREATE PROCEDURE P() BEGIN SET SCHEMA C; INSERT INTO U VALUES (1); END;',
      'SET CURRENT SCHEMA D;',
      'INSERT INTO T VALUES (4);',
    ].join('\n');
    const file = model('a.sql', text);
    const schema = SchemaModel.build([file]);
    assert.deepEqual(targetKeys(schema, file.statements), ['.T', 'A.T', 'B.T', 'A.LOG', 'A.U', 'D.T']);
  });

  it('gives the keys a model built file by file gives, for any scripts, whenever they are first asked', () => {
    const pieces = ['SET SCHEMA A;\n', 'SET SCHEMA B;\n', 'INSERT INTO T VALUES (1);\n', 'INSERT INTO A.T VALUES (1);\n', 'CREATE TABLE T (ID INT);\n', 'CREATE TRIGGER R AFTER INSERT ON T FOR EACH ROW INSERT INTO L VALUES (1);\n'];
    fc.assert(
      fc.property(fc.array(fc.array(fc.constantFrom(...pieces), { maxLength: 8 }), { minLength: 1, maxLength: 3 }), (files) => {
        const models = files.map((f, i) => model(`f${i}.sql`, f.join('')));
        const together = SchemaModel.build(models);
        const keys = models.map((m) => targetKeys(together, m.statements));
        // Each file's keys depend on that file's SET SCHEMAs only: as a model of that file alone has them.
        models.forEach((m, i) => assert.deepEqual(keys[i], targetKeys(SchemaModel.build([m]), m.statements)));
        // And each key is the schema of the last top-level SET SCHEMA before the statement (or none).
        models.forEach((m, i) => {
          let current = '';
          const expected: string[] = [];
          for (const stmt of m.statements) {
            if (stmt.kind === 'setSchema') current = stmt.schema;
            if (stmt.kind === 'insert') expected.push(stmt.target.schema ? `${stmt.target.schema}.${stmt.target.name}` : `${current}.${stmt.target.name}`);
            if (stmt.kind === 'createTrigger') for (const inner of stmt.body) if (inner.kind === 'insert') expected.push(`${current}.${inner.target.name}`);
          }
          assert.deepEqual(keys[i], expected, files[i].join(''));
        });
      }),
      { numRuns: 200 },
    );
  });
});
