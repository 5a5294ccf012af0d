// Findings of schema files (DDL read, not linted) are placed on the linted inserts they concern, with related
// information pointing at the DDL line; nothing is reported on the schema file itself.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolveConfig, type ConfigFile } from '../../server/src/engine/config';
import { allRules } from '../../server/src/engine/registry';
import { Workspace } from '../../server/src/engine/workspace';
import type { Diagnostic } from '../../server/src/engine/types';
import { SCHEMA_FINDING_NOTE } from '../../server/src/schema/schema-findings';
import { RULES } from '../../server/src/engine/registry';
import type { RegisteredRule } from '../../server/src/engine/types';
import { growthRatio } from '../robustness/support';
import { codeFrontEnd } from '../code/helpers';
import { DB2LOOK } from './helpers';

const JAVA = `class OrderImport {
  void load(java.sql.Connection conn, java.util.List<int[]> rows) throws Exception {
    conn.setAutoCommit(false);
    java.sql.PreparedStatement ps = conn.prepareStatement("INSERT INTO SALES.ORDERS (CUST_ID, ORDER_DATE, NOTE) VALUES (?, CURRENT DATE, ?)");
    for (int[] r : rows) { ps.setInt(1, r[0]); ps.addBatch(); }
    ps.executeBatch();
    conn.commit();
  }
}
`;

async function workspaceWith(files: Record<string, string>, schemaFiles: Record<string, string>, config?: ConfigFile): Promise<Workspace> {
  const workspace = new Workspace(resolveConfig(allRules(), config), [await codeFrontEnd()]);
  for (const [path, text] of Object.entries(schemaFiles)) workspace.setSchemaFile(path, text);
  for (const [path, text] of Object.entries(files)) workspace.setFile(path, text);
  return workspace;
}

/** `rule line:col → ddl line` of the visible findings of a file, with 1-based lines. */
function placed(workspace: Workspace, path: string, rules?: string[]): string[] {
  const lines = workspace.lines(path)!;
  return workspace
    .diagnostics(path)
    .filter((d) => !d.suppressed && (!rules || rules.includes(d.rule)))
    .map((d) => {
      const p = lines.position(d.span.start);
      const related = (d.related ?? []).map((r) => ` → ${r.file}:${workspace.lines(r.file)!.position(r.span.start).line + 1}`).join('');
      return `${d.rule} ${p.line + 1}:${p.column + 1}${related}`;
    });
}

const SCHEMA_RULES = ['identity-cache', 'clustered-index-bulk-target', 'lob-column', 'refresh-immediate-mqt', 'insert-trigger', 'enforced-foreign-key', 'index-count'];

