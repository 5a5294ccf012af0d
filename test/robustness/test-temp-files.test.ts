// The suite's own hygiene: a run of `npm test` makes hundreds of temporary directories (tests, and the CLIs and
// servers they start). scripts/mocha-tmp.cjs gathers them under one directory per run and removes it at exit.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../install/helpers';

describe('the test suite leaves no temporary files behind', function () {
  this.timeout(60_000);

  it('runs this suite with TMPDIR in a directory of its own', () => {
    assert.match(tmpdir(), /insertlint-test-run-/);
  });

  it('removes what a mocha run and its child processes made in the temp space', () => {
    const outer = mkdtempSync(join(tmpdir(), 'outer-'));
    try {
      const spec = join(outer, 'makes-temp.spec.js');
      writeFileSync(spec, [
        "const fs = require('fs'), os = require('os'), path = require('path'), cp = require('child_process');",
        "it('makes temporary directories', () => {",
        "  fs.writeFileSync(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'a-')), 'f'), 'x');",
        "  cp.execFileSync(process.execPath, ['-e', \"require('fs').mkdtempSync(require('path').join(require('os').tmpdir(), 'child-'))\"]);",
        '});',
      ].join('\n'));
      const run = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--no-config', '--require', join(ROOT, 'scripts', 'mocha-tmp.cjs'), spec], {
        cwd: outer, encoding: 'utf8', env: { ...process.env, TMPDIR: outer, INSERTLINT_KEEP_TEST_TMP: '' },
      });
      assert.equal(run.status, 0, run.stdout + run.stderr);
      assert.deepEqual(readdirSync(outer), ['makes-temp.spec.js']);
    } finally {
      rmSync(outer, { recursive: true, force: true });
    }
  });
});
