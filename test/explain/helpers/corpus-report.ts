// Manual check, not a unit test: runs `insertlint explain`'s engine over a folder of real db2exfmt texts
// (e.g. the shared research corpus) and prints, per file, what a reader needs to compare with the drawing:
// the tree (id:label:inputs), the costs, the hidden work, and every error or warning.
// Build and run: npx esbuild test/explain/helpers/corpus-report.ts --bundle --platform=node --outfile=/tmp/corpus-report.js && node /tmp/corpus-report.js DIR...
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseExfmt } from '../../../server/src/explain/exfmt';
import { explainDocument } from '../../../server/src/explain/report';

function files(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((n) => files(join(path, n)));
}

for (const file of process.argv.slice(2).flatMap(files)) {
  if (!/\.txt$/.test(file)) continue;
  const report = explainDocument(parseExfmt(readFileSync(file, 'utf8')));
  console.log(`\n== ${file}: ${report.kind}`);
  for (const e of report.errors) console.log(`  error[${e.code}] ${e.message}`);
  for (const { statement: s, report: r } of report.statements) {
    for (const e of s.errors) console.log(`  error[${e.code}] ${e.message}`);
    for (const w of s.warnings) console.log(`  warning[${w.code}] ${w.message}`);
    const plan = s.plan;
    if (!plan) continue;
    console.log(`  ${plan.operators.length} operators from the ${plan.source}, roots [${plan.roots.join(',')}], total cost ${plan.totalCost}, ${r.statementKind}`);
    console.log(`  tree: ${plan.operators.map((o) => `${o.id}:${o.label}:${o.children.join(',')}`).join(' ')}`);
    console.log(`  costs: ${plan.operators.map((o) => `${o.id}=${o.totalCost ?? '?'}/${o.ioCost ?? '?'} rows ${o.rows ?? '?'}`).join(', ')}`);
    console.log(`  objects: ${plan.operators.filter((o) => o.objectsRead.length + o.objectsWritten.length).map((o) => `${o.id}:${[...o.objectsRead, ...o.objectsWritten.map((w) => `>${w}`)].join('+')}`).join(' ')}`);
    console.log(`  hidden: ${r.pieces.map((p) => `${p.kind} [${p.operators}]`).join('; ') || 'none'} | ${r.verdict}`);
  }
}
