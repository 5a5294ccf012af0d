// A z/OS month-end batch as a shop keeps it (test/fixtures/code/zos-batch): a fixed-format COBOL program that
// inserts one row per input record and commits each record, its DCLGEN member, the DDL (a clustering index,
// no APPEND YES) and the JCL. The findings issue 18 asks for, each on the line of the file that causes it.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../robustness/support';
import { lintCode } from './helpers';

const DIR = join(repoRoot(), 'test', 'fixtures', 'code', 'zos-batch');

describe('z/OS batch: COBOL, DCLGEN, DDL and JCL together', () => {
  it('reports the insert per record, the commit per record and the clustering without APPEND YES', async () => {
    const files = Object.fromEntries(readdirSync(DIR).sort().map((name) => [name, readFileSync(join(DIR, name), 'utf8')]));
    const { findings, models } = await lintCode(files);
    const where = findings.map((f) => `${f.file}:${f.line} ${f.rule}`);
    assert.deepEqual(where, [
      'DIVDDL.ddl:3 zos-member-cluster',
      'DIVDDL.ddl:15 zos-cluster-without-append',
      'DIVDDL.ddl:16 zos-random-key-index',
      'DIVPOST.cbl:44 single-row-insert',
      'DIVPOST.cbl:51 commit-per-row',
    ]);
    const message = (rule: string) => findings.find((f) => f.rule === rule)!.message;
    assert.match(message('single-row-insert'), /PERFORM UNTIL loop at line 30 \(through PERFORM 2000-POST-DIVIDEND\).*FOR :n ROWS \(multi-row insert\)\.$/);
    // A program for Db2 for z/OS is not offered the LUW form.
    assert.doesNotMatch(message('single-row-insert'), /Db2 for LUW/);
    assert.match(message('commit-per-row'), /^Commit on every pass of the PERFORM UNTIL loop at line 30 .*\(IF WS-ROWS >= 1000 … COMMIT … MOVE 0 TO WS-ROWS\)/);
    assert.match(message('zos-cluster-without-append'), /^Clustering index TRNX1 keeps bulk inserts into DIV\.TRN in FUND, ACCT order; the table is not APPEND YES\. Rows arrive in bulk \(inserted inside a loop\)/);
    // Every file is read as Db2 for z/OS; the DCLGEN member gives the columns, the JCL the LOAD target.
    assert.deepEqual([...models.values()].map((m) => `${m.source.path}:${m.dialect}`), ['DCLTRN.dcl:zos', 'DIVDDL.ddl:zos', 'DIVLOAD.jcl:zos', 'DIVPOST.cbl:zos']);
    assert.deepEqual(models.get('DIVPOST.cbl')!.includes, ['DCLTRN']);
    assert.deepEqual(models.get('DIVLOAD.jcl')!.statements.map((s) => s.kind), ['insert', 'load']);
  });
});
