// ALTER TABLE … DROP COLUMN: the column leaves the table's model, and so do the indexes, keys and identity that
// depended on it, and the foreign keys of other tables that reference a key including it (CASCADE, Db2 LUW's
// default). RESTRICT with dependents is refused by Db2: nothing changes.
import { strict as assert } from 'node:assert';
import { SchemaModel } from '../../server/src/schema/schema';
import { buildFileModel } from '../../server/src/engine/workspace-files';
import type { Statement } from '../../server/src/sql/ast';
import { expectFindings, findings } from '../helpers/rule-tester';

const model = (path: string, text: string) => buildFileModel({ path, text, language: 'sql' });
const PARENT = 'CREATE TABLE S.P (ID INT NOT NULL PRIMARY KEY);\n';
const TABLE = [
  'CREATE TABLE S.T (',
  '  ID INT NOT NULL GENERATED ALWAYS AS IDENTITY (NO CACHE),',
  '  P_ID INT,',
  '  DOC CLOB(1M),',
  '  NOTE VARCHAR(20),',
  '  CONSTRAINT T_P FOREIGN KEY (P_ID) REFERENCES S.P (ID),',
  '  CONSTRAINT T_U UNIQUE (NOTE)',
  ');',
  'CREATE INDEX S.T_NOTE ON S.T (NOTE);',
  'CREATE INDEX S.T_ID ON S.T (ID) INCLUDE (P_ID);',
  '',
].join('\n');
const BULK = 'INSERT INTO S.T SELECT * FROM S.STAGE;\n';
// S.P's primary key ID and unique key CODE are each referenced: T_P names ID, T_ANY names no parent columns (the
// primary key), T_C names CODE; S.P references itself (P_SELF, on the primary key).
const REFERENCED = 'CREATE TABLE S.P (ID INT NOT NULL PRIMARY KEY, CODE INT NOT NULL, UP INT, NOTE VARCHAR(9), CONSTRAINT P_U UNIQUE (CODE), CONSTRAINT P_SELF FOREIGN KEY (UP) REFERENCES S.P);\n';
const REFERENCING = [
  'CREATE TABLE S.C (ID INT NOT NULL, P_ID INT, P_ID2 INT, P_CODE INT,',
  '  CONSTRAINT T_P FOREIGN KEY (P_ID) REFERENCES S.P (ID),',
  '  CONSTRAINT T_ANY FOREIGN KEY (P_ID2) REFERENCES S.P,',
  '  CONSTRAINT T_C FOREIGN KEY (P_CODE) REFERENCES S.P (CODE));',
  '',
].join('\n');

function tableAfter(alter: string) {
  return SchemaModel.build([model('schema.sql', PARENT + TABLE + alter)]).tableByKey('S.T')!;
}

