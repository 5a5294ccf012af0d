// schemas/insertlintrc.schema.json must describe exactly the registered rules and agree with validateConfig.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { ENGINE_FINDINGS, validateConfig } from '../../server/src/engine/config';
import { allRules } from '../../server/src/engine/registry';

const SCHEMA_PATH = join(__dirname, '..', '..', '..', 'schemas', 'insertlintrc.schema.json');

describe('schemas/insertlintrc.schema.json', () => {
  const schema = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8'));
  // [severity] alone is a valid setting, so the tuple is not "full" in Ajv's strict sense.
  const validate = new Ajv({ allErrors: true, strictTuples: false }).compile(schema);
  const ruleProps: Record<string, { anyOf: [unknown, { items: [unknown, { properties: Record<string, { type: string; default: unknown }> }] }] }> =
    schema.properties.rules.properties;

  it('lists every registered rule and engine finding and no other (regenerate with node scripts/gen-config-schema.mjs)', () => {
    assert.deepEqual(Object.keys(ruleProps).sort(), [...allRules().map((r) => r.meta.id), ...ENGINE_FINDINGS].sort());
  });

  it('gives each rule its options with their types and defaults', () => {
    for (const rule of allRules()) {
      const options = ruleProps[rule.meta.id].anyOf[1].items[1].properties;
      const expected = Object.fromEntries(Object.entries(rule.meta.defaultOptions ?? {}).map(([k, v]) => [k, { type: typeof v, default: v }]));
      assert.deepEqual(options, expected, rule.meta.id);
    }
  });

  const good = {
    $schema: './schemas/insertlintrc.schema.json',
    rules: { 'identity-cache': ['error', { threshold: 500 }], 'lob-column': 'off', 'insert-target-cost': 'hint', 'unused-suppression': 'off' },
    ignore: ['generated/**'],
    languages: { '.sqlx': 'sql', '.sh': null },
    maxFileBytes: 1000000,
  };
  const bad: [string, unknown][] = [
    ['an unknown rule', { rules: { 'no-such-rule': 'warning' } }],
    ['a bad severity', { rules: { 'identity-cache': 'fatal' } }],
    ['an unknown option', { rules: { 'identity-cache': ['warning', { cache: 5 }] } }],
    ['options for an engine finding', { rules: { 'unused-suppression': ['warning', { threshold: 1 }] } }],
    ['an option of the wrong type', { rules: { 'identity-cache': ['warning', { threshold: 'big' }] } }],
    ['an unknown top-level key', { rule: {} }],
    ['an extension without a dot', { languages: { sql: 'sql' } }],
    ['an unknown language', { languages: { '.x': 'fortran' } }],
    ['a non-positive maxFileBytes', { maxFileBytes: 0 }],
  ];

  it('accepts what validateConfig accepts', () => {
    assert.ok(validate(good), JSON.stringify(validate.errors));
    assert.doesNotThrow(() => validateConfig(good, allRules(), 'test'));
  });

  for (const [what, config] of bad) {
    it(`rejects ${what}, as validateConfig does`, () => {
      assert.equal(validate(config), false);
      assert.throws(() => validateConfig(config, allRules(), 'test'));
    });
  }
});
