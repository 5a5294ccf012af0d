// Every statement the code front ends read has a well-formed file span (start <= end, inside the file), also when
// its SQL text is pieced together from strings in several places: `executeUpdate(head + TAIL)` with TAIL a constant
// defined above the call ended in TAIL's literal, above where the statement starts. Such a span is the call's SQL
// argument (from the statement's start when that lies in it or above it): fileSpanOf, sql/ast.ts.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lintCode } from './helpers';
import { fileSpan, nameAt, statementAt } from '../../server/src/lsp/model-queries';
import { forEachStatement } from '../../server/src/sql/walk';
import type { FileModel } from '../../server/src/engine/types';
import type { Statement } from '../../server/src/sql/ast';

// Bundled tests run from out/test/code/.
const ROOT = join(__dirname, '..', '..', '..');

function readDir(dir: string, prefix: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) if (!name.endsWith('.md')) files[`${prefix}/${name}`] = readFileSync(join(dir, name), 'utf8');
  return files;
}

/** Each statement of the model, nested ones too, with its file span; fails on one that is not well formed. */
function checkedSpans(path: string, model: FileModel): { stmt: Statement; text: string }[] {
  const out: { stmt: Statement; text: string }[] = [];
  forEachStatement(model.statements, (stmt) => {
    const span = fileSpan(stmt, stmt.span);
    const where = `${path}: ${stmt.kind} at ${span.start}-${span.end}`;
    assert.ok(span.start <= span.end, `${where}: ends before it starts`);
    assert.ok(span.start >= 0 && span.end <= model.source.text.length, `${where}: outside the file`);
    out.push({ stmt, text: model.source.text.slice(span.start, span.end) });
  });
  return out;
}

// SQL pieced together from a local string and a constant defined above the call, or from a literal and a constant.
const JAVA = [
  'class Load {',
  '  static final String TAIL = "?, ?)";',
  '  static final String TARGET = "APP.ORDERS (ID, NOTE) VALUES (?, ?)";',
  '  void run(java.sql.Statement st) throws Exception {',
  '    String head = "INSERT INTO APP.T (A, B) VALUES (";',
  '    st.executeUpdate(head + TAIL);',
  '    st.executeUpdate("INSERT INTO APP.T (A, B) VALUES (" + TAIL);',
  '    st.executeUpdate("INSERT INTO " + TARGET);',
  '  }',
  '}',
  '',
].join('\n');
const PYTHON = ['import ibm_db', 'TAIL = "?, ?)"', '', 'def load(conn):', '    ibm_db.exec_immediate(conn, "INSERT INTO APP.T (A, B) VALUES (" + TAIL)', ''].join('\n');
const JS = ["const ibmdb = require('ibm_db');", "const TAIL = '?, ?)';", 'function load(conn) {', "  conn.querySync('INSERT INTO APP.T (A, B) VALUES (' + TAIL);", '}', ''].join('\n');

describe('code: statement spans are well formed', () => {
  it('a statement whose last piece is a constant defined above the call spans the call\'s SQL argument', async () => {
    const { models } = await lintCode({ 'Load.java': JAVA, 'load.py': PYTHON, 'load.js': JS });
    const texts = (path: string) => checkedSpans(path, models.get(path)!).map((s) => s.text);
    // From the head string's literal to the end of the argument; from the INSERT to the end of the argument.
    assert.deepEqual(texts('Load.java'), [
      'INSERT INTO APP.T (A, B) VALUES (";\n    st.executeUpdate(head + TAIL',
      'INSERT INTO APP.T (A, B) VALUES (" + TAIL',
      'INSERT INTO " + TARGET',
    ]);
    assert.deepEqual(texts('load.py'), ['INSERT INTO APP.T (A, B) VALUES (" + TAIL']);
    assert.deepEqual(texts('load.js'), ["INSERT INTO APP.T (A, B) VALUES (' + TAIL"]);
    // The editor finds the statement from its argument, and the table name written in the constant still hovers.
    const java = models.get('Load.java')!;
    const at = JAVA.indexOf('" + TAIL)') + 2;
    assert.equal(statementAt(java, at)?.kind, 'insert');
    const ref = nameAt(java, JAVA.indexOf('APP.ORDERS') + 5);
    assert.equal(ref && `${ref.name.schema}.${ref.name.name}`, 'APP.ORDERS');
  });

  it("holds for a routine's dynamic SQL joined from variables SET out of order: the statement spans the expression", async () => {
    const block = ['BEGIN', "  DECLARE tail VARCHAR(20) DEFAULT '?, ?)';", "  DECLARE head VARCHAR(60) DEFAULT 'INSERT INTO APP.T (A, B) VALUES (';", '  PREPARE s FROM head || tail;', 'END', ''].join('\n');
    const { models } = await lintCode({ 'block.sql': block });
    const inner = checkedSpans('block.sql', models.get('block.sql')!).filter((s) => s.stmt.kind === 'insert');
    assert.deepEqual(inner.map((s) => s.text), ["INSERT INTO APP.T (A, B) VALUES (';\n  PREPARE s FROM head || tail"]);
  });

  it('holds for every statement of the fixture loaders and the sample application, and their findings', async () => {
    const files = {
      ...readDir(join(ROOT, 'test', 'fixtures', 'code', 'clean'), 'clean'),
      ...readDir(join(ROOT, 'test', 'fixtures', 'code', 'zos-batch'), 'zos'),
      ...readDir(join(ROOT, 'samples', 'app'), 'app'),
      'Load.java': JAVA,
      'load.py': PYTHON,
      'load.js': JS,
    };
    const { models, findings } = await lintCode(files);
    let statements = 0;
    for (const [path, model] of models) statements += checkedSpans(path, model).length;
    assert.ok(statements > 25, `only ${statements} statements read`);
    for (const f of findings) assert.ok(f.line < f.endLine || (f.line === f.endLine && f.column <= f.endColumn), `${f.file}:${f.line}:${f.column} ${f.rule} ends at ${f.endLine}:${f.endColumn}`);
  });
});
