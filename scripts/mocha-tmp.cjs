// Loaded by mocha before any test (.mocharc.json `require`). Tests and the CLIs and servers they start make their
// temporary directories with os.tmpdir(); pointing TMPDIR at one directory per run, removed when mocha exits, keeps
// a run from leaving dozens of directories in the system's temp space (set INSERTLINT_KEEP_TEST_TMP=1 to look at them).
'use strict';
const { chmodSync, mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const root = mkdtempSync(join(tmpdir(), 'insertlint-test-run-'));
// Readable by others, as the system's temp space is: some tests run the CLI as `nobody` on a folder made here.
chmodSync(root, 0o755);
process.env.TMPDIR = root;
process.env.TMP = root;
process.env.TEMP = root;

process.on('exit', () => {
  if (process.env.INSERTLINT_KEEP_TEST_TMP) {
    process.stderr.write(`test temporary files kept in ${root}\n`);
    return;
  }
  try {
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  } catch (err) {
    process.stderr.write(`could not remove the tests' temporary directory ${root}: ${err.message}\n`);
  }
});
