// SchemaModel.insertsReferenceData keeps its answer per target key (four rules ask it of every INSERT of a
// script): the answers must be those of insertTarget and isReferenceData, whatever order they are asked in,
// for qualified and unqualified names that share a key.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { SchemaModel } from '../../server/src/schema/schema';
import { buildFileModel } from '../../server/src/engine/workspace';
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
});
