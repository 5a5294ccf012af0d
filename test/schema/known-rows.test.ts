// SchemaModel.knownRows: the rows of an insert target when the scripts spell out every one (literal INSERT …
// VALUES only), and rules/support/known-volume's scaling of the seed's per-100,000-row figures to them.
import { strict as assert } from 'node:assert';
import { SchemaModel } from '../../server/src/schema/schema';
import { buildFileModel } from '../../server/src/engine/workspace';
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
