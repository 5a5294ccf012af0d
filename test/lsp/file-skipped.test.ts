// An open document the editor does not lint because of its size (over insertlint.index.maxFileKilobytes, or
// maxFileBytes in .insertlintrc.json) shows why: one Information diagnostic on its first line (code file-skipped)
// naming its size, the limit and the setting to raise, instead of an empty Problems list a clean file also has. It
// goes when the document shrinks under the limit or the limit is raised, comes back when it grows or the limit is
// lowered, and follows insertlint.enable. Over real stdio (harness.ts), as an editor sees it.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempWorkspace, uriOf, type LspDiagnostic } from './harness';

const FIRST_LINE = 'CREATE TABLE APP.T (ID INTEGER NOT NULL GENERATED ALWAYS AS IDENTITY (NO CACHE), NOTE VARCHAR(40));';
const ROWS = Array.from({ length: 30 }, (_, i) => `INSERT INTO APP.T (NOTE) VALUES ('row ${i}');`);
/** 1.4 KB: over a 1 KB limit. Linted, it has a parse-error finding (its line 1) whatever its length. */
const SCRIPT = [FIRST_LINE, 'INSERT INTO APP.T (NOTE) VALUES (;', ...ROWS.slice(1), ''].join('\n');

const skipped = (size: string, limit: string, setting: string): LspDiagnostic => ({
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: FIRST_LINE.length } },
  severity: 3,
  code: 'file-skipped',
  source: 'insertlint',
  message: `not linted: it is ${size}, over the ${limit} limit per file (raise ${setting})`,
});

describe('language server: an open document over the size limit', function () {
  this.timeout(60000);
  const ws = tempWorkspace('insertlint-skipped-');

  it('shows why it is not linted, until it shrinks or the limit is raised; again when it grows or the limit is lowered', async () => {
    const small = { debounceMs: 0, index: { maxFileKilobytes: 1 } };
    const s = await ws.start(small);
    await s.waitIdle();
    const uri = uriOf(join(ws.dir, 'load.sql'));
    const codes = () => (s.diagnostics.get(uri) ?? []).map((d) => d.code);
    const version = (v: number) => s.waitFor(`version ${v}`, () => (s.publishedVersions.get(uri) ?? []).includes(v));
    assert.equal(SCRIPT.length, 1402);
    s.open(uri, SCRIPT);
    await version(1);
    assert.deepEqual(s.diagnostics.get(uri), [skipped('1.4 KB', '1.0 KB', 'insertlint.index.maxFileKilobytes')]);
    // Shrunk under the limit (20 rows deleted): linted, its findings, no notice.
    s.change(uri, { start: { line: 11, character: 0 }, end: { line: 31, character: 0 } }, '');
    await version(2);
    assert.ok(codes().includes('parse-error'), codes().join());
    assert.ok(!codes().includes('file-skipped'));
    // Grown over it again.
    s.change(uri, { start: { line: 11, character: 0 }, end: { line: 11, character: 0 } }, ROWS.slice(10).join('\n') + '\n');
    await version(3);
    assert.deepEqual(s.diagnostics.get(uri), [skipped('1.4 KB', '1.0 KB', 'insertlint.index.maxFileKilobytes')]);
    // The limit raised: linted at once, without an edit.
    s.configure({ ...small, index: { maxFileKilobytes: 100 } });
    await s.waitFor('the findings under the raised limit', () => codes().includes('parse-error'));
    assert.ok(!codes().includes('file-skipped'));
    // Lowered again: the notice is back, without an edit.
    s.configure(small);
    await s.waitFor('the notice under the lowered limit', () => codes().includes('file-skipped'));
    assert.deepEqual(s.diagnostics.get(uri), [skipped('1.4 KB', '1.0 KB', 'insertlint.index.maxFileKilobytes')]);
    // InsertLint turned off: nothing shown, the notice neither.
    s.configure({ ...small, enable: false });
    await s.waitFor('the notice cleared', () => codes().length === 0);
    // Said in the log each time it went over the limit (versions 1 and 3, the lowered limit), not per analysis.
    assert.equal(s.logs.filter((l) => /load\.sql: not linted, it is 1\.4 KB, over the 1\.0 KB limit per file/.test(l)).length, 3, s.logs.join('\n'));
  });

  it('lints a document opened before the settings came that is under the limit they set (over the default one)', async () => {
    // 2.5 MB, mostly comments (quick to read): over the default 2 MB, under the 4 MB set.
    const big = SCRIPT + '-- padding padding padding padding padding padding padding padding padding padding\n'.repeat(32_000);
    assert.ok(big.length > 2.5 * 1048576 && big.length < 4 * 1048576);
    const s = await ws.start({ debounceMs: 0, index: { maxFileKilobytes: 4096 } });
    const uri = uriOf(join(ws.dir, 'big.sql'));
    // At once, as an editor sends the documents it has open: before the server has pulled the settings.
    s.open(uri, big);
    await s.waitIdle();
    await s.waitFor('its findings', () => (s.diagnostics.get(uri) ?? []).some((d) => d.code === 'parse-error'));
    assert.ok(!(s.diagnostics.get(uri) ?? []).some((d) => d.code === 'file-skipped'));
  });

  it('names maxFileBytes in .insertlintrc.json when that is the limit in force, and is counted in the status', async () => {
    writeFileSync(join(ws.dir, '.insertlintrc.json'), JSON.stringify({ maxFileBytes: 1000 }));
    const s = await ws.start({ debounceMs: 0 });
    await s.waitIdle();
    const uri = uriOf(join(ws.dir, 'load.sql'));
    s.open(uri, SCRIPT);
    await s.waitFor('version 1', () => (s.publishedVersions.get(uri) ?? []).includes(1));
    assert.deepEqual(s.diagnostics.get(uri), [skipped('1.4 KB', '1000 bytes', 'maxFileBytes in .insertlintrc.json')]);
    // The status bar counts what the Problems panel lists: the notice too.
    await s.waitFor('a status counting the notice', () => s.statuses.length > 0 && s.statuses[s.statuses.length - 1].findings === 1);
    // Closed: the file on disk does not exist; nothing is left shown for it.
    s.close(uri);
    await s.waitFor('the notice cleared on close', () => (s.diagnostics.get(uri) ?? []).length === 0);
  });
});
