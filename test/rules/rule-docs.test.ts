// Every rule of the catalogue ships a doc page (rules/<id>.md, embedded by the build) with the sections
// users look for, and its message templates use only placeholders the rule fills.
import * as assert from 'node:assert/strict';
import { findRule } from '../../server/src/engine/registry';

/** The rules whose docs follow the full template (the code-oriented rules are documented by their owner). */
const DOCUMENTED = [
  'append-mode-off',
  'append-pctfree',
  'check-constraint-bulk-target',
  'clustered-index-bulk-target',
  'enforced-foreign-key',
  'generated-column-bulk-target',
  'identity-cache',
  'import-commitcount',
  'index-count',
  'insert-target-cost',
  'insert-trigger',
  'lob-column',
  'mincommit',
  'not-logged-initially',
  'page-cleaning',
  'parse-error',
  'prefer-load-from-cursor',
  'refresh-immediate-mqt',
  'small-extent-size',
  'small-log-buffer',
  'sms-tablespace',
  'table-lock-bulk-target',
];

const SECTIONS = ['## Why it matters', '## How to fix', '## When to ignore', '## References'];

describe('rule docs', () => {
  for (const id of DOCUMENTED) {
    it(`${id} has a doc with the standard sections, examples and sources`, () => {
      const registered = findRule(id);
      assert.ok(registered, `${id} is not registered`);
      const { doc, rule } = registered;
      assert.ok(doc.startsWith(`# ${id}\n`), 'starts with the rule id as title');
      assert.match(doc, new RegExp(`\\*\\*Default severity:\\*\\* ${rule.meta.defaultSeverity}\\b`), 'states the default severity of the module');
      if (rule.meta.recommended === false) assert.match(doc, /\*\*off by default\*\*.*insertlint:all/, 'says it is off by default and how to turn it on');
      else assert.doesNotMatch(doc, /off by default/, 'does not claim to be off by default');
      for (const section of SECTIONS) assert.ok(doc.includes(`\n${section}\n`), `has "${section}"`);
      if (id !== 'insert-target-cost') {
        assert.ok(doc.includes('\n## Incorrect\n') && doc.includes('\n## Correct\n'), 'has incorrect and correct examples');
        assert.ok((doc.match(/```sql\n/g) ?? []).length >= 2, 'examples are SQL code blocks');
      }
      if (id !== 'parse-error') assert.match(doc, /Db2 INSERT tips|The z\/OS SSD study/, 'cites the measurements it rests on');
      assert.match(doc, /https:\/\/www\.ibm\.com\/docs\//, 'links to IBM documentation');
      for (const name of Object.keys(rule.meta.defaultOptions ?? {})) assert.ok(doc.includes(`\`${name}\``), `documents option ${name}`);
      if (rule.meta.fixable) assert.match(doc, /\*\*Quick fix:\*\* (?!none)/, 'says what the quick fix does');
    });
  }
});
