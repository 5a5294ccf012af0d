// Finding schema files from the "schema" entries: files of any name, folders, globs, paths outside the
// repository; missing entries and unreadable files become messages, never failures.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../../server/src/engine/config';
import { allRules } from '../../server/src/engine/registry';
import { Workspace } from '../../server/src/engine/workspace';
import { anchorSchemaEntries, globRegExp, loadSchemaFiles, resolveSchemaEntries } from '../../server/src/schema/schema-files';

describe('schema entries', () => {
  let root: string;
  const write = (path: string, text = 'CREATE TABLE T (C INTEGER);\n') => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'insertlint-schema-'));
    write('repo/db/ddl/orders.sql');
    write('repo/db/ddl/v2/lines.ddl');
    write('repo/db/ddl/README.md', '# not SQL');
    write('repo/db/ddl/node_modules/x.sql');
    write('dba/prod.db2look');
    write('dba/test.db2look');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const rel = (files: string[]) => files.map((f) => f.slice(root.length + 1).split('\\').join('/'));

  it('anchors entries at the folder of the file that names them; absolute ones stay', () => {
    assert.deepEqual(anchorSchemaEntries(['db/*.sql', '/abs/x.sql'], '/repo'), [join('/repo', 'db/*.sql'), '/abs/x.sql']);
    assert.equal(anchorSchemaEntries(undefined, '/repo'), undefined);
  });

  it('expands files of any name, folders (their SQL files) and globs, outside the repository too, each once', () => {
    const entries = anchorSchemaEntries(['db/ddl', '../dba/prod.db2look', 'db/ddl/**/*.{sql,ddl}', '../dba/*.db2look'], join(root, 'repo'))!;
    const list = resolveSchemaEntries(entries, resolveConfig(allRules()));
    assert.deepEqual(rel(list.files), ['repo/db/ddl/orders.sql', 'repo/db/ddl/v2/lines.ddl', 'dba/prod.db2look', 'dba/test.db2look']);
    assert.deepEqual(list.problems, []);
  });

  it('says which entries matched nothing', () => {
    const entries = anchorSchemaEntries(['db/missing.sql', 'db/**/*.ddl2', 'docs'], join(root, 'repo'))!;
    mkdirSync(join(root, 'repo', 'docs'));
    const list = resolveSchemaEntries(entries);
    assert.deepEqual(list.files, []);
    assert.equal(list.problems.length, 3);
    assert.match(list.problems[0], /schema file .*missing\.sql does not exist/);
    assert.match(list.problems[1], /schema glob .*\*\.ddl2 matches no file/);
    assert.match(list.problems[2], /schema folder .*docs holds no SQL files/);
  });

  it('translates globs: ** spans folders (none included), * and ? stay within one, {a,b} alternates', () => {
    const re = globRegExp('**/ddl/*.s?l');
    assert.ok(re.test('ddl/a.sql'));
    assert.ok(re.test('x/y/ddl/a.sql'));
    assert.ok(!re.test('ddl/sub/a.sql'));
    assert.ok(!re.test('ddl/a.sqll'));
    assert.ok(globRegExp('*.{db2look,out}').test('prod.out'));
    assert.ok(!globRegExp('*.{db2look,out}').test('prod.sql'));
    assert.ok(globRegExp('a+b(1).sql').test('a+b(1).sql'), 'regular-expression characters are literal');
  });

  it('loads the files into the workspace, drops those no longer named, and reports unreadable ones', () => {
    write('dba/broken.db2look', 'CREATE TABLE T (C INTEGER;\nCREATE INDEX I ON T (C);\n');
    writeFileSync(join(root, 'dba', 'binary.db2look'), Buffer.from([0, 1, 2, 0, 0, 3]));
    const config = resolveConfig(allRules());
    const workspace = new Workspace(config);
    const first = loadSchemaFiles(workspace, [join(root, 'dba/*.db2look')], config);
    assert.deepEqual(rel(first.files), ['dba/broken.db2look', 'dba/prod.db2look', 'dba/test.db2look']);
    assert.equal(first.problems.length, 2);
    assert.match(first.problems[0], /binary\.db2look skipped: it looks binary/);
    assert.match(first.problems[1], /broken\.db2look: 1 DDL statement could not be read \(the first at line 1: .*\); what they define is missing from the schema/);
    const second = loadSchemaFiles(workspace, [join(root, 'dba/prod.db2look')], config);
    assert.deepEqual(rel(workspace.schemaFilePaths()), ['dba/prod.db2look']);
    assert.deepEqual(second.problems, []);
  });

  it('takes the text of a file the caller has already read instead of reading it from disk again', () => {
    const config = resolveConfig(allRules());
    const workspace = new Workspace(config);
    const prod = join(root, 'dba/prod.db2look');
    // What `check` read a moment ago, before the file on disk changed: the run works with one text of each file.
    const loaded = loadSchemaFiles(workspace, [join(root, 'dba/*.db2look')], config, (path) => (path === prod ? 'CREATE TABLE ALREADY.READ (C INTEGER);\n' : undefined));
    assert.deepEqual(rel(loaded.files), ['dba/prod.db2look', 'dba/test.db2look']);
    assert.ok(workspace.schema.tables.has('ALREADY.READ'), 'the text handed in is the schema');
    assert.ok(workspace.schema.tables.has('.T'), 'the other file is read from disk');
  });
});
