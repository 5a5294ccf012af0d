// `npm run package`: builds the extension for production and packs it into insertlint-<version>.vsix
// with @vscode/vsce, offline. The server and client are esbuild bundles, so vsce runs with
// --no-dependencies in a staging folder that holds only what the extension needs at run time:
// out/ (bundles), the tree-sitter runtime and grammar .wasm packages the code front end loads,
// syntaxes/, schemas/, language configurations, rules/*.md, README, CHANGELOG, LICENSE and the icon.
//
//   node scripts/package-vsix.mjs [--out FILE] [--skip-build]
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outArg = args.indexOf('--out');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const vsixPath = resolve(outArg >= 0 ? args[outArg + 1] : join(root, `${manifest.name}-${manifest.version}.vsix`));
const stage = join(root, '.cache', 'vsix', 'stage');

function run(cmd, cmdArgs, cwd) {
  const r = spawnSync(cmd, cmdArgs, { cwd, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`package-vsix: ${[cmd, ...cmdArgs].join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

function copy(from, to) {
  mkdirSync(dirname(to), { recursive: true });
  cpSync(from, to, { recursive: true });
}

// 1. Production bundles (minified, no source maps) into out/.
if (!args.includes('--skip-build')) run(process.execPath, [join(root, 'scripts', 'build.mjs'), '--production'], root);
for (const f of ['out/server.js', 'out/client/extension.js']) {
  if (!existsSync(join(root, f))) {
    console.error(`package-vsix: ${f} is missing after the build`);
    process.exit(1);
  }
}

// 2. A clean staging folder.
rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
copy(join(root, 'out', 'server.js'), join(stage, 'out', 'server.js'));
copy(join(root, 'out', 'client', 'extension.js'), join(stage, 'out', 'client', 'extension.js'));
// schemas/: the .insertlintrc.json schema behind contributes.jsonValidation (completion and validation in the editor).
for (const f of ['syntaxes', 'schemas', 'language-configuration.json', 'language-configuration-db2exfmt.json', 'README.md', 'CHANGELOG.md']) {
  if (existsSync(join(root, f))) copy(join(root, f), join(stage, f));
}
for (const f of ['icon.png', 'screenshot.png']) if (existsSync(join(root, 'media', f))) copy(join(root, 'media', f), join(stage, 'media', f));
mkdirSync(join(stage, 'rules'), { recursive: true });
for (const f of readdirSync(join(root, 'rules'))) if (f.endsWith('.md')) copy(join(root, 'rules', f), join(stage, 'rules', f));
const license = ['LICENSE', 'LICENSE.md', 'LICENSE.txt'].find((f) => existsSync(join(root, f)));
if (license) copy(join(root, license), join(stage, 'LICENSE'));

// 3. Run-time packages the server loads from disk (kept out of the bundle): web-tree-sitter and the grammar
// packages. They go to out/node_modules, where Node's resolution from out/server.js finds them, and where
// vsce --no-dependencies does not drop them (it skips only the top-level node_modules).
const runtimePackages = Object.keys(manifest.dependencies ?? {}).filter((name) => name === 'web-tree-sitter' || /^tree-sitter-/.test(name));
for (const name of runtimePackages) {
  const pkgDir = join(root, 'node_modules', name);
  if (!existsSync(join(pkgDir, 'package.json'))) {
    console.error(`package-vsix: ${name} is not installed (npm ci first)`);
    process.exit(1);
  }
  const target = join(stage, 'out', 'node_modules', name);
  mkdirSync(target, { recursive: true });
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  // Only what loading needs: the manifest (for resolution), the JS entry of web-tree-sitter, every .wasm, the licence.
  for (const f of readdirSync(pkgDir)) {
    const keep = f === 'package.json' || /^licen[cs]e/i.test(f) || f.endsWith('.wasm') || (name === 'web-tree-sitter' && /\.(c?js)$/.test(f) && !f.endsWith('.map'));
    if (keep && statSync(join(pkgDir, f)).isFile()) copy(join(pkgDir, f), join(target, f));
  }
  if (!readdirSync(target).some((f) => f.endsWith('.wasm'))) console.warn(`package-vsix: warning: ${name} has no .wasm file at its top level (${pkg.version})`);
}

// 4. The manifest without the development parts (scripts would make vsce run npm).
const staged = { ...manifest };
// `files` is the npm package's list; vsce refuses it beside a .vscodeignore.
for (const key of ['scripts', 'devDependencies', 'dependencies', 'bin', 'private', 'files']) delete staged[key];
writeFileSync(join(stage, 'package.json'), JSON.stringify(staged, null, 2) + '\n');
writeFileSync(join(stage, '.vscodeignore'), '**/*.map\n');

// 5. vsce, offline: no dependency resolution, no network.
const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
const vsceArgs = [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--out', vsixPath];
if (!license) {
  console.warn('package-vsix: warning: no LICENSE file in the repository; packaging without one (--skip-license)');
  vsceArgs.push('--skip-license');
}
run(process.execPath, vsceArgs, stage);
const size = statSync(vsixPath).size;
console.log(`package-vsix: ${vsixPath} (${(size / 1048576).toFixed(1)} MB, ${size.toLocaleString('en-US')} bytes)`);
