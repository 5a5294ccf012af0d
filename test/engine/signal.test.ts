// Issue 13 (signal over noise) through the engine: presets, evidence of volume, one finding per cause,
// short first sentences, names resolved strictly, unused suppressions judged only with the inserts known.
import * as assert from 'node:assert/strict';
import { ConfigError, resolveConfig, validateConfig, type ConfigFile } from '../../server/src/engine/config';
import { allRules, RULES } from '../../server/src/engine/registry';
import { firstSentence, mergeSameCause } from '../../server/src/engine/merge';
import { LineIndex } from '../../server/src/engine/lines';
import type { Diagnostic } from '../../server/src/engine/types';
import { formatMessage } from '../../server/src/engine/findings';
import { lint, lintWorkspace } from '../helpers/rule-tester';

const IDENTITY = 'CREATE TABLE APP.CODES (ID INT GENERATED ALWAYS AS IDENTITY (NO CACHE), NAME VARCHAR(20));\nCREATE INDEX APP.CODES_NAME ON APP.CODES (NAME) CLUSTER;\n';
const literal = (n: number) => Array.from({ length: n }, (_, i) => `INSERT INTO APP.CODES (NAME) VALUES ('c${i}');\n`).join('');
const rules = (files: Record<string, string>, config?: ConfigFile) => [...new Set(lint(files, { config }).map((f) => f.rule))].sort();

describe('issue 13: presets', () => {
  it('insertlint:recommended (the default) leaves the small-gain rules off; insertlint:all and "rules" turn them on', () => {
    const recommended = resolveConfig(allRules());
    assert.equal(recommended.preset, 'insertlint:recommended');
    for (const id of ['append-mode-off', 'table-lock-bulk-target', 'insert-target-cost', 'prefer-load-from-cursor']) assert.equal(recommended.rules.get(id), 'off', id);
    assert.notEqual(recommended.rules.get('identity-cache'), 'off');
    const all = resolveConfig(allRules(), { extends: 'insertlint:all' });
    for (const rule of allRules()) assert.deepEqual(all.rules.get(rule.meta.id), { severity: rule.meta.defaultSeverity, options: { ...(rule.meta.defaultOptions ?? {}) } }, rule.meta.id);
    assert.deepEqual(resolveConfig(allRules(), { rules: { 'append-mode-off': 'warning' } }).rules.get('append-mode-off'), { severity: 'warning', options: {} });
  });

  it('rejects an unknown preset and a bad bulkRowThreshold, naming the key', () => {
    assert.throws(() => validateConfig({ extends: 'eslint:all' }, allRules(), 'x.json'), (e: Error) => e instanceof ConfigError && /"extends" must be one of "insertlint:recommended", "insertlint:all"/.test(e.message));
    assert.throws(() => validateConfig({ bulkRowThreshold: 0 }, allRules(), 'x.json'), /"bulkRowThreshold" must be a whole number/);
    assert.throws(() => validateConfig({ bulkRowThreshold: '100' }, allRules(), 'x.json'), /"bulkRowThreshold"/);
    validateConfig({ extends: 'insertlint:all', bulkRowThreshold: 500 }, allRules(), 'x.json');
  });
});

