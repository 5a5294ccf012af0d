// dist/cli.js is what every installed copy runs (npm package, pre-commit's git install, the Action), so it
// must be the build of the committed sources; and nothing may need building when npm installs from git.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, run } from './helpers';

describe('dist/cli.js, the committed CLI bundle', function () {
  this.timeout(60000);

  it('is byte for byte a fresh build of server/src and rules/ (else: npm run dist)', () => {
    const r = run(process.execPath, [join(ROOT, 'scripts', 'build-dist.mjs'), '--check'], { cwd: ROOT });
    assert.equal(r.code, 0, r.stderr);
  });

  it('is ASCII only, so that V8 holds its source as one byte per character (start-up: ~5 ms less than two bytes)', () => {
    // esbuild escapes strings and names, but keeps some comments as written: write those in ASCII (-> not an arrow).
    const text = readFileSync(join(ROOT, 'dist', 'cli.js'), 'utf8');
    const at = text.search(/[^\x00-\x7f]/);
    const line = at < 0 ? '' : text.slice(text.lastIndexOf('\n', at) + 1, text.indexOf('\n', at));
    assert.equal(at, -1, `a non-ASCII character in dist/cli.js, on the line: ${line.trim()}`);
  });

  it('is found by bin/insertlint.js when out/ is not there', () => {
    const bin = readFileSync(join(ROOT, 'bin', 'insertlint.js'), 'utf8');
    assert.match(bin, /'out', 'cli\.js'\)[^\n]*'dist', 'cli\.js'\)/);
  });
});

describe('package.json for installs from git and npm', () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    private?: boolean;
    scripts: Record<string, string>;
    files: string[];
  };

  it('has no script npm runs when it installs or packs the package (they would need the devDependencies)', () => {
    // npm (pacote) runs these when it installs a git dependency or packs a folder; with pre-commit's
    // npm_config_prefix the devDependencies are not in the clone when they run (npm/cli issue 8440).
    for (const script of ['prepare', 'prepack', 'preinstall', 'install', 'postinstall', 'prepublish', 'prepublishOnly', 'postpack']) {
      assert.equal(manifest.scripts[script], undefined, `package.json script "${script}"`);
    }
  });

  it('ships the bundle, the bin, rule docs and the config schema, and can be published', () => {
    assert.equal(manifest.private, undefined);
    for (const entry of ['bin/', 'dist/', 'rules/*.md', 'schemas/']) assert.ok(manifest.files.includes(entry), entry);
  });
});
