// A script's model sent to another thread (cli/ship-model.ts, for check --jobs) must lint exactly as the
// model read on the spot; a model holding what cloning would change must be refused, not sent broken.
import { strict as assert } from 'node:assert';
import { Workspace } from '../../server/src/engine/workspace';
import { buildFileModel } from '../../server/src/engine/workspace-files';
import { resolveConfig } from '../../server/src/engine/config';
import { allRules } from '../../server/src/engine/registry';
import { packModel, unpackModel } from '../../server/src/cli/ship-model';
import type { FileModel } from '../../server/src/engine/types';

const DDL = 'CREATE TABLE APP.T (ID INT GENERATED ALWAYS AS IDENTITY (NO CACHE), A INT, B VARCHAR(10), D CLOB(1M));\nCREATE INDEX APP.I1 ON APP.T (A);\n';
const LOAD = [
  'SET SCHEMA APP;',
  ...Array.from({ length: 30 }, (_, i) => `INSERT INTO T (A, B) VALUES (${i}, 'r${i}'), (?, :hv);`),
  'INSERT INTO T (A, D) VALUES (1, ?);',
  '-- insertlint-disable-next-line parse-error',
  'INSERT INTO T (A B) VALUES (1;',
  'INSERT INTO T (A B) VALUES (2;',
  'CREATE PROCEDURE APP.P () BEGIN DECLARE I INT DEFAULT 0; WHILE I < 10 DO INSERT INTO APP.T (A) VALUES (I); COMMIT; SET I = I + 1; END WHILE; END;',
  '',
].join('\n');

/** The model as the receiving thread gets it: packed, cloned as postMessage does, unpacked. */
function shipped(model: FileModel): FileModel | undefined {
  const source = { ...model.source };
  const packed = packModel(model);
  return packed && unpackModel(structuredClone(packed), source);
}

function lintWith(load: (workspace: Workspace) => void): string {
  const workspace = new Workspace(resolveConfig(allRules()));
  workspace.setFile('ddl.sql', DDL);
  load(workspace);
  return JSON.stringify(workspace.allDiagnostics());
}

describe('engine: a script model sent to another thread (check --jobs)', () => {
  it('lints exactly as the model read on the spot, suppressions, parse errors and routines included', () => {
    const source = { path: 'load.sql', text: LOAD, language: 'sql' as const };
    const model = shipped(buildFileModel(source));
    assert.ok(model, 'the model can travel');
    const here = lintWith((w) => w.setFile('load.sql', LOAD));
    const there = lintWith((w) => w.adoptFile(model, 1));
    assert.equal(there, here);
    // Not vacuous: the run has cross-file, suppressed and parse-error findings.
    for (const rule of ['identity-cache', 'parse-error', 'lob-column']) assert.match(here, new RegExp(`"rule":"${rule}"`));
    assert.match(here, /"suppressed":\{/);
  });

  it('keeps shared objects shared (the code model names the same statements) and the VALUES rows readable', () => {
    const source = { path: 'load.sql', text: LOAD, language: 'sql' as const };
    const original = buildFileModel(source);
    const rows = JSON.stringify(original.statements.map((s) => (s.kind === 'insert' && s.source.kind === 'values' ? s.source.rows.map((r) => [r.span, r.values]) : null)));
    const model = shipped(buildFileModel(source))!;
    assert.equal(model.source.text, LOAD);
    assert.ok(model.code && model.code.executions[0].statements[0] === model.statements[0]);
    assert.equal(JSON.stringify(model.statements.map((s) => (s.kind === 'insert' && s.source.kind === 'values' ? s.source.rows.map((r) => [r.span, r.values]) : null))), rows);
    assert.equal(model.statements[1].origin.toFile(5), 5);
  });

  it('refuses a model holding a function it does not know (SQL text built in a routine maps offsets with its own)', () => {
    const text = "CREATE PROCEDURE P (IN T VARCHAR(10)) BEGIN EXECUTE IMMEDIATE 'INSERT INTO ' || T || ' VALUES (1)'; END;\n";
    assert.equal(packModel(buildFileModel({ path: 'p.sql', text, language: 'sql' })), undefined);
    const odd = buildFileModel({ path: 'q.sql', text: 'COMMIT;\n', language: 'sql' });
    (odd as unknown as { extra: object }).extra = new (class Thing {})();
    assert.equal(packModel(odd), undefined);
  });
});