describe('schema: ALTER TABLE … DROP COLUMN', () => {
  it('reads DROP [COLUMN] name [CASCADE | RESTRICT] among other actions, and leaves DROP VERSIONING / RESTRICT ON DROP alone', () => {
    const actions = (sql: string) => {
      const [stmt] = model('a.sql', sql).statements as Statement[];
      assert.equal(stmt.kind, 'alterTable');
      return stmt.kind === 'alterTable' ? stmt.actions.map((a) => (a.kind === 'dropColumn' ? `drop ${a.column}${a.restrict ? ' restrict' : ''}` : a.kind)) : [];
    };
    assert.deepEqual(actions('ALTER TABLE t DROP COLUMN a DROP b CASCADE DROP COLUMN "c" RESTRICT DROP VERSIONING ADD COLUMN d INT\n'), ['drop A', 'drop B', 'drop c restrict', 'other', 'addColumn']);
    assert.ok(!actions('ALTER TABLE t DROP RESTRICT ON DROP\n').some((a) => a.startsWith('drop ')));
  });

  it('takes the column away with the indexes, keys and identity that include it', () => {
    assert.deepEqual(tableAfter('').columns.map((c) => c.name), ['ID', 'P_ID', 'DOC', 'NOTE']);
    const noNote = tableAfter('ALTER TABLE S.T DROP COLUMN NOTE;\n');
    assert.deepEqual(noNote.columns.map((c) => c.name), ['ID', 'P_ID', 'DOC']);
    assert.deepEqual(noNote.indexes.map((i) => i.name), ['T_ID']);
    assert.deepEqual(noNote.keyConstraints, []);
    const noParent = tableAfter('ALTER TABLE S.T DROP P_ID;\n');
    assert.deepEqual(noParent.foreignKeys, []);
    assert.deepEqual(noParent.indexes.map((i) => i.name), ['T_NOTE'], 'an index that INCLUDEs it goes too');
    assert.equal(tableAfter('ALTER TABLE S.T DROP COLUMN ID;\n').identity, undefined);
    assert.ok(tableAfter('ALTER TABLE S.T DROP COLUMN NOTE;\n').identity);
  });

  it('changes nothing when RESTRICT meets a dependent (Db2 refuses the statement), and drops a column nothing depends on', () => {
    const refused = tableAfter('ALTER TABLE S.T DROP COLUMN NOTE RESTRICT;\n');
    assert.deepEqual(refused.columns.map((c) => c.name), ['ID', 'P_ID', 'DOC', 'NOTE']);
    assert.equal(refused.indexes.length, 2);
    assert.deepEqual(tableAfter('ALTER TABLE S.T DROP COLUMN DOC RESTRICT;\n').columns.map((c) => c.name), ['ID', 'P_ID', 'NOTE']);
  });

  it('leaves the rules quiet about what was dropped before the load', () => {
    const files = (alter: string) => ({ 'schema.sql': PARENT + TABLE + alter, 'load.sql': BULK });
    const lines = (alter: string, rule: string) => findings(files(alter), rule).map((f) => `${f.file}:${f.line}`);
    // Before: each of these is reported (the test would pass on an engine that reports nothing otherwise).
    assert.deepEqual(lines('', 'lob-column'), ['schema.sql:5']);
    assert.deepEqual(lines('', 'identity-cache'), ['schema.sql:3']);
    assert.deepEqual(lines('', 'enforced-foreign-key'), ['schema.sql:7']);
    assert.deepEqual(lines('ALTER TABLE S.T DROP COLUMN DOC;\n', 'lob-column'), []);
    assert.deepEqual(lines('ALTER TABLE S.T DROP COLUMN ID;\n', 'identity-cache'), []);
    assert.deepEqual(lines('ALTER TABLE S.T DROP COLUMN P_ID CASCADE;\n', 'enforced-foreign-key'), []);
    const fourth = 'CREATE INDEX S.T_N2 ON S.T (NOTE, ID);\n';
    assert.equal(lines(fourth, 'index-count').length, 1);
    assert.deepEqual(lines(fourth + 'ALTER TABLE S.T DROP COLUMN NOTE;\n', 'index-count'), []);
    // RESTRICT with the foreign key depending on it: Db2 refuses, the key stays.
    assert.deepEqual(lines('ALTER TABLE S.T DROP COLUMN P_ID RESTRICT;\n', 'enforced-foreign-key'), ['schema.sql:7']);
  });

  it("takes the foreign keys of other tables that reference a key with the column (CASCADE), and refuses it with RESTRICT", () => {
    const after = (alter: string, files: Record<string, string> = {}) => {
      const schema = SchemaModel.build([model('schema.sql', REFERENCED + REFERENCING + alter), ...Object.entries(files).map(([path, text]) => model(path, text))]);
      return { p: schema.tableByKey('S.P')!, c: schema.tableByKey('S.C')! };
    };
    const names = (t: { foreignKeys: { name: string }[] }) => t.foreignKeys.map((fk) => fk.name);
    assert.deepEqual(names(after('').c), ['T_P', 'T_ANY', 'T_C']);
    // Dropping ID drops the primary key, and every key referencing it: T_P, T_ANY and P_SELF; T_C stays.
    const noId = after('ALTER TABLE S.P DROP COLUMN ID;\n');
    assert.deepEqual(names(noId.c), ['T_C']);
    assert.deepEqual(names(noId.p), []);
    assert.deepEqual(noId.p.keyConstraints.map((k) => k.name), ['P_U']);
    assert.deepEqual(names(after('ALTER TABLE S.P DROP CODE CASCADE;\n').c), ['T_P', 'T_ANY']);
    // A column in no referenced key: the other tables keep their keys.
    assert.deepEqual(names(after('ALTER TABLE S.P DROP COLUMN NOTE;\n').c), ['T_P', 'T_ANY', 'T_C']);
    // RESTRICT with such a dependent: Db2 refuses the statement, nothing changes anywhere.
    const refused = after('ALTER TABLE S.P DROP COLUMN CODE RESTRICT;\n');
    assert.deepEqual(refused.p.columns.map((c) => c.name), ['ID', 'CODE', 'UP', 'NOTE']);
    assert.deepEqual(names(refused.c), ['T_P', 'T_ANY', 'T_C']);
    assert.deepEqual(refused.p.keyConstraints.map((k) => k.name), ['primaryKey(ID)', 'P_U']);
    // Another file's ALTER changes a copy of the child, as for a drop of the child's own key there (TableVersions).
    const elsewhere = after('', { 'drop.sql': 'ALTER TABLE S.P DROP COLUMN ID;\n' });
    assert.deepEqual(names(elsewhere.c), ['T_C']);
  });

  it('leaves enforced-foreign-key quiet about a key of another table dropped with its parent key', () => {
    const parent = 'CREATE TABLE S.P (ID INT NOT NULL PRIMARY KEY, CODE INT NOT NULL UNIQUE);\n';
    const child = 'CREATE TABLE S.C (ID INT NOT NULL, P_ID INT NOT NULL, CONSTRAINT C_P FOREIGN KEY (P_ID) REFERENCES S.P);\n';
    const lines = (alter: string) => findings({ 'schema.sql': parent + child + alter, 'load.sql': 'INSERT INTO S.C SELECT * FROM S.STAGE;\n' }, 'enforced-foreign-key').map((f) => `${f.file}:${f.line}`);
    assert.deepEqual(lines(''), ['schema.sql:2']);
    assert.deepEqual(lines('ALTER TABLE S.P DROP COLUMN ID;\n'), []);
    assert.deepEqual(lines('ALTER TABLE S.P DROP COLUMN CODE;\n'), ['schema.sql:2']);
    assert.deepEqual(lines('ALTER TABLE S.P DROP COLUMN ID RESTRICT;\n'), ['schema.sql:2']);
  });

  it('fills the columns left, by place, for an INSERT without a column list', () => {
    // DOC dropped, BODY added: four values go to ID, P_ID, NOTE and BODY (the CLOB a fifth column would have been).
    const alter = 'ALTER TABLE S.T DROP COLUMN DOC;\nALTER TABLE S.T ADD COLUMN BODY CLOB(1M);\n';
    const [finding] = expectFindings({ 'schema.sql': PARENT + TABLE + alter, 'load.sql': 'INSERT INTO S.T VALUES (DEFAULT, ?, ?, ?);\n' }, 'lob-column', [{ file: 'schema.sql', line: 13, column: 33 }]);
    assert.match(finding.message, /^Column BODY of insert target S\.T is CLOB\(1M\)/);
  });
});

