// Builds the CLI, the language server, the VS Code client and (with --tests) the Mocha tests.
// Rules are found by file name: a virtual module `insertlint:rules` imports every rules/<id>.ts
// with its rules/<id>.md, so adding a rule never means editing a list.
import * as esbuild from 'esbuild';
import { readdirSync, existsSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const withTests = args.has('--tests');
const production = args.has('--production');

const rulesPlugin = {
  name: 'insertlint-rules',
  setup(build) {
    build.onResolve({ filter: /^insertlint:rules$/ }, () => ({ path: 'rules', namespace: 'insertlint-rules' }));
    build.onLoad({ filter: /.*/, namespace: 'insertlint-rules' }, () => {
      const dir = join(root, 'rules');
      const ids = readdirSync(dir)
        .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
        .map((f) => f.slice(0, -3))
        .sort();
      const lines = [];
      ids.forEach((id, i) => {
        lines.push(`import r${i} from ${JSON.stringify(join(dir, id + '.ts'))};`);
        const md = join(dir, id + '.md');
        lines.push(existsSync(md) ? `import d${i} from ${JSON.stringify(md)};` : `const d${i} = '';`);
      });
      lines.push(`export const ruleFileIds = ${JSON.stringify(ids)};`);
      lines.push(`export default [${ids.map((_, i) => `{ rule: r${i}, doc: d${i} }`).join(', ')}];`);
      return { contents: lines.join('\n'), resolveDir: dir, loader: 'ts', watchFiles: ids.map((id) => join(dir, id + '.ts')) };
    });
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  loader: { '.md': 'text' },
  plugins: [rulesPlugin],
  // web-tree-sitter loads its .wasm at run time; ibm_db is optional and loaded lazily; vscode is the host's.
  external: ['vscode', 'ibm_db', 'web-tree-sitter', 'tree-sitter-wasms'],
};

function existing(entries) {
  return Object.fromEntries(Object.entries(entries).filter(([, file]) => existsSync(join(root, file))));
}

function walk(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) walk(p, out);
    else if (entry.name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const builds = [
  esbuild.build({
    ...common,
    entryPoints: existing({
      cli: 'server/src/cli/main.ts',
      server: 'server/src/lsp/server.ts',
      // The SQL parser alone, for scripts/corpus.mjs (coverage over the shared corpus).
      'corpus-parse': 'server/src/sql/parser.ts',
    }),
    outdir: join(root, 'out'),
  }),
];
if (existsSync(join(root, 'client/src/extension.ts'))) {
  builds.push(
    esbuild.build({ ...common, entryPoints: { 'client/extension': join(root, 'client/src/extension.ts') }, outdir: join(root, 'out') }),
  );
}
if (withTests) {
  const tests = walk(join(root, 'test'));
  const entryPoints = Object.fromEntries(tests.map((t) => [relative(join(root, 'test'), t).slice(0, -3), t]));
  builds.push(esbuild.build({ ...common, entryPoints, outdir: join(root, 'out/test') }));
}
try {
  await Promise.all(builds);
} catch (err) {
  // esbuild already printed the errors.
  process.exit(1);
}
