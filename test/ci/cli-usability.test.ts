// What a new user of the CLI meets first: the order findings are printed in, messages for a broken
// configuration or a mistyped command, the top-level help and the summary line.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCli } from './repo';
import { leftOutSummary } from '../../server/src/cli/check-command';

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'insertlint-cli-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('CLI usability', () => {
  const dirs: string[] = [];
  const make = (files: Record<string, string>) => {
    const dir = folder(files);
    dirs.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('prints the findings of a file in line and column order, unused suppressions included, in every format', async () => {
    const schema = [
      'CREATE TABLE T (ID INT GENERATED ALWAYS AS IDENTITY (NO CACHE), V INT, W INT);',
      '-- insertlint-disable-next-line no-such-rule',
      'CREATE INDEX T_W ON T (W);',
      'CREATE INDEX T_V ON T (V) CLUSTER;',
      'CREATE TABLE U (A INT); -- insertlint-disable-line lob-column',
      'CREATE INDEX T_VW ON T (V, W);',
    ].join('\n') + '\n';
    const dir = make({ 'db/schema.sql': schema, 'db/load.sql': 'INSERT INTO T (V, W) SELECT A, A FROM S;\nINSERT INTO U SELECT A FROM S;\n' });
    const lines = (format: string, stdout: string): number[] => {
      switch (format) {
        case 'text':
          return [...stdout.matchAll(/^db\/schema\.sql:(\d+):\d+ /gm)].map((m) => Number(m[1]));
        case 'json':
          return (JSON.parse(stdout) as { diagnostics: { file: string; line: number }[] }).diagnostics.filter((d) => d.file === 'db/schema.sql').map((d) => d.line);
        case 'sarif':
          return (JSON.parse(stdout) as { runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }[] }[] }).runs[0].results
            .map((r) => r.locations[0].physicalLocation)
            .filter((l) => l.artifactLocation.uri.endsWith('db/schema.sql'))
            .map((l) => l.region.startLine);
        default:
          return [...stdout.matchAll(/file=db\/schema\.sql,line=(\d+)/g)].map((m) => Number(m[1]));
      }
    };
    for (const format of ['text', 'json', 'sarif', 'github']) {
      const result = await runCli(['check', '.', '--format', format], dir);
      assert.equal(result.code, 1, result.stderr);
      const got = lines(format, result.stdout);
      // identity-cache (1), the unknown rule (2), the clustering index (4), the unused disable-line (5).
      assert.deepEqual(got, [1, 2, 4, 5], format);
    }
  });

  it('says where a JSON syntax error is in .insertlintrc.json and in a baseline: line and column, not an offset', async () => {
    const config = '{\n  "rules": {\n    "identity-cache": "error"\n    "lob-column": "off"\n  }\n}\n';
    const dir = make({ '.insertlintrc.json': config, 'a.sql': 'INSERT INTO T VALUES (1);\n', 'baseline.json': '{"version": 1, "tool": "insertlint", "findings": [\n  {"fingerprint": \'x\'}\n]}\n' });
    const result = await runCli(['check', '.'], dir);
    assert.equal(result.code, 2);
    assert.equal(
      result.stderr,
      `insertlint: ${join(dir, '.insertlintrc.json')}: not valid JSON at line 4, column 5: expected ',' or '}' after a property value, not '"' (is a comma missing at the end of line 3?)\n`,
    );
    writeFileSync(join(dir, '.insertlintrc.json'), '{}\n');
    const baseline = await runCli(['check', '.', '--baseline', 'baseline.json'], dir);
    assert.equal(baseline.code, 2);
    assert.match(baseline.stderr, /^insertlint: baseline\.json is not valid JSON at line 2, column 19: strings take double quotes in JSON, not single quotes; recreate it with --write-baseline\n$/);
  });

  it('suggests the nearest command, option or rule id for a typo', async () => {
    const dir = make({ 'a.sql': 'INSERT INTO T VALUES (1);\n' });
    const firstLine = async (argv: string[]) => {
      const r = await runCli(argv, dir);
      assert.equal(r.code, 2, argv.join(' '));
      assert.equal(r.stdout, '', argv.join(' '));
      return r.stderr.split('\n')[0];
    };
    assert.equal(await firstLine(['chek', '.']), 'insertlint: unknown command "chek"; did you mean "check"?');
    assert.equal(await firstLine(['explian']), 'insertlint: unknown command "explian"; did you mean "explain"?');
    assert.equal(await firstLine(['Rules']), 'insertlint: unknown command "Rules"; did you mean "rules"?');
    assert.equal(await firstLine(['lint', '.']), 'insertlint: unknown command "lint"');
    assert.equal(await firstLine(['a.sql']), 'insertlint: unknown command "a.sql"; to lint that path: insertlint check a.sql');
    assert.equal(await firstLine(['--format', 'json']), 'insertlint: "--format" is not a command: options come after the command (insertlint check --format …)');
    // The commands follow, one line each.
    assert.match((await runCli(['chek', '.'], dir)).stderr, /\n\nUsage: insertlint <command> \[options\]\n/);
    assert.equal(await firstLine(['check', '--fromat', 'json', '.']), 'insertlint check: unknown option --fromat; did you mean --format?');
    assert.equal(await firstLine(['check', '--colour', '.']), 'insertlint check: unknown option --colour');
    assert.equal(await firstLine(['rules', 'identity-cahce']), 'insertlint rules: no rule "identity-cahce" (did you mean "identity-cache"?); `insertlint rules` lists them');
    assert.equal(await firstLine(['check', '--rule', 'no-autocomit=off', '.']), 'insertlint check: --rule no-autocomit=off: no rule "no-autocomit" (did you mean "no-autocommit"?) (`insertlint rules` lists them)');
    writeFileSync(join(dir, '.insertlintrc.json'), '{ "rules": { "lob-colum": "off" } }\n');
    assert.equal(await firstLine(['check', '.']), `insertlint: ${join(dir, '.insertlintrc.json')}: unknown rule "lob-colum" in "rules" (did you mean "lob-column"?)`);
    writeFileSync(join(dir, '.insertlintrc.json'), '{ "testfiles": [] }\n');
    assert.equal(await firstLine(['check', '.']), `insertlint: ${join(dir, '.insertlintrc.json')}: unknown key "testfiles" (did you mean "testFiles"?)`);
  });

  it('top-level help lists the commands one line each, says a command is always named, and points to each command\'s --help', async () => {
    for (const argv of [['--help'], ['help'], ['-h'], []]) {
      const r = await runCli(argv, tmpdir());
      assert.equal(r.code, argv.length ? 0 : 2, argv.join(' '));
      const [head, commands, tail] = r.stdout.split(/\n\n(?=Commands:|A command)/);
      assert.match(head, /^InsertLint for Db2: lint and explain Db2 INSERT workloads\.\n\nUsage: insertlint <command> \[options\]$/);
      assert.deepEqual(
        commands.split('\n').slice(1).filter(Boolean).map((l) => l.trim().split(/\s+/)[0]),
        ['check', 'checklist', 'explain', 'schema', 'rules', 'lsp'],
      );
      assert.equal(
        tail,
        'A command is always named: insertlint check . lints the current folder.\nEach command prints its own options with --help (insertlint check --help, or insertlint help check).\ninsertlint --version prints the version.\n',
      );
      // No command's options in it: they read as if that command were the default.
      assert.doesNotMatch(r.stdout, /--format|--baseline|--schema|--output/);
    }
  });

  it('counts the files left out as scripts and code files, each with its reason', async () => {
    const big = Array.from({ length: 200_000 }, (_, i) => `INSERT INTO APP.T (A, B) VALUES (${i}, 'row ${i}');`).join('\n') + '\n';
    const dir = make({ 'big.sql': big, 'small.sql': 'INSERT INTO APP.T (A) SELECT A FROM APP.S;\n', 'util.js': 'module.exports = (a, b) => a + b;\n' });
    // 5 ms: 200,000 lines take far longer on any machine (0.2 s did not on a fast CI machine).
    const result = await runCli(['check', '.', '--file-time-budget', '0.005'], dir);
    assert.match(result.stdout, /, 1 script and 1 code file left out \(1 script: analysis stopped after 5 ms; 1 code file: no Db2 access found\)\n$/);
    assert.equal(leftOutSummary([{ script: true, reason: 'analysis stopped after 1 ms (the time budget per file; raise it with --file-time-budget)' }, { script: false, reason: 'analysis stopped after 1 ms (the time budget per file; raise it with --file-time-budget)' }]), ', 1 script and 1 code file left out (analysis stopped after 1 ms)');
    assert.equal(leftOutSummary([{ script: true, reason: 'analysis stopped after 1 ms (…)' }, { script: true, reason: 'analysis stopped after 1 ms (…)' }]), ', 2 scripts left out (analysis stopped after 1 ms)');
    assert.equal(leftOutSummary([{ script: false, reason: 'no Db2 access found (no Db2 driver …)' }]), ', 1 code file left out (no Db2 access found)');
    assert.equal(leftOutSummary([]), '');
  });
});
