// Findings of a DDL file that depend on which columns the workspace's inserts write (lob-column reports a LOB
// column only when some INSERT or MERGE gives it a value) follow an edit of another open file that changes only
// that: an INSERT's or a MERGE's column list, or NULL typed in place of a value. Such an edit keeps the shape the
// server compared to find the files to re-publish (target, rows, loop), and the DDL file kept its old findings.
import { strict as assert } from 'node:assert';
import { tempWorkspace, type LspDiagnostic } from './harness';

const DDL = 'CREATE TABLE APP.DOCS (ID INTEGER NOT NULL, NAME VARCHAR(40), BODY CLOB(1M), PRIMARY KEY (ID));\n';
const INSERT = 'INSERT INTO APP.DOCS (ID, NAME) VALUES (?, ?);\n';
const MERGE = 'MERGE INTO APP.DOCS D USING (VALUES (?, ?)) S (ID, NAME) ON D.ID = S.ID WHEN NOT MATCHED THEN INSERT (ID, NAME) VALUES (S.ID, S.NAME);\n';

const lobs = (diagnostics: LspDiagnostic[] | undefined) => (diagnostics ?? []).filter((d) => d.code === 'lob-column').length;

describe('language server: DDL findings that depend on the columns inserts write', function () {
  this.timeout(60000);
  const ws = tempWorkspace('insertlint-written-');

  /** Opens the DDL file and a load file holding `load`; returns an edit function over the load file's text. */
  async function open(load: string) {
    const { s, uri } = await ws.openDocuments({ 'ddl.sql': DDL, 'load.sql': load }, ['ddl.sql', 'load.sql']);
    const ddlUri = uri('ddl.sql');
    const loadUri = uri('load.sql');
    assert.equal(lobs(s.diagnostics.get(ddlUri)), 0, 'no insert writes BODY yet');
    const { edit } = s.editor(loadUri, load);
    const lobColumn = (count: number, what: string) => s.waitFor(what, () => lobs(s.diagnostics.get(ddlUri)) === count, 8000);
    return { edit, lobColumn };
  }

  it("follows an INSERT's column list", async () => {
    const { edit, lobColumn } = await open(INSERT);
    edit('NAME', 'BODY');
    await lobColumn(1, 'lob-column on ddl.sql once the INSERT writes BODY');
    edit('BODY', 'NAME');
    await lobColumn(0, 'lob-column gone once it no longer does');
  });

  it("follows a MERGE's INSERT column list", async () => {
    const { edit, lobColumn } = await open(MERGE);
    edit('NAME', 'BODY', 1);
    await lobColumn(1, 'lob-column on ddl.sql once the MERGE inserts BODY');
    edit('BODY', 'NAME');
    await lobColumn(0, 'lob-column gone once it no longer does');
  });

  it('follows NULL typed in place of a value (the column list the same)', async () => {
    const { edit, lobColumn } = await open('INSERT INTO APP.DOCS (ID, BODY) VALUES (?, NULL);\n');
    await lobColumn(0, 'no lob-column while BODY gets only NULL');
    edit('NULL', '?');
    await lobColumn(1, 'lob-column on ddl.sql once BODY gets a value');
    edit('?)', 'NULL)');
    await lobColumn(0, 'lob-column gone once BODY gets NULL again');
  });
});
