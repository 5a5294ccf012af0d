// Bundles one TypeScript benchmark entry (e.g. bench/explain-bench.ts) into a runnable CommonJS file.
import * as esbuild from 'esbuild';

const [entry, outfile] = process.argv.slice(2);
try {
  await esbuild.build({ entryPoints: [entry], outfile, bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'error', loader: { '.md': 'text' } });
} catch {
  process.exit(1);
}
