// What a new user of the CLI meets first: the order findings are printed in, messages for a broken
// configuration or a mistyped command, the top-level help and the summary line.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCli } from './repo';

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
});
