// Which files are linted as which language, and how configuration layers combine.
import * as assert from 'node:assert/strict';
import { languageOf, resolveConfig } from '../../server/src/engine/config';
import { allRules } from '../../server/src/engine/registry';

describe('engine: languages by extension', () => {
  const config = resolveConfig(allRules());

  it('knows SQL scripts, host languages and embedded SQL, case-insensitively except .sqC', () => {
    const cases: [string, string | undefined][] = [
      ['db/schema.SQL', 'sql'],
      ['load.clp', 'sql'],
      ['Loader.java', 'java'],
      ['ui/Grid.tsx', 'typescript'],
      ['ui/Grid.jsx', 'javascript'],
      ['prog.sqC', 'embedded-sql'],
      ['load.sh', 'shell'],
      ['README.md', undefined],
      ['Makefile', undefined],
      ['dir.with.dots/file', undefined],
    ];
    for (const [path, language] of cases) assert.equal(languageOf(path, config), language, path);
  });

  it('lets a config map a new extension and stop linting another', () => {
    const custom = resolveConfig(allRules(), { languages: { '.sqlx': 'sql', '.sh': null } });
    assert.equal(languageOf('a.sqlx', custom), 'sql');
    assert.equal(languageOf('a.sh', custom), undefined);
  });

  it('applies later layers over earlier ones and keeps rule options it does not name', () => {
    const resolved = resolveConfig(allRules(), { rules: { 'identity-cache': ['error', { threshold: 500 }] } }, { rules: { 'identity-cache': 'information' } });
    assert.deepEqual(resolved.rules.get('identity-cache'), { severity: 'information', options: { threshold: 500, suggestedCache: 1000 } });
    assert.equal(resolveConfig(allRules(), { rules: { 'lob-column': 'off' } }).rules.get('lob-column'), 'off');
  });
});
