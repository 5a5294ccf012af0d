// SchemaModel.insertsReferenceData keeps its answer per target key (four rules ask it of every INSERT of a
// script): the answers must be those of insertTarget and isReferenceData, whatever order they are asked in,
// for qualified and unqualified names that share a key.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { SchemaModel } from '../../server/src/schema/schema';
import { buildFileModel } from '../../server/src/engine/workspace-files';
import type { InsertStatement } from '../../server/src/sql/ast';

const model = (path: string, text: string) => buildFileModel({ path, text, language: 'sql' });

function direct(schema: SchemaModel, stmt: InsertStatement): boolean {
  const target = schema.insertTarget(stmt.target, stmt);
  return target !== undefined && schema.isReferenceData(target);
}

const LINES = [
  'SET SCHEMA S;',
  'SET SCHEMA R;',
  'CREATE TABLE T (A INT);',
  'CREATE TABLE S.T (A INT);',
  'INSERT INTO T VALUES (1);',
  'INSERT INTO S.T VALUES (1);',
  'INSERT INTO R.T VALUES (1);',
  'INSERT INTO T VALUES (?);',
  'INSERT INTO S.T SELECT A FROM X;',
  'INSERT INTO U VALUES (1), (2);',
  'INSERT INTO S.U VALUES (:h);',
  "INSERT INTO T SELECT 'A', 1 FROM SYSIBM.SYSDUMMY1 UNION ALL SELECT 'B', 2 FROM SYSIBM.SYSDUMMY1;",
];

describe('schema: inserts of reference data', () => {
  it('answers as insertTarget and isReferenceData do, asked in any order and again', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...LINES), { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 60 }), (lines, order) => {
        const file = model('a.sql', lines.join('\n') + '\n');
        const schema = SchemaModel.build([file]);
        const inserts = file.statements.filter((s): s is InsertStatement => s.kind === 'insert');
        if (inserts.length === 0) return;
        for (const n of [...order, ...inserts.keys()]) {
          const stmt = inserts[n % inserts.length];
          assert.equal(schema.insertsReferenceData(stmt.target, stmt), direct(schema, stmt), lines.join(' '));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('tells a seed table from one that also receives run-time values', () => {
    const file = model('a.sql', 'INSERT INTO APP.CODES VALUES (1);\nINSERT INTO APP.ORDERS VALUES (1);\nINSERT INTO APP.ORDERS VALUES (?);\n');
    const schema = SchemaModel.build([file]);
    const [codes, orders] = file.statements as InsertStatement[];
    assert.equal(schema.insertsReferenceData(codes.target, codes), true);
    assert.equal(schema.insertsReferenceData(orders.target, orders), false);
    assert.equal(schema.insertsReferenceData(codes.target, codes), true, 'the same when asked again');
  });

  it('counts the rows of a SELECT of constants (FROM SYSIBM.SYSDUMMY1) as written rows, not as a bulk query', () => {
    // carddemo's TRNTYCAT.ddl seeds 18 category codes this way; a query from a real table stays bulk evidence.
    const seed = ['01', '02', '03'].map((c) => `SELECT '${c}', 'CODE ${c}' FROM DMY`).join(' UNION ALL\n ');
    const text = `INSERT INTO APP.CATEGORY (CODE, NAME) WITH DMY AS (SELECT * FROM SYSIBM.SYSDUMMY1)\n ${seed};\n` +
      'INSERT INTO APP.ONE (A, B) SELECT ?, CURRENT DATE FROM SYSIBM.SYSDUMMY1;\n' +
      'INSERT INTO APP.COPY (A) SELECT A FROM APP.SRC UNION ALL SELECT 1 FROM SYSIBM.SYSDUMMY1;\n';
    const file = model('seed.sql', text);
    const schema = SchemaModel.build([file]);
    const [category, one, copy] = file.statements as InsertStatement[];
    assert.deepEqual(category.source.kind === 'select' && category.source.constantRows, { count: 3, parameters: false });
    assert.deepEqual(one.source.kind === 'select' && one.source.constantRows, { count: 1, parameters: true });
    assert.equal(copy.source.kind === 'select' && copy.source.constantRows, undefined);
    assert.equal(schema.insertsReferenceData(category.target, category), true, 'three literal rows: reference data');
    assert.deepEqual(schema.insertTarget(category.target, category)?.bulkReasons, []);
    assert.equal(schema.insertsReferenceData(one.target, one), false, 'a row bound at run time is no reference data');
    assert.deepEqual(schema.insertTarget(one.target, one)?.bulkReasons, []);
    assert.deepEqual(schema.insertTarget(copy.target, copy)?.bulkReasons, ['INSERT … SELECT']);
  });
});
