// Tokenizes Db2 SQL and db2exfmt samples with our TextMate grammars, using the vscode-textmate and
// Oniguruma that code-server ships (so the regexes are checked by the engine VS Code really uses).
// Run by test/e2e/e2e.mjs; on its own: node test/e2e/grammars.mjs (after scripts/e2e-setup.sh).
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const vscodeModules = join(root, '.cache', 'e2e', 'code-server', 'node_modules', 'code-server', 'lib', 'vscode', 'node_modules');

const CASES = [
  {
    scope: 'source.db2sql',
    text: [
      "--#SET TERMINATOR @",
      "CONNECT TO SALESDB@",
      "CREATE TABLE T (ID BIGINT GENERATED ALWAYS AS IDENTITY (NO CACHE), NOTE CLOB(1M))@",
      "INSERT INTO T (NOTE) VALUES (?), (:hv:ind), ('it''s')@",
      "CREATE TRIGGER TR AFTER INSERT ON T FOR EACH ROW BEGIN ATOMIC DECLARE X INT; END@",
      "-- insertlint-disable-next-line identity-cache",
      "UPDATE DB CFG FOR SALESDB USING LOGBUFSZ 256@",
      "/* block",
      "   comment */ SELECT \"Odd \"\"Name\"\"\" FROM T@",
      "!echo done",
    ],
    expect: [
      ['--#SET', 'keyword.control.directive.db2sql'],
      ['@', 'punctuation.terminator.statement.db2sql'],
      ['CONNECT TO', 'support.function.clp.db2sql'],
      ['BIGINT', 'storage.type.db2sql'],
      ['IDENTITY', 'keyword.other.db2sql'],
      ['?', 'variable.parameter.marker.db2sql'],
      [':hv:ind', 'variable.parameter.host.db2sql'],
      ["''", 'constant.character.escape.db2sql'],
      ['BEGIN', 'keyword.control.sqlpl.db2sql'],
      ['insertlint-disable-next-line', 'keyword.other.directive.insertlint.db2sql'],
      ['UPDATE DB CFG', 'support.function.clp.db2sql'],
      ['comment */', 'comment.block.db2sql'],
      ['"Odd ""Name"""', 'variable.other.delimited.db2sql'],
      ['echo done', 'string.unquoted.shell.db2sql'],
    ],
  },
  {
    scope: 'source.db2exfmt',
    text: readFileSync(join(root, 'test', 'fixtures', 'exfmt', 'insert-fk-trigger-mqt.exfmt.txt'), 'utf8').split(/\r?\n/),
    expect: [
      ['EXPLAIN INSTANCE', 'markup.heading.section.db2exfmt'],
      ['DB2_VERSION', 'variable.other.key.db2exfmt'],
      ['Access Plan', 'markup.heading.db2exfmt'],
      ['NLJOIN', 'keyword.other.operator.db2exfmt'],
      ['INSERT', 'keyword.other.operator.db2exfmt'],
    ],
  },
];

export async function checkGrammars() {
  const require = createRequire(join(vscodeModules, 'noop.js'));
  const vsctm = require('vscode-textmate');
  const oniguruma = require('vscode-oniguruma');
  await oniguruma.loadWASM(readFileSync(join(vscodeModules, 'vscode-oniguruma', 'release', 'onig.wasm')).buffer);
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({ createOnigScanner: (p) => new oniguruma.OnigScanner(p), createOnigString: (s) => new oniguruma.OnigString(s) }),
    loadGrammar: async (scope) => {
      const file = { 'source.db2sql': 'db2sql.tmLanguage.json', 'source.db2exfmt': 'db2exfmt.tmLanguage.json' }[scope];
      return file ? vsctm.parseRawGrammar(readFileSync(join(root, 'syntaxes', file), 'utf8'), join(root, 'syntaxes', file)) : null;
    },
  });
  const problems = [];
  // Timings are reported, not asserted: on a loaded 2-core machine one line took over 50 ms for no fault of
  // the grammar. A catastrophic regular expression shows as a hang, which the e2e run's own time limit catches.
  let slowest = { ms: 0, line: '' };
  for (const c of CASES) {
    const grammar = await registry.loadGrammar(c.scope);
    let state = vsctm.INITIAL;
    const tokens = [];
    for (const line of c.text) {
      const started = performance.now();
      const r = grammar.tokenizeLine(line, state);
      const ms = performance.now() - started;
      if (ms > slowest.ms) slowest = { ms, line: `${c.scope}: ${line.slice(0, 60)}` };
      for (const t of r.tokens) tokens.push({ text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes });
      state = r.ruleStack;
    }
    for (const [text, scope] of c.expect) {
      const hit = tokens.find((t) => t.text.includes(text) && t.scopes.includes(scope)) ?? tokens.find((t) => text.includes(t.text.trim()) && t.text.trim() && t.scopes.includes(scope));
      if (!hit) {
        const seen = tokens.filter((t) => t.text.trim() && (t.text.includes(text) || text.includes(t.text.trim()))).slice(0, 3).map((t) => `${JSON.stringify(t.text)} ${t.scopes.slice(1).join(' ')}`);
        problems.push(`${c.scope}: ${JSON.stringify(text)} is not ${scope} (seen: ${seen.join(' | ') || 'nothing'})`);
      }
    }
  }
  return { problems, slowest };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { problems, slowest } = await checkGrammars();
  for (const p of problems) console.log(`[grammars] ${p}`);
  console.log(`[grammars] slowest line: ${slowest.ms.toFixed(1)} ms (${slowest.line})`);
  console.log(problems.length ? `[grammars] ${problems.length} problem(s)` : '[grammars] all scopes as expected');
  process.exitCode = problems.length ? 1 : 0;
}