describe('schema files: findings on the inserts they concern', () => {
  const ddl = readFileSync(DB2LOOK, 'utf8');
  const ddlLine = (needle: string) => ddl.slice(0, ddl.indexOf(needle)).split('\n').length;

  it('gives a Java loader in a repository without DDL the schema findings of its target, each linked to the DDL line', async () => {
    const ws = await workspaceWith({ 'app/OrderImport.java': JAVA }, { 'dba/salesdb.db2look': ddl });
    const at = '4:72';
    assert.deepEqual(placed(ws, 'app/OrderImport.java', SCHEMA_RULES).sort(), [
      `clustered-index-bulk-target ${at} → dba/salesdb.db2look:${ddlLine('CLUSTER ')}`,
      `enforced-foreign-key ${at} → dba/salesdb.db2look:${ddlLine('FOREIGN KEY\n\t\t("CUST_ID")')}`,
      `identity-cache ${at} → dba/salesdb.db2look:${ddlLine('NO CACHE  \n\t\t    NO ORDER')}`,
      `identity-cache ${at} → dba/salesdb.db2look:${ddlLine('NO CACHE NO CYCLE')}`,
      `index-count ${at} → dba/salesdb.db2look:${ddlLine('CREATE INDEX "SALES   "."IX_ORDERS_STATUS"')}`,
      `insert-trigger ${at} → dba/salesdb.db2look:${ddlLine('CREATE TRIGGER ORDERS_AUDIT_INS')}`,
      `lob-column ${at} → dba/salesdb.db2look:${ddlLine('"NOTE" CLOB')}`,
      `refresh-immediate-mqt ${at} → dba/salesdb.db2look:${ddlLine('REFRESH IMMEDIATE')}`,
    ].sort());
    const finding = ws.diagnostics('app/OrderImport.java').find((d) => d.rule === 'identity-cache' && /ORDER_ID/.test(d.message))!;
    assert.match(finding.message, /IDENTITY column SALES\.ORDERS\.ORDER_ID hands out values with NO CACHE/);
    assert.equal(finding.fix, undefined, 'the fix edits the DDL, not the loader');
    assert.equal(finding.related![0].message, SCHEMA_FINDING_NOTE);
    assert.deepEqual(ws.diagnostics('dba/salesdb.db2look'), [], 'the schema file itself is not reported on');
    assert.equal(ws.hasFile('dba/salesdb.db2look'), false);
  });

  it('feeds the per-row cost summary of the insert (the hover and insert-target-cost)', async () => {
    const ws = await workspaceWith({ 'app/OrderImport.java': JAVA }, { 'dba/salesdb.db2look': ddl }, { rules: { 'insert-target-cost': 'information' } });
    const cost = ws.diagnostics('app/OrderImport.java').find((d) => d.rule === 'insert-target-cost')!;
    assert.match(cost.message, /5 indexes/);
    assert.match(cost.message, /ORDERS_AUDIT_INS/);
    assert.equal(cost.related, undefined, 'computed on the insert itself');
  });

  it('honours a suppression on the insert line, and one written in the schema file', async () => {
    const suppressed = JAVA.replace('    java.sql.PreparedStatement', '    // insertlint-disable-next-line lob-column: notes are rare\n    java.sql.PreparedStatement');
    const ws = await workspaceWith({ 'app/OrderImport.java': suppressed }, { 'dba/salesdb.db2look': ddl });
    const lob = ws.diagnostics('app/OrderImport.java').find((d) => d.rule === 'lob-column')!;
    assert.deepEqual(lob.suppressed, { kind: 'line', justification: 'notes are rare' });
    const ddlSuppressed = ddl.replace('CREATE TRIGGER ORDERS_AUDIT_INS', '-- insertlint-disable-next-line insert-trigger\nCREATE TRIGGER ORDERS_AUDIT_INS');
    const ws2 = await workspaceWith({ 'app/OrderImport.java': JAVA }, { 'dba/salesdb.db2look': ddlSuppressed });
    assert.deepEqual(placed(ws2, 'app/OrderImport.java', ['insert-trigger']), []);
  });

  it('places each finding once per insert, in every loader that inserts into the table', async () => {
    const python = 'import ibm_db\n\ndef load(conn, rows):\n    for r in rows:\n        ibm_db.exec_immediate(conn, "INSERT INTO SALES.ORDERS (CUST_ID, ORDER_DATE, NOTE) VALUES (1, CURRENT DATE, \'n\')")\n';
    const ws = await workspaceWith({ 'app/OrderImport.java': JAVA, 'tools/backfill.py': python }, { 'dba/salesdb.db2look': ddl });
    assert.deepEqual(placed(ws, 'tools/backfill.py', ['lob-column']), [`lob-column 5:50 → dba/salesdb.db2look:${ddlLine('"NOTE" CLOB')}`]);
    assert.equal(placed(ws, 'app/OrderImport.java', ['lob-column']).length, 1);
  });

  it('reports nothing for tables the linted code does not insert into', async () => {
    const ws = await workspaceWith({ 'app/Report.java': 'class R { void q(java.sql.Connection c) throws Exception { c.createStatement().executeQuery("SELECT * FROM SALES.ORDERS"); } }\n' }, { 'dba/salesdb.db2look': ddl });
    assert.deepEqual(placed(ws, 'app/Report.java'), []);
  });

  it('takes only DDL from schema files: their INSERTs neither count as targets nor get findings', async () => {
    const seeded = `CREATE TABLE APP.T (ID INTEGER GENERATED ALWAYS AS IDENTITY (NO CACHE), C CLOB(1M));\nINSERT INTO APP.T (C) VALUES ('a');\nINSERT INTO APP.T (C) VALUES ('b');\n`;
    const ws = await workspaceWith({ 'load.sql': 'INSERT INTO APP.T (C) VALUES (?);\n' }, { 'ddl/seed.sql': seeded });
    assert.deepEqual(ws.schema.insertTarget({ schema: 'APP', name: 'T', span: { start: 0, end: 0 } })?.sites.map((s) => s.file), ['load.sql']);
    assert.deepEqual(placed(ws, 'load.sql', ['identity-cache', 'lob-column']), ['identity-cache 1:13 → ddl/seed.sql:1', 'lob-column 1:13 → ddl/seed.sql:1']);
  });

  it('matches an unqualified insert to a schema file\'s table by name, unless the linted files define that name unqualified', async () => {
    const schemaDdl = 'CREATE TABLE STORE.PRODUCTS (ID INTEGER GENERATED ALWAYS AS IDENTITY (NO CACHE), DOC CLOB(1M));\n';
    const inserts = 'INSERT INTO PRODUCTS (DOC) VALUES (?);\nINSERT INTO PRODUCTS (DOC) VALUES (?);\n';
    const byName = await workspaceWith({ 'load.sql': inserts }, { 'ddl/store.sql': schemaDdl });
    assert.deepEqual(placed(byName, 'load.sql', ['lob-column']), ['lob-column 1:13 → ddl/store.sql:1']);
    const own = await workspaceWith({ 'load.sql': `CREATE TABLE PRODUCTS (ID INTEGER, DOC VARCHAR(100));\n${inserts}` }, { 'ddl/store.sql': schemaDdl });
    assert.deepEqual(placed(own, 'load.sql', ['lob-column', 'identity-cache']), []);
  });

  it('places a schema finding once per file, on its first bulk insert, over all its inserts into the table', async () => {
    // 150 literal INSERTs and one INSERT … SELECT into a table the schema file gives a NO CACHE identity and a LOB:
    // each finding was placed on every INSERT (1,058 findings for one table).
    const ddl = 'CREATE TABLE INV.ITEM (ID INTEGER GENERATED ALWAYS AS IDENTITY (NO CACHE), SKU VARCHAR(20), DESCR CLOB(2M));\n';
    const rows = Array.from({ length: 150 }, (_, i) => `INSERT INTO INV.ITEM (SKU, DESCR) VALUES ('S${i}', 'd');`).join('\n');
    const ws = await workspaceWith({ 'db/items.sql': `${rows}\nINSERT INTO INV.ITEM (SKU, DESCR) SELECT SKU, D FROM STAGE.ITEM;\n` }, { 'ddl/schema.sql': ddl });
    assert.deepEqual(placed(ws, 'db/items.sql', ['identity-cache', 'lob-column']), ['identity-cache 151:13 → ddl/schema.sql:1', 'lob-column 151:13 → ddl/schema.sql:1']);
    const [identity] = ws.diagnostics('db/items.sql').filter((d) => d.rule === 'identity-cache');
    assert.match(identity.message, /Use CACHE 1000\. Shown once for the 151 statements of this file that insert into INV\.ITEM\.$/);
    const lines = ws.lines('db/items.sql')!;
    assert.deepEqual([lines.line(identity.extent!.start) + 1, lines.line(identity.extent!.end) + 1], [1, 151], 'a change to any of them touches it');
  });

  it('treats a path that is linted as linted: its findings stay on its own DDL', async () => {
    const text = 'CREATE TABLE APP.T (ID INTEGER GENERATED ALWAYS AS IDENTITY (NO CACHE));\n';
    const ws = await workspaceWith({ 'db/t.sql': text, 'load.sql': 'INSERT INTO APP.T SELECT * FROM S;\n' }, { 'db/t.sql': text });
    assert.deepEqual(placed(ws, 'db/t.sql', ['identity-cache']), ['identity-cache 1:62']);
    assert.deepEqual(placed(ws, 'load.sql', ['identity-cache']), []);
  });

  it('follows changes: a schema file replaced or removed changes the findings', async () => {
    const ws = await workspaceWith({ 'app/OrderImport.java': JAVA }, { 'dba/salesdb.db2look': ddl });
    assert.ok(placed(ws, 'app/OrderImport.java', ['lob-column']).length === 1);
    ws.setSchemaFile('dba/salesdb.db2look', ddl.replace('"NOTE" CLOB(1048576 OCTETS) LOGGED NOT COMPACT', '"NOTE" VARCHAR(200 OCTETS)'));
    assert.deepEqual(placed(ws, 'app/OrderImport.java', ['lob-column']), []);
    ws.removeSchemaFile('dba/salesdb.db2look');
    assert.deepEqual(placed(ws, 'app/OrderImport.java'), placed(await workspaceWith({ 'app/OrderImport.java': JAVA }, {}), 'app/OrderImport.java'));
  });

  it('places a database setting once, on the first insert', async () => {
    const ws = await workspaceWith(
      { 'a.sql': 'INSERT INTO APP.T VALUES (?);\n', 'b.sql': 'INSERT INTO APP.U VALUES (?);\n' },
      { 'db/cfg.sql': 'UPDATE DB CFG FOR SALESDB USING LOGBUFSZ 8;\n' },
    );
    const all = [...placed(ws, 'a.sql'), ...placed(ws, 'b.sql')].filter((f) => f.startsWith('small-log-buffer'));
    assert.deepEqual(all, ['small-log-buffer 1:13 → db/cfg.sql:1']);
  });

  it('does not treat rows inserted by an UPDATE trigger as fed by the inserts', async () => {
    const ws = await workspaceWith({ 'app/OrderImport.java': JAVA }, { 'dba/salesdb.db2look': ddl });
    const audit = ws.schema.insertTarget({ schema: 'SALES', name: 'ORDER_AUDIT', span: { start: 0, end: 0 } })!;
    assert.deepEqual(audit.bulkReasons, ['fed by trigger ORDERS_AUDIT_INS on SALES.ORDERS']);
  });

  it('keeps suppression marks on the copies, never on the shared placement', async () => {
    const suppressed = JAVA.replace('    java.sql.PreparedStatement', '    // insertlint-disable-next-line\n    java.sql.PreparedStatement');
    const ws = await workspaceWith({ 'app/A.java': suppressed, 'app/B.java': JAVA }, { 'dba/salesdb.db2look': ddl });
    const visible = (path: string) => ws.diagnostics(path).filter((d: Diagnostic) => !d.suppressed && d.related).length;
    assert.equal(visible('app/A.java'), 0);
    assert.ok(visible('app/B.java') > 5);
  });

  it('re-runs the rules over schema files only when what the linted files give them changes', async () => {
    let runs = 0;
    const counting: RegisteredRule = {
      doc: '',
      rule: {
        meta: { id: 'counting', description: 'counts runs over schema files', defaultSeverity: 'warning', evidence: [], messages: { m: 'm' } },
        check({ file }) {
          if (file.source.path.endsWith('.db2look')) runs++;
        },
      },
    };
    const rules = [...RULES, counting];
    const ws = new Workspace(resolveConfig(rules.map((r) => r.rule)), [await codeFrontEnd()], rules);
    ws.setSchemaFile('dba/salesdb.db2look', ddl);
    ws.setFile('app/OrderImport.java', JAVA);
    ws.diagnostics('app/OrderImport.java');
    assert.equal(runs, 1);
    // Typing around the SQL moves the insert: the placement follows, the rules are not run again.
    ws.setFile('app/OrderImport.java', '// a comment above\n' + JAVA);
    assert.deepEqual(placed(ws, 'app/OrderImport.java', ['lob-column']), [`lob-column 5:72 → dba/salesdb.db2look:${ddlLine('"NOTE" CLOB')}`]);
    assert.equal(runs, 1);
    // Another target is another contribution: the rules run again.
    ws.setFile('app/OrderImport.java', JAVA.replace('SALES.ORDERS', 'SALES.ORDER_LINE'));
    ws.diagnostics('app/OrderImport.java');
    assert.equal(runs, 2);
    // NULL typed in place of NOTE's marker: the LOB is written by no insert, and its finding goes.
    ws.setFile('app/OrderImport.java', JAVA);
    assert.equal(placed(ws, 'app/OrderImport.java', ['lob-column']).length, 1);
    ws.setFile('app/OrderImport.java', JAVA.replace('CURRENT DATE, ?)', 'CURRENT DATE, NULL)'));
    assert.deepEqual(placed(ws, 'app/OrderImport.java', ['lob-column']), []);
    assert.equal(runs, 4);
  });

  it('re-runs them when NULL is typed at a LOB\'s place in an insert that names no columns, and back', async () => {
    const ws = await workspaceWith({ 'load.sql': 'INSERT INTO APP.DOCS VALUES (?, ?);\n' }, { 'db/docs.sql': 'CREATE TABLE APP.DOCS (ID INT, BODY CLOB(1M));\n' });
    assert.deepEqual(placed(ws, 'load.sql', ['lob-column']), ['lob-column 1:13 → db/docs.sql:1']);
    ws.setFile('load.sql', 'INSERT INTO APP.DOCS VALUES (?, NULL);\n');
    assert.deepEqual(placed(ws, 'load.sql', ['lob-column']), []);
    ws.setFile('load.sql', 'INSERT INTO APP.DOCS VALUES (NULL, ?);\n');
    assert.deepEqual(placed(ws, 'load.sql', ['lob-column']), ['lob-column 1:13 → db/docs.sql:1']);
  });

  it("re-runs them when a MERGE's UPDATE starts or stops writing a LOB", async () => {
    const merge = (set: string) => `MERGE INTO APP.DOCS AS d USING APP.STAGE AS s ON d.ID = s.ID WHEN MATCHED THEN UPDATE SET ${set} WHEN NOT MATCHED THEN INSERT (ID) VALUES (s.ID);\n`;
    const ws = await workspaceWith({ 'load.sql': merge('BODY = s.BODY') }, { 'db/docs.sql': 'CREATE TABLE APP.DOCS (ID INT, BODY CLOB(1M));\n' });
    assert.deepEqual(placed(ws, 'load.sql', ['lob-column']), ['lob-column 1:12 → db/docs.sql:1']);
    ws.setFile('load.sql', merge('BODY = NULL'));
    assert.deepEqual(placed(ws, 'load.sql', ['lob-column']), []);
    ws.setFile('load.sql', merge('BODY = s.BODY'));
    assert.deepEqual(placed(ws, 'load.sql', ['lob-column']), ['lob-column 1:12 → db/docs.sql:1']);
  });

  it('grows linearly with the tables of the schema file and the inserts into them', () => {
    const make = (n: number) => {
      let ddlText = '';
      let load = '';
      for (let i = 0; i < n; i++) {
        ddlText += `CREATE TABLE "S${i}    "."T" ("ID" BIGINT NOT NULL GENERATED ALWAYS AS IDENTITY (START WITH +1 NO CACHE), "DOC" CLOB(1M), "N" BIGINT) IN "TS${i}";\nCREATE INDEX "S${i}"."IX" ON "S${i}"."T" ("ID") CLUSTER;\n`;
        ddlText += `CREATE SEQUENCE "S${i}"."SEQ" NO CACHE;\nCREATE TABLESPACE "TS${i}" MANAGED BY SYSTEM USING ('/d/${i}') EXTENTSIZE 2;\n`;
        load += `INSERT INTO S${i}.T (DOC, N) SELECT DOC, NEXT VALUE FOR S${i}.SEQ FROM STAGE.T${i};\n`;
      }
      return `${ddlText}\u0000${load}`;
    };
    const run = (input: string) => {
      const [ddlText, load] = input.split('\u0000');
      const ws = new Workspace(resolveConfig(allRules()));
      ws.setSchemaFile('schema.sql', ddlText);
      ws.setFile('load.sql', load);
      assert.ok(ws.diagnostics('load.sql').length >= 6);
    };
    const { ratio, smallMs, largeMs } = growthRatio(make, run, 150);
    assert.ok(ratio < 24, `8x the tables took ${ratio.toFixed(1)}x the time (${smallMs.toFixed(1)} → ${largeMs.toFixed(1)} ms)`);
  });
});
