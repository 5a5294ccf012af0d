// In-process timing of each stage of one lint of one SQL file: read+decode, lex, split, parse, line index,
// schema build, every rule's check, and the whole Workspace path. Prints JSON for bench/run.mjs.
// Usage (after bench/bundle.mjs): node bench/.work/stages.cjs FILE
import { lex } from '../server/src/sql/lexer';
import { splitStatements } from '../server/src/sql/splitter';
import { parseSql } from '../server/src/sql/parser';
import { LineIndex } from '../server/src/engine/lines';
import { SchemaModel } from '../server/src/schema/schema';
import { RULES, allRules } from '../server/src/engine/registry';
import { resolveConfig } from '../server/src/engine/config';
import { Workspace } from '../server/src/engine/workspace';
import { readSourceFile } from '../server/src/cli/files';
import type { Report } from '../server/src/engine/types';

function time<T>(fn: () => T): [T, number] {
  const t0 = process.hrtime.bigint();
  const value = fn();
  return [value, Number(process.hrtime.bigint() - t0) / 1e6];
}

const file = process.argv[2];
const ms: Record<string, number> = {};
const [read, readMs] = time(() => readSourceFile(file, 2 ** 31));
if ('skip' in read) throw new Error(read.skip);
ms['read + decode'] = readMs;
const text = read.text;
{
  // Scoped so that the token list is garbage before the parse is timed.
  const [lexed, lexMs] = time(() => lex(text));
  ms['lex'] = lexMs;
  ms['split'] = time(() => splitStatements(text, lexed.tokens))[1];
}
const [parsed, parseMs] = time(() => parseSql(text));
ms['parseSql (lex + split + parse)'] = parseMs;
// Line starts are found on first use, so ask for them.
ms['LineIndex'] = time(() => new LineIndex(text).lineCount)[1];
const model = { source: { path: file, text, language: 'sql' as const }, statements: parsed.statements, comments: parsed.comments };
const lines = new LineIndex(text);
const [schema, schemaMs] = time(() => SchemaModel.build([model]));
ms['SchemaModel.build'] = schemaMs;
const config = resolveConfig(allRules());
const rules: Record<string, { ms: number; reports: number; error?: string }> = {};
for (const { rule } of RULES) {
  const setting = config.rules.get(rule.meta.id);
  if (!setting || setting === 'off') continue;
  let reports = 0;
  let error: string | undefined;
  const [, ruleMs] = time(() => {
    try {
      rule.check({ file: model, schema, options: setting.options, report: (_r: Report) => void reports++, lineOf: (offset: number) => lines.line(offset) + 1 });
    } catch (e) {
      error = (e as Error).message;
    }
  });
  rules[rule.meta.id] = { ms: ruleMs, reports, error };
}
const heapMiB = process.memoryUsage().heapUsed / 2 ** 20;
const statements = parsed.statements.length;
if (process.argv.includes('--workspace')) {
  // The engine end to end (parses again): compare with the sum of the stages above.
  const workspace = new Workspace(config);
  ms['Workspace.setFile + allDiagnostics (end to end, parses again)'] = time(() => {
    workspace.setFile(file, text, 'sql');
    return workspace.allDiagnostics();
  })[1];
}
process.stdout.write(JSON.stringify({ file, chars: text.length, statements, ms, rules, heapMiB }) + '\n');
