// `npm pack` → the tarball a user gets from the registry: installed with --omit=dev into an empty folder, and
// through the README's npx / --save-dev lines, it must run every command with no devDependencies around.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { ROOT, childEnv, readmeCiBlocks, run, type Ran } from './helpers';

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/** The README's shell lines for npm, comments cut off, split into words (they hold no quotes). */
function readmeNpmLines(): string[][] {
  const block = readmeCiBlocks().find((b) => b.lang === 'sh' && /npx --yes insertlint@/.test(b.text));
  assert.ok(block, 'README "Use it in CI" has the npm lines');
  return block.text
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter(Boolean)
    .map((l) => l.split(/\s+/));
}

/** The README names the published package `insertlint@<version>`; the test installs the packed tarball instead. */
function withTarball(words: string[], tarball: string): string[] {
  const spec = `${manifest.name}@${manifest.version}`;
  assert.ok(words.includes(spec), `${words.join(' ')} names ${spec}, the version in package.json`);
  return words.map((w) => (w === spec ? tarball : w));
}

function git(cwd: string, ...args: string[]): string {
  const r = run('git', ['-c', 'commit.gpgsign=false', ...args], { cwd, env: childEnv() });
  assert.equal(r.code, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

const IDENTITY_TABLE = (cache: string): string => `CREATE TABLE app.orders (id INTEGER GENERATED ALWAYS AS IDENTITY (START WITH 1 ${cache}), cust INTEGER);\nINSERT INTO app.orders (cust) VALUES (?);\n`;

describe('npm pack: the package installed without devDependencies', function () {
  this.timeout(240000);
  let work: string;
  let tarball: string;
  let files: string[];
  let size: number;

  before(() => {
    work = mkdtempSync(join(tmpdir(), 'insertlint-pack-'));
    const packed = run(NPM, ['pack', '--json', '--pack-destination', work], { cwd: ROOT, env: childEnv() });
    assert.equal(packed.code, 0, packed.stderr);
    const info = (JSON.parse(packed.stdout) as { filename: string; size: number; files: { path: string }[] }[])[0];
    tarball = join(work, info.filename);
    files = info.files.map((f) => f.path).sort();
    size = info.size;
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('holds the bundle, the bin, rule docs, schema, README and LICENSE, and nothing else', () => {
    for (const f of ['bin/insertlint.js', 'bin/v8-pool.js', 'dist/cli.js', 'rules/identity-cache.md', 'schemas/insertlintrc.schema.json', 'README.md', 'LICENSE', 'package.json']) {
      assert.ok(files.includes(f), `${f} is in the package`);
    }
    const unexpected = files.filter((f) => !/^(bin\/(?:insertlint|v8-pool)\.js|dist\/cli\.js|rules\/[a-z0-9-]+\.md|schemas\/[^/]+\.json|README\.md|LICENSE|package\.json)$/.test(f));
    assert.deepEqual(unexpected, []);
    assert.ok(size < 1024 * 1024, `tarball ${size} bytes`);
  });

  describe('installed with --omit=dev into an empty folder', () => {
    let app: string;
    let data: string;
    const insertlint = (args: string[], cwd: string): Ran => run(process.execPath, [join(app, 'node_modules', 'insertlint', 'bin', 'insertlint.js'), ...args], { cwd, env: childEnv() });

    before(() => {
      app = join(work, 'empty');
      data = join(work, 'data');
      cpSync(join(ROOT, 'samples'), data, { recursive: true });
      rmSync(join(work, 'empty'), { recursive: true, force: true });
      mkdirSync(app);
      const installed = run(NPM, ['install', '--omit=dev', '--no-audit', '--no-fund', tarball], { cwd: app, env: childEnv() });
      assert.equal(installed.code, 0, installed.stderr);
    });

    it('has no devDependency and no out/ folder', () => {
      for (const dev of ['esbuild', 'typescript', 'mocha', '@vscode/vsce']) assert.ok(!existsSync(join(app, 'node_modules', dev)), dev);
      assert.ok(!existsSync(join(app, 'node_modules', 'insertlint', 'out')));
    });

    it('check: SQL and application code (the tree-sitter .wasm packages load)', () => {
      const r = run(join(app, 'node_modules', '.bin', 'insertlint'), ['check', '.', '--format', 'json'], { cwd: data, env: childEnv() });
      assert.equal(r.code, 1, r.stderr);
      const { diagnostics } = JSON.parse(r.stdout) as { diagnostics: { file: string; rule: string }[] };
      assert.ok(diagnostics.some((d) => d.rule === 'identity-cache' && d.file.endsWith('schema.sql')));
      // Findings in the loaders mean the code front end ran: the grammars' .wasm resolved from the install.
      for (const loader of ['OrderLineLoader.java', 'load_customers.py', 'loadAudit.js']) {
        assert.ok(diagnostics.some((d) => d.file.endsWith(loader)), `a finding in ${loader}`);
      }
    });

    it('explain: a db2exfmt file', () => {
      const r = insertlint(['explain', join(ROOT, 'test', 'fixtures', 'exfmt', 'seed-fk-insert-graph.txt')], work);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /INSERT/);
    });

    it('checklist: a change against its base in a git repository', () => {
      const repo = join(work, 'repo');
      mkdirSync(repo);
      git(repo, 'init', '-q', '-b', 'main');
      writeFileSync(join(repo, 'orders.sql'), IDENTITY_TABLE('CACHE 1000'));
      git(repo, 'add', '-A');
      git(repo, 'commit', '-q', '-m', 'base');
      const base = git(repo, 'rev-parse', 'HEAD');
      writeFileSync(join(repo, 'orders.sql'), IDENTITY_TABLE('NO CACHE'));
      const r = insertlint(['checklist', '--base', base], repo);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stdout, /## InsertLint review checklist[\s\S]*`orders\.sql:1` `identity-cache`/);
    });

    it('lsp --stdio: initialize, diagnostics for an opened file, shutdown', async () => {
      const child = spawn(join(app, 'node_modules', '.bin', 'insertlint'), ['lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'], env: childEnv() });
      const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
      const diagnostics = new Promise<{ code?: string | number }[]>((resolve) =>
        connection.onNotification('textDocument/publishDiagnostics', (p: { diagnostics: { code?: string | number }[] }) => {
          if (p.diagnostics.length > 0) resolve(p.diagnostics);
        }),
      );
      connection.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({})));
      connection.onRequest('client/registerCapability', () => null);
      connection.onRequest('window/workDoneProgress/create', () => null);
      connection.listen();
      try {
        const init = (await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} })) as { serverInfo: { name: string } };
        assert.equal(init.serverInfo.name, 'insertlint');
        connection.sendNotification('initialized', {});
        connection.sendNotification('textDocument/didOpen', { textDocument: { uri: 'file:///tmp/insertlint-pack/orders.sql', languageId: 'sql', version: 1, text: IDENTITY_TABLE('NO CACHE') } });
        const found = await diagnostics;
        assert.ok(found.some((d) => d.code === 'identity-cache'), JSON.stringify(found));
        await connection.sendRequest('shutdown');
        connection.sendNotification('exit');
        const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
        assert.equal(code, 0);
      } finally {
        child.kill();
        connection.dispose();
      }
    });
  });

  describe("the README's npm lines", () => {
    it('npx --yes insertlint@<version> check . (the tarball in place of the registry)', () => {
      const line = readmeNpmLines().find((w) => w[0] === 'npx' && w.includes('--yes'));
      assert.ok(line);
      // `npx --yes --package <tarball> insertlint …`: npx installs the tarball as it would the registry's package.
      const words = withTarball(line, tarball);
      const args = words.slice(1).flatMap((w) => (w === tarball ? ['--package', tarball, manifest.name] : [w]));
      const dir = join(work, 'npx');
      mkdirSync(dir);
      writeFileSync(join(dir, 'orders.sql'), IDENTITY_TABLE('NO CACHE'));
      const r = run(NPX, args, { cwd: dir, env: childEnv() });
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stdout, /orders\.sql:1:\d+ warning identity-cache/);
    });

    it('npm install --save-dev, then npx insertlint checklist --base origin/main in a clone', () => {
      const lines = readmeNpmLines();
      const install = lines.find((w) => w[0] === 'npm' && w[1] === 'install');
      const checklist = lines.find((w) => w[0] === 'npx' && w[1] === 'insertlint' && w[2] === 'checklist');
      assert.ok(install && checklist, 'README has the --save-dev and checklist lines');
      // A project on GitHub: main has the table; a pull-request branch switches its identity to NO CACHE.
      const origin = join(work, 'origin');
      mkdirSync(origin);
      git(origin, 'init', '-q', '-b', 'main');
      writeFileSync(join(origin, 'orders.sql'), IDENTITY_TABLE('CACHE 1000'));
      writeFileSync(join(origin, '.gitignore'), 'node_modules/\n');
      git(origin, 'add', '-A');
      git(origin, 'commit', '-q', '-m', 'base');
      const clone = join(work, 'clone');
      git(work, 'clone', '-q', origin, clone);
      git(clone, 'checkout', '-q', '-b', 'change');
      writeFileSync(join(clone, 'orders.sql'), IDENTITY_TABLE('NO CACHE'));
      git(clone, 'commit', '-q', '-am', 'no cache');
      const installed = run(NPM, withTarball(install, tarball).slice(1), { cwd: clone, env: childEnv() });
      assert.equal(installed.code, 0, installed.stderr);
      const r = run(NPX, checklist.slice(1), { cwd: clone, env: childEnv() });
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stdout, /`orders\.sql:1` `identity-cache` \(warning \*\*blocking\*\*\)/);
    });
  });
});
