// The SQL PL front end's CodeModel: what routines run, in which loops, as code analysis reports it.
import { strict as assert } from 'node:assert';
import { buildFileModel } from '../../server/src/engine/workspace';

function model(text: string) {
  return buildFileModel({ path: 'r.db2', text, language: 'sql' });
}

describe('code: SQL PL routines as a CodeModel (api sqlpl)', () => {
  it('has no code model for a script without routines (nothing changes for plain scripts)', () => {
    assert.equal(model('INSERT INTO t VALUES (1);\nCOMMIT;\n').code, undefined);
  });

  it('gives the script as one execution, then each routine statement with its loop, and the commits', () => {
    const text = `CREATE PROCEDURE p ()
BEGIN
  DECLARE s STATEMENT;
  INSERT INTO log VALUES (1);
  WHILE 1 = 1 DO
    INSERT INTO t VALUES (2);
    IF 1 = 0 THEN COMMIT; END IF;
    PREPARE s FROM 'INSERT INTO u VALUES (?)';
    EXECUTE s USING 3;
  END WHILE;
  COMMIT;
END@
`;
    const code = model(text).code!;
    const [script, ...rest] = code.executions;
    assert.deepEqual([script.api, script.script, script.statements.length], ['clp', true, 1]);
    assert.deepEqual(
      rest.map((e) => [e.api, e.action, e.statements.map((s) => s.kind).join(), e.loop?.kind ?? '-']),
      [
        ['sqlpl', 'executePrepared', 'insert', '-'],
        ['sqlpl', 'executePrepared', 'insert', 'WHILE'],
        ['sqlpl', 'prepare', 'insert', 'WHILE'],
        ['sqlpl', 'executePrepared', 'insert', 'WHILE'],
      ],
    );
    const [, , prepare, execute] = rest;
    assert.deepEqual(execute.preparedAt, prepare.callSpan);
    assert.equal(text.slice(rest[1].callSpan.start, rest[1].callSpan.end), 'INSERT INTO t VALUES (2)');
    assert.deepEqual(code.commits.map((c) => [c.api, c.loop?.kind ?? '-', c.guarded]), [['sqlpl', 'WHILE', true], ['sqlpl', '-', false]]);
  });

  it('marks loops over sets of rows as chunked, and set-based inserts as batched', () => {
    const code = model(`BEGIN
  FOR r AS SELECT tabname FROM syscat.tables DO
    INSERT INTO log VALUES (r.tabname);
  END FOR;
  WHILE 1 = 1 DO
    INSERT INTO t SELECT * FROM s;
  END WHILE;
  LOOP
    INSERT INTO t VALUES (1);
  END LOOP;
END@
`).code!;
    const inLoops = code.executions.filter((e) => e.loop);
    assert.deepEqual(inLoops.map((e) => [e.loop!.kind, e.loop!.chunked ?? false, e.batched]), [['FOR', true, false], ['WHILE', true, true], ['LOOP', false, false]]);
  });
});
