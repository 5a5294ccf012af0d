// SchemaModel.knownRows: the rows of an insert target when the scripts spell out every one (literal INSERT …
// VALUES only), and rules/support/known-volume's scaling of the seed's per-100,000-row figures to them.
import { strict as assert } from 'node:assert';
import { SchemaModel } from '../../server/src/schema/schema';
import { buildFileModel } from '../../server/src/engine/workspace-files';
import { estimateText, scaledCost } from '../../rules/support/known-volume';

const model = (path: string, text: string, language: 'sql' | 'java' = 'sql') => buildFileModel({ path, text, language });

function rowsOf(files: [string, string][], table = 'APP.T', bulkRowThreshold = 100): number | undefined {
  const schema = SchemaModel.build(files.map(([path, text]) => model(path, text)), { bulkRowThreshold });
  const target = schema.insertTargets.get(table);
  assert.ok(target, `${table} is an insert target`);
  return schema.knownRows(target);
}

const values = (n: number, from = 0) => `INSERT INTO APP.T VALUES ${Array.from({ length: n }, (_, i) => `(${from + i})`).join(', ')};\n`;

describe('schema: known rows of an insert target', () => {
  it('sums the literal rows of every script when they are all the target receives', () => {
    assert.equal(rowsOf([['a.sql', values(120)], ['b.sql', values(69, 200) + 'INSERT INTO APP.T VALUES (999);\n']]), 190);
    // Under the threshold too (reference data: the rules do not report it, but the count is the count).
    assert.equal(rowsOf([['a.sql', values(3)]]), 3);
  });

  it('knows nothing when anything else fills the target: a query, IMPORT, a loop, markers, a MERGE', () => {
    const others = [
      'INSERT INTO APP.T SELECT A FROM APP.S;\n',
      'IMPORT FROM t.del OF DEL INSERT INTO APP.T;\n',
      'INSERT INTO APP.T VALUES (?);\n',
      'BEGIN\n  DECLARE I INT DEFAULT 0;\n  WHILE I < 10 DO\n    INSERT INTO APP.T VALUES (I);\n    SET I = I + 1;\n  END WHILE;\nEND\n',
      'MERGE INTO APP.T USING (SELECT A FROM APP.S) S ON APP.T.A = S.A WHEN NOT MATCHED THEN INSERT VALUES (S.A);\n',
    ];
    for (const other of others) assert.equal(rowsOf([['a.sql', values(150)], ['b.sql', other]]), undefined, other);
  });

  it('knows nothing of rows a trigger on a bulk target writes', () => {
    const ddl = 'CREATE TABLE APP.T (A INT);\nCREATE TABLE APP.LOG (A INT);\nCREATE TRIGGER APP.T_LOG AFTER INSERT ON APP.T REFERENCING NEW AS N FOR EACH ROW INSERT INTO APP.LOG VALUES (N.A);\n';
    assert.equal(rowsOf([['ddl.sql', ddl], ['a.sql', values(150)]]), 150);
    assert.equal(rowsOf([['ddl.sql', ddl], ['a.sql', values(150)]], 'APP.LOG'), undefined);
  });
});

