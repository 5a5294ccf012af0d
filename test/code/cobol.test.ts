// The COBOL front end (code/languages/cobol.ts): fixed and free format, copybooks, the PERFORM / GO TO loops
// and counter-guarded commits that the insert rules read, and how .sqb files are read now.
import * as assert from 'node:assert/strict';
import { readCobolSource, sourceFormat } from '../../server/src/code/cobol/source';
import { readCobol, sqlOfBlock } from '../../server/src/code/languages/cobol';
import { brief, codeFrontEnd, INSERT_RULES, lintCode } from './helpers';
import { Workspace } from '../../server/src/engine/workspace';
import { resolveConfig } from '../../server/src/engine/config';
import { allRules } from '../../server/src/engine/registry';
import type { FrontEnd } from '../../server/src/engine/types';

/** A fixed-format program: sequence numbers in columns 1-6, code from column 8, a tag in 73-80. */
function fixed(lines: string[]): string {
  return lines.map((l, i) => `${String((i + 1) * 100).padStart(6, '0')}${l.padEnd(65)}PROGTAG1`).join('\n') + '\n';
}

const HEAD = [' IDENTIFICATION DIVISION.', ' PROGRAM-ID. TESTPGM.', ' PROCEDURE DIVISION.'];

describe('COBOL front end', () => {
  it('blanks the sequence area, columns 73-80 and comment lines, keeping offsets', () => {
    const text = fixed([' MOVE A TO B.', '*EXEC SQL INSERT INTO T VALUES (1) END-EXEC.', '/ page eject', '-    CONTINUED']);
    const source = readCobolSource(text);
    assert.equal(source.format, 'fixed');
    assert.equal(source.clean.length, text.length);
    assert.doesNotMatch(source.clean, /PROGTAG1|000100|INSERT|page eject/);
    assert.match(source.clean, /MOVE A TO B\./);
    assert.equal(source.comments.length, 2);
    assert.equal(sourceFormat('IDENTIFICATION DIVISION.\nPROGRAM-ID. X.\nPROCEDURE DIVISION.\n    DISPLAY "HI" *> greeting\n'), 'free');
    assert.equal(sourceFormat('       >>SOURCE FORMAT FREE\n'), 'free');
  });

  it('reads host variables with hyphens as host variables and a rowset clause as a multi-row insert', () => {
    const sql = sqlOfBlock(' INSERT INTO T (A, B) VALUES (:WS-ACCT-NO, :WS-AMT:WS-AMT-IND) FOR :WS-N ROWS ATOMIC', { start: 0, end: 86 });
    assert.equal(sql.rowset, true);
    assert.match(sql.text, /:WS_ACCT_NO, :WS_AMT:WS_AMT_IND\)\s+$/);
    const read = readCobol({ path: 'P.cbl', language: 'cobol', text: fixed([...HEAD, ' MAIN-PARA.', '     EXEC SQL DECLARE C-TR-FWD CURSOR FOR SELECT A FROM T', '       WHERE A >= :WS-KEY END-EXEC', "     EXEC SQL INSERT INTO T VALUES (:WS-A, 'x') END-EXEC."]) });
    assert.deepEqual(read.statements.map((s) => s.kind + (s.parseError ? '!' : '')), ['declareCursor', 'insert']);
    const insert = read.statements[1];
    assert.ok(insert.kind === 'insert' && insert.source.kind === 'values');
    assert.deepEqual(insert.kind === 'insert' && insert.source.kind === 'values' ? insert.source.rows[0].values.map((v) => v.kind) : [], ['host', 'literal']);
  });

  it('finds an INSERT per record in a paragraph performed from a PERFORM UNTIL loop, through two paragraphs', async () => {
    const text = fixed([
      ...HEAD,
      ' 0000-MAIN.',
      "     PERFORM 1000-PROCESS UNTIL WS-EOF = 'Y'",
      '     STOP RUN.',
      ' 1000-PROCESS.',
      '     PERFORM 2000-INSERT.',
      ' 2000-INSERT.',
      '     EXEC SQL INSERT INTO T VALUES (:WS-A) END-EXEC.',
    ]);
    const { findings, models } = await lintCode({ 'P.cbl': text });
    assert.deepEqual(brief(findings, INSERT_RULES), ['single-row-insert@10:12']);
    assert.match(findings.find((f) => f.rule === 'single-row-insert')!.message, /PERFORM UNTIL loop at line 5 \(through PERFORM 1000-PROCESS\)/);
    // PERFORMed paragraphs share working storage: nothing keeps a host-variable array from filling across them.
    assert.doesNotMatch(findings.find((f) => f.rule === 'single-row-insert')!.message, /receives the rows together/);
    const execution = models.get('P.cbl')!.code!.executions[0];
    assert.equal(execution.inFunction?.name, '2000-INSERT');
    assert.equal(execution.connection?.autocommit, 'off');
  });

  it('reads inline PERFORM … END-PERFORM, VARYING and GO TO loops; a small TIMES loop is no bulk load', async () => {
    const insert = '       EXEC SQL INSERT INTO T VALUES (:WS-A) END-EXEC';
    const kinds = async (body: string[]) => (await lintCode({ 'P.cbl': fixed([...HEAD, ' MAIN-PARA.', ...body]) })).models.get('P.cbl')!.code!.executions.map((e) => e.loop?.kind ?? 'none');
    assert.deepEqual(await kinds(["     PERFORM UNTIL WS-EOF = 'Y'", insert, '     END-PERFORM', '     STOP RUN.']), ['PERFORM UNTIL']);
    assert.deepEqual(await kinds(['     PERFORM VARYING I FROM 1 BY 1 UNTIL I > 5000', insert, '     END-PERFORM.']), ['PERFORM VARYING']);
    assert.deepEqual(await kinds([' READ-LOOP.', "     READ INFILE AT END GO TO END-RUN.", insert, '     GO TO READ-LOOP.', ' END-RUN.', '     STOP RUN.']), ['GO TO']);
    const small = await lintCode({ 'P.cbl': fixed([...HEAD, ' MAIN-PARA.', '     PERFORM 3 TIMES', insert, '     END-PERFORM.']) });
    assert.equal(small.models.get('P.cbl')!.code!.executions[0].loop?.passes, 3);
    assert.deepEqual(brief(small.findings, INSERT_RULES), []);
  });

  it('reports a COMMIT per record, but not one guarded by a row counter; CICS SYNCPOINT is a commit', async () => {
    const program = (commit: string[]) =>
      fixed([...HEAD, ' 0000-MAIN.', "     PERFORM 1000-ROW UNTIL WS-EOF = 'Y'.", ' 1000-ROW.', '     EXEC SQL INSERT INTO T VALUES (:WS-A) END-EXEC', ...commit, '     .']);
    const perRow = await lintCode({ 'P.cbl': program(['     IF SQLCODE = 0', '        EXEC SQL COMMIT END-EXEC', '     END-IF']) });
    assert.deepEqual(brief(perRow.findings, ['commit-per-row']), ['commit-per-row@9:15']);
    const counted = await lintCode({ 'P.cbl': program(['     ADD 1 TO WS-ROWS', '     IF WS-ROWS >= 1000', '        EXEC SQL COMMIT END-EXEC', '     END-IF']) });
    assert.deepEqual(brief(counted.findings, ['commit-per-row']), []);
    const cics = await lintCode({ 'P.cbl': program(['     EXEC CICS SYNCPOINT END-EXEC']) });
    assert.deepEqual(cics.models.get('P.cbl')!.code!.commits.map((c) => c.api), ['cics']);
    // An IMS BMP commits its Db2 work with a checkpoint call.
    const ims = await lintCode({ 'P.cbl': program(["     CALL 'CBLTDLI' USING DLI-CHKP IO-PCB CHKP-AREA"]) });
    assert.deepEqual(ims.models.get('P.cbl')!.code!.commits.map((c) => `${c.api}:${c.loop?.kind}`), ['ims:PERFORM UNTIL']);
    assert.deepEqual(brief(ims.findings, ['commit-per-row']), ['commit-per-row@8:12']);
  });

  it('puts copybooks in place: SQL of a COPY member runs in the loop and is reported at the COPY', async () => {
    const program = fixed([...HEAD, ' 0000-MAIN.', "     PERFORM 2000-INSERT UNTIL WS-EOF = 'Y'.", '     STOP RUN.', '     COPY INSPARA.']);
    const copybook = fixed([' 2000-INSERT.', '     EXEC SQL INSERT INTO T VALUES (:WS-A) END-EXEC.']);
    // The program comes first: it is read again when its member arrives.
    const { findings, models } = await lintCode({ 'cbl/P.cbl': program, 'cpy/INSPARA.cpy': copybook });
    assert.deepEqual(brief(findings, INSERT_RULES), ['single-row-insert@7:12']);
    assert.deepEqual(models.get('cbl/P.cbl')!.includes, ['INSPARA']);
  });

  it('reads a program once when its copybooks come after it in one addFiles batch, and again when one arrives later', async () => {
    const program = fixed([...HEAD, ' 0000-MAIN.', "     PERFORM 2000-INSERT UNTIL WS-EOF = 'Y'.", '     STOP RUN.', '     COPY INSPARA.']);
    const copybook = fixed([' 2000-INSERT.', '     EXEC SQL INSERT INTO T VALUES (:WS-A) END-EXEC.']);
    const real = await codeFrontEnd();
    const reads: string[] = [];
    const counting: FrontEnd = { languages: real.languages, read: (source, options) => (reads.push(source.path), real.read(source, options)) };
    const files = [{ path: 'cbl/P.cbl', text: program }, { path: 'cpy/INSPARA.cpy', text: copybook }];
    const inserts = (ws: Workspace) => ws.model('cbl/P.cbl')!.statements.map((s) => s.kind);

    const batch = new Workspace(resolveConfig(allRules()), [counting]);
    batch.addFiles(files, () => files.forEach((f) => batch.setFile(f.path, f.text)));
    assert.deepEqual(inserts(batch), ['insert']);
    assert.deepEqual(reads, ['cbl/P.cbl', 'cpy/INSPARA.cpy']);

    // One by one (an editor opening them): the program is read without its member, then again with it.
    reads.length = 0;
    const oneByOne = new Workspace(resolveConfig(allRules()), [counting]);
    for (const f of files) oneByOne.setFile(f.path, f.text);
    assert.deepEqual(inserts(oneByOne), ['insert']);
    assert.deepEqual(reads, ['cbl/P.cbl', 'cpy/INSPARA.cpy', 'cbl/P.cbl']);

    // A program already held is still read again when a batch brings its member.
    reads.length = 0;
    const later = new Workspace(resolveConfig(allRules()), [counting]);
    later.setFile('cbl/P.cbl', program);
    later.addFiles([files[1]], () => later.setFile(files[1].path, files[1].text));
    assert.deepEqual(inserts(later), ['insert']);
    assert.deepEqual(reads, ['cbl/P.cbl', 'cpy/INSPARA.cpy', 'cbl/P.cbl']);
  });

  it('reads a DCLGEN member: its DECLARE TABLE gives the schema the columns, the program does not repeat it', async () => {
    const dcl = ['           EXEC SQL DECLARE APP.TRN TABLE', '           ( ACCT CHAR(12) NOT NULL,', '             NOTE CLOB(1M)', '           ) END-EXEC.'].join('\n') + '\n';
    const program = fixed([' DATA DIVISION.', ' WORKING-STORAGE SECTION.', '     EXEC SQL INCLUDE DCLTRN END-EXEC.', ' PROCEDURE DIVISION.', ' MAIN-PARA.', '     EXEC SQL INSERT INTO APP.TRN VALUES (:A, :B) END-EXEC.']);
    const { models } = await lintCode({ 'P.cbl': program, 'DCLTRN.dcl': dcl });
    assert.deepEqual(models.get('DCLTRN.dcl')!.statements.map((s) => s.kind), ['declareTable']);
    assert.deepEqual(models.get('P.cbl')!.statements.map((s) => s.kind), ['insert']);
  });

  it('honours suppression comments written as COBOL comment lines', async () => {
    const text = fixed([...HEAD, ' MAIN-PARA.', "     PERFORM UNTIL WS-EOF = 'Y'", '* insertlint-disable-next-line single-row-insert: a code table', '        EXEC SQL INSERT INTO T VALUES (:A) END-EXEC', '     END-PERFORM.']);
    const { findings } = await lintCode({ 'P.cbl': text });
    assert.deepEqual(brief(findings, INSERT_RULES), []);
    assert.deepEqual(brief(findings, ['batch-without-commit']), ['batch-without-commit@7:15']);
  });

  it('reads dynamic SQL: the text a data item holds (VALUE, MOVE, STRING), PREPARE in a loop, spliced items', async () => {
    const text = [
      '       DATA DIVISION.',
      '       WORKING-STORAGE SECTION.',
      '       01  WS-INS.',
      '           49 WS-INS-LEN   PIC S9(4) COMP.',
      '           49 WS-INS-TXT   PIC X(200) VALUE',
      "              'INSERT INTO DIV.TRN (ACCT, AMT) VALUES (?, ?)'.",
      '       01  WS-DYN          PIC X(200).',
      '       PROCEDURE DIVISION.',
      '       MAIN-PARA.',
      "           PERFORM UNTIL WS-EOF = 'Y'",
      '              EXEC SQL PREPARE S1 FROM :WS-INS END-EXEC',
      '              EXEC SQL EXECUTE S1 USING :IN-ACCT, :IN-AMT END-EXEC',
      "              STRING 'INSERT INTO DIV.LOG VALUES (''' IN-ACCT ''', '",
      "                     IN-AMT ')' DELIMITED BY SIZE INTO WS-DYN",
      '              EXEC SQL EXECUTE IMMEDIATE :WS-DYN END-EXEC',
      '              ADD 1 TO WS-ROWS',
      '              IF WS-ROWS >= 1000 EXEC SQL COMMIT END-EXEC END-IF',
      '           END-PERFORM.',
    ].join('\n') + '\n';
    const { findings, models } = await lintCode({ 'D.cbl': text });
    // The loop's two one-row INSERTs (into DIV.TRN and DIV.LOG) are one single-row-insert finding, on the first.
    assert.deepEqual(brief(findings, INSERT_RULES), ['prepare-in-loop@11:15', 'single-row-insert@12:15', 'prefer-parameter-markers@15:15']);
    assert.match(findings.find((f) => f.rule === 'single-row-insert')!.message, /^One INSERT call into each of DIV\.TRN and DIV\.LOG per row in the PERFORM UNTIL loop/);
    assert.match(findings.find((f) => f.rule === 'prefer-parameter-markers')!.message, /^Values spliced into INSERT INTO DIV\.LOG through string concatenation: IN-ACCT, IN-AMT\./);
    const [prepare, execute] = models.get('D.cbl')!.code!.executions;
    assert.deepEqual([prepare.action, execute.action, execute.preparedAt?.start === prepare.callSpan.start], ['prepare', 'executePrepared', true]);
  });

  it('reads .sqb files (Db2 LUW precompiler) with the same reader, as LUW', async () => {
    const { models } = await lintCode({ 'p.sqb': fixed([...HEAD, ' MAIN-PARA.', '     EXEC SQL INSERT INTO T VALUES (:A) END-EXEC.']) });
    const model = models.get('p.sqb')!;
    assert.equal(model.dialect, 'luw');
    assert.equal(model.code!.executions.length, 1);
  });
});
