import * as assert from 'node:assert/strict';
import { firstParagraph, plainParagraphs, ruleName, artifactLocation } from '../../server/src/output/sarif';
import { FINGERPRINT_KEY } from '../../server/src/output/fingerprint';
import { RULES } from '../../server/src/engine/registry';
import { Repo, runCli, ordersDdl, onlyRules } from './repo';
import { sarifValidator } from '../helpers/sarif';

interface SarifLog {
  runs: {
    tool: { driver: { name: string; version: string; informationUri: string; rules: { id: string; name: string; helpUri?: string; shortDescription: { text: string }; fullDescription: { text: string }; defaultConfiguration: { level: string } }[] } };
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string }; region: { startLine: number; startColumn: number; endLine: number; endColumn: number } } }[];
      partialFingerprints: Record<string, string>;
      suppressions?: { kind: string; justification?: string }[];
    }[];
  }[];
}

describe('check --format sarif', () => {
  const validate = sarifValidator();
  let repo: Repo;
  beforeEach(() => {
    repo = new Repo();
  });
  afterEach(() => repo.dispose());

  it('the schema fixture rejects a broken log (the validator can fail)', () => {
    assert.equal(validate({ version: '2.1.0', runs: [{ tool: { driver: {} } }] }), false);
    assert.equal(validate({ version: '2.0.0', runs: [] }), false);
  });

  it('writes a schema-valid log with the rule catalogue, locations, fingerprints and suppressions', async () => {
    repo
      .write('db/orders.sql', ordersDdl('NO CACHE') + 'INSERT INTO app.orders (cust) VALUES (?);\n')
      .write(
        'db/items.sql',
        [
          'CREATE TABLE app.items (',
          '  -- insertlint-disable-next-line identity-cache: reference data, a handful of rows a year',
          '  id INTEGER GENERATED ALWAYS AS IDENTITY (NO CACHE),',
          '  name VARCHAR(20)',
          ');',
          'INSERT INTO app.items (name) VALUES (?);',
          '',
        ].join('\n'),
      )
      .write('db/stray.sql', '-- insertlint-disable-next-line identity-cache\nSELECT 1 FROM sysibm.sysdummy1;\n')
      .write('db/with space, comma.sql', ordersDdl('NO CACHE').replace(/orders/g, 'odd') + 'INSERT INTO app.odd (cust) VALUES (?);\n');
    const result = await runCli(['check', '--format', 'sarif', '.'], repo.dir);
    assert.equal(result.code, 1, result.stderr);
    const log = JSON.parse(result.stdout) as SarifLog;
    const valid = validate(log);
    assert.ok(valid, JSON.stringify(validate.errors, null, 2));

    const run = log.runs[0];
    assert.equal(run.tool.driver.name, 'InsertLint');
    assert.match(run.tool.driver.version, /^\d+\.\d+\.\d+/);
    assert.match(run.tool.driver.informationUri, /^https:\/\//);
    const rules = run.tool.driver.rules;
    for (const registered of RULES) {
      const descriptor = rules.find((r) => r.id === registered.rule.meta.id);
      assert.ok(descriptor, `rule ${registered.rule.meta.id} in tool.driver.rules`);
      assert.equal(descriptor.shortDescription.text, registered.rule.meta.description);
      assert.ok(descriptor.fullDescription.text.length > 0);
      assert.equal(descriptor.helpUri, `https://github.com/insertlint/insertlint/blob/main/rules/${registered.rule.meta.id}.md`);
      assert.match(descriptor.name, /^[A-Z][A-Za-z0-9]*$/);
    }

    const identity = run.results.filter((r) => r.ruleId === 'identity-cache');
    assert.equal(identity.length, 3);
    for (const r of run.results) assert.equal(rules[r.ruleIndex].id, r.ruleId);
    const orders = identity.find((r) => r.locations[0].physicalLocation.artifactLocation.uri === 'db/orders.sql')!;
    assert.ok(orders, JSON.stringify(identity.map((r) => r.locations)));
    assert.equal(orders.level, 'warning');
    assert.equal(orders.locations[0].physicalLocation.artifactLocation.uriBaseId, '%SRCROOT%');
    assert.deepEqual(orders.locations[0].physicalLocation.region, { startLine: 2, startColumn: 57, endLine: 2, endColumn: 65 });
    assert.match(orders.partialFingerprints[FINGERPRINT_KEY], /^[0-9a-f]{32}$/);
    assert.equal(orders.suppressions, undefined);

    const odd = identity.find((r) => r.locations[0].physicalLocation.artifactLocation.uri.startsWith('db/with'))!;
    assert.equal(odd.locations[0].physicalLocation.artifactLocation.uri, 'db/with%20space%2C%20comma.sql');

    // The engine's own unused-suppression findings get a descriptor too, so ruleIndex always resolves.
    const stray = run.results.find((r) => r.ruleId === 'unused-suppression');
    assert.ok(stray, 'the stray disable comment is reported');
    assert.equal(rules[stray.ruleIndex].id, 'unused-suppression');
    assert.equal(stray.locations[0].physicalLocation.artifactLocation.uri, 'db/stray.sql');

    const suppressed = identity.find((r) => r.locations[0].physicalLocation.artifactLocation.uri === 'db/items.sql')!;
    assert.deepEqual(suppressed.suppressions, [{ kind: 'inSource', justification: 'reference data, a handful of rows a year' }]);
  });

  it('reports a run of single-row INSERTs as one result, its multi-row fix combining the whole run', async () => {
    const rows = (n: number) => Array.from({ length: n }, (_, i) => `INSERT INTO app.t (id) VALUES (${i});`).join('\n') + '\n';
    repo.write('.insertlintrc.json', onlyRules(['single-row-insert'])).write('db/run.sql', rows(400));
    const result = await runCli(['check', '--format', 'sarif'], repo.dir);
    assert.equal(result.code, 1, result.stderr);
    const log = JSON.parse(result.stdout) as SarifLog;
    assert.ok(validate(log), JSON.stringify(validate.errors));
    const results = log.runs[0].results as unknown as { message: { text: string }; locations: { physicalLocation: { region: { startLine: number } } }[]; fixes?: { artifactChanges: { replacements: unknown[] }[] }[] }[];
    assert.equal(results.length, 1, 'one finding for the run (it was one per INSERT from the 3rd on: 398)');
    assert.equal(results[0].locations[0].physicalLocation.region.startLine, 3, 'on the 3rd INSERT, where it was first reported');
    assert.match(results[0].message.text, /^Single-row INSERTs into APP\.T: 400 in a row \(lines 1\u2013400\)/);
    assert.equal(results[0].fixes![0].artifactChanges[0].replacements.length, 399);
  });

  it('exits 0 with an empty but valid log when there is nothing to report', async () => {
    repo.write('.insertlintrc.json', onlyRules(['identity-cache'])).write('db/orders.sql', ordersDdl('CACHE 1000') + 'INSERT INTO app.orders (cust) VALUES (1);\n');
    const result = await runCli(['check', '--format', 'sarif'], repo.dir);
    assert.equal(result.code, 0, result.stderr);
    const log = JSON.parse(result.stdout) as SarifLog;
    assert.ok(validate(log), JSON.stringify(validate.errors));
    assert.deepEqual(log.runs[0].results, []);
  });

  it('takes the full description from the first paragraph of the rule doc', () => {
    const doc = '# identity-cache\n<!-- generated -->\n\nAn IDENTITY with **NO CACHE** logs\nevery row; see [the docs](https://x).\n\n## Why\n\nMore.';
    assert.equal(firstParagraph(doc), 'An IDENTITY with NO CACHE logs every row; see the docs.');
    assert.equal(firstParagraph('# t\n\n> Quoted summary\n> on two lines\n'), 'Quoted summary on two lines');
    assert.equal(firstParagraph('# t\n\n```sql\nSELECT 1;\n```\n\nText `code` and _emphasis_.\n'), 'Text code and emphasis.');
    assert.equal(firstParagraph('# only a heading\n'), undefined);
    assert.equal(
      plainParagraphs('# Title\n\nSome **bold**\ntext.\n\n```sql\nCREATE TABLE t (\n\n  id INT\n);\n```\n\n## Next\n\nA [link](x).'),
      'Title\n\nSome bold text.\n\n```sql\nCREATE TABLE t (\n\n  id INT\n);\n```\n\nNext\n\nA link.',
    );
    assert.equal(ruleName('identity-cache'), 'IdentityCache');
    assert.deepEqual(artifactLocation('a b/c#d.sql'), { uri: 'a%20b/c%23d.sql', uriBaseId: '%SRCROOT%' });
    assert.equal(artifactLocation('/abs/x.sql').uri, 'file:///abs/x.sql');
  });
});
