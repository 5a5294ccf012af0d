// Python's scopes as the SQLAlchemy and pyodbc readers read them (python-scopes.ts): which def, class body or the
// module binds the name a use reads.
import * as assert from 'node:assert/strict';
import { Language, Parser, type Tree } from 'web-tree-sitter';
import { grammarWasmFile } from '../../server/src/code/wasm';
import { loadCodeFrontEnd } from '../../server/src/code/frontend';
import { bindingScope } from '../../server/src/code/languages/python-scopes';

async function parse(source: string): Promise<Tree> {
  await loadCodeFrontEnd();
  const parser = new Parser();
  parser.setLanguage(await Language.load(grammarWasmFile('python')));
  try {
    return parser.parse(source)!;
  } finally {
    parser.delete();
  }
}

/** The scope (the first line of its node, 0 for the module) that binds the `nth` use of `name` as a plain name. */
function scopeLineOf(tree: Tree, source: string, use: string, nth = 1): number | undefined {
  let at = -1;
  for (let i = 0; i < nth; i++) at = source.indexOf(use, at + 1);
  const node = tree.rootNode.descendantForIndex(at, at + 1);
  assert.equal(node?.type, 'identifier', use);
  const scope = bindingScope(node!.text, node!);
  return scope === undefined ? undefined : source.slice(0, scope.start).split('\n').length - 1;
}

describe('code: Python scopes (python-scopes.ts)', () => {
  it('parameters, assignments, with and for targets, imports, global; class bodies skipped from their methods', async () => {
    const source = `db = make()

def a(db: Session, rows):
    a1 = db.x

async def b(rows):
    with SessionLocal() as db:
        b1 = db.x

def c(rows):
    c1 = db.x
    def inner():
        i1 = db.x
    for db, other in rows:
        pass

def d():
    global db
    db = 2
    d1 = db.x

class K:
    db = 1
    k1 = db.x
    def m(self):
        m1 = db.x

def e(*db):
    from m import db as q
    e1 = q.x
    e2 = undefined_name.x
`;
    const tree = await parse(source);
    assert.equal(scopeLineOf(tree, source, 'db.x'), 2);
    assert.equal(scopeLineOf(tree, source, 'db.x', 2), 5);
    assert.equal(scopeLineOf(tree, source, 'db.x', 3), 9);
    assert.equal(scopeLineOf(tree, source, 'db.x', 4), 9);
    assert.equal(scopeLineOf(tree, source, 'db.x', 5), 0);
    assert.equal(scopeLineOf(tree, source, 'db.x', 6), 21);
    assert.equal(scopeLineOf(tree, source, 'db.x', 7), 0);
    assert.equal(scopeLineOf(tree, source, 'q.x'), 27);
    assert.equal(scopeLineOf(tree, source, 'undefined_name.x'), undefined);
  });
});