describe('issue 13: a bulk insert target needs evidence of volume', () => {
  it('a handful of literal rows is reference data: no schema finding, no script-run finding', () => {
    assert.deepEqual(rules({ 'schema.sql': IDENTITY, 'seed.sql': literal(12) }), []);
    const { workspace } = lintWorkspace({ 'schema.sql': IDENTITY, 'seed.sql': literal(12) });
    const target = workspace.schema.insertTargets.get('APP.CODES')!;
    assert.deepEqual(target.bulkReasons, []);
    assert.equal(target.valuesRows, 12);
    assert.ok(workspace.schema.isReferenceData(target));
  });

  it('literal rows adding up to bulkRowThreshold (over several files) make a bulk target', () => {
    const files = { 'schema.sql': IDENTITY, 'a.sql': literal(60), 'b.sql': 'INSERT INTO APP.CODES (NAME) VALUES ' + Array.from({ length: 40 }, (_, i) => `('m${i}')`).join(', ') + ';\n' };
    const { workspace } = lintWorkspace(files);
    assert.deepEqual(workspace.schema.insertTargets.get('APP.CODES')!.bulkReasons, ['100 rows of INSERT … VALUES']);
    assert.ok(rules(files).includes('identity-cache'));
    assert.ok(rules(files).includes('clustered-index-bulk-target'));
    assert.ok(rules({ 'schema.sql': IDENTITY, 'seed.sql': literal(5) }, { bulkRowThreshold: 5 }).includes('clustered-index-bulk-target'), 'the threshold is an option');
  });

  it('an INSERT … SELECT copying from tables the files seed with a few literal rows copies those rows, not a load', () => {
    // IBM's setupscript.db2: two rows copied from tables seeded with two or three.
    const seed = 'CREATE TABLE APP.SRC (NAME VARCHAR(20));\n' + "INSERT INTO APP.SRC VALUES ('a');\nINSERT INTO APP.SRC VALUES ('b');\n";
    const copy = 'INSERT INTO APP.CODES (NAME) SELECT NAME FROM APP.SRC;\n';
    const target = (files: Record<string, string>) => lintWorkspace(files).workspace.schema.insertTargets.get('APP.CODES')!;
    assert.deepEqual(target({ 'schema.sql': IDENTITY + seed, 'copy.sql': copy }).bulkReasons, []);
    assert.ok(!rules({ 'schema.sql': IDENTITY + seed, 'copy.sql': copy }).includes('clustered-index-bulk-target'));
    // A source the files do not define (a staging table loaded elsewhere), or one filled at run time: a load.
    assert.deepEqual(target({ 'schema.sql': IDENTITY, 'copy.sql': copy }).bulkReasons, ['INSERT … SELECT']);
    assert.deepEqual(target({ 'schema.sql': IDENTITY + seed, 'copy.sql': copy, 'app.sql': 'INSERT INTO APP.SRC VALUES (?);\n' }).bulkReasons, ['INSERT … SELECT']);
  });

  it('a copy of catalog rows or replication configuration rows is no load; a copy of replication data is', () => {
    // IBM's mig8zos.sql backs up the control rows of what it replicates before migrating them.
    const reasons = (files: Record<string, string>) => lintWorkspace(files).workspace.schema.insertTargets.get('APP.CODES')!.bulkReasons;
    const copyFrom = (from: string) => ({ 'schema.sql': IDENTITY, 'copy.sql': `INSERT INTO APP.CODES (NAME) SELECT NAME FROM ${from};\n` });
    for (const from of ["SYSIBM.SYSINDEXES WHERE TBCREATOR = 'ASN'", 'SYSCAT.TABLES', 'QSYS2.SYSINDEXES', 'ASN.IBMSNAP_SUBS_SET', 'CAP1.IBMQREP_SUBS S JOIN SYSCAT.COLUMNS C ON C.TABNAME = S.SOURCE_NAME']) {
      assert.deepEqual(reasons(copyFrom(from)), [], from);
    }
    assert.ok(!rules(copyFrom('SYSCAT.TABLES')).includes('clustered-index-bulk-target'));
    // Replication tables that grow with the work replicated, and a catalog view joined with a user table: loads.
    for (const from of ['ASN.IBMSNAP_UOW', 'ASN.IBMQREP_CAPMON', 'ASN.IBMSNAP_APPLYTRAIL', 'SYSCAT.TABLES T JOIN STAGE.CODES S ON S.NAME = T.TABNAME', 'SYSTOOLS.HMON_ATM_INFO']) {
      assert.deepEqual(reasons(copyFrom(from)), ['INSERT … SELECT'], from);
    }
  });

  it('a table filled only by such a copy holds reference data: no finding about where it is stored', () => {
    // asnqcapluwv97fp.sql creates IBMQREP_SUBS in a new SMS table space and copies its rows back from the backup.
    const space = "CREATE TABLESPACE QCSUBTS MANAGED BY SYSTEM USING ('qcsubts');\nCREATE TABLE CAP.IBMQREP_SUBS (SUBNAME VARCHAR(132) NOT NULL) IN QCSUBTS;\n";
    const files = (from: string) => ({ 'mig.sql': `${space}INSERT INTO CAP.IBMQREP_SUBS (SUBNAME) SELECT SUBNAME FROM ${from};\n` });
    const receives = (from: string) => {
      const { schema } = lintWorkspace(files(from)).workspace;
      return schema.receivesRows(schema.tableByKey('CAP.IBMQREP_SUBS')!);
    };
    assert.equal(receives('CAP.IBMQREP_SUBS_BACKUP'), false);
    assert.ok(!rules(files('CAP.IBMQREP_SUBS_BACKUP')).includes('sms-tablespace'));
    // From a table of unknown rows: a load into an SMS table space, as before.
    assert.equal(receives('STAGE.SUBS'), true);
    assert.ok(rules(files('STAGE.SUBS')).includes('sms-tablespace'));
  });

  it('a copy that is no load is none in every version of a table defined in several files', () => {
    // mig8zos.sql and mig8udb.sql each create BACKUP.IBMSNAP_AS400 and fill it from the replication control rows;
    // the copy's site was settled in the table's target but left its version's target bulk.
    const script = (zos: boolean) =>
      `CREATE TABLE BACKUP.COPY (APPLY_QUAL CHAR(18));\nCREATE ${zos ? 'UNIQUE ' : ''}INDEX BACKUP.COPY_X ON BACKUP.COPY (APPLY_QUAL) CLUSTER;\nINSERT INTO BACKUP.COPY SELECT DISTINCT APPLY_QUAL FROM ASN.IBMSNAP_SUBS_SET;\n`;
    const { workspace } = lintWorkspace({ 'zos.sql': script(true), 'udb.sql': script(false) });
    const versions = [...workspace.schema.allVersions()].filter((t) => t.key === 'BACKUP.COPY');
    assert.equal(versions.length, 2);
    for (const table of versions) assert.deepEqual(workspace.schema.targetOfTable(table)!.bulkReasons, []);
    assert.ok(!rules({ 'zos.sql': script(true), 'udb.sql': script(false) }).includes('clustered-index-bulk-target'));
  });

  it("a copy of the SAMPLE database's EMPLOYEE (42 rows from db2sampl) in a script connected to SAMPLE is no load, unless the files create or fill an EMPLOYEE that may be it", () => {
    // IBM's cgtt.db2: CONNECT TO sample, then a payroll table with a foreign key to EMPLOYEE filled from it.
    const payroll = 'CREATE TABLE APP.PAYROLL (EMPID CHAR(6) REFERENCES EMPLOYEE (EMPNO), DEPTNO CHAR(3));\n';
    const copy = 'INSERT INTO APP.PAYROLL (EMPID, DEPTNO) SELECT EMPNO, WORKDEPT FROM EMPLOYEE;\n';
    const reasons = (files: Record<string, string>) => lintWorkspace(files).workspace.schema.insertTargets.get('APP.PAYROLL')!.bulkReasons;
    const findings = (files: Record<string, string>) => rules(files).filter((r) => r === 'enforced-foreign-key');
    assert.deepEqual(reasons({ 'cgtt.sql': 'CONNECT TO sample;\n' + payroll + copy }), []);
    assert.deepEqual(findings({ 'cgtt.sql': 'CONNECT TO sample;\n' + payroll + copy }), []);
    // Another database, none named, a table db2sampl fills with more rows (EMPMDC: 10,000), an EMPLOYEE the
    // files create or insert into: its rows are not known.
    const load = ['INSERT … SELECT'];
    assert.deepEqual(reasons({ 'cgtt.sql': 'CONNECT TO prod;\n' + payroll + copy }), load);
    assert.deepEqual(reasons({ 'cgtt.sql': payroll + copy }), load);
    assert.deepEqual(findings({ 'cgtt.sql': payroll + copy }), ['enforced-foreign-key']);
    assert.deepEqual(reasons({ 'cgtt.sql': 'CONNECT TO sample;\n' + payroll + copy.replace('EMPLOYEE', 'EMPMDC') }), load);
    assert.deepEqual(reasons({ 'emp.sql': 'CREATE TABLE EMPLOYEE (EMPNO CHAR(6) NOT NULL PRIMARY KEY, WORKDEPT CHAR(3));\n', 'cgtt.sql': 'CONNECT TO sample;\n' + payroll + copy }), load);
    assert.deepEqual(reasons({ 'emp.sql': 'INSERT INTO EMPLOYEE (EMPNO) VALUES (?);\n', 'cgtt.sql': 'CONNECT TO sample;\n' + payroll + copy }), load);
    // An EMPLOYEE created or filled where it cannot be SAMPLE's: in a script connected to another database, or
    // (IBM's XmlIntegrate_setup.db2, connected to SAMPLE) a keyless EMPLOYEE that cannot be the parent of the
    // copying script's foreign key to EMPLOYEE (EMPNO): SAMPLE's rows still.
    const cgtt = { 'cgtt.sql': 'CONNECT TO sample;\n' + payroll + copy };
    assert.deepEqual(reasons({ 'emp.sql': 'CONNECT TO prod;\nCREATE TABLE EMPLOYEE (EMPNO CHAR(6) NOT NULL PRIMARY KEY, WORKDEPT CHAR(3));\n', ...cgtt }), []);
    assert.deepEqual(reasons({ 'emp.sql': 'CONNECT TO prod;\nINSERT INTO EMPLOYEE (EMPNO) SELECT ID FROM STAGE.PEOPLE;\n', ...cgtt }), []);
    assert.deepEqual(findings({ 'emp.sql': 'CONNECT TO prod;\nINSERT INTO EMPLOYEE (EMPNO) VALUES (?);\n', ...cgtt }), []);
    const xmlIntegrate = 'CONNECT TO sample;\nCREATE TABLE EMPLOYEE (EMPNO INT, LASTNAME VARCHAR(20), WORKDEPT VARCHAR(20));\nCONNECT RESET;\n';
    assert.deepEqual(reasons({ 'setup.sql': xmlIntegrate, ...cgtt }), []);
    // The same keyless table, but the copying script declares no foreign key to it (its schema may hold that
    // table), or it has EMPNO as its primary key or a unique index on it: it may be the table the copy reads.
    const copyOnly = { 'cgtt.sql': 'CONNECT TO sample;\nCREATE TABLE APP.PAYROLL (EMPID CHAR(6), DEPTNO CHAR(3));\n' + copy };
    assert.deepEqual(reasons({ ...copyOnly }), []);
    assert.deepEqual(reasons({ 'setup.sql': xmlIntegrate, ...copyOnly }), load);
    assert.deepEqual(reasons({ 'setup.sql': xmlIntegrate.replace('EMPNO INT', 'EMPNO INT NOT NULL PRIMARY KEY'), ...cgtt }), load);
    assert.deepEqual(reasons({ 'setup.sql': xmlIntegrate.replace('CONNECT RESET', 'CREATE UNIQUE INDEX XEMP ON EMPLOYEE (EMPNO)'), ...cgtt }), load);
    // Created or filled in a script that names no database (it may run in SAMPLE), or by application code.
    assert.deepEqual(reasons({ 'emp.sql': 'CREATE TABLE EMPLOYEE (EMPNO CHAR(6) NOT NULL PRIMARY KEY);\n', ...cgtt }), load);
    assert.deepEqual(reasons({ 'emp.sql': 'CONNECT TO sample;\nINSERT INTO EMPLOYEE (EMPNO) VALUES (?);\n', ...cgtt }), load);
    // Joined with DEPARTMENT (14 rows): the sources' rows added up, as for copies of seeded tables: 56, under 100.
    assert.deepEqual(reasons({ 'cgtt.sql': 'CONNECT TO sample;\n' + payroll + 'INSERT INTO APP.PAYROLL (EMPID, DEPTNO) SELECT E.EMPNO, D.DEPTNO FROM EMPLOYEE E JOIN DEPARTMENT D ON E.WORKDEPT = D.DEPTNO;\n' }), []);
  });

  it('INSERT … SELECT, IMPORT and MERGE from a query are bulk whatever the row count; MERGE USING (VALUES …) is not', () => {
    const bulk = (load: string) => lintWorkspace({ 'schema.sql': IDENTITY, 'load.sql': load }).workspace.schema.insertTargets.get('APP.CODES')!.bulkReasons;
    assert.deepEqual(bulk('INSERT INTO APP.CODES (NAME) SELECT NAME FROM STAGE.CODES;\n'), ['INSERT … SELECT']);
    assert.deepEqual(bulk("IMPORT FROM codes.del OF DEL INSERT INTO APP.CODES;\n"), ['IMPORT (inserts row by row)']);
    assert.deepEqual(bulk('MERGE INTO APP.CODES T USING STAGE.CODES S ON T.NAME = S.NAME WHEN NOT MATCHED THEN INSERT (NAME) VALUES (S.NAME);\n'), ['MERGE … WHEN NOT MATCHED THEN INSERT from a query']);
    assert.deepEqual(bulk("MERGE INTO APP.CODES T USING (VALUES ('x')) AS S (NAME) ON T.NAME = S.NAME WHEN NOT MATCHED THEN INSERT (NAME) VALUES (S.NAME);\n"), []);
  });

  it("a script's few seed rows are no script-run finding when something else fills the table, even the script itself", () => {
    // IBM's CICS sample: its JCL seeds CUSTOMER with ten literal rows, and its COBOL inserts customers at run time.
    const app = 'INSERT INTO APP.CODES (NAME) VALUES (?);\n';
    const runRules = ['commit-per-row', 'no-autocommit', 'prefer-parameter-markers', 'single-row-insert'];
    // The rules of the script's findings, merged ones included (workspace.diagnostics keeps them as related).
    const scriptRules = (files: Record<string, string>) => lintWorkspace(files).workspace.diagnostics('seed.clp').flatMap((d) => [d.rule, ...(d.mergedRules ?? [])]);
    assert.deepEqual(scriptRules({ 'schema.sql': IDENTITY, 'app.sql': app, 'seed.clp': literal(10) }), []);
    // A script that also copies rows into the table: its ten literal rows still cost ten commits, no more (IBM's
    // tbrowcompress.db2 IMPORTs a table and adds a few rows by hand).
    assert.deepEqual(scriptRules({ 'schema.sql': IDENTITY, 'app.sql': app, 'seed.clp': literal(10) + 'INSERT INTO APP.CODES (NAME) SELECT NAME FROM STAGE.CODES;\n' }), []);
    assert.deepEqual(scriptRules({ 'schema.sql': IDENTITY, 'seed.clp': literal(10) + "IMPORT FROM 'codes.del' OF DEL COMMITCOUNT 1000 INSERT INTO APP.CODES;\n" }), []);
    // Literal rows up to bulkRowThreshold (the scripts together) are no seed rows.
    const many = scriptRules({ 'schema.sql': IDENTITY, 'app.sql': app, 'seed.clp': literal(100) });
    assert.ok(many.some((r) => runRules.includes(r)), many.join());
  });

  it('rows bound at run time (markers) are no reference data: per-row schema costs stay, bulk-only rules do not', () => {
    const found = rules({ 'schema.sql': IDENTITY, 'load.sql': 'INSERT INTO APP.CODES (NAME) VALUES (?);\n' });
    assert.ok(found.includes('identity-cache'), found.join());
    assert.ok(!found.includes('clustered-index-bulk-target'), found.join());
  });
});

