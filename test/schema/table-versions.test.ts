// A table defined more than once in the analysed files (upgrade steps, install and uninstall scripts of one
// repository, a z/OS deck beside a plain DDL file) has versions: each DDL statement and insert concerns the version
// in force where it stands, whatever order the files are folded in. An INSERT naming a column a definition lacks
// fills another version (an older migration's CREATE TABLE of the same name).
import { strict as assert } from 'node:assert';
import { SchemaModel } from '../../server/src/schema/schema';
import { buildFileModel } from '../../server/src/engine/workspace-files';
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

  const PARENT = 'CREATE TABLE P (ID BIGINT NOT NULL PRIMARY KEY);\n';
  const UPGRADE = PARENT + [
    'CREATE TABLE CHILD (ID BIGINT NOT NULL PRIMARY KEY, PID BIGINT);',
    'ALTER TABLE CHILD ADD CONSTRAINT CHILD_FK FOREIGN KEY (PID) REFERENCES P (ID);',
    'INSERT INTO CHILD (ID, PID) SELECT ID, PID FROM OLD_CHILD;',
    '',
  ].join('\n');
  const FK = { file: 'upgrade.sql', line: 3, column: 23 };

  it("keeps a migration step's findings on its own copy, whatever other scripts of the repository do to the table", () => {
    expectFindings({ 'upgrade.sql': UPGRADE }, 'enforced-foreign-key', [FK]);
    // An uninstall script folded after it drops the key: not for the rows the step copied.
    expectFindings({ 'upgrade.sql': UPGRADE, 'z_uninstall.sql': 'ALTER TABLE CHILD DROP FOREIGN KEY CHILD_FK;\n' }, 'enforced-foreign-key', [FK]);
    // An install script defines the table the same way and inserts nothing: the finding stays with the step.
    const install = 'CREATE TABLE CHILD (ID BIGINT NOT NULL PRIMARY KEY, PID BIGINT);\nALTER TABLE CHILD ADD CONSTRAINT CHILD_FK FOREIGN KEY (PID) REFERENCES P (ID);\n';
    for (const name of ['a_install.sql', 'z_install.sql']) expectFindings({ 'upgrade.sql': UPGRADE, [name]: install }, 'enforced-foreign-key', [FK]);
    // The current schema defines the table with other columns (Spring Batch's v5.2 against its 2.2 migration).
    expectFindings({ 'upgrade.sql': UPGRADE, 'schema.sql': 'CREATE TABLE CHILD (ID BIGINT NOT NULL, PARENT_ID BIGINT);\n' }, 'enforced-foreign-key', [FK]);
  });

  it("does not lend an install script's keys to a step that creates and fills the table itself", () => {
    // Flowable's engine install script adds keys to tables its common script creates; an upgrade step creates and
    // fills its own copy. Whichever is folded first, the install script's keys concern no insert.
    const step = PARENT + 'CREATE TABLE CHILD (ID BIGINT NOT NULL PRIMARY KEY, PID BIGINT);\nINSERT INTO CHILD (ID, PID) SELECT ID, PID FROM OLD_CHILD;\n';
    const keys = 'ALTER TABLE CHILD ADD CONSTRAINT CHILD_FK FOREIGN KEY (PID) REFERENCES P (ID);\n';
    for (const name of ['a_engine.sql', 'z_engine.sql']) expectNoFindings({ 'step.sql': step, [name]: keys }, 'enforced-foreign-key');
    // A schema that does not fill the table gets its keys from wherever they are written (a table, then its keys).
    expectFindings({ 'schema.sql': 'CREATE TABLE CHILD (ID BIGINT NOT NULL PRIMARY KEY, PID BIGINT);\n', 'keys.sql': keys, 'load.sql': 'INSERT INTO CHILD SELECT * FROM OLD_CHILD;\n' }, 'enforced-foreign-key', [{ file: 'keys.sql', line: 1, column: 23 }]);
  });

  it('gives inserts from elsewhere to every definition they fit (a z/OS deck and a plain DDL file of one table)', () => {
    const deck = 'CREATE TABLE S.T (ID INT NOT NULL GENERATED ALWAYS AS IDENTITY (NO CACHE), NOTE VARCHAR(20)) IN DB1.TS1;\n';
    const ddl = 'CREATE TABLE S.T (ID INT NOT NULL GENERATED ALWAYS AS IDENTITY (NO CACHE), NOTE VARCHAR(20));\n';
    const load = 'INSERT INTO S.T (NOTE) SELECT NOTE FROM S.SRC;\n';
    expectFindings({ 'ctl/deck.sql': deck, 'ddl/t.sql': ddl, 'load.sql': load }, 'identity-cache', [
      { file: 'ctl/deck.sql', line: 1, column: 65 },
      { file: 'ddl/t.sql', line: 1, column: 65 },
    ]);
  });

  it('gives an insert without a column list to the definitions with as many columns as it gives values', () => {
    const v1 = 'CREATE TABLE S.T (ID INT NOT NULL, NOTE VARCHAR(20));\nCREATE INDEX S.T_NOTE ON S.T (NOTE) CLUSTER;\n';
    const v2 = 'CREATE TABLE S.T (ID INT NOT NULL, NOTE VARCHAR(20), EXTRA INT);\nCREATE INDEX S.T_NOTE2 ON S.T (NOTE) CLUSTER;\n';
    const files = (load: string) => ({ 'v1/t.sql': v1, 'v2/t.sql': v2, 'load.sql': load });
    expectFindings(files('INSERT INTO S.T SELECT ID, NOTE, EXTRA FROM S.SRC;\n'), 'clustered-index-bulk-target', [{ file: 'v2/t.sql', line: 2, column: 38 }]);
    expectFindings(files('INSERT INTO S.T SELECT ID, NOTE FROM S.SRC;\n'), 'clustered-index-bulk-target', [{ file: 'v1/t.sql', line: 2, column: 37 }]);
    // A count no definition has (a column added later by ALTER TABLE, a version not in the files), or not known
    // (SELECT *): every definition, as before.
    for (const load of ['INSERT INTO S.T SELECT ID, NOTE, EXTRA, MORE FROM S.SRC;\n', 'INSERT INTO S.T SELECT * FROM S.SRC;\n']) {
      expectFindings(files(load), 'clustered-index-bulk-target', [
        { file: 'v1/t.sql', line: 2, column: 37 },
        { file: 'v2/t.sql', line: 2, column: 38 },
      ]);
    }
  });

  describe('a definition that states storage beside one of the same columns that states none', () => {
    const deck = 'CREATE TABLESPACE TS1 IN DB1 LOCKSIZE TABLE;\nCREATE TABLE S.T (ID INT NOT NULL, NOTE VARCHAR(20)) IN DB1.TS1;\n';
    const plain = 'CREATE TABLE S.T (ID INT NOT NULL, NOTE VARCHAR(20), PRIMARY KEY (ID));\n';
    const load = 'INSERT INTO S.T (ID, NOTE) VALUES (?, ?);\n';
    const seenBy = (files: [string, string][]) => {
      const models = files.map(([path, text]) => model(path, text));
      const schema = SchemaModel.build(models);
      const insert = models.find((m) => m.source.path === 'load.sql')!.statements[0];
      assert.equal(insert.kind, 'insert');
      return { schema, table: schema.table(insert.kind === 'insert' ? insert.target : { name: '', span: { start: 0, end: 0 } }, insert)! };
    };

    it('gives an insert from elsewhere the one that states storage, whichever is folded last', () => {
      for (const order of [[['deck.sql', deck], ['plain.sql', plain]], [['plain.sql', plain], ['deck.sql', deck]]] as [string, string][][]) {
        const { schema, table } = seenBy([...order, ['load.sql', load]]);
        assert.equal(table.definition?.file, 'deck.sql', order.map(([p]) => p).join(' then '));
        assert.equal(table.tablespace, 'TS1');
        // Both definitions still receive the insert: findings about what each states (its keys, identity) stay.
        for (const version of schema.allVersions()) assert.equal(schema.isInsertTarget(version), true, version.definition?.file);
      }
    });

    it('keeps the last definition when it states storage itself, or when the columns differ', () => {
      const appendOn = plain.replace(';', ' APPEND ON;');
      assert.equal(seenBy([['deck.sql', deck], ['plain.sql', appendOn], ['load.sql', load]]).table.definition?.file, 'plain.sql');
      const wider = plain.replace('NOTE VARCHAR(20)', 'NOTE VARCHAR(20), AT TIMESTAMP');
      assert.equal(seenBy([['deck.sql', deck], ['plain.sql', wider], ['load.sql', load]]).table.definition?.file, 'plain.sql');
    });

    it("keeps an insert of a migration step on the version its own file created", () => {
      const step = plain + 'INSERT INTO S.T (ID, NOTE) SELECT ID, NOTE FROM S.OLD;\n';
      const models = [model('deck.sql', deck), model('load.sql', step)];
      const schema = SchemaModel.build(models);
      const insert = models[1].statements[1];
      assert.equal(insert.kind === 'insert' && schema.table(insert.target, insert)?.definition?.file, 'load.sql');
    });
  });
});
