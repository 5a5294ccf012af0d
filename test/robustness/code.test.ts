// Robustness of the host-language extractors (tree-sitter): on random and damaged Java, Python and
// JavaScript they never throw, every SQL statement they find maps back inside the file, the rules over
// their output do not throw, and extraction time grows linearly with the file.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { loadCodeFrontEnd, TreeSitterCodeFrontEnd, type TreeSitterCodeFrontEnd as CodeFrontEnd } from '../../server/src/code/frontend';
import { emptyResult, type HostLanguage } from '../../server/src/code/host-language';
import { Workspace } from '../../server/src/engine/workspace';
import { resolveConfig } from '../../server/src/engine/config';
import { RULES } from '../../server/src/engine/registry';
import type { FileLanguage } from '../../server/src/engine/types';
import { anyText, fixture, growthRatio, growthSeries, mutated } from './support';
import { buildMappedSql, plainPiece, type HostText, type TextPiece } from '../../server/src/code/sqltext';
import { Language, Parser, type Tree } from 'web-tree-sitter';
import { extractFromTree } from '../../server/src/code/model';
import { C_ADAPTERS } from '../../server/src/code/languages/c';
import { javaAdapter } from '../../server/src/code/languages/java';
import { SchemaModel } from '../../server/src/schema/schema';
import { grammarWasmFile } from '../../server/src/code/wasm';
import type { SqlExecution } from '../../server/src/code-model/types';
import { parseSql } from '../../server/src/sql/parser';
import { applyFormat, decodeQuoted } from '../../server/src/code/literals';
import { spliceAt } from '../../server/src/code-model/facts';

const SEEDS: [string, FileLanguage][] = [
  ['Loader.java', 'java'],
  ['loader.py', 'python'],
  ['loader.js', 'javascript'],
];

/** Extra pieces that damage host code in interesting ways: string quotes, braces, comment openers. */
const CODE_PIECES = ['"', "'", '`', '"""', '${', '{', '}', '(', ')', '/*', '//', '#', '\\', '\n', '+ "', 'for (;;) {', 'while True:', 'conn.commit();', 'ps.executeUpdate("INSERT INTO T VALUES (?)");'];

