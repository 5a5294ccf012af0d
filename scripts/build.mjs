// Builds the CLI, the language server, the VS Code client and (with --tests) the Mocha tests.
// Rules are found by file name (scripts/rules-plugin.mjs).
import * as esbuild from 'esbuild';
import { readdirSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { bundleDefaults, repoRoot as root } from './rules-plugin.mjs';

const args = new Set(process.argv.slice(2));
const withTests = args.has('--tests');
const production = args.has('--production');

const common = {
  ...bundleDefaults,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
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
// The engine as `insertlint check` runs it, for scripts/corpus.mjs and corpus-code.mjs (the corpus figure is what
// users see). One bundle only: two builds writing out/corpus-lint.js raced, and corpus.mjs failed when the
// one without coverageOf finished last.
builds.push(
  esbuild.build({
    ...common,
    stdin: {
      contents: [
        "export { lintPaths, displayPath } from './server/src/cli/lint-run';",
        "export { coverageOf } from './server/src/engine/statements';",
        "export { inferTerminator } from './server/src/sql/terminator';",
        "export { forEachStatement } from './server/src/sql/walk';",
      ].join('\n'),
      resolveDir: root,
      sourcefile: 'corpus-lint.ts',
      loader: 'ts',
    },
    outfile: join(root, 'out', 'corpus-lint.js'),
  }),
);
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