describe('schema: ALTER TABLE … DROP PRIMARY KEY / UNIQUE / CONSTRAINT of a referenced key', () => {
  // Db2 drops with a primary or unique key every referential constraint whose parent key it is, in any table.
  const after = (alter: string, files: Record<string, string> = {}) => {
    const schema = SchemaModel.build([model('schema.sql', REFERENCED + REFERENCING + alter), ...Object.entries(files).map(([path, text]) => model(path, text))]);
    const names = (key: string) => schema.tableByKey(key)!.foreignKeys.map((fk) => fk.name);
    return { p: names('S.P'), c: names('S.C'), keys: schema.tableByKey('S.P')!.keyConstraints.map((k) => k.name) };
  };

  it('takes the foreign keys on the primary key with DROP PRIMARY KEY, and those on a unique key with DROP UNIQUE or DROP CONSTRAINT', () => {
    assert.deepEqual(after(''), { p: ['P_SELF'], c: ['T_P', 'T_ANY', 'T_C'], keys: ['primaryKey(ID)', 'P_U'] });
    assert.deepEqual(after('ALTER TABLE S.P DROP PRIMARY KEY;\n'), { p: [], c: ['T_C'], keys: ['P_U'] });
    assert.deepEqual(after('ALTER TABLE S.P DROP UNIQUE P_U;\n'), { p: ['P_SELF'], c: ['T_P', 'T_ANY'], keys: ['primaryKey(ID)'] });
    assert.deepEqual(after('ALTER TABLE S.P DROP CONSTRAINT P_U;\n'), { p: ['P_SELF'], c: ['T_P', 'T_ANY'], keys: ['primaryKey(ID)'] });
    // A foreign key dropped by name takes nothing else; a name that is no key changes nothing.
    assert.deepEqual(after('ALTER TABLE S.C DROP CONSTRAINT T_C;\n'), { p: ['P_SELF'], c: ['T_P', 'T_ANY'], keys: ['primaryKey(ID)', 'P_U'] });
    assert.deepEqual(after('ALTER TABLE S.P DROP CONSTRAINT NO_SUCH;\n'), { p: ['P_SELF'], c: ['T_P', 'T_ANY', 'T_C'], keys: ['primaryKey(ID)', 'P_U'] });
    // Another file's ALTER changes a copy of the child (TableVersions), as DROP COLUMN does.
    assert.deepEqual(after('', { 'drop.sql': 'ALTER TABLE S.P DROP PRIMARY KEY;\n' }).c, ['T_C']);
  });

  it('leaves enforced-foreign-key quiet about a key whose parent key was dropped', () => {
    const lines = (alter: string) => findings({ 'schema.sql': REFERENCED + REFERENCING + alter, 'load.sql': 'INSERT INTO S.C SELECT * FROM S.STAGE;\n' }, 'enforced-foreign-key').map((f) => `${f.file}:${f.line}`);
    assert.deepEqual(lines(''), ['schema.sql:3']);
    assert.deepEqual(lines('ALTER TABLE S.P DROP PRIMARY KEY;\nALTER TABLE S.P DROP UNIQUE P_U;\n'), []);
  });
});

describe('schema: a dropped key and a child that names its parent unqualified', () => {
  it('follows REFERENCES P of a script without SET SCHEMA to the one table P, created and altered as S.P', () => {
    const schema = (alter: string) =>
      SchemaModel.build([
        model('parent.sql', 'CREATE TABLE S.P (ID INT NOT NULL PRIMARY KEY);\n'),
        model('child.sql', 'CREATE TABLE C (ID INT NOT NULL, P_ID INT, CONSTRAINT C_P FOREIGN KEY (P_ID) REFERENCES P);\n'),
        model('drop.sql', alter),
      ]).tableByKey('C')!.foreignKeys.map((fk) => fk.name);
    assert.deepEqual(schema(''), ['C_P']);
    assert.deepEqual(schema('ALTER TABLE S.P DROP PRIMARY KEY;\n'), []);
    assert.deepEqual(schema('ALTER TABLE S.P DROP COLUMN ID;\n'), []);
  });
});
