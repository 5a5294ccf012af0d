import * as assert from 'node:assert/strict';
import { expectFindings, expectNoFindings, findings } from '../helpers/rule-tester';

const RULE = 'index-count';
const TABLE = 'CREATE TABLE T (A INT NOT NULL PRIMARY KEY, B INT, C INT, D INT);\n';
const INDEXES = ['CREATE INDEX T_B ON T (B);', 'CREATE INDEX T_C ON T (C);', 'CREATE INDEX T_D ON T (D);', 'CREATE INDEX T_BC ON T (B, C);', ''].join('\n');
const BULK = 'INSERT INTO T SELECT * FROM S;\n';

describe(`rule ${RULE}`, () => {
  it('reports the index that takes a bulk target over 3, counting the primary key', () => {
    expectFindings({ 'schema.sql': TABLE + INDEXES, 'load.sql': BULK }, RULE, [
      { file: 'schema.sql', line: 4, column: 14, endLine: 4, endColumn: 17, severity: 'warning', message: /^Bulk insert target T \(INSERT … SELECT\) has 5 indexes, more than 3\. They are in force during its inserts \(4 CREATE INDEX \+ 1 primary key\/unique constraint\): .*141\.6 s with 4/ },
    ]);
  });

  it('says to move the indexes after the INSERT that loads the table when both are in the script (an upgrade step)', () => {
    expectFindings({ 'step.sql': TABLE + INDEXES + BULK }, RULE, [
      { file: 'step.sql', line: 4, column: 14, message: /T_B \(B\) is the leading part of T_BC .* Create them after the load instead: move the CREATE INDEX statements at lines 2\u20135 after the INSERT at line 6, or drop and recreate them around it\.$/ },
    ]);
    expectFindings({ 'schema.sql': TABLE + INDEXES, 'load.sql': BULK }, RULE, [{ file: 'schema.sql', line: 4, column: 14, message: /Create the indexes you can after the load, or drop/ }]);
  });

  it('names an ordinary index that is the leading part of another (DayTrader: ORDER_ACCOUNTID and CLOSED_ORDERS)', () => {
    const [finding] = expectFindings({ 'schema.sql': TABLE + INDEXES, 'load.sql': BULK }, RULE, [{ file: 'schema.sql', line: 4, column: 14 }]);
    // The lasting fix comes before the advice about the load (DayTrader's ORDEREJB is an OLTP table).
    assert.match(finding.message, / T_B \(B\) is the leading part of T_BC \(B, C\): a query that uses it can use the wider one, and dropping it saves an index entry per row for good\. Create the indexes you can after the load, or drop and recreate them around it\.$/);
    // A unique index enforces something, and a clustering one orders the table: neither is named.
    const unique = INDEXES.replace('CREATE INDEX T_B ON', 'CREATE UNIQUE INDEX T_B ON');
    assert.doesNotMatch(findings({ 'schema.sql': TABLE + unique, 'load.sql': BULK }, RULE)[0].message, /leading part/);
    const other = INDEXES.replace('T_BC ON T (B, C)', 'T_ACB ON T (A, C, B)');
    assert.doesNotMatch(findings({ 'schema.sql': TABLE + other, 'load.sql': BULK }, RULE)[0].message, /leading part/);
  });

  it('reports key constraints alone when they exceed the limit', () => {
    const ddl = ['CREATE TABLE K (', '  A INT NOT NULL PRIMARY KEY,', '  B INT NOT NULL UNIQUE,', '  C INT NOT NULL,', '  D INT NOT NULL,', '  CONSTRAINT K_C UNIQUE (C),', '  CONSTRAINT K_D UNIQUE (D)', ');', ''].join('\n');
    expectFindings({ 'schema.sql': ddl, 'load.sql': 'INSERT INTO K SELECT * FROM S;\n' }, RULE, [{ file: 'schema.sql', line: 7, column: 3, message: /has 4 indexes, .*\(4 primary key\/unique constraints\)/ }]);
  });

  it('counts a key and the unique index on its columns as one index (z/OS requires that index; LUW reuses it)', () => {
    // GenApp's and carddemo's z/OS DDL: PRIMARY KEY (A) and CREATE UNIQUE INDEX on (A), plus two more indexes.
    const zos = ['CREATE UNIQUE INDEX T_PK ON T (A);', 'CREATE INDEX T_B ON T (B);', 'CREATE INDEX T_C ON T (C);', ''].join('\n');
    expectNoFindings({ 'schema.sql': TABLE + zos, 'load.sql': BULK }, RULE);
    // Columns in another order are the same key; a unique index on other columns is an index of its own.
    const twoColumns = 'CREATE TABLE T (A INT NOT NULL, B INT NOT NULL, C INT, D INT, PRIMARY KEY (A, B));\n';
    const four = ['CREATE UNIQUE INDEX T_BA ON T (B, A);', 'CREATE INDEX T_C ON T (C);', 'CREATE INDEX T_D ON T (D);', 'CREATE INDEX T_CD ON T (C, D);', ''].join('\n');
    expectFindings({ 'schema.sql': twoColumns + four, 'load.sql': BULK }, RULE, [{ file: 'schema.sql', line: 5, column: 14, message: /has 4 indexes, more than 3\. .*\(4 CREATE INDEX\)/ }]);
    expectFindings({ 'schema.sql': twoColumns + four.replace('T_BA ON T (B, A)', 'T_BC ON T (B, C)'), 'load.sql': BULK }, RULE, [{ file: 'schema.sql', line: 4, column: 14, message: /has 5 indexes, .*\(4 CREATE INDEX \+ 1 primary key\/unique constraint\)/ }]);
  });

  it('counts an index or key defined again in another file (variant scripts) once', () => {
    const files = { 'create-all.sql': TABLE + 'CREATE INDEX T_B ON T (B);\n', 'create-engine.sql': TABLE + 'CREATE INDEX T_B ON T (B);\nCREATE INDEX T_C ON T (C);\n', 'load.sql': BULK };
    expectNoFindings(files, RULE);
  });

  it("orders the steps of one migration sequence by their names' versions: a later step's indexes did not slow an earlier step's inserts", () => {
    // Flowable's 6.2.1 upgrade adds the indexes of a table that only its 6.0.0.1 upgrade copies rows into.
    const later = { 'schema.sql': TABLE, 'upgrade/app.db2.upgradestep.6001.to.6002.engine.sql': BULK, 'upgrade/app.db2.upgradestep.6200.to.6210.common.sql': INDEXES };
    expectNoFindings(later, RULE);
    // The other way round, and files that are no steps of one sequence (order unknown: the schema comes first).
    const earlier = { 'schema.sql': TABLE, 'upgrade/app.db2.upgradestep.6200.to.6210.engine.sql': BULK, 'upgrade/app.db2.upgradestep.6001.to.6002.common.sql': INDEXES };
    expectFindings(earlier, RULE, [{ file: 'upgrade/app.db2.upgradestep.6001.to.6002.common.sql', line: 3, column: 14 }]);
    expectFindings({ 'schema.sql': TABLE, 'upgrade/app.db2.upgradestep.6001.to.6002.sql': BULK, 'indexes-v2.sql': INDEXES }, RULE, [{ file: 'indexes-v2.sql', line: 3, column: 14 }]);
    // Flyway: V10 comes after V9.
    expectNoFindings({ 'db/V1__tables.sql': TABLE, 'db/V9__load.sql': BULK, 'db/V10__indexes.sql': INDEXES }, RULE);
    expectFindings({ 'db/V1__tables.sql': TABLE, 'db/V10__load.sql': BULK, 'db/V9__indexes.sql': INDEXES }, RULE, [{ file: 'db/V9__indexes.sql', line: 3, column: 14 }]);
  });

  it('honours maxIndexes', () => {
    expectNoFindings({ 'schema.sql': TABLE + INDEXES, 'load.sql': BULK }, RULE, { config: { rules: { [RULE]: ['warning', { maxIndexes: 5 }] } } });
    expectFindings({ 'schema.sql': TABLE + INDEXES, 'load.sql': BULK }, RULE, [{ file: 'schema.sql', line: 2, column: 14, message: /more than 1\./ }], { config: { rules: { [RULE]: ['warning', { maxIndexes: 1 }] } } });
  });

  it('does not count indexes created after the inserts, nor tables without bulk inserts', () => {
    expectNoFindings({ 'load.sql': TABLE + BULK + INDEXES }, RULE);
    expectNoFindings({ 'schema.sql': TABLE + INDEXES, 'load.sql': 'INSERT INTO T VALUES (?, ?, ?, ?);\n' }, RULE);
  });

  it("scales the cost of the indexes to the rows the scripts spell out, a hint under a second", () => {
    const rows = `INSERT INTO T VALUES ${Array.from({ length: 150 }, (_, i) => `(${i}, 1, 2, 3)`).join(', ')};\n`;
    // Five indexes: four's cost per index (test 35), 0.21 s for 150 rows.
    expectFindings({ 'schema.sql': TABLE + INDEXES, 'data.sql': rows }, RULE, [
      { file: 'schema.sql', line: 4, column: 14, severity: 'hint', message: /\(test 36\)\. The scripts insert 150 rows into it: about 0\.21 s more in all at the measured rates \(tests 35 and 31, for 5 indexes\)\. T_B \(B\) is the leading part .* Create the indexes/ },
    ]);
    const [unknown] = expectFindings({ 'schema.sql': TABLE + INDEXES, 'load.sql': BULK }, RULE, [{ file: 'schema.sql', line: 4, column: 14, severity: 'warning' }]);
    assert.doesNotMatch(unknown.message, /The scripts insert/);
  });
});
