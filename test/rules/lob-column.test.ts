import * as assert from 'node:assert/strict';
import { expectFindings, expectNoFindings, findings } from '../helpers/rule-tester';

const RULE = 'lob-column';
const TABLE = ['CREATE TABLE DOCS (', '  ID INT NOT NULL,', '  BODY CLOB(1M),', '  PHOTO BLOB(10K) INLINE LENGTH 2000,', '  SMALL CLOB(100) INLINE LENGTH 200,', '  OLD LONG VARCHAR', ')'].join('\n');
const INSERT = 'INSERT INTO DOCS (ID, BODY) VALUES (?, ?);\n';
const BULK = 'INSERT INTO DOCS (ID, BODY) SELECT ID, BODY FROM STAGE;\n';

describe(`rule ${RULE}`, () => {
  it('reports each LOB/LONG type that is not fully inlined, on the type', () => {
    expectFindings({ 'schema.sql': `${TABLE};\n`, 'app.sql': BULK }, RULE, [
      { file: 'schema.sql', line: 3, column: 8, endLine: 3, endColumn: 16, severity: 'warning', message: /^Column BODY of insert target DOCS is CLOB\(1M\)\. .*286\.5 s instead of 31\.5 s/ },
      { file: 'schema.sql', line: 4, column: 9, message: /^Column PHOTO .* BLOB\(10K\) with INLINE LENGTH 2000\. Values longer than that/ },
      { file: 'schema.sql', line: 6, column: 7, message: /^Column OLD .* is LONG VARCHAR/ },
    ]);
  });

  it('is information, not a warning, on a table that gets a row per call or per run (no bulk load)', () => {
    const [finding] = findings({ 'schema.sql': `${TABLE};\n`, 'app.sql': INSERT }, RULE);
    assert.equal(finding.severity, 'information');
    assert.match(finding.message, /^Column BODY of insert target DOCS is CLOB\(1M\)/);
  });

  it('names the in-row type that fits the data: VARCHAR for text, VARBINARY for a BLOB', () => {
    const ddl = 'CREATE TABLE IMG (ID INT, NOTE CLOB(16K), IMAGE BLOB(10K));\n';
    const [note, image] = findings({ 'schema.sql': ddl, 'app.sql': 'INSERT INTO IMG VALUES (?, ?, ?);\n' }, RULE);
    assert.match(note.message, /Use VARCHAR when values fit a row/);
    assert.match(image.message, /Use VARBINARY \(or VARCHAR FOR BIT DATA\) when values fit a row/);
  });

  it('does not offer an in-row type to a LOB declared longer than a row can hold (an image of up to 1M)', () => {
    const ddl = 'CREATE TABLE IMG (ID INT, IMAGE BLOB(1M));\n';
    const [image] = findings({ 'schema.sql': ddl, 'app.sql': 'INSERT INTO IMG VALUES (?, ?);\n' }, RULE);
    assert.match(image.message, /Values up to 1M cannot all live in a row \(VARCHAR and VARBINARY hold 32,672 bytes at most\): if most are short, INLINE LENGTH keeps those in the row/);
    assert.doesNotMatch(image.message, /Use VARBINARY/);
  });

  it('points at FILE SYSTEM CACHING when the LOB table space is DMS/automatic without it (seed 003)', () => {
    const ts = 'CREATE TABLESPACE LOBS MANAGED BY AUTOMATIC STORAGE NO FILE SYSTEM CACHING;\n';
    const [first] = findings({ 'schema.sql': `${ts}${TABLE} LONG IN LOBS;\n`, 'app.sql': INSERT }, RULE);
    assert.match(first.message, /table space LOBS holds these values without FILE SYSTEM CACHING/);
    const cached = ts.replace('NO FILE SYSTEM CACHING', 'FILE SYSTEM CACHING');
    const [other] = findings({ 'schema.sql': `${cached}${TABLE} LONG IN LOBS;\n`, 'app.sql': INSERT }, RULE);
    assert.doesNotMatch(other.message, /FILE SYSTEM CACHING/);
  });

  it('reports LOB columns added by ALTER TABLE', () => {
    const ddl = 'CREATE TABLE DOCS (ID INT);\nALTER TABLE DOCS ADD COLUMN BODY\n  CLOB(1K);\n';
    expectFindings({ 'schema.sql': ddl, 'app.sql': INSERT }, RULE, [{ file: 'schema.sql', line: 3, column: 3, message: /CLOB\(1K\)/ }]);
  });

  it('stays quiet for tables nobody inserts into', () => {
    expectNoFindings({ 'schema.sql': `${TABLE};\n` }, RULE);
    expectNoFindings({ 'schema.sql': `${TABLE};\n`, 'app.sql': 'INSERT INTO OTHER VALUES (1);\n' }, RULE);
  });
});
