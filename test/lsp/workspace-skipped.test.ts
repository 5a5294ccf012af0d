// A workspace file the index could not read (over the size limit per file, binary, not valid UTF-8) says why it has no
// findings in the Problems panel, without being opened: one Information diagnostic on line 1, code file-skipped,
// naming the limit or setting. None for a file the configuration ignores (it is not meant to be linted). The notice
// goes when the file is read (changed on disk, the limit raised), deleted, or when its findings would not be shown
// (insertlint.diagnostics.scope openFiles); an open document shows its own. The size limit counts UTF-8 bytes in the
// editor as on disk (and in the CLI). Over real stdio (harness.ts), as an editor sees it.
import { strict as assert } from 'node:assert';
import { chmodSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSourceFile } from '../../server/src/cli/files';
import { LspSession, tempWorkspace, uriOf, type LspDiagnostic } from './harness';

const FIRST_LINE = 'CREATE TABLE APP.T (ID INTEGER NOT NULL GENERATED ALWAYS AS IDENTITY (NO CACHE), NOTE VARCHAR(40));';
const ROWS = Array.from({ length: 30 }, (_, i) => `INSERT INTO APP.T (NOTE) VALUES ('row ${i}');`);
/** 1.4 KB: over a 1 KB limit. Linted, it has a parse-error finding (its line 2). */
const SCRIPT = [FIRST_LINE, 'INSERT INTO APP.T (NOTE) VALUES (;', ...ROWS.slice(1), ''].join('\n');
const NOT_UTF8 = 'not linted: it is not valid UTF-8 (for Latin-1 or Windows-1252 text, set files.encoding to iso88591 or windows1252; or convert it to UTF-8)';

/** The notice of a file that is not open: line 1, nothing of its text read. */
const skipped = (message: string): LspDiagnostic => ({
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
  severity: 3,
  code: 'file-skipped',
  source: 'insertlint',
  message,
});
const overLimit = (size: string) => skipped(`not linted: it is ${size}, over the 1.0 KB limit per file (raise insertlint.index.maxFileKilobytes)`);
/** As root, file permissions stop no read: the server then runs as nobody (as test/robustness/cli-files.test.ts runs the CLI). */
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const NOBODY = 65534;

