import { expectFindings, expectNoFindings } from '../helpers/rule-tester';

const RULE = 'prefer-load-from-cursor';

describe(`rule ${RULE}`, () => {
  it('reports INSERT … SELECT from another table, on the target', () => {
    expectFindings({ 'load.sql': 'INSERT INTO ARCHIVE.ORDERS_2024\n  SELECT * FROM SALES.ORDERS;\n' }, RULE, [
      { line: 1, column: 13, endColumn: 32, severity: 'information', message: /^INSERT INTO ARCHIVE\.ORDERS_2024 … SELECT .*LOAD FROM c OF CURSOR INSERT INTO ARCHIVE\.ORDERS_2024.*12\.9 s against 15\.7 s/ },
    ]);
  });

  it('ignores VALUES inserts, selects from SYSIBM.SYSDUMMY1 and declared temporary tables', () => {
    expectNoFindings({ 'load.sql': 'INSERT INTO T VALUES (1), (2);\n' }, RULE);
    expectNoFindings({ 'load.sql': 'INSERT INTO T SELECT CURRENT DATE FROM SYSIBM.SYSDUMMY1;\n' }, RULE);
    expectNoFindings({ 'load.sql': 'INSERT INTO SESSION.WORK SELECT * FROM SALES.ORDERS;\n' }, RULE);
  });

  it('ignores a table with a spatial (structured type) column: the load utility does not fill it', () => {
    const ddl = (type: string) => `CREATE TABLE GEO (ID INT, SHAPE ${type});\n`;
    const copy = 'INSERT INTO GEO SELECT ID, SHAPE FROM STAGE.GEO;\n';
    expectNoFindings({ 'load.sql': ddl('SYSIBM.ST_MULTIPOLYGON') + copy }, RULE);
    expectNoFindings({ 'load.sql': ddl('DB2GSE.ST_Point') + copy }, RULE);
    expectFindings({ 'load.sql': ddl('VARCHAR(256)') + copy }, RULE, [{ line: 2, column: 13, severity: 'information', message: /^INSERT INTO GEO … SELECT/ }]);
  });
});
