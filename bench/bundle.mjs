// Bundles one TypeScript benchmark entry (e.g. bench/stages.ts) into a runnable CommonJS file, with the
// same `insertlint:rules` virtual module as scripts/build.mjs (every rules/<id>.ts with its doc).
import * as esbuild from 'esbuild';
import { readdirSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
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
      const lines = ids.map((id, i) => `import r${i} from ${JSON.stringify(join(dir, id + '.ts'))};`);
      ids.forEach((id, i) => {
        const md = join(dir, id + '.md');
        lines.push(existsSync(md) ? `import d${i} from ${JSON.stringify(md)};` : `const d${i} = '';`);
      });
      lines.push(`export const ruleFileIds = ${JSON.stringify(ids)};`);
      lines.push(`export default [${ids.map((_, i) => `{ rule: r${i}, doc: d${i} }`).join(', ')}];`);
      return { contents: lines.join('\n'), resolveDir: dir, loader: 'ts' };
    });
  },
};

const [entry, outfile] = process.argv.slice(2);
try {
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'linked',
    logLevel: 'error',
    loader: { '.md': 'text' },
    plugins: [rulesPlugin],
    external: ['web-tree-sitter', 'tree-sitter-wasms', 'ibm_db', 'vscode'],
  });
} catch {
  process.exit(1);
}
