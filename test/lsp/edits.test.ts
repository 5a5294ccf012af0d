// Issue 15 over real stdio: an edit is analysed incrementally (statements re-parsed where the text changed,
// the schema kept while no DDL changed) and the findings published for its version are those of a server
// that opens the same text afresh; a keystroke is analysed without the debounce, a paste after it.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LspSession, uriOf, type LspDiagnostic } from './harness';

const SCRIPT = [
  '-- insertlint-disable-next-line identity-cache',
  'CREATE TABLE APP.T (ID INTEGER NOT NULL GENERATED ALWAYS AS IDENTITY (NO CACHE), NOTE VARCHAR(40), PRIMARY KEY (ID));',
  'CREATE INDEX APP.T_NOTE ON APP.T (NOTE) CLUSTER;',
  ...Array.from({ length: 30 }, (_, i) => `INSERT INTO APP.T (NOTE) VALUES ('row ${i}');`),
  'INSERT INTO APP.T (NOTE) VALUES (;',
  ...Array.from({ length: 10 }, (_, i) => `INSERT INTO APP.T (NOTE) VALUES ('tail ${i}');`),
  'COMMIT;',
  '',
].join('\n');

/** Position of the first occurrence of `needle` (plus `delta` characters). */
function positionOf(text: string, needle: string, delta = 0): { line: number; character: number } {
  const at = text.indexOf(needle) + delta;
  const before = text.slice(0, at).split('\n');
  return { line: before.length - 1, character: before[before.length - 1].length };
}

describe('language server: edits (issue 15)', function () {
  this.timeout(60000);
  let dir: string;
  const sessions: LspSession[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'insertlint-edits-'));
    mkdirSync(join(dir, 'other'));
    writeFileSync(join(dir, 'other', 'more.sql'), "INSERT INTO APP.T (NOTE) VALUES ('x');\nINSERT INTO APP.T (NOTE) VALUES ('y');\n");
  });

  afterEach(async () => {
    for (const s of sessions.splice(0)) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function session(settings: unknown): Promise<LspSession> {
    const s = await LspSession.start(dir, settings);
    sessions.push(s);
    await s.waitIdle();
    return s;
  }

  /** The findings a server that opens `text` afresh publishes for it. */
  async function fresh(text: string): Promise<LspDiagnostic[] | undefined> {
    const s = await session({});
    const uri = uriOf(join(dir, 'script.sql'));
    s.open(uri, text);
    await s.waitFor('the fresh findings', () => (s.publishedVersions.get(uri) ?? []).includes(1));
    return s.diagnostics.get(uri);
  }

  it('answers every edited version with the findings of the text afresh: keystrokes, a DDL edit, a parse error fixed', async () => {
    const s = await session({ debounceMs: 0 });
    const uri = uriOf(join(dir, 'script.sql'));
    let text = SCRIPT;
    s.open(uri, text);
    await s.waitFor('the first findings', () => (s.publishedVersions.get(uri) ?? []).includes(1));
    let version = 1;
    const edit = (needle: string, delta: number, remove: number, insert: string) => {
      const start = positionOf(text, needle, delta);
      const end = { line: start.line, character: start.character + remove };
      const at = text.indexOf(needle) + delta;
      text = text.slice(0, at) + insert + text.slice(at + remove);
      s.change(uri, { start, end }, insert);
      version++;
    };
    // Keystrokes inside a VALUES list, before and after statements that stay as they were.
    for (const ch of ['x', 'y', 'z']) edit("'row 15'", 4, 0, ch);
    edit("'row 15", 4, 1, '');
    // A DDL edit (the schema is built again) and fixing a parse error (statements split differently).
    edit('VARCHAR(40)', 8, 2, '80');
    edit('VALUES (;', 8, 0, "'fixed')");
    const last = version;
    await s.waitFor(`version ${last}`, () => (s.publishedVersions.get(uri) ?? []).includes(last));
    assert.deepEqual(s.diagnostics.get(uri), await fresh(text));
  });

  it('analyses a keystroke without the debounce, and waits the debounce after a paste', async () => {
    // A debounce no test waits for: a keystroke in this small document must not wait for it.
    const s = await session({ debounceMs: 600000 });
    const uri = uriOf(join(dir, 'script.sql'));
    s.open(uri, SCRIPT);
    await s.waitFor('the first findings', () => (s.publishedVersions.get(uri) ?? []).includes(1));
    s.change(uri, { start: positionOf(SCRIPT, "'row 3'", 1), end: positionOf(SCRIPT, "'row 3'", 1) }, 'k');
    await s.waitFor('the keystroke analysed', () => (s.publishedVersions.get(uri) ?? []).includes(2));
    // A paste of a line: held for the debounce, so nothing is published for it meanwhile.
    s.change(uri, { start: positionOf(SCRIPT, 'COMMIT;'), end: positionOf(SCRIPT, 'COMMIT;') }, "INSERT INTO APP.T (NOTE) VALUES ('pasted');\n");
    await new Promise((r) => setTimeout(r, 500));
    assert.ok(!(s.publishedVersions.get(uri) ?? []).includes(3), 'a paste waits for the debounce');
    // A request needs the current text: it runs the pending analysis at once.
    await s.request('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 14 } });
    await s.waitFor('the paste analysed for the hover', () => (s.publishedVersions.get(uri) ?? []).includes(3));
  });

  it('answers an open document over the size limit for its version (a client waiting for it is not left hanging)', async () => {
    const s = await session({ index: { maxFileKilobytes: 1 } });
    const uri = uriOf(join(dir, 'script.sql'));
    assert.ok(SCRIPT.length > 1024, 'the script is over the 1 KB limit');
    s.open(uri, SCRIPT);
    await s.waitFor('a publish for version 1', () => (s.publishedVersions.get(uri) ?? []).includes(1));
    // No findings: only why (file-skipped.test.ts).
    assert.deepEqual(s.diagnostics.get(uri)!.map((d) => d.code), ['file-skipped']);
  });
});