describe('language server: workspace files skipped when read from disk', function () {
  this.timeout(60000);
  const ws = tempWorkspace('insertlint-ws-skipped-');

  it('show why they have no findings, until they are read, deleted or their findings are not shown; ignored files do not', async () => {
    writeFileSync(join(ws.dir, 'big.sql'), SCRIPT);
    writeFileSync(join(ws.dir, 'bin.sql'), Buffer.from('INSERT INTO APP.T (NOTE) VALUES (1);\0\0\0\n'));
    writeFileSync(join(ws.dir, 'bin2.sql'), Buffer.from('\0\0\0'));
    writeFileSync(join(ws.dir, 'latin.sql'), Buffer.from("INSERT INTO APP.T (NOTE) VALUES ('caf\xe9');\n", 'latin1'));
    mkdirSync(join(ws.dir, 'vendor'));
    writeFileSync(join(ws.dir, 'vendor', 'big.sql'), SCRIPT);
    const settings = { debounceMs: 0, index: { maxFileKilobytes: 1 }, ignore: ['vendor/**'] };
    const s = await ws.start(settings);
    await s.waitIdle();
    const [big, bin, bin2, latin, vendored] = ['big.sql', 'bin.sql', 'bin2.sql', 'latin.sql', join('vendor', 'big.sql')].map((f) => uriOf(join(ws.dir, f)));
    const shown = (uri: string) => s.diagnostics.get(uri) ?? [];
    assert.deepEqual(shown(big), [overLimit('1.4 KB')]);
    assert.deepEqual(shown(bin), [skipped('not linted: it looks binary (it contains NUL bytes)')]);
    assert.deepEqual(shown(bin2), [skipped('not linted: it looks binary (it contains NUL bytes)')]);
    assert.deepEqual(shown(latin), [skipped(NOT_UTF8)]);
    // Ignored by configuration: not meant to be linted, nothing to explain.
    assert.equal(s.diagnostics.get(vendored), undefined);
    // Counted in the status, as the Problems panel lists them.
    assert.equal(s.statuses[s.statuses.length - 1].findings, 4);
    // Closed files' findings not shown (scope openFiles): their notices neither; back with the scope.
    s.configure({ ...settings, diagnostics: { scope: 'openFiles' } });
    await s.waitFor('the notices hidden', () => [big, bin, latin].every((u) => shown(u).length === 0));
    s.configure(settings);
    await s.waitFor('the notices shown again', () => [big, bin, latin].every((u) => shown(u).length === 1));
    // Saved as UTF-8: read, its findings in place of the notice.
    writeFileSync(join(ws.dir, 'latin.sql'), "INSERT INTO APP.T (NOTE) VALUES ('café');\nINSERT INTO APP.T (NOTE) VALUES (;\n");
    s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: latin, type: 2 }] });
    await s.waitFor('the findings of the file read', () => shown(latin).some((d) => d.code === 'parse-error'));
    assert.ok(!shown(latin).some((d) => d.code === 'file-skipped'));
    // Deleted: nothing left.
    unlinkSync(join(ws.dir, 'bin.sql'));
    s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: bin, type: 3 }] });
    await s.waitFor('the notice of the deleted file cleared', () => shown(bin).length === 0);
    // Ignored now: not meant to be linted, the notice goes.
    s.configure({ ...settings, ignore: ['vendor/**', 'bin2.sql'] });
    await s.waitFor('the notice of the file now ignored cleared', () => shown(bin2).length === 0);
    // The limit raised: read at once, its findings in place of the notice; the ignored file still has none.
    s.configure({ ...settings, index: { maxFileKilobytes: 100 } });
    await s.waitFor('the findings under the raised limit', () => shown(big).some((d) => d.code === 'parse-error'));
    assert.ok(!shown(big).some((d) => d.code === 'file-skipped'));
    assert.equal(s.diagnostics.get(vendored), undefined);
    assert.equal(s.logs.filter((l) => l.includes('vendor')).length, 0, s.logs.join('\n'));
  });

  it('a file that cannot be read says why, the rest of the workspace is read; readable again, it is linted', async () => {
    // The server (nobody, when the tests run as root) must see into the folder.
    chmodSync(ws.dir, 0o755);
    writeFileSync(join(ws.dir, 'a.sql'), 'INSERT INTO APP.T (NOTE) VALUES (;\n');
    writeFileSync(join(ws.dir, 'locked.sql'), 'INSERT INTO APP.T (NOTE) VALUES (;\n');
    writeFileSync(join(ws.dir, 'z.sql'), 'INSERT INTO APP.T (NOTE) VALUES (;\n');
    chmodSync(join(ws.dir, 'locked.sql'), 0o000);
    const s = await ws.start({ debounceMs: 0 }, {}, undefined, isRoot ? NOBODY : undefined);
    await s.waitIdle();
    const [a, locked, z] = ['a.sql', 'locked.sql', 'z.sql'].map((f) => uriOf(join(ws.dir, f)));
    const codes = (uri: string) => (s.diagnostics.get(uri) ?? []).map((d) => d.code);
    await s.waitFor('the findings of the readable files', () => codes(a).includes('parse-error') && codes(z).includes('parse-error'));
    assert.deepEqual(s.diagnostics.get(locked), [skipped('not linted: it could not be read: permission denied')]);
    assert.ok(s.logs.some((l) => l.startsWith(`skipped ${join(ws.dir, 'locked.sql')}: it could not be read: permission denied`)), s.logs.join('\n'));
    // Readable again: "Lint workspace" reads it, its findings in place of the notice.
    chmodSync(join(ws.dir, 'locked.sql'), 0o644);
    await s.request('workspace/executeCommand', { command: 'insertlint.server.lintWorkspace', arguments: [] });
    await s.waitFor('the findings of the file now readable', () => codes(locked).includes('parse-error'));
    assert.ok(!codes(locked).includes('file-skipped'));
    assert.ok(!s.exited, s.serverStderr);
  });

  it('a file gone when read (deleted after a change was announced, a folder named like a script) leaves without a notice', async () => {
    writeFileSync(join(ws.dir, 'a.sql'), 'INSERT INTO APP.T (NOTE) VALUES (;\n');
    writeFileSync(join(ws.dir, 'b.sql'), 'INSERT INTO APP.T (NOTE) VALUES (;\n');
    const s = await ws.start({ debounceMs: 0 });
    await s.waitIdle();
    const [a, b, folder] = ['a.sql', 'b.sql', 'folder.sql'].map((f) => uriOf(join(ws.dir, f)));
    const codes = (uri: string) => (s.diagnostics.get(uri) ?? []).map((d) => d.code);
    await s.waitFor('the findings of both files', () => codes(a).includes('parse-error') && codes(b).includes('parse-error'));
    // Changed, then deleted before the server read it: its findings go (they stayed), no notice for a file not there.
    unlinkSync(join(ws.dir, 'a.sql'));
    mkdirSync(join(ws.dir, 'folder.sql'));
    s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: a, type: 2 }, { uri: folder, type: 1 }] });
    await s.waitFor('the findings of the file gone cleared', () => s.diagnostics.get(a)?.length === 0);
    // b.sql changed meanwhile: read as before.
    writeFileSync(join(ws.dir, 'b.sql'), 'INSERT INTO APP.T (NOTE) VALUES (1);\nINSERT INTO APP.T (NOTE) VALUES (;\n');
    s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: b, type: 2 }] });
    await s.waitFor('b.sql read again', () => s.diagnostics.get(b)?.some((d) => d.code === 'parse-error' && d.range.start.line === 1) === true);
    assert.equal(s.diagnostics.get(folder), undefined);
    assert.ok(!s.exited, s.serverStderr);
  });

  it('a file deleted while the index runs, after it was listed: skipped without a notice, the rest is read', async () => {
    const names = Array.from({ length: 1500 }, (_, i) => `f${String(i).padStart(4, '0')}.sql`);
    for (const name of names) writeFileSync(join(ws.dir, name), 'INSERT INTO APP.T (NOTE) VALUES (;\n');
    const last = names[names.length - 1];
    const deleted = names[names.length - 2];
    const s = await ws.start({ debounceMs: 0 });
    // The first report of files read: the files are listed, the index is on its way (it reads 1,500 in several slices).
    const reported = () => s.progress.some((p) => /\d+\/1500 files/.test(JSON.stringify(p)));
    await s.waitFor('the index under way', reported);
    unlinkSync(join(ws.dir, deleted));
    await s.waitIdle();
    const deletedPath = join(ws.dir, deleted);
    const skippedLine = s.logs.find((l) => l.startsWith(`skipped ${deletedPath}:`));
    // The index had not reached it yet (it reads in order): it found it gone.
    assert.ok(skippedLine?.includes('ENOENT'), s.logs.filter((l) => !l.startsWith('skipped')).join('\n'));
    assert.equal(s.diagnostics.get(uriOf(deletedPath)), undefined);
    await s.waitFor('the findings of the last file', () => (s.diagnostics.get(uriOf(join(ws.dir, last))) ?? []).some((d) => d.code === 'parse-error'));
    assert.ok(!s.exited, s.serverStderr);
  });

  it('a lowered size limit skips the files read under the higher one that are over it; raised again, reads them', async () => {
    writeFileSync(join(ws.dir, 'big.sql'), SCRIPT);
    writeFileSync(join(ws.dir, 'small.sql'), 'INSERT INTO APP.T (NOTE) VALUES (;\n');
    const settings = { debounceMs: 0, index: { maxFileKilobytes: 100 } };
    const s = await ws.start(settings);
    await s.waitIdle();
    const [big, small] = ['big.sql', 'small.sql'].map((f) => uriOf(join(ws.dir, f)));
    const codes = (uri: string) => (s.diagnostics.get(uri) ?? []).map((d) => d.code);
    await s.waitFor('the findings of both files', () => codes(big).includes('parse-error') && codes(small).includes('parse-error'));
    // Lowered to 1 KB: big.sql (1.4 KB) is skipped as if read now, small.sql keeps its findings.
    s.configure({ ...settings, index: { maxFileKilobytes: 1 } });
    await s.waitFor('the notice in place of the findings', () => codes(big).includes('file-skipped'));
    assert.deepEqual(s.diagnostics.get(big), [overLimit('1.4 KB')]);
    assert.ok(codes(small).includes('parse-error'), codes(small).join());
    assert.ok(s.logs.some((l) => l.startsWith(`skipped ${join(ws.dir, 'big.sql')}: it is 1.4 KB, over the 1.0 KB limit`)), s.logs.join('\n'));
    // Raised again: read at once (as any file skipped for its size).
    s.configure(settings);
    await s.waitFor('the findings back', () => codes(big).includes('parse-error'));
    assert.ok(!codes(big).includes('file-skipped'));
  });

  it('an open document shows its own notice; closed, the file on disk shows why again', async () => {
    writeFileSync(join(ws.dir, 'big.sql'), SCRIPT);
    const s = await ws.start({ debounceMs: 0, index: { maxFileKilobytes: 1 } });
    await s.waitIdle();
    const uri = uriOf(join(ws.dir, 'big.sql'));
    assert.deepEqual(s.diagnostics.get(uri), [overLimit('1.4 KB')]);
    s.open(uri, SCRIPT);
    await s.waitFor('version 1', () => (s.publishedVersions.get(uri) ?? []).includes(1));
    // The open document's: on its first line.
    assert.deepEqual(s.diagnostics.get(uri)!.map((d) => [d.code, d.range.end.character]), [['file-skipped', FIRST_LINE.length]]);
    s.close(uri);
    await s.waitFor('the notice of the file on disk', () => s.diagnostics.get(uri)![0]?.range.end.character === 0);
    assert.deepEqual(s.diagnostics.get(uri), [overLimit('1.4 KB')]);
    // "Lint workspace" reads it again: still skipped, the notice stays; deleted without a watcher event, it goes.
    const lintWorkspace = () => s.request('workspace/executeCommand', { command: 'insertlint.server.lintWorkspace', arguments: [] });
    await lintWorkspace();
    assert.deepEqual(s.diagnostics.get(uri), [overLimit('1.4 KB')]);
    unlinkSync(join(ws.dir, 'big.sql'));
    await lintWorkspace();
    await s.waitFor('the notice of the file gone cleared', () => s.diagnostics.get(uri)!.length === 0);
  });

  // 40 ASCII characters and 492 two-byte ones: 532 characters, 1024 bytes, the 1 KB limit exactly; one more byte over.
  const fits = `INSERT INTO APP.T (NOTE) VALUES (;\n-- x${'é'.repeat(492)}\n`;
  const over = fits.replace('-- x', '-- xy');

  it('counts an open document in UTF-8 bytes, as the CLI counts the file on disk', async () => {
    assert.equal(fits.length, 532);
    assert.equal(Buffer.byteLength(fits), 1024);
    assert.equal(Buffer.byteLength(over), 1025);
    // The CLI's reading: the limit is in bytes.
    writeFileSync(join(ws.dir, 'fits.sql'), fits);
    writeFileSync(join(ws.dir, 'over.sql'), over);
    assert.ok('text' in readSourceFile(join(ws.dir, 'fits.sql'), 1024));
    assert.ok('skip' in readSourceFile(join(ws.dir, 'over.sql'), 1024));
    // The editor's, for a document not on disk (no index involved).
    const s = ws.track(await LspSession.start(undefined, { debounceMs: 0, index: { maxFileKilobytes: 1 } }));
    const uri = 'untitled:load.sql';
    const codes = () => (s.diagnostics.get(uri) ?? []).map((d) => d.code);
    const version = (v: number) => s.waitFor(`version ${v}`, () => (s.publishedVersions.get(uri) ?? []).includes(v));
    s.open(uri, fits);
    await version(1);
    assert.ok(codes().includes('parse-error'), codes().join());
    // One ASCII character typed: 533 characters, 1025 bytes: over.
    s.change(uri, { start: { line: 1, character: 4 }, end: { line: 1, character: 4 } }, 'y');
    await version(2);
    assert.deepEqual(codes(), ['file-skipped']);
    assert.match(s.diagnostics.get(uri)![0].message, /^not linted: it is 1\.0 KB, over the 1\.0 KB limit per file/);
    // One two-byte character deleted: 1023 bytes, linted again.
    s.change(uri, { start: { line: 1, character: 5 }, end: { line: 1, character: 6 } }, '');
    await version(3);
    assert.ok(codes().includes('parse-error'), codes().join());
  });

  it('the index and an open document agree on which files are over the limit', async () => {
    writeFileSync(join(ws.dir, 'fits.sql'), fits);
    writeFileSync(join(ws.dir, 'over.sql'), over);
    const s = await ws.start({ debounceMs: 0, index: { maxFileKilobytes: 1 } });
    await s.waitIdle();
    const [fitsUri, overUri] = ['fits.sql', 'over.sql'].map((f) => uriOf(join(ws.dir, f)));
    const codes = (uri: string) => (s.diagnostics.get(uri) ?? []).map((d) => d.code);
    await s.waitFor('the findings of fits.sql', () => codes(fitsUri).includes('parse-error'));
    assert.deepEqual(s.diagnostics.get(overUri), [overLimit('1.0 KB')]);
    s.open(overUri, over);
    await s.waitFor('version 1 of over.sql', () => (s.publishedVersions.get(overUri) ?? []).includes(1));
    assert.deepEqual(codes(overUri), ['file-skipped']);
    s.open(fitsUri, fits);
    await s.waitFor('version 1 of fits.sql', () => (s.publishedVersions.get(fitsUri) ?? []).includes(1));
    assert.ok(codes(fitsUri).includes('parse-error'), codes(fitsUri).join());
  });
});
