// The CLI with schema files, as a user runs it: a loader repository without DDL whose .insertlintrc.json
// names the DBAs' db2look output gets the schema findings on its inserts, with the DDL line in every format.
import * as assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Repo, runCli } from '../ci/repo';
import { sarifValidator } from '../helpers/sarif';
import { runExplainCommand } from '../../server/src/cli/explain-command';
import { DB2LOOK, SCHEMA_FIXTURES } from './helpers';

interface JsonFinding {
  file: string;
  line: number;
  rule: string;
  related?: { file: string; line: number; column: number; message: string }[];
}

describe('check with schema files', () => {
  let dir: string;
  beforeEach(() => {
    // A copy, so that the paths are those of a clone: app/ next to the DBAs' dba/.
    dir = mkdtempSync(join(tmpdir(), 'insertlint-schema-cli-'));
    cpSync(SCHEMA_FIXTURES, dir, { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reports the schema findings of the Java, Python and Node loaders, linked to the db2look lines (json)', async () => {
    const r = await runCli(['check', '--format', 'json'], join(dir, 'app'));
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stderr, '');
    const out = JSON.parse(r.stdout) as { summary: { files: number }; diagnostics: JsonFinding[] };
    assert.equal(out.summary.files, 3, 'the db2look file is read, not linted');
    const schemaFindings = out.diagnostics.filter((d) => d.related);
    const byFile = (file: string) => [...new Set(schemaFindings.filter((d) => d.file === file).map((d) => d.rule))].sort();
    // check-constraint-bulk-target, table-lock-bulk-target and append-mode-off are off by default (issue 13).
    assert.deepEqual(byFile('src/main/java/com/example/orders/OrderImport.java'), [
      'clustered-index-bulk-target',
      'enforced-foreign-key',
      'identity-cache',
      'index-count',
      'insert-trigger',
      'lob-column',
      'refresh-immediate-mqt',
    ]);
    assert.deepEqual(byFile('loaders/load_lines.py'), ['identity-cache']);
    assert.deepEqual(byFile('loaders/audit.js'), ['small-extent-size', 'sms-tablespace']);
    const lob = schemaFindings.find((d) => d.rule === 'lob-column')!;
    assert.equal(lob.line, 10, 'on the INSERT text in the Java constant');
    assert.deepEqual(lob.related!.map((r) => [r.file, r.line, r.column]), [['../dba/salesdb.db2look', 134, 12]]);
  });

  it('shows the DDL line under the code frame (text) and as a related location (sarif, valid against the schema)', async () => {
    const text = await runCli(['check'], join(dir, 'app'));
    assert.match(text.stdout, /OrderImport\.java:10:22 warning lob-column Column NOTE of insert target SALES\.ORDERS is CLOB\(1M\)[^\n]*\n {2}10 \|[^\n]*\n[^\n]*\^+\n {2}→ \.\.\/dba\/salesdb\.db2look:134:12: the DDL behind this finding \(schema file, not linted\)\n/);
    const sarif = await runCli(['check', '--format', 'sarif'], join(dir, 'app'));
    const validate = sarifValidator();
    assert.ok(validate(JSON.parse(sarif.stdout)), JSON.stringify(validate.errors?.slice(0, 3)));
    const log = JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string; relatedLocations: { physicalLocation: { region: { startLine: number }; artifactLocation: { uri: string } } }[] }[] }[] };
    const result = log.runs[0].results.find((x) => x.ruleId === 'lob-column')!;
    assert.equal(result.relatedLocations[0].physicalLocation.region.startLine, 134);
    assert.equal(result.relatedLocations[0].physicalLocation.artifactLocation.uri, '../dba/salesdb.db2look');
    const github = await runCli(['check', '--format', 'github'], join(dir, 'app'));
    assert.match(github.stdout, /title=InsertLint lob-column::[^\n]*%0A%0Athe DDL behind this finding \(schema file, not linted\): \S*salesdb\.db2look:134:12/);
  });

  it('names a related location in a linted file outside the current folder as its finding names that file', async () => {
    // Indexes and a foreign key created before the INSERT … SELECT that fills the table: one finding whose related
    // locations (the key, the load) are in its own file. Both were `../db/step.sql` beside an absolute `file`.
    mkdirSync(join(dir, 'db'));
    writeFileSync(
      join(dir, 'db', 'step.sql'),
      'CREATE TABLE APP.T (ID INT NOT NULL, P INT, A INT, B INT, C INT, D INT);\n' +
        ['A', 'B', 'C', 'D'].map((c) => `CREATE INDEX APP.T_${c} ON APP.T (${c});\n`).join('') +
        'ALTER TABLE APP.T ADD CONSTRAINT T_P FOREIGN KEY (P) REFERENCES APP.P (ID);\nINSERT INTO APP.T SELECT * FROM OLD.T;\n',
    );
    rmSync(join(dir, 'app', '.insertlintrc.json'));
    const r = await runCli(['check', '--format', 'json', '../db'], join(dir, 'app'));
    const [finding] = (JSON.parse(r.stdout).diagnostics as JsonFinding[]).filter((d) => d.rule === 'index-count');
    assert.equal(finding.file, join(dir, 'db', 'step.sql'));
    assert.deepEqual(finding.related!.map((x) => [x.file, x.line]), [[finding.file, 6], [finding.file, 7]]);
  });

  it('takes --schema on the command line, and reads a schema file inside the linted tree without linting it', async () => {
    rmSync(join(dir, 'app', '.insertlintrc.json'));
    const without = await runCli(['check', '--format', 'json', 'app'], dir);
    assert.equal(JSON.parse(without.stdout).diagnostics.filter((d: JsonFinding) => d.rule === 'lob-column').length, 0);
    const withFlag = await runCli(['check', '--format', 'json', 'app', '--schema', 'dba/salesdb.db2look'], dir);
    assert.equal(JSON.parse(withFlag.stdout).diagnostics.filter((d: JsonFinding) => d.rule === 'lob-column').length, 1);
    // DDL kept in the repository (db/ddl) and named as schema: read for the model, its findings on the inserts.
    mkdirSync(join(dir, 'app', 'db', 'ddl'), { recursive: true });
    cpSync(DB2LOOK, join(dir, 'app', 'db', 'ddl', 'salesdb.sql'));
    writeFileSync(join(dir, 'app', '.insertlintrc.json'), JSON.stringify({ schema: ['db/ddl/**/*.sql'] }));
    const inTree = await runCli(['check', '--format', 'json', '.'], join(dir, 'app'));
    const out = JSON.parse(inTree.stdout);
    assert.equal(out.summary.files, 3);
    assert.ok(out.diagnostics.every((d: JsonFinding) => !d.file.startsWith('db/')));
    assert.deepEqual(out.diagnostics.find((d: JsonFinding) => d.rule === 'lob-column').related.map((r: { file: string; line: number }) => `${r.file}:${r.line}`), ['db/ddl/salesdb.sql:134']);
  });

  it('warns about schema entries that match nothing and lints on', async () => {
    writeFileSync(join(dir, 'app', '.insertlintrc.json'), JSON.stringify({ schema: ['../dba/missing.db2look'] }));
    const r = await runCli(['check', '--format', 'json'], join(dir, 'app'));
    assert.match(r.stderr, /^insertlint: warning: schema file \S*missing\.db2look does not exist\n$/);
    assert.equal(r.code, 1, 'the code findings are still reported');
    const bad = await runCli(['check'], join(dir, 'app'));
    assert.equal(bad.code, 1);
    // A file named on its own that defines nothing (a README, a data script) is likely the wrong path.
    writeFileSync(join(dir, 'app', 'notes.sql'), '-- how to load\nSELECT 1 FROM SYSIBM.SYSDUMMY1;\n');
    writeFileSync(join(dir, 'app', '.insertlintrc.json'), JSON.stringify({ schema: ['notes.sql'] }));
    const noDdl = await runCli(['check', '--format', 'json'], join(dir, 'app'));
    assert.match(noDdl.stderr, /^insertlint: warning: schema file \S*notes\.sql holds no DDL \(no CREATE or ALTER statement InsertLint could read\); is it the file meant\?\n$/);
    writeFileSync(join(dir, 'app', '.insertlintrc.json'), JSON.stringify({ schema: 'dba.sql' }));
    const invalid = await runCli(['check'], join(dir, 'app'));
    assert.equal(invalid.code, 2);
    assert.match(invalid.stderr, /"schema" must be an array of file, folder or glob strings/);
  });

  it('lets explain name the foreign key, trigger and MQT of a plan from a db2look file', async () => {
    const look = join(dir, 'shop.db2look');
    writeFileSync(
      look,
      [
        'CONNECT TO SHOPDB;',
        'CREATE TABLE "SHOP    "."ORDERS" ("ORDER_ID" INTEGER NOT NULL ) IN "USERSPACE1" ORGANIZE BY ROW;',
        'ALTER TABLE "SHOP    "."ORDERS" ADD CONSTRAINT "PK_ORDERS" PRIMARY KEY ("ORDER_ID");',
        'CREATE TABLE "SHOP    "."ORDER_LINE" ("ORDER_ID" INTEGER NOT NULL , "LINE_NO" SMALLINT NOT NULL , "PRODUCT_ID" INTEGER , "QTY" INTEGER ) IN "USERSPACE1" ORGANIZE BY ROW;',
        'ALTER TABLE "SHOP    "."ORDER_LINE" ADD CONSTRAINT "FK_LINE_ORDER" FOREIGN KEY ("ORDER_ID") REFERENCES "SHOP    "."ORDERS" ("ORDER_ID") ON DELETE CASCADE ON UPDATE NO ACTION ENFORCED ENABLE QUERY OPTIMIZATION;',
        'COMMIT WORK;',
        'CONNECT RESET;',
        'TERMINATE;',
        '',
      ].join('\n'),
    );
    let stdout = '';
    let stderr = '';
    const io = { stdout: (s: string) => (stdout += s), stderr: (s: string) => (stderr += s), stdin: async () => '', cwd: join(SCHEMA_FIXTURES, '..', 'exfmt'), isTTY: false };
    const code = await runExplainCommand(['insert-fk-trigger-mqt.exfmt.txt', '--schema', look], io, { env: {} });
    assert.equal(code, 0, stderr);
    assert.match(stdout, /constraint\s+FK_LINE_ORDER/);
  });

  it('lets checklist flag a new loader whose target the db2look file describes (--schema)', async () => {
    const repo = new Repo();
    try {
      repo.write('README.md', 'loaders\n');
      const base = repo.commit('base');
      repo.write('loaders/backfill.sql', 'INSERT INTO SALES.ORDERS (CUST_ID, ORDER_DATE) SELECT CUST_ID, CURRENT DATE FROM STAGE.ORDERS;\n');
      repo.commit('a backfill');
      const r = await runCli(['checklist', '--base', base, '--schema', join(dir, 'dba', 'salesdb.db2look')], repo.dir);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stdout, /`loaders\/backfill\.sql:1` `identity-cache` \(warning \*\*blocking\*\*\): IDENTITY column SALES\.ORDERS\.ORDER\\_ID hands out values with NO CACHE/);
    } finally {
      repo.dispose();
    }
  });
});