describe('robustness: code extractors (Java, Python, JavaScript)', function () {
  this.timeout(60_000);
  let frontEnd: CodeFrontEnd;
  before(async () => {
    frontEnd = await loadCodeFrontEnd();
  });

  function extractAndCheck(path: string, language: FileLanguage, text: string): number {
    const extracted = frontEnd.read({ path, text, language });
    for (const stmt of extracted.statements) {
      const start = stmt.origin.toFile(stmt.span.start);
      const end = stmt.origin.toFile(stmt.span.end);
      assert.ok(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && end >= start && end <= text.length, `${path}: statement ${stmt.kind} maps to ${start}..${end} in a file of ${text.length}`);
    }
    for (const c of extracted.comments) assert.ok(c.span.start >= 0 && c.span.end <= text.length, `${path}: comment ${c.span.start}..${c.span.end}`);
    return extracted.statements.length;
  }

  for (const [name, language] of SEEDS) {
    it(`finds the SQL of ${name}`, () => {
      assert.ok(extractAndCheck(name, language, fixture(name)) >= 3, `${name}: the seed's inserts are found (else the mutations below test little)`);
    });

    it(`never throws on damaged copies of ${name}, and SQL spans stay inside the file`, () => {
      const seed = fixture(name);
      const damaged = fc.oneof(
        mutated(seed),
        fc.tuple(fc.nat(seed.length), fc.constantFrom(...CODE_PIECES)).map(([at, piece]) => seed.slice(0, at) + piece + seed.slice(at)),
      );
      fc.assert(fc.property(damaged, (text) => void extractAndCheck(name, language, text)), { numRuns: 150 });
    });

    it(`never throws on random text given as ${language}`, () => {
      fc.assert(fc.property(anyText, (text) => void extractAndCheck(name, language, text)), { numRuns: 150 });
    });
  }

  it('no rule throws over extracted code (mutated loaders linted together)', () => {
    const config = resolveConfig(RULES.map((r) => r.rule));
    fc.assert(
      fc.property(mutated(fixture('Loader.java')), mutated(fixture('loader.py')), mutated(fixture('loader.js')), (java, py, js) => {
        const ws = new Workspace(config, [frontEnd]);
        ws.setFile('Loader.java', java, 'java');
        ws.setFile('loader.py', py, 'python');
        ws.setFile('loader.js', js, 'javascript');
        ws.setFile('schema.sql', fixture('workload.sql'), 'sql');
        ws.allDiagnostics();
        assert.deepEqual(ws.ruleFailures.map((f) => `${f.file} ${f.rule}: ${(f.error as Error)?.message}`), []);
      }),
      { numRuns: 60 },
    );
  });

  // [language, the code of about n characters, the smallest n measured (default 20,000)]
  const GROWING: Record<string, [FileLanguage, (n: number) => string, number?]> = {
    'a Java class with many methods': ['java', (n) => 'class A {\n' + 'void m(Connection c) throws Exception { c.prepareStatement("INSERT INTO T VALUES (?)").executeUpdate(); c.commit(); }\n'.repeat(n / 110) + '}\n'],
    'one long Java string concatenation': ['java', (n) => 'class A { String s = "INSERT INTO T VALUES (" ' + '+ "?, "'.repeat(n / 7) + '+ "1)"; void m(Statement st) throws Exception { st.execute(s); } }\n'],
    'deeply nested Java loops': ['java', (n) => 'class A { void m(Statement st) throws Exception {\n' + 'for (;;) {\n'.repeat(n / 22) + 'st.execute("INSERT INTO T VALUES (1)");\n' + '}\n'.repeat(n / 22) + '} }\n'],
    'a Python module with many functions': ['python', (n) => 'def f(cur):\n    cur.execute("INSERT INTO T VALUES (?)", (1,))\n\n'.repeat(n / 58)],
    'a JavaScript file with many statements': ['javascript', (n) => "conn.querySync('INSERT INTO T VALUES (1)');\n".repeat(n / 44)],
    // Shapes that once grew quadratically (issue 15): comment runs, long concatenations, deep nesting with a call at each level.
    'a Python file ending in a run of comment lines': ['python', (n) => 'import ibm_db\nfor r in rows:\n    ibm_db.exec_immediate(conn, "INSERT INTO T VALUES (1)")\n' + '# a comment line about nothing\n'.repeat(n / 31)],
    'a Python SQL text concatenated from many values': ['python', (n) => 'import ibm_db\nsql = "INSERT INTO T VALUES (" + ' + Array.from({ length: n / 12 }, (_, i) => `str(v${i})`).join(' + ') + ' + ")"\nibm_db.exec_immediate(conn, sql)\n'],
    'a Python SQL text concatenated from calls of a function of the file': ['python', (n) => 'import ibm_db\ndef esc(v):\n    return v\n\nsql = "INSERT INTO T VALUES (" + ' + Array.from({ length: n / 12 }, (_, i) => `esc(v${i})`).join(' + ') + ' + ")"\nibm_db.exec_immediate(conn, sql)\n'],
    // Each branch nests in the one before: 8,000 branches took 3.9 s (the conditions above each call were collected per call).
    'a Java else-if chain with an execute in each branch': ['java', (n) => 'class B { void m(java.sql.Statement st, int x) throws Exception {\n  if (x < 0) {}\n' + Array.from({ length: n / 66 }, (_, i) => `  else if (x == ${i}) st.execute("INSERT INTO T VALUES (${i})");\n`).join('') + '} }\n', 80_000],
    'many Python string literals': ['python', (n) => 'import ibm_db\n' + 'ibm_db.exec_immediate(conn, """INSERT INTO T\n VALUES (\'#\', "x")""")\n'.repeat(n / 70)],
    'JavaScript callbacks nested deep, a query at each level': ['javascript', (n) => "const ibmdb = require('ibm_db');\n" + Array.from({ length: n / 80 }, (_, i) => `run(function (r${i}) { conn.querySync('INSERT INTO T (A) VALUES (?)', [r${i}]);\n`).join('') + '});'.repeat(n / 80) + '\n'],
    'Java loops nested deep, an execute at each level': ['java', (n) => 'class A { void m(PreparedStatement ps) throws Exception {\n' + Array.from({ length: n / 70 }, (_, i) => `for (int i${i} = 0; i${i} < 100; i${i}++) { ps.setInt(1, i${i}); ps.executeUpdate();\n`).join('') + '}'.repeat(n / 70) + '} }\n'],
    'a C file with many statements': ['c', (n) => '#include <sqlcli1.h>\nvoid f(SQLHSTMT h) {\n' + '  SQLExecDirect(h, (SQLCHAR *) "INSERT INTO T VALUES (1)", SQL_NTS);\n'.repeat(n / 68) + '}\n'],
    'a shell script with many db2 commands': ['shell', (n) => 'db2 connect to X\n' + 'db2 "INSERT INTO T VALUES (1)"\n'.repeat(n / 31)],
  };
  it('maps an SQL text of many spliced values in time linear in their number', () => {
    // The stage alone (host-language parsing aside): each splice once re-read the whole text built so far.
    const host = (n: number): HostText => ({
      kind: 'concatenation',
      pieces: [plainPiece('INSERT INTO T VALUES (', 0), ...Array.from({ length: n }, (_, i): TextPiece[] => [{ kind: 'splice', span: { start: 30 + i * 12, end: 38 + i * 12 } }, plainPiece(', ', 38 + i * 12)]).flat()],
    });
    const inputs = new Map<number, HostText>();
    const { ratio, smallMs, largeMs } = growthRatio((n) => String(inputs.set(n, host(n)) && n), (n) => void buildMappedSql(inputs.get(Number(n))!), 5000);
    assert.ok(ratio < 24, `8× the splices took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
  });

  // `push(...items)` passes each item as an argument: past about 125,000 V8 throws "Maximum call stack size
  // exceeded", and the file was left out as "a fault of InsertLint" (found by bench/fuzz-code.ts).
  it('reads a format template with a literal part longer than 125,000 characters', () => {
    const long = 'v'.repeat(200_000);
    const java = `import java.sql.*;\nclass F {\n  void f(Connection c, int x) throws Exception {\n    c.createStatement().executeUpdate(String.format("INSERT INTO T (A, B) VALUES ('${long}', %d)", x));\n  }\n}\n`;
    const py = `import ibm_db\ndef f(conn, x):\n    ibm_db.exec_immediate(conn, "INSERT INTO T (A, B) VALUES ('${long}', %s)" % x)\n`;
    for (const [path, language, text] of [['F.java', 'java', java], ['f.py', 'python', py]] as const) {
      const read = frontEnd.read({ path, text, language });
      assert.equal(read.leftOut, undefined, path);
      assert.deepEqual(read.statements.map((s) => s.kind), ['insert'], path);
    }
  });

  it('fills a template or a literal with a value of more than 125,000 pieces', async () => {
    const many: HostText = { kind: 'concatenation', pieces: Array.from({ length: 200_000 }, (_, i): TextPiece => (i % 2 ? plainPiece(', ', i) : { kind: 'splice', span: { start: i, end: i + 1 } })) };
    // applyFormat: "%s" filled with it.
    const fmt: HostText = { kind: 'constant', pieces: [plainPiece('INSERT INTO T VALUES (%s)', 0)] };
    const stand = { type: 'identifier' } as unknown as Parameters<typeof applyFormat>[1][number];
    assert.equal(applyFormat(fmt, [stand], new Map(), 'printf', () => many).pieces.length, 200_002);
    // decodeQuoted: f"{sql}" with sql known.
    const language = await Language.load(grammarWasmFile('python'));
    const parser = new Parser();
    parser.setLanguage(language);
    try {
      const source = 'x = f"INSERT INTO T VALUES ({sql})"\n';
      const tree = parser.parse(source)!;
      const interpolations = tree.rootNode.descendantsOfType('interpolation').filter((n) => n !== null);
      const pieces = decodeQuoted(source, source.indexOf('"') + 1, source.lastIndexOf('"'), 'python-f', interpolations, () => many);
      assert.equal(pieces.length, 200_002);
      tree.delete();
    } finally {
      parser.delete();
    }
  });

  it('reads a shell variable of more than 125,000 pieces expanded in a db2 command', () => {
    const text = 'Q="INSERT INTO T VALUES ($A' + ', $A'.repeat(130_000) + ')"\ndb2 "$Q"\n';
    const read = frontEnd.read({ path: 'q.sh', text, language: 'shell' });
    assert.equal(read.leftOut, undefined);
    assert.deepEqual(read.statements.map((s) => s.kind), ['insert']);
  });

  it('reads a Db2 SQLAlchemy file with n, 2n, 4n, 8n walrus bindings nested as deep in brackets in time linear in them', () => {
    // Python's scopes (languages/python-scopes.ts) walked up from every binding to its def: n bindings n deep in
    // brackets were n squared steps (4,000: 2.7 s to read the file).
    const make = (n: number) => {
      const inner = Array.from({ length: n }, (_, k) => `(a${k} := ${k})`).join(', ');
      return `from sqlalchemy import create_engine\nfrom sqlalchemy.orm import Session\nfrom app.models import Order\n\nengine = create_engine("ibm_db_sa://u:p@host:50000/SAMPLE")\n\ndef handler(db: Session, rows):\n    x = ${'['.repeat(n)}${inner}${']'.repeat(n)}\n    for r in rows:\n        db.add(Order(item=r))\n        db.commit()\n`;
    };
    const read = (text: string) => frontEnd.read({ path: 'handler.py', text, language: 'python' });
    const model = read(make(200));
    assert.equal(model.leftOut, undefined);
    assert.ok((model.code?.executions.length ?? 0) > 0, 'the session loop is read (the scopes are worked out)');
    const { ratio, ms } = growthSeries(make, (text) => void read(text), 300);
    assert.ok(ratio < 24, `n, 2n, 4n, 8n nested bindings took ${ms.map((t) => t.toFixed(1)).join(', ')} ms: 8n took ${ratio.toFixed(1)}× n's time, super-linear`);
  });

  it('leaves out a Python file nested 100 levels deep or more, and reads the next Python file as before', () => {
    // tree-sitter-python's scanner keeps about 500 levels between tokens: a file nested 600 deep left the parser
    // damaged, and the Python files read after it came out as errors or failed ("memory access out of bounds").
    const loader = 'import ibm_db\nconn = ibm_db.connect("SAMPLE", "", "")\nfor r in rows:\n    ibm_db.exec_immediate(conn, "INSERT INTO T VALUES (1)")\n';
    const nested = (levels: number) => 'import ibm_db\n' + Array.from({ length: levels }, (_, i) => ' '.repeat(i) + 'if x:\n').join('') + ' '.repeat(levels) + 'ibm_db.exec_immediate(conn, "INSERT INTO T VALUES (1)")\n';
    const read = (text: string) => frontEnd.read({ path: 'f.py', text, language: 'python' });
    const before = read(loader);
    assert.deepEqual(before.statements.map((s) => s.kind), ['insert']);
    for (const levels of [600, 1000, 100]) {
      assert.match(read(nested(levels)).leftOut ?? '', /nests blocks 100 or more levels deep/, `${levels} levels`);
      const after = read(loader);
      assert.equal(after.syntaxError, undefined, `after ${levels} levels`);
      assert.deepEqual(after.statements.map((s) => [s.kind, s.span]), before.statements.map((s) => [s.kind, s.span]), `after ${levels} levels`);
    }
    // Less deep is read; so are lines indented far without being nested (one long continuation line).
    assert.deepEqual(read(nested(99)).statements.map((s) => s.kind), ['insert']);
    assert.deepEqual(read('import ibm_db\nx = (1,\n' + ' '.repeat(5000) + '2)\nibm_db.exec_immediate(conn, "INSERT INTO T VALUES (1)")\n').statements.map((s) => s.kind), ['insert']);
  });

  it('gives the next file a new parser when reading one failed inside the parser', async () => {
    const language = await Language.load(grammarWasmFile('python'));
    const first = new Parser();
    first.setLanguage(language);
    const seen: (Parser | undefined)[] = [];
    const failing: HostLanguage = {
      languages: ['python'],
      grammars: ['python'],
      read(source, env) {
        const parser = env.parser('python');
        seen.push(parser);
        if (source.text === 'trap') throw new Error('memory access out of bounds');
        parser!.parse(source.text)!.delete();
        return emptyResult();
      },
    };
    const fe = new TreeSitterCodeFrontEnd(new Map([['python', first]]), [failing]);
    assert.match(fe.read({ path: 'a.py', text: 'trap', language: 'python' }).leftOut ?? '', /reading it failed \(memory access out of bounds\); this is a fault of InsertLint/);
    assert.equal(fe.read({ path: 'b.py', text: 'x = 1\n', language: 'python' }).leftOut, undefined);
    assert.equal(seen[0], first);
    assert.ok(seen[1] && seen[1] !== first, 'a new parser after the failure');
    assert.equal(seen[1].language, language);
    seen[1].delete();
    first.delete();
  });

  it('finds what it knows of each of many spliced values in time linear in their number', () => {
    // The rules ask for every value of a text (prefer-parameter-markers): a search of the list for each made
    // f"INSERT INTO T VALUES ({a}, {a}, …)" with 40,000 values take 1.7 s, 130,000 over a minute.
    const executions = new Map<number, SqlExecution>();
    const make = (n: number) => {
      const splices = Array.from({ length: n }, (_, i) => ({ span: { start: 10 + 5 * i, end: 13 + 5 * i }, text: `v${i}` }));
      executions.set(n, { splices, splicedValues: splices.map((x) => x.span) } as unknown as SqlExecution);
      return String(n);
    };
    const run = (key: string) => {
      const execution = executions.get(Number(key))!;
      for (const span of execution.splicedValues) assert.ok(spliceAt(execution, span));
    };
    const { ratio, smallMs, largeMs } = growthRatio(make, run, 2000);
    assert.ok(ratio < 24, `8× the values took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
  });

  for (const [shape, [language, make, smallest]] of Object.entries(GROWING)) {
    it(`extracts ${shape} in time linear in its size`, () => {
      const { ratio, smallMs, largeMs } = growthRatio(make, (text) => frontEnd.read({ path: `f.${language}`, text, language }), smallest ?? 20_000);
      assert.ok(ratio < 24, `8× the code took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
    });
  }

  it('reads a shell script of n, 2n, 4n, 8n broken commands in a row in time linear in them, its db2 commands kept', () => {
    // SQL read as commands (a lost quote): tree-sitter-bash's recovery from each cost more the more came before it
    // (800 such lines: 0.7 s; 4,800: 7.4 s; a 125 KB script ran past the 10 s budget and lost all its findings).
    const columns = ['    PATIENT_ID INT NOT NULL,', '    NAME VARCHAR(30),', '    GENDER VARCHAR(6),', '    PRIMARY KEY (PATIENT_ID)'];
    const loop = 'for f in *.csv; do\n  db2 "INSERT INTO APP.T (A) VALUES (1)"\ndone\n';
    const make = (n: number) => `db2 connect to X\n${loop}${Array.from({ length: n }, (_, i) => columns[i % columns.length] + '\n').join('')}${loop}`;
    const read = (text: string) => frontEnd.read({ path: 'broken.sh', text, language: 'shell' });
    const { ratio, ms } = growthSeries(make, (text) => void read(text), 100);
    for (const n of [100, 800]) {
      const model = read(make(n));
      assert.equal(model.leftOut, undefined);
      assert.deepEqual(model.statements.map((s) => s.kind), ['insert', 'insert'], `${n} broken lines: both loops' inserts are read`);
    }
    assert.ok(ratio < 24, `n, 2n, 4n, 8n broken lines took ${ms.map((t) => t.toFixed(1)).join(', ')} ms: 8n took ${ratio.toFixed(1)}× n's time, super-linear`);
  });

  it('reads a shell script with n, 2n, 4n, 8n broken commands on one line in time linear in them, its db2 commands kept', () => {
    // A quote lost before a line of statements: `INSERT INTO T VALUES (1);INSERT …` read as shell, one line (2,000
    // commands: 3.4 s, each suspect line was parsed apart whole; 42,000, a 1 MB line: past the 10 s budget).
    const loop = 'for f in *.csv; do\n  db2 "INSERT INTO APP.T (A) VALUES (1)"\ndone\n';
    const make = (n: number) => `db2 connect to X\n${loop}db2 "CREATE TABLE P (\n"${'INSERT INTO T VALUES (1);'.repeat(n)}\n${loop}`;
    const read = (text: string) => frontEnd.read({ path: 'broken.sh', text, language: 'shell' });
    const { ratio, ms } = growthSeries(make, (text) => void read(text), 200);
    const model = read(make(1600));
    assert.equal(model.leftOut, undefined);
    assert.deepEqual(model.statements.filter((s) => s.kind === 'insert').length, 2, "both loops' inserts are read");
    assert.ok(ratio < 24, `n, 2n, 4n, 8n broken commands on one line took ${ms.map((t) => t.toFixed(1)).join(', ')} ms: 8n took ${ratio.toFixed(1)}× n's time, super-linear`);
  });

  it('links each SQLExecute of many C functions on a handle named hstmt to its prepare, array size and autocommit switch in time linear in their number', async () => {
    // Each execute looked at every prepare and every SQL_ATTR_PARAMSET_SIZE on `hstmt` in the file, at every
    // function taking `hdbc` (`insertlint check` of 16,000 functions: 19 s, now 4.3 s), and at every autocommit
    // switch of the file (16,000 functions that switch `hdbc`: 16.4 s). That cost shows only past a
    // few thousand functions, where the C parse alone takes a second: the trees are parsed outside the timed part
    // (the walk and the model's build).
    const fn = (i: number) =>
      `void load${i}(SQLHDBC hdbc) {\n  SQLHSTMT hstmt;\n  SQLAllocHandle(SQL_HANDLE_STMT, hdbc, &hstmt);\n` +
      `  SQLPrepare(hstmt, (SQLCHAR *) "INSERT INTO T${i} VALUES (?, ?)", SQL_NTS);\n` +
      `  SQLSetStmtAttr(hstmt, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER) ${(i % 3) + 1}, 0);\n` +
      `  SQLSetConnectAttr(hdbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER) SQL_AUTOCOMMIT_${i % 2 ? 'ON' : 'OFF'}, SQL_NTS);\n  SQLExecute(hstmt);\n}\n`;
    const language = await Language.load(grammarWasmFile('c'));
    const parser = new Parser();
    parser.setLanguage(language);
    const trees = new Map<string, Tree>();
    const make = (n: number) => {
      const text = '#include <sqlcli1.h>\n' + Array.from({ length: n }, (_, i) => fn(i)).join('');
      trees.set(text, parser.parse(text)!);
      return text;
    };
    try {
      const executions = new Map<number, SqlExecution[]>();
      const run = (text: string) => void executions.set(text.length, extractFromTree(trees.get(text)!, text, C_ADAPTERS.c, parseSql).code.executions);
      // Linear ≈ 16×, quadratic ≈ 256×: 1,000 → 16,000 functions, where the quadratic part outweighs the rest.
      const { ratio, smallMs, largeMs } = growthRatio(make, run, 1000, 16, 48);
      // Each execute runs its own function's INSERT, as an array of rows where its function sets a size over 1.
      const executes = executions.get(Math.max(...executions.keys()))!.filter((e) => e.action === 'executePrepared');
      assert.equal(executes.length, 16_000);
      executes.forEach((e, i) => {
        assert.equal(e.statements[0]?.kind === 'insert' && e.statements[0].target.name, `T${i}`);
        assert.equal(e.batched, i % 3 > 0, `load${i}: batched`);
        assert.equal(e.connection?.autocommit, i % 2 ? 'on' : 'off', `load${i}: its own function's autocommit switch`);
      });
      assert.ok(ratio < 48, `16× the functions took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
    } finally {
      for (const tree of trees.values()) tree.delete();
      parser.delete();
    }
  });
  it('finds the connection, flushes and per-row commits of many Java methods that each open `conn` and persist through `em` in time linear in their number', async () => {
    // Each execute filtered every connect of the file named like its connection (autocommit.ts), each session.add /
    // persist every flush of its session or entity manager (model.ts), and commit-per-row looked for every commit's
    // INSERT among all executions: 8,000 loops that open `session` and commit took 5 s in rules alone. The trees are
    // parsed outside the timed part (the model's build and the rules).
    const fn = (i: number) =>
      `  void load${i}(java.util.List<String> rows) throws Exception {\n    Connection conn = DriverManager.getConnection(URL);\n` +
      `    PreparedStatement ps = conn.prepareStatement("INSERT INTO T${i} VALUES (?)");\n` +
      `    for (String r : rows) { ps.setString(1, r); ps.executeUpdate(); em.persist(new Order(r)); em.flush(); conn.commit(); }\n  }\n`;
    const language = await Language.load(grammarWasmFile('java'));
    const parser = new Parser();
    parser.setLanguage(language);
    const trees = new Map<string, Tree>();
    const make = (n: number) => {
      const text = 'import java.sql.*;\nimport javax.persistence.*;\nclass Load {\n  EntityManager em;\n' + Array.from({ length: n }, (_, i) => fn(i)).join('') + '}\n';
      trees.set(text, parser.parse(text)!);
      return text;
    };
    const rules = RULES.filter((r) => r.rule.meta.id === 'commit-per-row' || r.rule.meta.id === 'single-row-insert').map((r) => r.rule);
    const config = resolveConfig(RULES.map((r) => r.rule));
    const found = new Map<number, string[]>();
    const run = (text: string) => {
      const { statements, comments, code } = extractFromTree(trees.get(text)!, text, javaAdapter, parseSql);
      const file = { source: { path: 'Load.java', text, language: 'java' as const }, statements, comments, code };
      const schema = SchemaModel.build([file]);
      const ids: string[] = [];
      for (const rule of rules) {
        const setting = config.rules.get(rule.meta.id);
        rule.check({ file, schema, options: setting && setting !== 'off' ? setting.options : {}, report: () => void ids.push(rule.meta.id), lineOf: () => 1 });
      }
      found.set(text.length, ids);
    };
    try {
      // Linear ≈ 16×, quadratic ≈ 256×: 250 → 4,000 methods.
      const { ratio, smallMs, largeMs } = growthRatio(make, run, 250, 16, 48);
      const ids = found.get(Math.max(...found.keys()))!;
      // Each method's loop: its JDBC INSERT and its persist per row, and its commit per pass.
      assert.equal(ids.filter((id) => id === 'commit-per-row').length, 4000);
      assert.ok(ids.filter((id) => id === 'single-row-insert').length >= 4000);
      assert.ok(ratio < 48, `16× the methods took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
    } finally {
      for (const tree of trees.values()) tree.delete();
      parser.delete();
    }
  });
});
