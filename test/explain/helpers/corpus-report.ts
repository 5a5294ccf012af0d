// Manual check, not a unit test: runs parseExfmt + the classifier over a folder of real db2exfmt texts
// (e.g. the shared research corpus) and prints one summary line per file.
// Build and run: npx esbuild test/explain/helpers/corpus-report.ts --bundle --platform=node --outfile=/tmp/corpus-report.js && node /tmp/corpus-report.js DIR...
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseExfmt } from '../../../server/src/explain/exfmt';
import { classifyHiddenWork } from '../../../server/src/explain/classify';

function files(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((n) => files(join(path, n)));
}

for (const file of process.argv.slice(2).flatMap(files)) {
  if (!/\.txt$/.test(file)) continue;
  const doc = parseExfmt(readFileSync(file, 'utf8'));
  const parts = [`${file}: ${doc.kind}`];
  for (const e of doc.errors) parts.push(`error[${e.code}]`);
  for (const s of doc.statements) {
    const plan = s.plan;
    const edges = plan ? plan.operators.reduce((n, o) => n + o.children.length, 0) : 0;
    parts.push(plan ? `${plan.operators.length} operators, ${edges} edges, roots [${plan.roots.join(',')}], source ${plan.source}` : 'no tree');
    for (const e of s.errors) parts.push(`error[${e.code}]`);
    for (const w of s.warnings) parts.push(`warning[${w.code}]`);
    if (plan) parts.push(`hidden: ${classifyHiddenWork(s).pieces.map((p) => p.kind).join(',') || 'none'}`);
  }
  console.log(parts.join(' | '));
}
