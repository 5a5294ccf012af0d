// Rules read partial statements of half-typed SQL (the editor case): none may throw on any prefix of
// the sample workload, nor on every statement cut short.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lint } from '../helpers/rule-tester';

const SAMPLES = join(__dirname, '..', '..', '..', 'samples');
const schema = readFileSync(join(SAMPLES, 'schema.sql'), 'utf8');
const load = readFileSync(join(SAMPLES, 'load.clp'), 'utf8');

describe('rules on broken and partial SQL', () => {
  it('never throw on any prefix of the sample schema (load script intact)', () => {
    for (let end = 0; end <= schema.length; end += 5) {
      assert.doesNotThrow(() => lint({ 'schema.sql': schema.slice(0, end), 'load.clp': load }), `schema cut at ${end}`);
    }
  });

  it('never throw on any prefix of the sample load script (schema intact)', () => {
    for (let end = 0; end <= load.length; end += 3) {
      assert.doesNotThrow(() => lint({ 'schema.sql': schema, 'load.clp': load.slice(0, end) }), `load cut at ${end}`);
    }
  });

  it('never throw when every statement loses its tail', () => {
    const cut = (text: string) => text.split(';').map((s) => s.slice(0, Math.floor(s.length * 0.6))).join(';');
    assert.doesNotThrow(() => lint({ 'schema.sql': cut(schema), 'load.clp': cut(load) }));
  });
});