describe('issue 13: one cause, one finding', () => {
  it('the row-at-a-time rules on one literal INSERT line are one diagnostic with the others as related information', () => {
    const found = lint({ 'load.sql': literal(5) }, { config: { bulkRowThreshold: 1 } });
    assert.deepEqual(found.map((f) => `${f.line}:${f.rule}`), ['3:no-autocommit']);
    const { workspace } = lintWorkspace({ 'load.sql': literal(5) }, { config: { bulkRowThreshold: 1 } });
    const related = workspace.diagnostics('load.sql')[0].related!.map((r) => r.message);
    assert.equal(related.length, 2);
    assert.match(related[0], /^also prefer-parameter-markers: Literal-valued INSERTs into APP\.CODES: 5 in this script \(lines 1\u20135\), /);
    assert.match(related[1], /^also single-row-insert: Single-row INSERTs into APP\.CODES: 5 in a row \(lines 1\u20135\), /);
    const lines = workspace.lines('load.sql')!;
    const extent = workspace.diagnostics('load.sql')[0].extent!;
    assert.deepEqual([lines.position(extent.start).line + 1, lines.position(extent.end).line + 1], [1, 5], 'the merged finding extends over the run');
    // single-row-insert's quick fix stays offered on the merged finding (no-autocommit has none of its own).
    assert.match(workspace.diagnostics('load.sql')[0].fix?.title ?? '', /^Combine the \d+ INSERTs into one multi-row VALUES list/);
    // The rules shown in it, for "Disable … for this line" to name them all.
    assert.deepEqual(workspace.diagnostics('load.sql')[0].mergedRules, ['prefer-parameter-markers', 'single-row-insert']);
  });

  it('a suppression of the primary rule leaves the others, merged', () => {
    const text = literal(2) + '-- insertlint-disable-next-line no-autocommit\n' + literal(1);
    const found = lint({ 'load.sql': text }, { config: { bulkRowThreshold: 1 } });
    assert.deepEqual(found.map((f) => `${f.line}:${f.rule}`), ['4:prefer-parameter-markers']);
    const { workspace } = lintWorkspace({ 'load.sql': text }, { config: { bulkRowThreshold: 1 } });
    const visible = workspace.diagnostics('load.sql').filter((d) => !d.suppressed);
    assert.deepEqual(visible[0].related!.map((r) => r.message.split(':')[0]), ['also single-row-insert']);
  });

  it('a part found on another line (partOf) joins the finding on that line, the primary in its place; parts alone stay', () => {
    const text = 'prepare\nprepare again\nexecute\n';
    const lines = new LineIndex(text);
    const at = (word: string, nth = 0) => {
      const start = text.split('\n').slice(0, nth).join('\n').length + (nth ? 1 : 0);
      return { start, end: start + word.length };
    };
    const d = (rule: string, severity: Diagnostic['severity'], span: Diagnostic['span'], partOf?: Diagnostic['span']): Diagnostic => ({ file: 'f', span, rule, severity, message: `${rule} here. More.`, ...(partOf ? { partOf } : {}) });
    const part = d('prepare-in-loop', 'information', at('prepare'), at('execute', 2));
    const execute = d('single-row-insert', 'information', at('execute', 2));
    const out = mergeSameCause([part, execute], lines, () => 'row-at-a-time');
    // On a tie of severity the finding on the line is the primary, and the merged finding stands where it was.
    assert.deepEqual(out.map((x) => [x.rule, x.span.start, x.mergedRules]), [['single-row-insert', execute.span.start, ['prepare-in-loop']]]);
    assert.deepEqual(out[0].related, [{ file: 'f', span: part.span, message: 'also prepare-in-loop: prepare-in-loop here.' }]);
    // Two parts naming a line where nothing else was found are not one finding.
    const other = d('prepare-in-loop', 'information', at('prepare again', 1), at('execute', 2));
    assert.deepEqual(mergeSameCause([part, other], lines, () => 'row-at-a-time'), [part, other]);
  });

  it('a run finding is one, on the threshold-th statement, never on the statements before it', () => {
    const found = lint({ 'load.sql': 'SET SCHEMA APP;\n' + literal(4).replace(/APP\./g, '') }, { config: { bulkRowThreshold: 1, rules: { 'no-autocommit': 'off', 'prefer-parameter-markers': 'off' } } });
    assert.deepEqual(found.map((f) => `${f.line}:${f.rule}`), ['4:single-row-insert']);
    assert.match(found[0].message, /: 4 in a row \(lines 2\u20135\)/);
  });
});

