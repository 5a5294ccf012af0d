// The esbuild plugin behind the virtual module `insertlint:rules`: it imports every rules/<id>.ts with
// its rules/<id>.md, so adding a rule never means editing a list. Shared by every bundle we build.
import { readdirSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const rulesDir = join(repoRoot, 'rules');

/** Rule ids: the names of rules/*.ts (helpers live in rules/support/, which is not scanned). */
export function ruleIds() {
  return readdirSync(rulesDir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
    .map((f) => f.slice(0, -3))
    .sort();
}

export const rulesPlugin = {
  name: 'insertlint-rules',
  setup(build) {
    build.onResolve({ filter: /^insertlint:rules$/ }, () => ({ path: 'rules', namespace: 'insertlint-rules' }));
    build.onLoad({ filter: /.*/, namespace: 'insertlint-rules' }, () => {
      const ids = ruleIds();
      const lines = [];
      ids.forEach((id, i) => {
        lines.push(`import r${i} from ${JSON.stringify(join(rulesDir, id + '.ts'))};`);
        const md = join(rulesDir, id + '.md');
        lines.push(existsSync(md) ? `import d${i} from ${JSON.stringify(md)};` : `const d${i} = '';`);
      });
      lines.push(`export const ruleFileIds = ${JSON.stringify(ids)};`);
      lines.push(`export default [${ids.map((_, i) => `{ rule: r${i}, doc: d${i} }`).join(', ')}];`);
      return { contents: lines.join('\n'), resolveDir: rulesDir, loader: 'ts', watchDirs: [rulesDir] };
    });
  },
};

/** Options every bundle shares: Node 20, CommonJS, Markdown as text, run-time-loaded packages left out. */
export const bundleDefaults = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  loader: { '.md': 'text' },
  plugins: [rulesPlugin],
  // web-tree-sitter loads its .wasm at run time; ibm_db is optional and loaded lazily; vscode is the host's.
  external: ['vscode', 'ibm_db', 'web-tree-sitter'],
};
