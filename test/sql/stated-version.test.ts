// The Db2 for z/OS version a script's header comments name (sql/dialect.ts statedZosVersion), kept in the
// model (FileModel.statedZosVersion) so that rules need not read comments: APPEND YES came with DB2 9.
import * as assert from 'node:assert/strict';
import { parseScript } from '../../server/src/sql/parser';
import { statedZosVersion } from '../../server/src/sql/dialect';
import { buildFileModel } from '../../server/src/engine/workspace-files';

const versionOf = (sql: string) => {
  const { statements, comments } = parseScript(sql);
  return statedZosVersion(comments, statements);
};
const DDL = 'CREATE TABLE A.T (X INT);\n';

describe('sql: the Db2 for z/OS version a script header states', () => {
  it('reads the ways scripts name DB2 for OS/390 and z/OS and their versions', () => {
    const cases: [string, number][] = [
      ['-- generated "May  5 2003" "10:45:31" by CPP for "DB2 OS/390 V8" server:', 8],
      ['-- For DB2 UDB for OS/390 and z/OS Version 7', 7],
      ['/* Target: DB2 for z/OS V8 (compatibility mode) */', 8],
      ['-- Run on DB2 V8 for z/OS', 8],
      ['-- Requires DB2 9 for z/OS or later', 9],
      ['-- db2 for z/os 10', 10],
      ['-- Db2 12 for z/OS function level 500', 12],
      ['-- DB2 for MVS/ESA V4', 4],
    ];
    for (const [header, version] of cases) assert.equal(versionOf(`--\n${header}\n--\n${DDL}`), version, header);
  });

  it('names no version for the operating system, other Db2s, or a mention after the first statement', () => {
    for (const text of [
      '-- DB2 10 is not named here; z/OS V1R13 is the operating system\n' + DDL,
      '-- DB2 for z/OS V1R13 system\n' + DDL,
      '-- DB2 for z/OS 1.13\n' + DDL,
      '-- DB2 V8 FixPak 4 on AIX\n' + DDL,
      '-- Db2 for z/OS\n' + DDL,
      DDL + '-- DB2 OS/390 V8\n',
    ]) {
      assert.equal(versionOf(text), undefined, text);
    }
  });

  it('is part of a script\'s model', () => {
    const model = buildFileModel({ path: 'mig.sql', text: `-- for "DB2 OS/390 V8" server\n${DDL}`, language: 'sql' });
    assert.equal(model.statedZosVersion, 8);
    assert.equal(buildFileModel({ path: 'plain.sql', text: DDL, language: 'sql' }).statedZosVersion, undefined);
  });
});
