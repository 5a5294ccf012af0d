// `npm run package` packs the .vsix and reports its size. The end-to-end test installs it into a clean
// VS Code; this one checks, in seconds, that packaging works and what the package holds.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, childEnv, run } from './helpers';

/** File names in a zip archive, from its central directory. */
function zipEntries(file: string): string[] {
  const zip = readFileSync(file);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(end >= 0, 'a zip end-of-central-directory record');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    assert.equal(zip.readUInt32LE(at), 0x02014b50, 'a central directory entry');
    const nameLength = zip.readUInt16LE(at + 28);
    names.push(zip.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return names;
}

describe('npm run package: the .vsix', function () {
  this.timeout(120000);
  let dir: string;
  before(function () {
    if (!existsSync(join(ROOT, 'out', 'server.js')) || !existsSync(join(ROOT, 'out', 'client', 'extension.js'))) this.skip();
    dir = mkdtempSync(join(tmpdir(), 'insertlint-vsix-'));
  });
  after(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('packs the extension offline and reports its size', () => {
    const vsix = join(dir, 'insertlint.vsix');
    // --skip-build packs the out/ that `npm test` built instead of rebuilding it under the running tests.
    const r = run(process.execPath, [join(ROOT, 'scripts', 'package-vsix.mjs'), '--skip-build', '--out', vsix], { cwd: ROOT, env: childEnv() });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const size = statSync(vsix).size;
    assert.ok(r.stdout.includes(`(${(size / 1048576).toFixed(1)} MB, ${size.toLocaleString('en-US')} bytes)`), r.stdout);
    const entries = zipEntries(vsix);
    for (const f of ['extension/package.json', 'extension/out/server.js', 'extension/out/client/extension.js', 'extension/out/node_modules/web-tree-sitter/web-tree-sitter.wasm', 'extension/rules/identity-cache.md']) {
      assert.ok(entries.includes(f), `${f} in the .vsix`);
    }
    assert.deepEqual(entries.filter((e) => /\.map$|^extension\/(server|test|bench|dist)\//.test(e)), []);
  });
});
