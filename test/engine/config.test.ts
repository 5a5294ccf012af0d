// Which files are linted as which language, and how configuration layers combine.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import ignore from 'ignore';
import { ConfigError, DEFAULT_TEST_FILES, isTestFile, languageOf, requiredLiterals, resolveConfig, validateConfig } from '../../server/src/engine/config';
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

describe('engine: test code ("testFiles")', () => {
  const rules = allRules();

  it('matches no path that holds none of the globs\' literal pieces (the check before the globs are compiled)', () => {
    const custom = ['**/fixtures/**', 'db/seed-*.sql', '**/*.[ch]_spec', 'qa/{a,b}/**', ' trailing/   '];
    assert.equal(requiredLiterals(['**/*.sql', '!keep.sql']), undefined);
    assert.equal(requiredLiterals(['**/*']), undefined);
    assert.equal(requiredLiterals(['a\\*b']), undefined);
    const segment = fc.constantFrom('test', 'tests', '__tests__', 'Test', 'src', 'integrationTest', 'fixtures', 'db', 'qa', 'a', 'b', 'trailing', 'seed-x.sql', 'LoadIT.java', 'LoadTest.java', 'test_x.py', 'x_test.py', 'conftest.py', 'x.test.ts', 'x.spec.mjs', 'x_test.cc', 'y.c_spec', 'load.sql', 'contest', 'attest.sql');
    for (const globs of [DEFAULT_TEST_FILES, custom]) {
      const matcher = ignore({ ignorecase: false }).add([...globs]);
      const literals = requiredLiterals(globs)!;
      assert.ok(literals.length === globs.length, String(globs));
      fc.assert(
        fc.property(fc.array(segment, { minLength: 1, maxLength: 6 }), (parts) => {
          const path = parts.join('/');
          if (matcher.ignores(path)) assert.ok(literals.some((l) => path.includes(l)), `${path} matches ${globs.join(' ')} without any of ${literals.join(' ')}`);
        }),
        { numRuns: 2000 },
      );
    }
  });

  it('knows the common test layouts by default, case-sensitively, and not production names that end alike', () => {
    const config = resolveConfig(rules);
    config.root = '/repo';
    const test = [
      'src/test/java/io/acme/LoadIT.java',
      'src/test/docker/init.sql',
      'src/integrationTest/resources/data.sql',
      'test/fixtures/orders.sql',
      'pkg/tests/test_loader.py',
      'web/__tests__/db.ts',
      'app/OrderDaoTest.java',
      'app/OrderDaoIT.java',
      'loader_test.py',
      'db/client.test.ts',
      'db/client.spec.mjs',
      'conftest.py',
    ];
    const production = [
      'src/main/java/io/acme/Audit.java',
      'src/main/java/io/acme/Deposit.java',
      'src/main/java/io/acme/Latest.java',
      'contest/load.sql',
      'testing_tools.py',
      'db/ora/package.spec.sql',
      'Test/load.sql',
      'src/main/resources/db/attest.sql',
    ];
    for (const path of test) assert.equal(isTestFile(`/repo/${path}`, config), true, path);
    for (const path of production) assert.equal(isTestFile(`/repo/${path}`, config), false, path);
  });

  it('matches from the configuration folder, or the run folder without one: folders above it are not the project', () => {
    const config = resolveConfig(rules);
    config.root = '/home/dev/test/shop';
    assert.equal(isTestFile('/home/dev/test/shop/db/load.sql', config), false);
    assert.equal(isTestFile('/home/dev/test/shop/db/test/load.sql', config), true);
    const withFile = resolveConfig(rules);
    withFile.source = '/home/dev/tests/shop/.insertlintrc.json';
    withFile.root = '/home/dev/tests/shop/db';
    assert.equal(isTestFile('/home/dev/tests/shop/db/load.sql', withFile), false);
    // A file outside that folder (a corpus linted from elsewhere) is matched below the folders it shares with it:
    // the tests/ both are kept in says nothing of either.
    assert.equal(isTestFile('/data/corpus/debezium/src/test/java/Db2ConnectorIT.java', withFile), true);
    assert.equal(isTestFile('/home/dev/tests/other/db/load.sql', withFile), false);
    assert.equal(isTestFile('/home/dev/tests/other/src/test/load.sql', withFile), true);
    assert.equal(isTestFile('/home/dev/test/other/db/load.sql', config), false);
    assert.equal(isTestFile('C:/work/tests/other/db/load.sql', Object.assign(resolveConfig(rules), { root: 'C:/work/tests/shop' })), false);
    assert.equal(isTestFile('./test/load.sql', resolveConfig(rules)), true);
  });

  it('without a configuration file, matches from the repository holding the file when it does not hold the run folder', () => {
    const repositories = ['/home/dev/src/test', '/home/dev/src/shop', '/home/dev', 'C:/work/tests'];
    const config = resolveConfig(rules);
    config.root = '/home/dev/src';
    config.repositoryOf = (path) => repositories.find((r) => path.startsWith(`${r}/`));
    // A checkout named test/ below the run folder is a project of its own; its own test layout still counts.
    assert.equal(isTestFile('/home/dev/src/test/load.sql', config), false);
    assert.equal(isTestFile('/home/dev/src/test/db/load.sql', config), false);
    assert.equal(isTestFile('/home/dev/src/test/src/test/java/LoadIT.java', config), true);
    assert.equal(isTestFile('/home/dev/src/shop/src/test/resources/load.sql', config), true);
    assert.equal(isTestFile('/home/dev/src/shop/src/main/resources/load.sql', config), false);
    // A repository that holds the run folder too (a home folder kept in git) leaves the run folder the base.
    assert.equal(isTestFile('/home/dev/src/tests/load.sql', config), true);
    const inHome = Object.assign(resolveConfig(rules), { root: '/home/dev/tests/shop', repositoryOf: config.repositoryOf });
    assert.equal(isTestFile('/home/dev/tests/shop/db/load.sql', inHome), false);
    // Outside the run folder, the file's repository is its project rather than the folders it shares with it.
    assert.equal(isTestFile('C:/work/tests/db/load.sql', Object.assign(resolveConfig(rules), { root: 'C:/other', repositoryOf: () => 'C:\\work\\tests' })), false);
    // A configuration file decides alone.
    const withFile = Object.assign(resolveConfig(rules), { source: '/home/dev/src/.insertlintrc.json', root: '/home/dev/src', repositoryOf: config.repositoryOf });
    assert.equal(isTestFile('/home/dev/src/test/load.sql', withFile), true);
  });

  it('takes the last layer that sets it, whole: [] turns it off, a list replaces the defaults', () => {
    assert.deepEqual(resolveConfig(rules).testFiles, DEFAULT_TEST_FILES);
    const off = resolveConfig(rules, { testFiles: ['fixtures/**'] }, { testFiles: [] });
    assert.equal(isTestFile('src/test/Load.java', off), false);
    const own = resolveConfig(rules, { testFiles: ['qa/**'] });
    assert.equal(isTestFile('qa/load.sql', own), true);
    assert.equal(isTestFile('src/test/LoadIT.java', own), false);
    assert.deepEqual(resolveConfig(rules, { testFiles: ['qa/**'] }, { rules: {} }).testFiles, ['qa/**']);
  });

  it('rejects a "testFiles" that is not a list of globs, naming the key', () => {
    for (const bad of ['test/**', [''], [3], { a: 1 }]) {
      assert.throws(() => validateConfig({ testFiles: bad }, rules, 'x.json'), (e: Error) => e instanceof ConfigError && /"testFiles" must be an array of glob strings/.test(e.message));
    }
    assert.deepEqual(validateConfig({ testFiles: [] }, rules, 'x.json'), { testFiles: [] });
  });
});
