// The rule tester drives the real engine: configuration layers and inline suppressions apply to rules.
import * as assert from 'node:assert/strict';
import { expectFindings, expectNoFindings, findings, lint } from '../helpers/rule-tester';
import type { ConfigFile } from '../../server/src/engine/config';

const SCHEMA = 'CREATE TABLE T (\n  ID INT GENERATED ALWAYS AS IDENTITY (NO CACHE),\n  V INT\n);\n';
const LOAD = 'INSERT INTO T (V) VALUES (?);\n';

describe('configuration and suppressions through the rule tester', () => {
  it('applies a severity override and turns a rule off', () => {
    const [finding] = findings({ 'schema.sql': SCHEMA, 'load.sql': LOAD }, 'identity-cache', { config: { rules: { 'identity-cache': 'error' } } });
    assert.equal(finding.severity, 'error');
    expectNoFindings({ 'schema.sql': SCHEMA, 'load.sql': LOAD }, 'identity-cache', { config: { rules: { 'identity-cache': 'off' } } });
  });

  it('keeps default options that an override does not name', () => {
    const config = { rules: { 'identity-cache': ['warning', { threshold: 10 }] as ['warning', Record<string, number>] } };
    const [finding] = findings({ 'schema.sql': SCHEMA, 'load.sql': LOAD }, 'identity-cache', { config });
    assert.match(finding.message, /Use CACHE 1000\./);
  });

  it('suppresses the next line with a reason, and marks it when suppressed findings are kept', () => {
    const schema = 'CREATE TABLE T (\n  -- insertlint-disable-next-line identity-cache: values must be gap-free for auditors\n  ID INT GENERATED ALWAYS AS IDENTITY (NO CACHE),\n  V INT\n);\n';
    expectNoFindings({ 'schema.sql': schema, 'load.sql': LOAD }, 'identity-cache');
    const [kept] = findings({ 'schema.sql': schema, 'load.sql': LOAD }, 'identity-cache', { includeSuppressed: true });
    assert.deepEqual(kept.suppressed, { kind: 'line', justification: 'values must be gap-free for auditors' });
    expectNoFindings({ 'schema.sql': schema, 'load.sql': LOAD }, 'unused-suppression');
  });

  it('suppresses a rule for a whole file', () => {
    const schema = `-- insertlint-disable-file identity-cache\n${SCHEMA}`;
    expectNoFindings({ 'schema.sql': schema, 'load.sql': LOAD }, 'identity-cache');
    // Other rules still report in that file.
    assert.ok(lint({ 'schema.sql': schema + 'CREATE INDEX T_V ON T (V) CLUSTER;\n', 'load.sql': LOAD + LOAD }, { config: { bulkRowThreshold: 2 } }).some((f) => f.rule === 'clustered-index-bulk-target'));
  });

  it('reports a suppression that matches nothing, and one that names an unknown rule', () => {
    const schema = `${SCHEMA}-- insertlint-disable-next-line lob-column: no LOB here\nCREATE TABLE U (A INT);\n-- insertlint-disable-next-line no-such-rule\nCREATE TABLE W (A INT);\n`;
    // U and W receive rows: without inserts a suppression on their DDL could not be judged (signal.test.ts).
    const unused = lint({ 'schema.sql': schema, 'load.sql': LOAD + 'INSERT INTO U SELECT A FROM S;\nINSERT INTO W SELECT A FROM S;\n' }).filter((f) => f.rule === 'unused-suppression');
    assert.deepEqual(
      unused.map((f) => [f.line, f.column, f.severity]),
      [
        [5, 1, 'warning'],
        [7, 1, 'warning'],
      ],
    );
    assert.match(unused[0].message, /matches no finding on the next line/);
    assert.match(unused[1].message, /names unknown rule no-such-rule/);
  });

  it('suppresses findings on its own line with a trailing insertlint-disable-line, in -- and /* */ comments', () => {
    for (const comment of ['-- insertlint-disable-line identity-cache: gap-free numbers', '/* insertlint-disable-line identity-cache: gap-free numbers */']) {
      const schema = `CREATE TABLE T (\n  ID INT GENERATED ALWAYS AS IDENTITY (NO CACHE), ${comment}\n  V INT\n);\n`;
      expectNoFindings({ 'schema.sql': schema, 'load.sql': LOAD }, 'identity-cache');
      const [kept] = findings({ 'schema.sql': schema, 'load.sql': LOAD }, 'identity-cache', { includeSuppressed: true });
      assert.deepEqual(kept.suppressed, { kind: 'line', justification: 'gap-free numbers' }, comment);
      expectNoFindings({ 'schema.sql': schema, 'load.sql': LOAD }, 'unused-suppression');
    }
    // Only its own line: a finding on the next line stays.
    const above = 'CREATE TABLE T ( -- insertlint-disable-line identity-cache\n  ID INT GENERATED ALWAYS AS IDENTITY (NO CACHE),\n  V INT\n);\n';
    assert.equal(findings({ 'schema.sql': above, 'load.sql': LOAD }, 'identity-cache').length, 1);
    const unused = lint({ 'schema.sql': above, 'load.sql': LOAD }).filter((f) => f.rule === 'unused-suppression');
    assert.deepEqual(unused.map((f) => [f.line, f.column, f.message]), [[1, 18, 'This insertlint-disable-line comment matches no finding on its own line; remove it.']]);
  });

  it('reports an insertlint-disable-line naming an unknown rule, and a comment that only looks like a directive', () => {
    const schema = `${SCHEMA}CREATE TABLE U (A INT); -- insertlint-disable-line lob-colum\n-- insertlint-disable identity-cache\n/* insertlint-disable-nextline identity-cache */\n`;
    const unused = lint({ 'schema.sql': schema, 'load.sql': LOAD + 'INSERT INTO U SELECT A FROM S;\n' }).filter((f) => f.rule === 'unused-suppression');
    assert.deepEqual(
      unused.map((f) => [f.line, f.column, f.message]),
      [
        [5, 25, 'This insertlint-disable-line comment names unknown rule lob-colum (did you mean lob-column?).'],
        [6, 1, 'This comment is not an InsertLint directive: insertlint-disable is unknown (use insertlint-disable-line, insertlint-disable-next-line or insertlint-disable-file), so it suppresses nothing.'],
        [7, 1, 'This comment is not an InsertLint directive: insertlint-disable-nextline is unknown (use insertlint-disable-line, insertlint-disable-next-line or insertlint-disable-file), so it suppresses nothing.'],
      ],
    );
    // They suppress nothing: the identity-cache finding stays.
    assert.equal(findings({ 'schema.sql': schema, 'load.sql': LOAD }, 'identity-cache').length, 1);
  });

  it('lets .insertlintrc.json set the severity of unused suppressions or turn them off', () => {
    const schema = `${SCHEMA}-- insertlint-disable-next-line lob-column\nCREATE TABLE U (A INT);\n`;
    const unused = (config: ConfigFile) => lint({ 'schema.sql': schema, 'load.sql': LOAD + 'INSERT INTO U SELECT A FROM S;\n' }, { config }).filter((f) => f.rule === 'unused-suppression');
    assert.deepEqual(unused({ rules: { 'unused-suppression': 'error' } }).map((f) => f.severity), ['error']);
    assert.deepEqual(unused({ rules: { 'unused-suppression': 'off' } }), []);
  });

  it('expectFindings fails on a wrong position, a wrong message and an extra finding', () => {
    const files = { 'schema.sql': SCHEMA, 'load.sql': LOAD };
    assert.throws(() => expectFindings(files, 'identity-cache', [{ file: 'schema.sql', line: 2, column: 1 }]));
    assert.throws(() => expectFindings(files, 'identity-cache', [{ file: 'schema.sql', line: 2, column: 40, message: /CACHE 20/ }]));
    assert.throws(() => expectFindings(files, 'identity-cache', []));
    assert.throws(() => findings(files, 'no-such-rule'));
  });
});
