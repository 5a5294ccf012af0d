// The per-file costs of finding and reading files, cut for runs over thousands of small scripts, without changing
// what is found or read. readSourceFile reads a file the walk found as a regular file (lintPaths) into one buffer
// shared by all reads when it is small, without asking its size; it must give what reading it as any file gives:
// the same text or the same reason to skip it, whatever its size against the buffer and maxFileBytes, and whatever
// was read before. The walk names a folder's entries without path.join, and skips the configuration's "ignore"
// when it holds no pattern: the same files, in the same order.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { collectFiles, entryPath, readSourceFile, type SourceEncoding } from '../../server/src/cli/files';
import { resolveConfig } from '../../server/src/engine/config';
import { allRules } from '../../server/src/engine/registry';

const ENCODINGS: SourceEncoding[] = ['utf-8', 'latin1', 'windows-1252'];

describe('CLI: reading a regular file at once (readSourceFile)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'insertlint-read-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const both = (path: string, maxBytes: number, encoding: SourceEncoding) => {
    const atOnce = readSourceFile(path, maxBytes, encoding, true);
    assert.deepEqual(atOnce, readSourceFile(path, maxBytes, encoding, false), `${path}, maxBytes ${maxBytes}, ${encoding}`);
    return atOnce;
  };

  it('gives the text or skip reason of any reading, around the 64 kB it reads at once and the maxFileBytes limit', () => {
    const line = 'INSERT INTO T VALUES (1, \'é\');\n';
    const sizes = [0, 1, 100, 65535, 65536, 65537, 200_000];
    sizes.forEach((size, i) => {
      const path = join(dir, `f${i}.sql`);
      writeFileSync(path, Buffer.from(line.repeat(Math.ceil(size / line.length) + 1)).subarray(0, size));
      for (const maxBytes of [0, 10, 65535, 65536, 20 * 1024 * 1024]) for (const encoding of ENCODINGS) both(path, maxBytes, encoding);
    });
    // Over the limit: skipped with the file's size, as before.
    assert.match((readSourceFile(join(dir, 'f2.sql'), 10, 'utf-8', true) as { skip: string }).skip, /^it is 100 bytes, over the 10 bytes limit/);
  });

  it('decodes BOMs, UTF-16, NULs, invalid UTF-8 and lone CRs as any reading does', () => {
    const contents = fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      fc.string({ unit: 'binary', maxLength: 200 }).map((s) => Buffer.from(s)),
      fc.constantFrom(Buffer.from([0xef, 0xbb, 0xbf, 0x41, 0x0d, 0x42]), Buffer.from([0xff, 0xfe, 0x41, 0]), Buffer.from([0xfe, 0xff, 0, 0x41]), Buffer.from('A\0B\0C\0D\0'), Buffer.from([0xc3, 0x28])),
    );
    fc.assert(
      fc.property(contents, fc.constantFrom(...ENCODINGS), fc.constantFrom(3, 20 * 1024 * 1024), (bytes, encoding, maxBytes) => {
        const path = join(dir, 'p.sql');
        writeFileSync(path, bytes);
        both(path, maxBytes, encoding);
      }),
      { numRuns: 500 },
    );
  });

  it('reads each file whole after a longer one (the buffer is shared), and says why a file it cannot read is skipped', () => {
    writeFileSync(join(dir, 'long.sql'), 'COMMIT;\n'.repeat(5000));
    writeFileSync(join(dir, 'short.sql'), 'SET SCHEMA APP;\n');
    assert.equal((readSourceFile(join(dir, 'long.sql'), 1 << 20, 'utf-8', true) as { text: string }).text.length, 40_000);
    assert.deepEqual(readSourceFile(join(dir, 'short.sql'), 1 << 20, 'utf-8', true), { text: 'SET SCHEMA APP;\n' });
    const gone = both(join(dir, 'gone.sql'), 1 << 20, 'utf-8');
    assert.match((gone as { skip: string }).skip, /^cannot read it \(ENOENT/);
  });
});

describe('CLI: walking folders (collectFiles)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'insertlint-walk-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("names a folder's entries as path.join does", () => {
    for (const folder of [sep, `${sep}tmp`, `${sep}tmp${sep}a b`, dir]) for (const name of ['x.sql', '.hidden', 'a.b.c', 'é.sql']) assert.equal(entryPath(folder, name), join(folder, name));
  });

  it('finds the same files with "ignore" patterns and without any', () => {
    for (const path of ['a.sql', 'sub/b.sql', 'sub/deep/c.sql', 'sub/skip.sql', 'other/d.db2', 'other/e.txt']) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), 'COMMIT;\n');
    }
    writeFileSync(join(dir, 'sub', '.gitignore'), 'skip.sql\n');
    const found = (ignore: string[]) => collectFiles([dir], resolveConfig(allRules(), { ignore }), dir).files.map((f) => f.slice(dir.length + 1).split(sep).join('/'));
    assert.deepEqual(found([]), ['a.sql', 'other/d.db2', 'sub/b.sql', 'sub/deep/c.sql']);
    assert.deepEqual(found(['deep/']), ['a.sql', 'other/d.db2', 'sub/b.sql']);
    assert.deepEqual(found(['*.db2', 'a.sql']), ['sub/b.sql', 'sub/deep/c.sql']);
  });
});
