// An INSERT naming a column the table's definition lacks fills another version of the table (an older migration's
// CREATE TABLE of the same name): it is no evidence of how this definition is filled.
import { strict as assert } from 'node:assert';
import { SchemaModel } from '../../server/src/schema/schema';
import { buildFileModel } from '../../server/src/engine/workspace';
import { expectFindings, expectNoFindings } from '../helpers/rule-tester';

const model = (path: string, text: string) => buildFileModel({ path, text, language: 'sql' });
const DEFINITION = 'CREATE TABLE S.T (ID INT NOT NULL GENERATED ALWAYS AS IDENTITY (NO CACHE), NOTE VARCHAR(20));\n';

describe('schema: inserts into another version of a table', () => {
  it('drops them from the target, with the bulk reasons and rows they brought', () => {
    const older = 'INSERT INTO S.T (ID, OLD_NOTE) SELECT ID, NOTE FROM S.OLD;\nINSERT INTO S.T (ID, OLD_NOTE) VALUES (1, \'a\'), (2, \'b\');\n';
    const schema = SchemaModel.build([model('schema.sql', DEFINITION), model('migration-2.2.sql', older)], { bulkRowThreshold: 2 });
    const table = schema.tableByKey('S.T')!;
    assert.equal(schema.isBulkTarget(table), false);
    assert.equal(schema.isInsertTarget(table), false);
    assert.equal(schema.insertTargets.has('S.T'), false);

    const mixed = older + "INSERT INTO S.T (NOTE) VALUES ('c');\nINSERT INTO S.T VALUES (DEFAULT, 'd');\n";
    const kept = SchemaModel.build([model('schema.sql', DEFINITION), model('load.sql', mixed)], { bulkRowThreshold: 3 });
    const target = kept.insertTargets.get('S.T')!;
    assert.deepEqual(target.sites.map((s) => s.stmt.span.start > 0), [true, true], 'the two inserts that fit');
    assert.deepEqual(target.bulkReasons, [], 'the INSERT … SELECT and the two rows were the other version\'s');
    assert.equal(target.valuesRows, 2);
  });

  it('keeps inserts into a table whose columns are not known (CREATE TABLE … LIKE, no DDL)', () => {
    const insert = 'INSERT INTO S.T (ID, OLD_NOTE) SELECT ID, NOTE FROM S.OLD;\n';
    for (const ddl of ['CREATE TABLE S.T LIKE S.OLD;\n', '']) {
      const schema = SchemaModel.build([model('schema.sql', ddl + 'CREATE INDEX S.I ON S.T (ID);\n'), model('load.sql', insert)]);
      assert.equal(schema.insertTargets.get('S.T')?.bulkReasons.length, 1, ddl || 'no CREATE TABLE');
    }
  });

  it('leaves the schema rules quiet about the definition the old inserts do not fit', () => {
    const files = { 'schema.sql': DEFINITION, 'migration-2.2.sql': 'INSERT INTO S.T (ID, OLD_NOTE) SELECT ID, NOTE FROM S.OLD;\n' };
    expectNoFindings(files, 'identity-cache');
    // A column the definition gains with ALTER TABLE … ADD COLUMN is one of its columns.
    files['schema.sql'] += 'ALTER TABLE S.T ADD COLUMN OLD_NOTE VARCHAR(20);\n';
    expectFindings(files, 'identity-cache', [{ file: 'schema.sql', line: 1, column: 65 }]);
  });
});
