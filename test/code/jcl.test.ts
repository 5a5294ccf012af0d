// The JCL / control-card front end (code/languages/jcl.ts): SQL in DSNTEP2/DSNTIAD SYSIN streams, DSNUTILB
// LOAD statements, .ctl members; findings on the right line of the original file.
import * as assert from 'node:assert/strict';
import { readJclFile } from '../../server/src/code/languages/jcl';
import { readJcl } from '../../server/src/code/jcl/jcl';
import { lintWorkspace } from '../helpers/rule-tester';
import { codeFrontEnd } from './helpers';
import { TreeSitterCodeFrontEnd } from '../../server/src/code/frontend';

const JOB = [
  '//CREATE   JOB (ACCT),CLASS=A',
  '//* objects for the dividend batch',
  '//STEP1    EXEC PGM=IKJEFT01',
  '//SYSTSIN  DD *',
  '  DSN SYSTEM(DB2P)',
  '  RUN PROGRAM(DSNTIAD) PLAN(DSNTIA12)',
  '/*',
  '//SYSIN    DD *',
  '  CREATE TABLESPACE TSTRN IN <DBNAME> SEGSIZE 32;'.padEnd(72) + '00010000',
  '  CREATE TABLE DIV.TRN (ACCT CHAR(12)) IN <DBNAME>.TSTRN;',
  '/*',
  '//LOAD     EXEC PGM=DSNUTILB,PARM=\'DB2P,DIVLOAD\'',
  '//SYSIN    DD DATA,DLM=$$',
  '  LOAD DATA INDDN SYSREC LOG NO RESUME YES SHRLEVEL CHANGE',
  '    INTO TABLE DIV.TRN',
  '    ( ACCT POSITION(1:12) CHAR(12) )',
  '$$',
  '//UNRELATD EXEC PGM=IEBGENER',
  '//SYSIN    DD *',
  '  CREATE TABLE NOT.SQL (A INT);',
  '/*',
].join('\n') + '\n';

describe('JCL front end', () => {
  it('finds the steps, the program a TSO step runs and their in-stream data', () => {
    const jcl = readJcl(JOB);
    assert.deepEqual(jcl.steps.map((s) => [s.name, s.program, s.runs, s.data.map((d) => d.dd)]), [
      ['STEP1', 'IKJEFT01', 'DSNTIAD', ['SYSTSIN', 'SYSIN']],
      ['LOAD', 'DSNUTILB', undefined, ['SYSIN']],
      ['UNRELATD', 'IEBGENER', undefined, ['SYSIN']],
    ]);
    assert.equal(jcl.comments.length, 1);
  });

  it('reads DSNTIAD SQL (to column 72, template placeholders as names) and DSNUTILB LOAD; other programs\' SYSIN is not SQL', () => {
    const read = readJclFile(JOB);
    assert.equal(read.dialect, 'zos');
    assert.deepEqual(read.statements.map((s) => s.kind + (s.parseError ? '!' : '')), ['createTablespace', 'createTable', 'load']);
    const [space, table, load] = read.statements;
    assert.ok(space.kind === 'createTablespace' && space.zos?.database === 'DBNAME' && space.zos.segsize === 32);
    assert.ok(table.kind === 'createTable' && table.tablespace.database === 'DBNAME');
    assert.ok(load.kind === 'load' && load.utility);
    assert.deepEqual(load.kind === 'load' ? load.utility : undefined, { tables: [{ schema: 'DIV', name: 'TRN', span: load.kind === 'load' ? load.table.span : { start: 0, end: 0 } }], resume: true, replace: false, log: false, shrlevel: 'change' });
    // Offsets are the file's: the CREATE TABLE starts on line 10.
    assert.equal(JOB.slice(0, table.origin.toFile(table.span.start)).split('\n').length, 10);
    assert.deepEqual(read.code!.executions.map((e) => [e.api, e.script, e.connection?.autocommit]), [['dsntiad', true, 'off']]);
  });

  it('reads .ctl members as LOAD statements or as SQL scripts', () => {
    const load = readJclFile('/* load the history */\n LOAD DATA REPLACE LOG NO\n  INTO TABLE DIV.HIST\n');
    assert.deepEqual(load.statements.map((s) => s.kind), ['load']);
    const sql = readJclFile('/* seed */\n INSERT INTO DIV.RATE VALUES (1, 2);\n COMMIT;\n');
    assert.deepEqual(sql.statements.map((s) => s.kind), ['insert', 'commit']);
    assert.equal(sql.code!.executions[0].script, true);
    // Oracle SQL*Loader's .ctl is left out, with why.
    assert.match(readJclFile("LOAD DATA\nINFILE 'emp.dat'\nAPPEND INTO TABLE EMP\nFIELDS TERMINATED BY ','\n(EMPNO, ENAME)\n").leftOut ?? '', /SQL\*Loader/);
  });

  it('makes LOAD targets bulk targets in the schema model and places findings on the JCL line', async () => {
    const ddl = 'CREATE TABLESPACE TSTRN IN DBDIV;\nCREATE TABLE DIV.TRN (ACCT CHAR(12)) IN DBDIV.TSTRN;\nCREATE INDEX DIV.TRNX1 ON DIV.TRN (ACCT) CLUSTER;\n';
    const { workspace, findings } = lintWorkspace({ 'ddl/trn.sql': ddl, 'jcl/LOAD.jcl': JOB.split('//UNRELATD')[0].replace(/\/\/SYSIN {4}DD \*\n {2}CREATE[\s\S]*?\/\*\n/, '') }, { codeFrontEnd: await codeFrontEnd() });
    assert.deepEqual(workspace.schema.insertTargets.get('DIV.TRN')?.bulkReasons, ['LOAD RESUME YES SHRLEVEL CHANGE LOG NO (utility)']);
    assert.deepEqual(findings.filter((f) => f.rule === 'zos-cluster-without-append').map((f) => `${f.file}:${f.line}`), ['ddl/trn.sql:3']);
  });

  it('reads a SYSIN stream of 150,000 statements (no RangeError from spreading them), and a front end that fails leaves the file out saying so', () => {
    const rows = Array.from({ length: 150_000 }, (_, i) => `  INSERT INTO DIV.TRN VALUES ('${i}');`).join('\n');
    const big = JOB.split('//LOAD')[0].replace('  CREATE TABLESPACE', rows + '\n  CREATE TABLESPACE');
    assert.equal(readJclFile(big).statements.length, 150_002);
    const failing = new TreeSitterCodeFrontEnd(new Map(), [{ languages: ['jcl'], grammars: [], read: () => { throw new RangeError('Maximum call stack size exceeded'); } }]);
    const read = failing.read({ path: 'job.jcl', text: JOB, language: 'jcl' });
    assert.deepEqual(read.statements, []);
    assert.equal(read.leftOut, 'reading it failed (Maximum call stack size exceeded); this is a fault of InsertLint, please report it');
  });
});
