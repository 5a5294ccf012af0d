// The one reader of a Python file's import lines (languages/python-imports.ts readPythonImports): the forms of
// `import` and `from … import`, what their names stand for (pythonImports), the modules access.ts matches against
// configured driver modules, and the walk that fetches the text of a call in a loop only where an import binds the
// call's first name.
import * as assert from 'node:assert/strict';
import { Node } from 'web-tree-sitter';
import { importedPythonModules, pythonImports, readPythonImports } from '../../server/src/code/languages/python-imports';
import { codeFrontEnd } from './helpers';
import { growthRatio } from '../robustness/support';

describe('code: Python import lines, read once', () => {
  it('import and from-import, renames, parenthesised lists over lines, relative imports with their level', () => {
    const text = [
      'import os',
      'import app.dao as dao, json',
      'from sqlalchemy import text as sql_text, insert',
      'from app.models import (',
      '    Order as O,  # the orders',
      '    # OrderLine,',
      '    Customer,',
      ')',
      'from . import repo',
      'from ..pkg.mod import y as z',
      'from x import *',
      'def f():',
      '    import pyodbc',
      '',
    ].join('\n');
    assert.deepEqual(readPythonImports(text), [
      { level: 0, names: [{ name: 'os' }], written: 'os' },
      { level: 0, names: [{ name: 'app.dao', as: 'dao' }, { name: 'json' }], written: 'app.dao as dao, json' },
      { from: 'sqlalchemy', level: 0, names: [{ name: 'text', as: 'sql_text' }, { name: 'insert' }], written: 'text as sql_text, insert' },
      { from: 'app.models', level: 0, names: [{ name: 'Order', as: 'O' }, { name: 'Customer' }], written: '(\n    Order as O,  # the orders\n    # OrderLine,\n    Customer,\n)' },
      { from: '', level: 1, names: [{ name: 'repo' }], written: 'repo' },
      { from: 'pkg.mod', level: 2, names: [{ name: 'y', as: 'z' }], written: 'y as z' },
      { from: 'x', level: 0, names: [], written: '*' },
      { level: 0, names: [{ name: 'pyodbc' }], written: 'pyodbc' },
    ]);
    assert.deepEqual(importedPythonModules(readPythonImports(text)), ['os', 'app.dao', 'json', 'sqlalchemy', 'app.models', '.', '..pkg.mod', 'x', 'pyodbc']);
  });

  it('comments are no imports, nor what follows a comment or `;`; a line in a string reads as one (as before)', () => {
    assert.deepEqual(readPythonImports('# import os\n#from x import y\n'), []);
    assert.deepEqual(readPythonImports('import os  # import sys\nimport a; import b\nfrom m import n  # , o\n'), [
      { level: 0, names: [{ name: 'os' }], written: 'os  ' },
      { level: 0, names: [{ name: 'a' }], written: 'a' },
      { from: 'm', level: 0, names: [{ name: 'n' }], written: 'n  ' },
    ]);
    // The lines are read from the text, not the syntax tree: an import line inside a string counts.
    assert.deepEqual(readPythonImports('DOC = """\nimport fake\n"""\n').map((l) => l.names), [[{ name: 'fake' }]]);
    // Names cut where a module list ends (a backslash continuation, a bracket); `from … import a.b` binds nothing.
    assert.deepEqual(readPythonImports('import a, \\\n    b\nfrom x import a.b, c\nimportlib.reload(m)\nfrom_x = 1\n').map((l) => l.names), [[{ name: 'a' }], [{ name: 'c' }]]);
    // A flat list with parentheses in it.
    assert.deepEqual(readPythonImports('from X import a as b, (c, d)\n')[0].names, [{ name: 'a', as: 'b' }, { name: 'c' }, { name: 'd' }]);
  });

  it('what the names stand for: import lines bind first, then from lines; relative ones only with the path', () => {
    const lines = readPythonImports('from a import x\nimport x\nimport app.dao\nimport app.dao as d\nfrom . import repo\nfrom ..db import save as put\n');
    const withPath = pythonImports(lines, '/home/my-project/src/app/jobs/service.py');
    const written = ['x', 'app.dao.f', 'd.f', 'repo.add', 'put', 'other.f'];
    assert.deepEqual(
      written.map((w) => withPath.resolve(w)),
      ['a.x', 'app.dao.f', 'app.dao.f', 'src.app.jobs.repo.add', 'src.app.db.save', undefined],
    );
    assert.equal(withPath.qualify('other.f'), 'other.f');
    assert.deepEqual([...withPath.bound].sort(), ['app', 'd', 'put', 'repo', 'x']);
    assert.ok(withPath.imports('app') && withPath.imports('a') && !withPath.imports('db'));
    const noPath = pythonImports(lines);
    assert.deepEqual([...noPath.bound].sort(), ['app', 'd', 'x']);
    // The text itself, read the same way.
    assert.deepEqual([...pythonImports('import app.dao as d\n').bound], ['d']);
  });

  it('bounded: long lists and unclosed parentheses read in linear time', () => {
    const make = (n: number) => ('from m import (' + 'a, '.repeat(900) + '\n').repeat(n / 2700) + ('import ' + 'x.'.repeat(1500) + '\n').repeat(n / 3000);
    const { ratio, smallMs, largeMs } = growthRatio(make, (text) => void readPythonImports(text), 100_000);
    assert.ok(ratio < 24, `8× the text took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
  });
});

/**
 * Counts, while `run` runs, the reads of a call's callee text: of a dotted callee (`helper.check` of
 * `helper.check(r)`), and of a plain one read more than once (calleeName reads it once: `plain` of `plain(r)`).
 * The seam: web-tree-sitter's Node.text accessor, wrapped for the time of the run.
 */
function calleeTextReads(run: () => void): { dotted: number; again: number } {
  const accessor = Object.getOwnPropertyDescriptor(Node.prototype, 'text')!;
  const seen = new Set<number>();
  const counts = { dotted: 0, again: 0 };
  Object.defineProperty(Node.prototype, 'text', {
    ...accessor,
    get(this: Node) {
      const type = this.type;
      // (A call's only attribute or identifier child is its callee: the arguments are in an argument_list.)
      if ((type === 'attribute' || type === 'identifier') && this.parent?.type === 'call') {
        if (type === 'attribute') counts.dotted++;
        else if (seen.has(this.startIndex)) counts.again++;
        else seen.add(this.startIndex);
      }
      return accessor.get!.call(this) as string;
    },
  });
  try {
    run();
  } finally {
    Object.defineProperty(Node.prototype, 'text', accessor);
  }
  return counts;
}

describe("code: Python calls in loops, noted as another module's only where an import binds the first name", () => {
  const LOOP = `def load(cur, rows):
    for r in rows:
        helper.check(r)
        obj.attr.method(r)
        plain(r)
        cur.execute("INSERT INTO T (A) VALUES (?)", (r.a,))
`;

  it('a file that imports nothing its loops call: no callee text fetched, no module calls', async () => {
    const frontEnd = await codeFrontEnd();
    for (const text of [LOOP, `import os\nfrom app.util import fmt\n\n${LOOP}`]) {
      let moduleCalls: unknown;
      const reads = calleeTextReads(() => {
        moduleCalls = frontEnd.read({ path: '/home/my-project/app/load.py', text, language: 'python' }).code?.moduleCalls;
      });
      assert.equal(moduleCalls, undefined);
      assert.deepEqual(reads, { dotted: 0, again: 0 });
    }
  });

  it('an imported module called in the loop: its call read and resolved as before', async () => {
    const frontEnd = await codeFrontEnd();
    const text = `import app.dao as dao\nfrom .repo import put\n\n${LOOP}        dao.save_row(r)\n        put(r)\n`;
    let moduleCalls: { callee: string }[] | undefined;
    const reads = calleeTextReads(() => {
      moduleCalls = frontEnd.read({ path: '/home/my-project/app/load.py', text, language: 'python' }).code?.moduleCalls;
    });
    assert.deepEqual(moduleCalls?.map((c) => c.callee), ['app.dao.save_row', 'app.repo.put']);
    // The two imported callees' texts, and those alone.
    assert.deepEqual(reads, { dotted: 1, again: 1 });
  });
});
