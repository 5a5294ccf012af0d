// `insertlint rules [id]`: the catalogue, or one rule's documentation.
import { RULES, findRule } from '../engine/registry';
import { UNUSED_SUPPRESSION_RULE } from '../engine/suppressions';
import unusedSuppressionDoc from '../../../rules/unused-suppression.md';
import { UsageError, type CliIo } from './args';
import { didYouMean } from '../engine/spelling';
import { plainLine } from '../output/escape';

/** Findings the engine itself reports (not rule modules), with their docs. */
const ENGINE_FINDING_DOCS: Record<string, { severity: string; description: string; doc: string }> = {
  [UNUSED_SUPPRESSION_RULE]: { severity: 'warning', description: 'A suppression comment that suppressed nothing, names an unknown rule, or is no directive', doc: unusedSuppressionDoc },
};

const RULES_USAGE = `Usage: insertlint rules [RULE]

Without RULE: every rule, with its default severity, the Db2 it speaks of (LUW, z/OS) and what it finds.
With RULE: that rule's documentation (what it finds, why it matters, the measurements, how to fix it).
`;

export async function runRulesCommand(argv: string[], io: CliIo): Promise<number> {
  if (argv[0] === '--help') {
    io.stdout(RULES_USAGE);
    return 0;
  }
  if (argv.length === 0) {
    // Which Db2 each rule speaks of: LUW, z/OS or both (RuleMeta.dialects).
    const db2 = (dialects?: readonly string[]) => (dialects ? dialects.map((d) => (d === 'zos' ? 'z/OS' : 'LUW')).join('+') : 'LUW+z/OS');
    const rows = [
      ...RULES.map(({ rule }) => ({
        id: rule.meta.id,
        // Rules outside the default preset say so: a user reading the list must not expect their findings.
        severity: rule.meta.recommended === false ? `off (${rule.meta.defaultSeverity} in insertlint:all)` : rule.meta.defaultSeverity,
        db2: db2(rule.meta.dialects),
        description: rule.meta.description,
      })),
      ...Object.entries(ENGINE_FINDING_DOCS).map(([id, e]) => ({ id, severity: e.severity, db2: 'LUW+z/OS', description: e.description })),
    ];
    const width = Math.max(...rows.map((r) => r.id.length));
    const sevWidth = Math.max(...rows.map((r) => r.severity.length));
    for (const r of rows) io.stdout(`${r.id.padEnd(width)}  ${r.severity.padEnd(sevWidth)}  ${r.db2.padEnd(8)}  ${r.description}\n`);
    io.stdout('\nRules marked off run with "extends": "insertlint:all" in .insertlintrc.json, or when named in "rules".\n');
    return 0;
  }
  const doc = findRule(argv[0])?.doc ?? ENGINE_FINDING_DOCS[argv[0]]?.doc;
  if (doc === undefined) throw new UsageError(`no rule "${plainLine(argv[0])}"${didYouMean(argv[0], [...RULES.map(({ rule }) => rule.meta.id), ...Object.keys(ENGINE_FINDING_DOCS)])}; \`insertlint rules\` lists them`);
  io.stdout(doc.endsWith('\n') ? doc : doc + '\n');
  return 0;
}
