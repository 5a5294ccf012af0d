// `insertlint rules [id]`: the catalogue, or one rule's documentation.
import { RULES, findRule } from '../engine/registry';
import { UsageError, type CliIo } from './args';

export async function runRulesCommand(argv: string[], io: CliIo): Promise<number> {
  if (argv.length === 0) {
    const width = Math.max(...RULES.map((r) => r.rule.meta.id.length));
    // Which Db2 each rule speaks of: LUW, z/OS or both (RuleMeta.dialects).
    const db2 = (dialects?: readonly string[]) => (dialects ? dialects.map((d) => (d === 'zos' ? 'z/OS' : 'LUW')).join('+') : 'LUW+z/OS');
    for (const { rule } of RULES) io.stdout(`${rule.meta.id.padEnd(width)}  ${rule.meta.defaultSeverity.padEnd(11)}  ${db2(rule.meta.dialects).padEnd(8)}  ${rule.meta.description}\n`);
    return 0;
  }
  const found = findRule(argv[0]);
  if (!found) throw new UsageError(`no rule "${argv[0]}"; \`insertlint rules\` lists them`);
  io.stdout(found.doc.endsWith('\n') ? found.doc : found.doc + '\n');
  return 0;
}
