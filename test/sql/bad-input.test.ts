// Broken input: parseSql never throws, reports what is wrong on the statement, and stays linear.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { parseSql } from '../../server/src/sql/parser';

describe('sql parser: bad input', () => {
  it('reports an unterminated string on the last statement and keeps the earlier ones', () => {
    const sql = "COMMIT;\nINSERT INTO t VALUES ('open;\nCOMMIT;";
    const { statements } = parseSql(sql);
    assert.equal(statements.length, 2);
    assert.equal(statements[0].parseError, undefined);
    assert.match(statements[1].parseError?.message ?? '', /Unterminated string/);
    assert.equal(statements[1].parseError?.span.end, sql.length);
  });

  it('reports an unterminated comment and an unterminated delimited identifier', () => {
    const a = parseSql('COMMIT; /* never closed\nINSERT INTO t VALUES 1;').statements;
    assert.equal(a.length, 2);
    assert.match(a[1].parseError?.message ?? '', /Unterminated comment/);
    const b = parseSql('INSERT INTO "open VALUES 1;').statements;
    assert.match(b[0].parseError?.message ?? '', /Unterminated delimited identifier/);
  });

  it('reports a BEGIN block without END', () => {
    const { statements } = parseSql('CREATE TRIGGER t AFTER INSERT ON x FOR EACH ROW BEGIN ATOMIC INSERT INTO y VALUES 1;');
    assert.equal(statements.length, 1);
    assert.match(statements[0].parseError?.message ?? '', /BEGIN/);
  });

  it('survives NUL bytes, lone surrogates, control characters and odd punctuation', () => {
    for (const text of ['\u0000\u0000INSERT\u0000 INTO t VALUES (1);', '\ud800;\udfff', '\u0001\u0002;;;\u007f', '))))((((;', "'", '"', '/*', '--', ':', '?', '!', '#', 'U&', "X'", 'CREATE', 'INSERT INTO t VALUES (', 'ALTER TABLE']) {
      const r = parseSql(text);
      assert.ok(Array.isArray(r.statements), JSON.stringify(text));
    }
  });

  it('never throws on random text, and spans stay inside the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const { statements, comments } = parseSql(text);
        for (const s of statements) {
          assert.ok(s.span.start >= 0 && s.span.end <= text.length && s.span.start <= s.span.end);
          if (s.parseError) assert.ok(s.parseError.span.start >= 0 && s.parseError.span.end <= text.length);
        }
        for (const c of comments) assert.ok(c.span.end <= text.length);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on SQL-like token soup', () => {
    const words = ['INSERT', 'INTO', 'VALUES', 'CREATE', 'TABLE', 'ALTER', 'INDEX', 'TRIGGER', 'BEGIN', 'ATOMIC', 'END', 'CASE', 'IF', 'SELECT', 'FROM', 'WITH', 'UR', '(', ')', ',', ';', '@', "'x'", '"Y"', '?', ':h', '1', '-', '.', 'GENERATED', 'AS', 'IDENTITY', 'CACHE', 'LOAD', 'OF', 'CURSOR', 'IMPORT', 'UPDATE', 'DB', 'CFG', 'USING', 'MERGE', 'ON', 'WHEN', 'THEN', 'NEXT', 'VALUE', 'FOR', '--#SET TERMINATOR @\n', '/*', '*/', '\n'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { maxLength: 80 }), (parts) => {
        const text = parts.join(' ');
        parseSql(text);
        parseSql(text, { terminator: '@' });
      }),
      { numRuns: 1000 },
    );
  });

  it('does not recurse into triggers nested in trigger bodies', () => {
    const sql = 'CREATE TRIGGER a AFTER INSERT ON t FOR EACH ROW '.repeat(50_000) + 'INSERT INTO x VALUES 1';
    const { statements } = parseSql(sql);
    assert.equal(statements.length, 1);
    assert.equal(statements[0].kind, 'createTrigger');
    assert.equal(statements[0].parseError, undefined);
  });

  it('handles 100,000 nested parentheses without overflowing the stack', () => {
    const deep = '('.repeat(100_000) + '1' + ')'.repeat(100_000);
    for (const sql of [`INSERT INTO t VALUES ${deep};`, `INSERT INTO t SELECT * FROM ${deep};`, `CREATE TABLE t (a INT GENERATED ALWAYS AS ${deep});`, `SELECT ${deep} FROM t;`, `MERGE INTO t USING ${deep} ON 1=1 WHEN MATCHED THEN DELETE;`]) {
      const { statements } = parseSql(sql);
      assert.equal(statements.length, 1);
    }
    const unbalanced = parseSql('INSERT INTO t VALUES ' + '('.repeat(100_000));
    assert.ok(unbalanced.statements[0].parseError);
  });
});
