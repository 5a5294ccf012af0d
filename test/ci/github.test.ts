import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { escapeData, escapeProperty, formatAnnotation } from '../../server/src/output/github';
import type { PositionedDiagnostic } from '../../server/src/output/text';
import { Repo, runCli, ordersDdl, onlyRules } from './repo';

function finding(over: Partial<PositionedDiagnostic>): PositionedDiagnostic {
  return {
    file: '/x/db/a.sql',
    displayPath: 'db/a.sql',
    span: { start: 0, end: 1 },
    rule: 'identity-cache',
    severity: 'warning',
    message: 'm',
    line: 3,
    column: 5,
    endLine: 3,
    endColumn: 9,
    ...over,
  };
}

/** Undoes the runner's escaping, to check that messages survive the round trip. */
function unescape(value: string): string {
  return value.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');
}

describe('check --format github', () => {
  it('escapes %, CR and LF in messages, and also : and , in properties', () => {
    assert.equal(escapeData('100% done\r\nnext: a, b'), '100%25 done%0D%0Anext: a, b');
    assert.equal(escapeProperty('C:\\dir\\a,b.sql'), 'C%3A\\dir\\a%2Cb.sql');
    assert.equal(escapeProperty('%0A'), '%250A', 'an already escaped-looking value is escaped again');
    for (const text of ['a%0Ab', '50% of rows\nline two', ':,%\r']) assert.equal(unescape(escapeData(text)), text);
  });

  it('writes one workflow command per finding with position, title and the doc link', () => {
    const line = formatAnnotation(finding({ displayPath: 'db/odd, name: x.sql', message: 'NO CACHE: 28x slower (100%)\nsecond line' }));
    assert.equal(
      line,
      '::warning file=db/odd%2C name%3A x.sql,line=3,col=5,endLine=3,endColumn=9,title=InsertLint identity-cache::NO CACHE: 28x slower (100%25)%0Asecond line%0A%0ARule documentation: https://github.com/insertlint/insertlint/blob/main/rules/identity-cache.md',
    );
    assert.ok(!line.includes('\n'));
  });

  it('maps severities to error/warning/notice and drops columns on multi-line ranges', () => {
    assert.match(formatAnnotation(finding({ severity: 'error' })), /^::error /);
    assert.match(formatAnnotation(finding({ severity: 'information' })), /^::notice /);
    assert.match(formatAnnotation(finding({ severity: 'hint' })), /^::notice /);
    const multi = formatAnnotation(finding({ line: 3, endLine: 7, rule: 'not-a-rule' }));
    assert.match(multi, /^::warning file=db\/a\.sql,line=3,endLine=7,title=InsertLint not-a-rule::m$/);
  });

  it('annotates real findings and leaves out suppressed ones', async () => {
    const repo = new Repo();
    try {
      repo
        .write('.insertlintrc.json', onlyRules(['identity-cache']))
        .write('db/orders.sql', ordersDdl('NO CACHE') + 'INSERT INTO app.orders (cust) VALUES (?);\n')
        .write('db/quiet.sql', '-- insertlint-disable-file identity-cache: test data\n' + ordersDdl('NO CACHE').replace(/orders/g, 'quiet') + 'INSERT INTO app.quiet (cust) VALUES (?);\n');
      const result = await runCli(['check', '--format', 'github'], repo.dir);
      assert.equal(result.code, 1);
      const lines = result.stdout.trimEnd().split('\n');
      assert.equal(lines.length, 1, result.stdout);
      assert.match(lines[0], /^::warning file=db\/orders\.sql,line=2,col=57,endLine=2,endColumn=65,title=InsertLint identity-cache::IDENTITY column APP\.ORDERS\.ID/);
      // From a subfolder, paths stay relative to the repository root, as the runner expects.
      const fromSub = await runCli(['check', '--format', 'github', '.'], join(repo.dir, 'db'));
      assert.match(fromSub.stdout, /^::warning file=db\/orders\.sql,line=2,/);
    } finally {
      repo.dispose();
    }
  });
});
