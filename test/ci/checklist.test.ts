import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { Repo, runCli, ordersDdl, onlyRules } from './repo';
import { codeSpan, escapeMarkdown, firstSentence, MAX_ELSEWHERE_PER_FILE, renderChecklist, type ChecklistFinding } from '../../server/src/output/checklist';

const INSERT = 'INSERT INTO app.orders (cust) VALUES (?);\n';

/** The lines of a Markdown section, from its heading to the next heading of the same or a higher level. */
function section(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l === heading);
  assert.ok(start >= 0, `no "${heading}" in:\n${markdown}`);
  const level = heading.match(/^#+/)![0].length;
  const end = lines.findIndex((l, i) => i > start && /^#+ /.test(l) && l.match(/^#+/)![0].length <= level);
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

describe('insertlint checklist', () => {
  let repo: Repo;
  let base: string;
  beforeEach(() => {
    repo = new Repo();
    repo
      .write('.insertlintrc.json', onlyRules(['identity-cache', 'lob-column']))
      // An old finding that the change does not touch (the items table already had NO CACHE).
      .write('db/items.sql', ordersDdl('NO CACHE').replace(/orders/g, 'items') + 'INSERT INTO app.items (cust) VALUES (?);\n')
      .write('db/orders.sql', ordersDdl('CACHE 1000'))
      .write('db/index.sql', 'CREATE INDEX app.ix_orders_cust ON app.orders (cust);\n')
      .write('load/daily.sql', INSERT)
      .write('load/old.sql', INSERT)
      .write('README.md', 'docs\n');
    base = repo.commit('base');
  });
  afterEach(() => repo.dispose());

  function change(): void {
    // The change: NO CACHE on orders, the items file edited away from its finding, a trigger added,
    // a loader renamed with an edit, one deleted, a non-SQL file edited.
    repo.write('db/orders.sql', ordersDdl('NO CACHE'));
    repo.write('db/items.sql', '-- items: reference data\n' + ordersDdl('NO CACHE').replace(/orders/g, 'items') + 'INSERT INTO app.items (cust) VALUES (?);\n');
    repo.write('db/audit.sql', 'CREATE TABLE app.audit (id INTEGER, body CLOB(1M));\nCREATE TRIGGER app.orders_audit AFTER INSERT ON app.orders FOR EACH ROW INSERT INTO app.audit (id, body) VALUES (1, \'inserted\');\nINSERT INTO app.audit (id) VALUES (2);\n');
    // Renamed with an added COMMIT: its unchanged INSERT does not count as touching APP.ORDERS.
    repo.move('load/daily.sql', 'load/nightly.sql').write('load/nightly.sql', INSERT + 'COMMIT;\n');
    repo.remove('load/old.sql');
    repo.write('README.md', 'more docs\n');
    repo.commit('change');
  }

  it('lists findings on changed lines first, per file, with rule doc links, then the tables\' per-insert work and the verdict', async () => {
    change();
    const result = await runCli(['checklist', '--base', base], repo.dir);
    assert.equal(result.code, 1, result.stderr);
    const md = result.stdout;
    assert.match(md, /^## InsertLint review checklist$/m);
    assert.match(md, /6 changed files, 4 linted\./);

    const orders = section(md, '#### `db/orders.sql`');
    assert.match(orders, /On lines this change touches:\n\n- \[ \] `db\/orders\.sql:2` `identity-cache` \(warning \*\*blocking\*\*\): IDENTITY column APP\.ORDERS\.ID hands out values with NO CACHE[^\n]*\(\[why and how to fix\]\(https:\/\/github\.com\/insertlint\/insertlint\/blob\/main\/rules\/identity-cache\.md\)\)/);

    // items.sql changed only in a comment line: its old finding is listed, after, as not blocking.
    const items = section(md, '#### `db/items.sql`');
    assert.doesNotMatch(items, /On lines this change touches/);
    assert.match(items, /Elsewhere in this file \(already there before this change\):\n\n- \[ \] `db\/items\.sql:3` `identity-cache` \(warning\): IDENTITY column APP\.ITEMS\.ID/);

    const audit = section(md, '#### `db/audit.sql` (new file)');
    assert.match(audit, /`db\/audit\.sql:1` `lob-column` \(warning \*\*blocking\*\*\)/);
    assert.ok(md.indexOf('#### `db/audit.sql`') < md.indexOf('#### `db/items.sql`'), 'files in path order');

    assert.match(md, /Not linted: `README\.md` \([^)]*\), `load\/old\.sql` \(deleted\)\./);

    const tables = section(md, '### Per-insert work of the tables this change touches');
    const ordersTable = section(tables, '#### `APP.ORDERS` — INSERT trigger ORDERS\\_AUDIT added (db/audit.sql:2); CREATE TABLE edited (db/orders.sql:1)');
    assert.match(ordersTable, /\| Indexes \| 2 \(IX\\_ORDERS\\_CUST, 1 primary key\/unique constraint\) \| 2\.6x \(Db2 INSERT tips, test 33 vs 31: 2 indexes\) \|/);
    assert.match(ordersTable, /\| INSERT triggers \| 1 \(ORDERS\\_AUDIT\) \| 2\.1x \(Db2 INSERT tips, test 18 vs 11: 1 trigger doing an INSERT\) \|/);
    assert.match(ordersTable, /\| Identity cache \| ID: NO CACHE \| 28x \(Db2 INSERT tips, test 42 vs 41: identity NO CACHE\) \|/);
    assert.match(ordersTable, /Not on this table: Clustering index, Enforced foreign keys, Check constraints, REFRESH IMMEDIATE MQTs, LOB columns\./);
    const auditTable = section(tables, '#### `APP.AUDIT` — created (db/audit.sql:1); inserted into (db/audit.sql:3)');
    assert.match(auditTable, /\| LOB columns \| 1 \(BODY CLOB\) \| 9\.1x/);
    assert.doesNotMatch(tables, /APP\.ITEMS/, 'items.sql changed only a comment: its table is not touched');

    const verdict = section(md, '### Verdict');
    assert.match(verdict, /\*\*3 findings, 2 blocking\*\* \(blocking: on a changed line and warning or worse\); 2 on changed lines, 1 elsewhere in the changed files\./);
  });

  it('handles a renamed file: its findings are reported under the new name, from the old one', async () => {
    repo.move('db/items.sql', 'schema/items.sql');
    repo.commit('rename only');
    const result = await runCli(['checklist', '--base', base], repo.dir);
    const md = result.stdout;
    const items = section(md, '#### `schema/items.sql` (renamed from `db/items.sql`)');
    assert.match(items, /Elsewhere in this file[^\n]*\n\n- \[ \] `schema\/items\.sql:2` `identity-cache`/);
    assert.match(md, /\*\*1 finding, 0 blocking\*\*/);
    assert.equal(result.code, 0, 'a pure rename adds nothing blocking');
  });

  it('says so when nothing changed, and exits 0', async () => {
    const result = await runCli(['checklist', '--base', 'HEAD'], repo.dir);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /0 changed files, 0 linted/);
    assert.equal(result.stderr, '');
    // A new file not yet added is in no diff: it is named on stderr, and `git add -N` brings it in.
    repo.write('load/new.clp', INSERT);
    const untracked = await runCli(['checklist', '--base', 'HEAD'], repo.dir);
    assert.match(untracked.stderr, /^insertlint checklist: 1 untracked file is not part of the change \(load\/new\.clp\); git add \(or git add -N\) to include it\n$/);
    assert.match(untracked.stdout, /0 changed files, 0 linted/);
    repo.git('add', '-N', 'load/new.clp');
    const intended = await runCli(['checklist', '--base', 'HEAD'], repo.dir);
    assert.equal(intended.stderr, '');
    assert.match(intended.stdout, /1 changed file, 1 linted/);
    assert.match(result.stdout, /No findings in the changed files\./);
    assert.match(result.stdout, /\*\*0 findings, 0 blocking\*\*/);
  });

  it('--fail-on never keeps the exit code 0 and says nothing blocks', async () => {
    change();
    const result = await runCli(['checklist', '--base', base, '--fail-on', 'never'], repo.dir);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /\*\*3 findings, 0 blocking\*\* \(nothing blocks/);
  });

  it('shows what a deleted DDL file takes away from a table', async () => {
    repo.remove('db/index.sql');
    repo.commit('drop the customer index');
    const result = await runCli(['checklist', '--base', base], repo.dir);
    assert.equal(result.code, 0, result.stderr);
    const table = section(result.stdout, '#### `APP.ORDERS` — index IX\\_ORDERS\\_CUST deleted (db/index.sql:1)');
    assert.match(table, /\| Indexes \| 1 \(1 primary key\/unique constraint\) \| 1\.7x/);
    assert.match(result.stdout, /Not linted: `db\/index\.sql` \(deleted\)\./);
  });

  it('builds the schema from the whole tree even when only a loader changed', async () => {
    repo.write('load/daily.sql', INSERT + INSERT);
    repo.commit('loader only');
    const md = (await runCli(['checklist', '--base', base], repo.dir)).stdout;
    // The index lives in db/index.sql, which did not change.
    assert.match(md, /#### `APP\.ORDERS` — inserted into \(load\/daily\.sql:2\)/);
    assert.match(md, /\| Indexes \| 2 \(IX\\_ORDERS\\_CUST/);
  });

  it('works on a shallow clone with enough history, and explains how to fetch a missing base', async () => {
    change();
    const deep = repo.clone(2);
    const shallow = repo.clone(1);
    try {
      const ok = await runCli(['checklist', '--base', base], deep.dir);
      assert.equal(ok.code, 1, ok.stderr);
      assert.match(ok.stdout, /`db\/orders\.sql:2` `identity-cache`/);
      const missing = await runCli(['checklist', '--base', base], shallow.dir);
      assert.equal(missing.code, 2);
      assert.equal(missing.stdout, '');
      assert.match(missing.stderr, /is not in this repository\. This is a shallow clone.*fetch-depth: 0.*git fetch --deepen/);
    } finally {
      deep.dispose();
      shallow.dispose();
    }
  });

  it('shows paths relative to the repository root when run from a subfolder', async () => {
    change();
    const result = await runCli(['checklist', '..', '--base', base], join(repo.dir, 'db'));
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, /- \[ \] `db\/orders\.sql:2` `identity-cache`/);
    assert.match(result.stdout, /Not linted: `README\.md`/);
    assert.match(result.stdout, /CREATE TABLE edited \(db\/orders\.sql:1\)/);
  });

  it('needs --base and a git repository', async () => {
    const noBase = await runCli(['checklist'], repo.dir);
    assert.equal(noBase.code, 2);
    assert.match(noBase.stderr, /--base REV is required/);
    const badFormat = await runCli(['checklist', '--base', 'HEAD', '--format', 'html'], repo.dir);
    assert.equal(badFormat.code, 2);
  });
});

describe('check --only-changed --base', () => {
  it('reports only findings on changed lines and says how many it left out', async () => {
    const repo = new Repo();
    try {
      repo
        .write('.insertlintrc.json', onlyRules(['identity-cache']))
        .write('db/orders.sql', ordersDdl('CACHE 1000') + INSERT)
        .write('db/items.sql', ordersDdl('NO CACHE').replace(/orders/g, 'items') + 'INSERT INTO app.items (cust) VALUES (?);\n')
        .write('db/other.sql', ordersDdl('NO CACHE').replace(/orders/g, 'other') + 'INSERT INTO app.other (cust) VALUES (?);\n');
      const base = repo.commit('base');
      repo.write('db/orders.sql', ordersDdl('NO CACHE') + INSERT);
      repo.write('db/items.sql', '-- comment\n' + ordersDdl('NO CACHE').replace(/orders/g, 'items') + 'INSERT INTO app.items (cust) VALUES (?);\n');
      // Not committed: the work tree counts, as in a pre-commit hook.
      const result = await runCli(['check', '--only-changed', '--base', base, '--format', 'json'], repo.dir);
      assert.equal(result.code, 1, result.stderr);
      const report = JSON.parse(result.stdout);
      assert.deepEqual(
        report.diagnostics.map((d: { file: string; line: number }) => [d.file, d.line]),
        [['db/orders.sql', 2]],
      );
      assert.match(result.stderr, /2 of 2 files changed since [0-9a-f]+ linted; 1 more finding in those files outside the changed lines not shown/);
      const needsBase = await runCli(['check', '--only-changed'], repo.dir);
      assert.equal(needsBase.code, 2);
      assert.match(needsBase.stderr, /--only-changed needs --base/);
    } finally {
      repo.dispose();
    }
  });
});

describe('checklist rendering', () => {
  const finding = (line: number, over: Partial<ChecklistFinding> = {}): ChecklistFinding => ({
    displayPath: 'db/a.sql',
    line,
    column: 1,
    rule: 'identity-cache',
    severity: 'warning',
    message: 'First sentence. Second sentence.',
    blocking: false,
    ...over,
  });

  it('escapes Markdown in messages and keeps one line per item', () => {
    assert.equal(escapeMarkdown('SELECT * FROM t_x | <b>\n[x]'), 'SELECT \\* FROM t\\_x \\| \\<b\\> \\[x\\]');
    assert.equal(codeSpan('a`b'), '``a`b``');
    assert.equal(codeSpan('`x'), '`` `x ``');
    assert.equal(firstSentence('Column NOTE is CLOB(10): slow. Use VARCHAR.'), 'Column NOTE is CLOB(10): slow.');
    assert.equal(firstSentence('x'.repeat(300)).length, 220);
    assert.equal(firstSentence('Version 1.5 of the app. Next.'), 'Version 1.5 of the app.');
  });

  it('shows at most a few old findings per file and counts the rest', () => {
    const md = renderChecklist({
      base: 'main',
      baseCommit: 'abcdef0123456789',
      mergeBase: true,
      changedFileCount: 1,
      files: [
        {
          displayPath: 'db/a.sql',
          status: 'modified',
          onChangedLines: [finding(1, { blocking: true, message: 'New * problem. More.' })],
          elsewhere: Array.from({ length: MAX_ELSEWHERE_PER_FILE + 3 }, (_, i) => finding(i + 10)),
          suppressed: 2,
        },
      ],
      notLinted: [],
      tables: [],
      failOn: 'warning',
    });
    assert.match(md, /- \[ \] `db\/a\.sql:1` `identity-cache` \(warning \*\*blocking\*\*\): New \\\* problem\.\n/);
    assert.equal(md.split('\n').filter((l) => l.startsWith('- [ ] `db/a.sql:')).length, 1 + MAX_ELSEWHERE_PER_FILE);
    assert.match(md, /- … and 3 more findings \(run `insertlint check db\/a\.sql` to see them\)/);
    assert.match(md, /_2 findings suppressed by insertlint-disable comments\._/);
    assert.match(md, /\*\*14 findings, 1 blocking\*\*/);
    assert.match(md, /The change inserts into, creates or alters no table that InsertLint can see\./);
  });
});