describe('issue 13: short messages first', () => {
  // Plausible values for the placeholders: a qualified table, small numbers, a loop, a short reason.
  const NUMBERS = /^(count|min|max|value|cache|n|k|kb|seconds|extent|thresh|pctfree|one|two|four|indexCount|enforcedCount|otherCount|suggested|test|tests)$/;
  // A run's size and lines as long as a generated script makes them (rules/support/runs.ts).
  const TEXT: Record<string, string> = { count: '200,000', runLines: 'lines 2\u2013200,001', detail: "'CREATE' starts another statement: is the script run with -td@?", why: 'INSERT … SELECT', loop: 'for loop', connection: "'conn'", how: 'string concatenation', where: 'load()', more: ' The loop makes 3 such calls into it.' };
  const DATA = new Proxy({} as Record<string, string>, { get: (_, key: string) => TEXT[key] ?? (NUMBERS.test(key) ? '20' : 'APP.ORDERS') });
  for (const { rule } of RULES) {
    it(`${rule.meta.id}: the first sentence of every message is under 120 characters`, () => {
      for (const [id, template] of Object.entries(rule.meta.messages)) {
        const placeholders = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
        const sentence = firstSentence(formatMessage(template, Object.fromEntries(placeholders.map((p) => [p, DATA[p]]))));
        assert.ok(sentence.length < 120, `${rule.meta.id}/${id} (${sentence.length}): ${sentence}`);
      }
    });
  }
});