describe("schema: known rows of a routine's loop over a table of known rows", () => {
  // A procedure that moves every row of APP.S into APP.T, as tbselcreate.db2's buy_company moves COMPANY_A into COMPANY_B.
  const ddl = 'CREATE TABLE APP.S (A INT);\nCREATE TABLE APP.T (A INT);\n';
  const seed = "INSERT INTO APP.S VALUES (1), (2), (3);\n";
  const move = (query: string, insert = 'INSERT INTO APP.T VALUES (R.A);') =>
    `CREATE PROCEDURE APP.MOVE()\nLANGUAGE SQL\nBEGIN\n  FOR R AS C CURSOR FOR ${query} DO\n    ${insert}\n  END FOR;\nEND@\n`;
  const DELETES = '(SELECT A FROM OLD TABLE (DELETE FROM APP.S))';
  const script = (...parts: string[]) => ['--#SET TERMINATOR @\n', ...parts.map((p) => (p.endsWith('@\n') ? p : p.replace(/;\n/g, '@\n')))].join('');
  const schemaOf = (...files: string[]) => SchemaModel.build(files.map((text, i) => model(`f${i}.sql`, text)));
  const rowsIn = (schema: SchemaModel, key = 'APP.T') => {
    const target = schema.insertTargets.get(key);
    assert.ok(target, `${key} is an insert target`);
    return { rows: schema.knownRows(target), bound: schema.knownRowsAreBound(target), bulk: target.bulkReasons };
  };

  it('bounds a loop that deletes the rows it passes over by the rows its table ever receives, however often it runs', () => {
    // No CALL in the scripts (an application calls it): all runs together move the three rows at most once.
    const schema = schemaOf(script(ddl, seed, "INSERT INTO APP.T VALUES (10), (11);\n", move(DELETES)));
    assert.deepEqual(rowsIn(schema), { rows: 5, bound: true, bulk: [] });
    // Two rows per pass (a multi-row VALUES).
    assert.equal(rowsIn(schemaOf(script(ddl, seed, move(DELETES, 'INSERT INTO APP.T VALUES (R.A), (R.A + 1);')))).rows, 6);
  });

  it('counts the CALLs of a routine whose loop reads the table without deleting', () => {
    const plain = 'SELECT A FROM APP.S WHERE A > 0';
    const calls = 'CALL APP.MOVE()@\nCALL APP.MOVE()@\n';
    assert.deepEqual(rowsIn(schemaOf(script(ddl, seed, move(plain), calls))), { rows: 6, bound: true, bulk: [] });
    // No CALL in the script: how often it runs is not known.
    assert.equal(rowsIn(schemaOf(script(ddl, seed, move(plain)))).rows, undefined);
    // Another routine calls it too.
    const other = 'CREATE PROCEDURE APP.OTHER()\nLANGUAGE SQL\nBEGIN\n  CALL APP.MOVE();\nEND@\n';
    assert.equal(rowsIn(schemaOf(script(ddl, seed, move(plain), other, calls))).rows, undefined);
  });

  it('knows nothing when the loop may pass over more rows than the scripts spell out', () => {
    const unknown: [string, string[]][] = [
      ['the table is loaded', [script(ddl, seed, move(DELETES)), 'LOAD FROM s.del OF DEL INSERT INTO APP.S;\n']],
      ['the table is imported', [script(ddl, seed, move(DELETES)), 'IMPORT FROM s.del OF DEL INSERT INTO APP.S;\n']],
      ['the table is filled from a query', [script(ddl, seed, move(DELETES)), 'INSERT INTO APP.S SELECT A FROM APP.BIG;\n']],
      ['the files do not create the table', [script('CREATE TABLE APP.T (A INT);\n', seed, move(DELETES))]],
      ['the query joins another table', [script(ddl, seed, move('(SELECT S.A FROM APP.S S JOIN APP.U U ON S.A = U.A)')), 'CALL APP.MOVE();\n']],
      ['the query lists two tables', [script(ddl, seed, move('SELECT S.A FROM APP.S S, APP.U U'), 'CALL APP.MOVE()@\n')]],
      ['the query is a set operation', [script(ddl, seed, move('SELECT A FROM APP.S UNION ALL SELECT A FROM APP.S'), 'CALL APP.MOVE()@\n')]],
      ['the query counts rows up itself', [script(ddl, seed, move('WITH N (A) AS (SELECT A FROM APP.S) SELECT A FROM N'), 'CALL APP.MOVE()@\n')]],
      ['the INSERT copies a query on each pass', [script(ddl, seed, move(DELETES, 'INSERT INTO APP.T SELECT A FROM APP.S;'))]],
    ];
    for (const [why, files] of unknown) {
      const schema = schemaOf(...files);
      const target = schema.insertTargets.get('APP.T');
      assert.ok(target, why);
      assert.equal(schema.knownRows(target), undefined, why);
    }
  });
});

describe('known volume: the seed figure scaled to known rows', () => {
  it("scales each feature's own extra seconds per 100,000 rows and caps the severity by it: a hint under a second, information under ten", () => {
    // Two enforced foreign keys (test 15: 72.71 s against 31.51 s) for IBM's 189 bank-demo rows.
    const fks = scaledCost(189, 72.71 - 31.51);
    assert.ok(Math.abs(fks.seconds - 0.0779) < 0.0001, String(fks.seconds));
    assert.equal(fks.cap, 'hint');
    assert.equal(estimateText(fks.seconds), 'about 0.08 s');
    // NO CACHE (test 42: 896.61 s against test 41) costs 8.7 ms a row: 189 rows are more than a second.
    const noCache = scaledCost(189, 896.61 - 31.51);
    assert.equal(noCache.cap, 'information');
    assert.equal(estimateText(noCache.seconds), 'about 1.6 s');
    // 1,200 such rows are ten seconds: no cap, the rule's own severity.
    assert.equal(scaledCost(1200, 896.61 - 31.51).cap, undefined);
    assert.equal(estimateText(scaledCost(3, 23.86).seconds), 'less than 0.01 s');
    assert.equal(estimateText(scaledCost(100_000, 23.86).seconds), 'about 24 s');
  });
});
