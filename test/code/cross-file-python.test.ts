// A loop in one Python module that calls a function another module defines (`from app.dao import save_row`, then
// `for r in rows: save_row(r)`), where that function runs a single-row INSERT and commits: the engine lends the
// loop to the function's execution and commit (engine/cross-file.ts), through what the caller's imports say.
import * as assert from 'node:assert/strict';
import { brief, INSERT_RULES, lintCode, posOf } from './helpers';
import { callerIndex, modulesOf, withCallersLoops } from '../../server/src/engine/cross-file';
import { pythonImports } from '../../server/src/code/languages/python-imports';
import type { FileModel } from '../../server/src/engine/types';
import { changedNames, schemaFacts } from '../../server/src/lsp/model-queries';
import type { SqlExecution } from '../../server/src/code-model/types';
import { growthRatio } from '../robustness/support';

const DAO = `import ibm_db_dbi

conn = ibm_db_dbi.connect("DATABASE=sample")


def save_row(r):
    cur = conn.cursor()
    cur.execute("INSERT INTO APP.ORDERS (ID, NAME) VALUES (?, ?)", (r.id, r.name))
    conn.commit()


def count():
    return 1
`;

const CALLER = `from app.dao import save_row


def load(rows):
    for r in rows:
        save_row(r)
`;

