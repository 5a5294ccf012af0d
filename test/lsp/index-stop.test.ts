// A workspace index stopped by a cap (insertlint.index.maxFiles, maxTotalMegabytes) says so in a message box, not only
// in the log: how many files were read of how many, the setting to raise, and that findings depending on the others
// may be missing. Once per outcome: indexing again under the same cap ("Lint workspace", files.encoding changed) says
// nothing new. A raised cap indexes the workspace again at once. Over real stdio (harness.ts), as an editor sees it.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempWorkspace, uriOf } from './harness';

const BROKEN = 'INSERT INTO APP.T (NOTE) VALUES (;\n';

describe('language server: the workspace index stopped by a cap', function () {
  this.timeout(60000);
  const ws = tempWorkspace('insertlint-index-stop-');

  /** Starts a server on the workspace and waits for its index; `passes()` counts the indexing passes ended. */
  async function start(settings: unknown) {
    const s = await ws.start(settings);
    await s.waitIdle();
    const passes = () => s.logs.filter((l) => /^indexed \d+ files/.test(l)).length;
    const linted = (file: string) => (s.diagnostics.get(uriOf(join(ws.dir, file))) ?? []).some((d) => d.code === 'parse-error');
    return { s, passes, linted };
  }

  it('at insertlint.index.maxFiles: one message, not again for the same outcome; raised, the rest is indexed', async () => {
    for (const f of ['a.sql', 'b.sql', 'c.sql', 'd.sql', 'e.sql']) writeFileSync(join(ws.dir, f), BROKEN);
    const settings = { debounceMs: 0, index: { maxFiles: 3 } };
    const { s, passes, linted } = await start(settings);
    await s.waitFor('the findings of the files indexed', () => ['a.sql', 'b.sql', 'c.sql'].every(linted));
    assert.deepEqual(s.messages, [
      "InsertLint indexed 3 of the workspace's 5 files and stopped: insertlint.index.maxFiles is 3. Findings that depend on the other 2 files (tables defined there, inserts made there) may be missing. Raise insertlint.index.maxFiles to index them (the workspace is indexed again at once).",
    ]);
    assert.ok(!linted('d.sql') && !linted('e.sql'));
    // "Lint workspace" with the same cap: the same outcome, no second message.
    await s.request('workspace/executeCommand', { command: 'insertlint.server.lintWorkspace', arguments: [] });
    assert.equal(passes(), 2);
    // A settings change that indexes again (files.encoding): none either.
    s.filesEncoding = 'iso88591';
    s.configure(settings);
    await s.waitFor('the index again', () => passes() === 3);
    assert.equal(s.messages.length, 1, s.messages.join('\n'));
    // Raised: indexed again at once, the files left out linted, nothing to say.
    s.configure({ ...settings, index: { maxFiles: 10 } });
    await s.waitFor('the files left out linted', () => linted('d.sql') && linted('e.sql'));
    assert.equal(s.messages.length, 1, s.messages.join('\n'));
  });

  it('at insertlint.index.maxTotalMegabytes: says how many files were read; raised, the rest is indexed', async () => {
    // 600 KB each: after two, 1.2 MB read, past the 1 MB cap; c.sql is not read.
    const filler = `${'-- '.padEnd(99, 'x')}\n`.repeat(6000);
    writeFileSync(join(ws.dir, 'a.sql'), filler + BROKEN);
    writeFileSync(join(ws.dir, 'b.sql'), filler + BROKEN);
    writeFileSync(join(ws.dir, 'c.sql'), BROKEN);
    const settings = { debounceMs: 0, index: { maxTotalMegabytes: 1 } };
    const { s, linted } = await start(settings);
    await s.waitFor('the findings of the files indexed', () => linted('a.sql') && linted('b.sql'));
    assert.deepEqual(s.messages, [
      "InsertLint indexed 2 of the workspace's 3 files and stopped: it read 1 MB of source text, insertlint.index.maxTotalMegabytes. Findings that depend on the other file (tables defined there, inserts made there) may be missing. Raise insertlint.index.maxTotalMegabytes to index them (the workspace is indexed again at once).",
    ]);
    assert.ok(!linted('c.sql'));
    s.configure({ ...settings, index: { maxTotalMegabytes: 5 } });
    await s.waitFor('the file left out linted', () => linted('c.sql'));
    assert.equal(s.messages.length, 1, s.messages.join('\n'));
  });
});
