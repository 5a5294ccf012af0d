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

const found = (ws: Workspace, path: string, rule = RULE) => ws.diagnostics(path).filter((d) => d.rule === rule).length;

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

  it('reads plain DDL as the nearest scripts show it, following the files that come, change and go beside it', () => {
    const rule = 'zos-cluster-without-append'; // Db2 for z/OS only (meta.dialects)
    const ws = new Workspace(resolveConfig(allRules(), { rules: { [rule]: 'warning' } }));
    const plain = (t: string) => `CREATE TABLE DIV.${t} (ACCT CHAR(12), FUND CHAR(8));\nCREATE INDEX DIV.${t}X ON DIV.${t} (FUND) CLUSTER;\n`;
    const load = 'INSERT INTO DIV.TRA SELECT ACCT, FUND FROM DIV.STAGE;\nINSERT INTO DIV.TRB SELECT ACCT, FUND FROM DIV.STAGE;\n';
    ws.setFile('repo/ctl/space.sql', 'CREATE TABLESPACE TSTRN IN DBDIV SEGSIZE 32;\n');
    ws.setFile('repo/ddl/a.sql', plain('TRA'));
    ws.setFile('repo/ddl/b.sql', plain('TRB'));
    ws.setFile('repo/load.sql', load);
    // Two files of one folder that shows no dialect: both read as z/OS, as the repository around them shows.
    const reported = () => ['repo/ddl/a.sql', 'repo/ddl/b.sql'].map((path) => found(ws, path, rule));
    assert.deepEqual(reported(), [1, 1]);
    // An edit that keeps its file's dialect keeps every folder's.
    ws.setFile('repo/load.sql', load + 'COMMIT;\n');
    assert.deepEqual(reported(), [1, 1]);
    // A script of their own folder that shows LUW: read as LUW now; gone again, as z/OS.
    ws.setFile('repo/ddl/import.sql', 'IMPORT FROM x.del OF DEL INSERT INTO DIV.TRC;\n');
    assert.deepEqual(reported(), [0, 0]);
    ws.removeFile('repo/ddl/import.sql');
    assert.deepEqual(reported(), [1, 1]);
  });
});