describe("code: Python loops calling another module's function that inserts a row", () => {
  it('from-import call in a loop: single-row-insert and commit-per-row in the DAO file, naming the caller', async () => {
    const { findings } = await lintCode({ 'app/dao.py': DAO, 'app/service.py': CALLER });
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `single-row-insert@${posOf(DAO, 'cur.execute')}`,
      `commit-per-row@${posOf(DAO, 'conn.commit')}`,
    ]);
    const single = findings.find((f) => f.rule === 'single-row-insert')!;
    assert.equal(single.file, 'app/dao.py');
    assert.match(single.message, /in the for loop at service\.py:5 \(through save_row\(\)\)/);
    const commit = findings.find((f) => f.rule === 'commit-per-row')!;
    assert.match(commit.message, /for loop at service\.py:5/);
  });

  it('a module alias (import app.dao as dao; dao.save_row(r)), from app import dao, and the package __init__.py', async () => {
    const alias = `import app.dao as dao\n\n\ndef load(rows):\n    for r in rows:\n        dao.save_row(r)\n`;
    const a = await lintCode({ 'app/dao.py': DAO, 'jobs/load.py': alias });
    assert.deepEqual(brief(a.findings, ['single-row-insert']), [`single-row-insert@${posOf(DAO, 'cur.execute')}`]);
    assert.match(a.findings.find((f) => f.rule === 'single-row-insert')!.message, /for loop at load\.py:5/);
    const fromPackage = `from app import dao\n\n\ndef load(rows):\n    while rows:\n        dao.save_row(rows.pop())\n`;
    const b = await lintCode({ 'app/dao/__init__.py': DAO, 'jobs/load.py': fromPackage });
    assert.deepEqual(brief(b.findings, ['single-row-insert']), [`single-row-insert@${posOf(DAO, 'cur.execute')}`]);
    assert.match(b.findings.find((f) => f.rule === 'single-row-insert')!.message, /while loop at load\.py:5/);
    // The module's full name (import app.dao; app.dao.save_row(r)), a comprehension, and a decorated function.
    const full = `import app.dao\n\n\ndef load(rows):\n    return [app.dao.save_row(r) for r in rows]\n`;
    const decorated = DAO.replace('def save_row(r):', '@retry(3)\ndef save_row(r):');
    const c = await lintCode({ 'app/dao.py': decorated, 'jobs/load.py': full });
    assert.deepEqual(brief(c.findings, ['single-row-insert']), [`single-row-insert@${posOf(decorated, 'cur.execute')}`]);
  });

  it('a relative import, resolved against the caller\'s package', async () => {
    const relative = `from . import dao\nfrom .dao import save_row as save\n\n\ndef load(rows):\n    for r in rows:\n        dao.save_row(r)\n\n\ndef again(rows):\n    for r in rows:\n        save(r)\n`;
    const { findings } = await lintCode({ 'proj/app/dao.py': DAO, 'proj/app/service.py': relative });
    assert.deepEqual(brief(findings, ['single-row-insert']), [`single-row-insert@${posOf(DAO, 'cur.execute')}`]);
    // The package's own dao, not another package's of the same name.
    const other = await lintCode({ 'proj/other/dao.py': DAO, 'proj/app/service.py': relative });
    assert.deepEqual(brief(other.findings, INSERT_RULES), []);
  });

  it('resolves imports to dotted names: relative ones against the folders above the file that are Python names', () => {
    const text = 'from . import dao\nfrom ..db import save as put\nfrom .x.y import z\nimport app.orders as orders\nfrom app import util\n';
    const imports = pythonImports(text, '/home/my-project/src/app/jobs/service.py');
    assert.equal(imports.resolve('dao.save_row'), 'src.app.jobs.dao.save_row');
    assert.equal(imports.resolve('put'), 'src.app.db.save');
    assert.equal(imports.resolve('z'), 'src.app.jobs.x.y.z');
    assert.equal(imports.resolve('orders.add'), 'app.orders.add');
    assert.equal(imports.resolve('util.f'), 'app.util.f');
    assert.equal(imports.resolve('save_row'), undefined);
    // Above the first folder that is no Python name: not resolved. Without the path, relative imports bind nothing.
    assert.equal(pythonImports('from .... import dao\n', '/home/my-project/src/app/x.py').resolve('dao.f'), undefined);
    assert.equal(pythonImports(text).resolve('dao.save_row'), undefined);
    assert.deepEqual(modulesOf('/home/my-project/src/app/dao/__init__.py'), ['py:dao', 'py:app.dao', 'py:src.app.dao']);
    assert.deepEqual(modulesOf('C:\\work\\app\\dao.py'), ['py:dao', 'py:app.dao', 'py:work.app.dao']);
  });

  it("follows the module's own functions the called one calls (save_row() → _insert(), then _commit())", async () => {
    const dao = `import ibm_db_dbi

conn = ibm_db_dbi.connect("DATABASE=sample")


def _insert(r):
    conn.cursor().execute("INSERT INTO APP.ORDERS (ID) VALUES (?)", (r.id,))


def _commit():
    conn.commit()


def save_row(r):
    _insert(r)
    _commit()
`;
    const { findings } = await lintCode({ 'app/dao.py': dao, 'app/service.py': CALLER });
    // The commit is reported on save_row()'s call of the helper (one commit line would hold a finding per loop).
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(dao, 'conn.cursor().execute')}`, `commit-per-row@${posOf(dao, '_commit()\n')}`]);
    assert.match(findings.find((f) => f.rule === 'single-row-insert')!.message, /for loop at service\.py:5 \(through save_row\(\), then _insert\(\)\)/);
  });

  it('a service layer with no Db2 access of its own is read for its loops when it imports a data-access module', async () => {
    const { models } = await lintCode({ 'app/dao.py': DAO, 'app/service.py': CALLER });
    assert.equal(models.get('app/service.py')!.leftOut, undefined);
    const plain = await lintCode({ 'app/util.py': 'from app.text import twice\n\n\ndef f(xs):\n    for x in xs:\n        twice(x)\n' });
    assert.match(plain.models.get('app/util.py')!.leftOut!, /^no Db2 access found/);
  });

  it('silent for a same-named function of an unrelated module, a name no import binds, a method, or a call outside loops', async () => {
    const linked = await lintCode({ 'app/dao.py': DAO, 'app/service.py': CALLER });
    assert.deepEqual(brief(linked.findings, ['single-row-insert']), [`single-row-insert@${posOf(DAO, 'cur.execute')}`]);
    // save_row imported from another module, which no file of the workspace is.
    const unrelated = await lintCode({ 'app/dao.py': DAO, 'app/service.py': CALLER.replace('from app.dao import', 'from app.cache import') });
    assert.deepEqual(brief(unrelated.findings, INSERT_RULES), []);
    // A name alone: save_row defined nowhere the file imports from.
    const bare = await lintCode({ 'app/dao.py': DAO, 'app/service.py': 'from app import dao\n\n\ndef load(rows):\n    for r in rows:\n        save_row(r)\n' });
    assert.deepEqual(brief(bare.findings, INSERT_RULES), []);
    // A method of a class, not the module's function.
    const method = DAO.replace('def save_row(r):\n    cur', 'class Dao:\n  def save_row(r):\n    cur').replace('    conn.commit()', '    conn.commit()\n');
    const inClass = await lintCode({ 'app/dao.py': method, 'app/service.py': CALLER });
    assert.deepEqual(brief(inClass.findings, INSERT_RULES), []);
    // Called once, outside any loop.
    const once = await lintCode({ 'app/dao.py': DAO, 'app/service.py': 'from app.dao import save_row\n\n\ndef load(row):\n    save_row(row)\n' });
    assert.deepEqual(brief(once.findings, INSERT_RULES), []);
  });

  it("editor: a change of the functions a file calls in loops through its imports re-publishes every file (the DAO's findings)", async () => {
    const facts = async (caller: string) => schemaFacts((await lintCode({ 'app/service.py': caller })).models.get('app/service.py'));
    const a = await facts(CALLER);
    // Typed elsewhere in the caller: nothing to re-publish; the loop calls another function, or under a counter: any file.
    assert.deepEqual([...changedNames(a, await facts(CALLER.replace('def load(rows):', 'def load(rows, n=1):')))], []);
    assert.deepEqual([...changedNames(a, await facts(CALLER.replace(/save_row/g, 'save_all')))], ['*']);
    assert.deepEqual([...changedNames(a, await facts(CALLER.replace('        save_row(r)', '        if i % 1000 == 0:\n            save_row(r)')))], ['*']);
  });

  it('grows linearly with the modules and the loops calling them (the caller index, by name and module)', () => {
    // n packages, each with a dao module defining save_row (the same name in every one) and a service whose loops
    // call their own package's and the first package's: each dao file looks up the calls of its own modules, not
    // every call of save_row (n files walking n × LOOPS calls each was quadratic).
    const LOOPS = 20;
    const loop = (line: number) => ({ span: { start: line * 10, end: line * 10 + 5 }, kind: 'for', line });
    const models = (count: number): FileModel[] => {
      const out: FileModel[] = [];
      for (let i = 0; i < count; i++) {
        const execution = { callSpan: { start: 30, end: 40 }, api: 'dbapi', action: 'executePrepared', statements: [], textKind: 'constant', splicedValues: [], batched: false, inFunction: { name: 'save_row', span: { start: 0, end: 50 } } } as unknown as SqlExecution;
        out.push({ source: { path: `p${i}/dao.py`, text: '', language: 'python' }, statements: [], comments: [], code: { executions: [execution], commits: [], moduleFunctions: [{ name: 'save_row', span: { start: 0, end: 50 } }] } } as unknown as FileModel);
        const moduleCalls = Array.from({ length: LOOPS }, (_, k) => ({ callee: k === 0 ? `p${i}.dao.save_row` : 'p0.dao.save_row', loop: loop(k + 1), guarded: false }));
        out.push({ source: { path: `p${i}/service.py`, text: '', language: 'python' }, statements: [], comments: [], code: { executions: [], commits: [], moduleCalls } } as unknown as FileModel);
      }
      return out;
    };
    const run = (count: string) => {
      const all = models(Number(count));
      const index = callerIndex(all);
      let lent = 0;
      for (const model of all) if (withCallersLoops(model, index) !== model) lent++;
      assert.equal(lent, Number(count));
    };
    const { ratio, smallMs, largeMs } = growthRatio(String, run, 200);
    assert.ok(ratio < 24, `8× the files took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
  });
});
