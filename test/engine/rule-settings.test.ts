// The rules a workspace runs on a file: those the configuration turns on, for the file's dialect. Worked out
// once per configuration and dialect (not per file); a new configuration is read again.
import { strict as assert } from 'node:assert';
import { Workspace } from '../../server/src/engine/workspace';
import { resolveConfig, type ConfigFile } from '../../server/src/engine/config';
import { allRules } from '../../server/src/engine/registry';

const RULE = 'append-mode-off'; // Db2 LUW only (meta.dialects)

function workspace(layer: ConfigFile): Workspace {
  const ws = new Workspace(resolveConfig(allRules(), { dialect: { 'zos/**': 'zos', 'luw/**': 'luw' }, rules: { [RULE]: 'warning' }, ...layer }));
  for (const dir of ['zos', 'luw']) {
    ws.setFile(`${dir}/schema.sql`, `CREATE TABLE T_${dir} (A INT, B INT);\n`);
    ws.setFile(`${dir}/load.sql`, `INSERT INTO T_${dir} SELECT A, B FROM S;\n`);
  }
  return ws;
}

const found = (ws: Workspace, path: string) => ws.diagnostics(path).filter((d) => d.rule === RULE).length;

describe('engine: the rules run on a file', () => {
  it("runs a rule written for one dialect on that dialect's files only, files of both dialects in one workspace", () => {
    const ws = workspace({});
    assert.equal(found(ws, 'luw/schema.sql'), 1);
    assert.equal(found(ws, 'zos/schema.sql'), 0);
    assert.equal(found(ws, 'luw/schema.sql'), 1);
  });

  it('follows a new configuration: a rule turned off, on again with another severity, another dialect', () => {
    const ws = workspace({});
    assert.equal(found(ws, 'luw/schema.sql'), 1);
    ws.setConfig(resolveConfig(allRules(), { dialect: { 'zos/**': 'zos', 'luw/**': 'luw' }, rules: { [RULE]: 'off' } }));
    assert.equal(found(ws, 'luw/schema.sql'), 0);
    ws.setConfig(resolveConfig(allRules(), { dialect: { 'zos/**': 'zos', 'luw/**': 'luw' }, rules: { [RULE]: 'error' } }));
    assert.deepEqual(ws.diagnostics('luw/schema.sql').filter((d) => d.rule === RULE).map((d) => d.severity), ['error']);
    assert.equal(found(ws, 'zos/schema.sql'), 0);
    ws.setConfig(resolveConfig(allRules(), { dialect: { 'zos/**': 'luw', 'luw/**': 'luw' }, rules: { [RULE]: 'error' } }));
    assert.equal(found(ws, 'zos/schema.sql'), 1, 'the other folder read as LUW now');
  });
});