describe('issue 13: unused suppressions are judged only when the inserts are known', () => {
  const DDL = '-- insertlint-disable-next-line identity-cache: gap-free numbers\nCREATE TABLE APP.T (ID INT GENERATED ALWAYS AS IDENTITY (NO CACHE), X INT);\n';
  it('a suppression on DDL whose table receives no rows in the files given is not reported', () => {
    assert.deepEqual(rules({ 'schema.sql': DDL }), []);
  });
  it('with the inserts present it suppresses; on a table with a good cache it is reported', () => {
    assert.deepEqual(rules({ 'schema.sql': DDL, 'load.sql': 'INSERT INTO APP.T (X) SELECT X FROM S;\n' }), []);
    const fixed = DDL.replace('NO CACHE', 'CACHE 1000');
    assert.deepEqual(rules({ 'schema.sql': fixed, 'load.sql': 'INSERT INTO APP.T (X) SELECT X FROM S;\n' }), ['unused-suppression']);
  });
});

describe('issue 13: names resolved strictly', () => {
  const ddl = 'CREATE TABLE APP.T (ID INT GENERATED ALWAYS AS IDENTITY (NO CACHE), X INT);\nCREATE TABLE OTHER.T (ID INT GENERATED ALWAYS AS IDENTITY (NO CACHE), X INT);\n';
  it('an unqualified INSERT is not matched to either of two schemas that define the table', () => {
    const found = lint({ 'schema.sql': ddl, 'load.sql': 'INSERT INTO T (X) SELECT X FROM S;\n' });
    assert.deepEqual(found.filter((f) => f.rule === 'identity-cache'), []);
  });
  it('a qualified INSERT reaches its own table only; with one definition the unqualified INSERT reaches it', () => {
    const found = lint({ 'schema.sql': ddl, 'load.sql': 'INSERT INTO OTHER.T (X) SELECT X FROM S;\n' });
    assert.deepEqual(found.filter((f) => f.rule === 'identity-cache').map((f) => f.line), [2]);
    const one = lint({ 'schema.sql': ddl.split('\n')[0] + '\n', 'load.sql': 'INSERT INTO T (X) SELECT X FROM S;\n' });
    assert.deepEqual(one.filter((f) => f.rule === 'identity-cache').map((f) => f.line), [1]);
  });
  it('NEXT VALUE FOR an unqualified sequence does not pick one of two schemas', () => {
    const seqs = 'CREATE SEQUENCE APP.S NO CACHE;\nCREATE SEQUENCE OTHER.S NO CACHE;\n';
    const { workspace } = lintWorkspace({ 'schema.sql': seqs });
    assert.equal(workspace.schema.sequence({ name: 'S', span: { start: 0, end: 0 } }), undefined);
    assert.equal(workspace.schema.sequence({ schema: 'APP', name: 'S', span: { start: 0, end: 0 } })?.key, 'APP.S');
  });
});

describe('issue 13: scripts that CONNECT TO different databases are kept apart', () => {
  const ddl = 'CONNECT TO SALES;\nCREATE TABLE APP.T (ID INT GENERATED ALWAYS AS IDENTITY (NO CACHE), X INT);\n';
  it('the DDL of one database does not apply to the inserts of another', () => {
    const other = lint({ 'sales.sql': ddl, 'hr.sql': 'CONNECT TO HR;\nINSERT INTO APP.T (X) SELECT X FROM S;\n' });
    assert.deepEqual(other.filter((f) => f.rule === 'identity-cache'), []);
  });
  it('the same database, or a script that does not say, still gets the finding', () => {
    for (const load of ['CONNECT TO sales;\nINSERT INTO APP.T (X) SELECT X FROM S;\n', 'INSERT INTO APP.T (X) SELECT X FROM S;\n']) {
      assert.deepEqual(lint({ 'sales.sql': ddl, 'load.sql': load }).filter((f) => f.rule === 'identity-cache').map((f) => f.line), [2], load);
    }
  });
});
