// writeFileAtomic's temporary file: created exclusively, so a name already taken is tried again, never reused.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../../server/src/output/write-file';

describe('writeFileAtomic: the temporary file beside the target', () => {
  let dir: string;
  const random = Math.random;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'insertlint-write-'));
  });
  afterEach(() => {
    Math.random = random;
    rmSync(dir, { recursive: true, force: true });
  });

  it('tries another name when the first is taken, and leaves the taken file alone', () => {
    // The first two draws give the same suffix, whose file another writer holds; the third is free.
    const draws = [0.5, 0.5, 0.25];
    Math.random = () => draws.shift() ?? random();
    const taken = join(dir, `.insertlint-out.json.${process.pid}.80000000.tmp`);
    writeFileSync(taken, 'someone else');
    writeFileAtomic(join(dir, 'out.json'), '{"ok":true}\n');
    assert.equal(readFileSync(join(dir, 'out.json'), 'utf8'), '{"ok":true}\n');
    assert.equal(readFileSync(taken, 'utf8'), 'someone else');
    assert.deepEqual(readdirSync(dir).sort(), [`.insertlint-out.json.${process.pid}.80000000.tmp`, 'out.json']);
  });

  it('replaces an existing file whole and keeps its mode', () => {
    writeFileSync(join(dir, 'out.json'), 'old', { mode: 0o640 });
    writeFileAtomic(join(dir, 'out.json'), 'new');
    assert.equal(readFileSync(join(dir, 'out.json'), 'utf8'), 'new');
    assert.equal(statSync(join(dir, 'out.json')).mode & 0o777, 0o640);
    assert.deepEqual(readdirSync(dir), ['out.json']);
  });
});
