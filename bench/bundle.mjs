// Bundles one TypeScript benchmark entry (e.g. bench/stages.ts) into a runnable CommonJS file, with the
// same `insertlint:rules` virtual module as the product build.
// Usage: node bench/bundle.mjs ENTRY.ts OUT.cjs
import * as esbuild from 'esbuild';
import { bundleDefaults } from '../scripts/rules-plugin.mjs';

const [entry, outfile] = process.argv.slice(2);
if (!entry || !outfile) {
  process.stderr.write('usage: node bench/bundle.mjs ENTRY.ts OUT.cjs\n');
  process.exit(2);
}
try {
  await esbuild.build({ ...bundleDefaults, entryPoints: [entry], outfile, sourcemap: 'linked', logLevel: 'error' });
} catch {
  process.exit(1);
}
