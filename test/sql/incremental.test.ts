// sql/incremental.ts re-parses only what an edit touched; the result must be what parsing the whole new
// text gives: the same statements (spans, values rows, errors) and comments, after any chain of edits.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { parseSql } from '../../server/src/sql/parser';
import { prepareShifts, reparseScript } from '../../server/src/sql/incremental';
import type { ParsedSql } from '../../server/src/sql/ast';
import { plain } from './plain-parse';

const PIECES = [
  'CREATE TABLE S.T (ID INT NOT NULL GENERATED ALWAYS AS IDENTITY (CACHE 5), NOTE VARCHAR(20), PRIMARY KEY (ID));\n',
  "INSERT INTO S.T (NOTE) VALUES ('a'), ('b');\n",
  'INSERT INTO S.T (NOTE)\n  VALUES (?);\n',
  '-- a comment; with a terminator\n',
  '/* block\n comment */ ',
  'SET SCHEMA S;\n',
  'COMMIT;\n',
  'CREATE INDEX S.I ON S.T (NOTE);\n',
  "INSERT INTO T VALUES (1, 'x;y', 2.5);\n",
  'SELECT * FROM S.T WHERE NOTE = \'q\';\n',
  'CONNECT TO DB1;\n',
  'UPDATE S.T SET NOTE = CASE WHEN ID = 1 THEN \'a\' ELSE \'b\' END;\n',
  'CREATE PROCEDURE P() BEGIN INSERT INTO S.T (NOTE) VALUES (\'p\'); END;\n',
  'INSERT INTO S.T (NOTE) VALUES (NEXT VALUE FOR S.Q);\n',
  'ALTER TABLE S.T APPEND ON;\n',
  'insert into s.t (note) values (\'lower\')  ;  insert into s.t (note) values (\'same line\');\n',
  'CREATE VIEW BEGIN;\n',
];

/** Text typed or deleted at a random place: characters that start and end statements, strings and comments. */
const INSERTS = ['x', ' ', '\n', ';', "'", '"', '--', '/*', '*/', '(', ')', 'BEGIN ', 'END', '@', 'INSERT INTO S.T VALUES (1);', ',', '?', 'SET SCHEMA R;\n'];

interface Edit {
  at: number;
  remove: number;
  insert: string;
}

const editArb = fc.record({ at: fc.nat(), remove: fc.nat({ max: 12 }), insert: fc.oneof(fc.constantFrom(...INSERTS), fc.constant('')) });

function apply(text: string, e: Edit): string {
  const at = e.at % (text.length + 1);
  return text.slice(0, at) + e.insert + text.slice(Math.min(text.length, at + e.remove));
}

/**
 * The parse to go on from: the re-parse, after checking it has the statements (spans, rows, errors) and
 * comments of a whole parse of `next`; the whole parse when the re-parse declined.
 */
function checkedParse(re: ParsedSql | undefined, next: string, terminator: string, what: string): ParsedSql {
  const full = parseSql(next, { terminator });
  if (!re) return full;
  assert.deepEqual(plain(re.statements), plain(full.statements), `statements ${what}`);
  assert.deepEqual(plain(re.comments), plain(full.comments), `comments ${what}`);
  return re;
}

describe('sql incremental re-parse', () => {
  it('equals a whole parse after any chain of edits', () => {
    let incremental = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 25 }), fc.array(editArb, { minLength: 1, maxLength: 8 }), fc.constantFrom(';', '@'), (pieces, edits, terminator) => {
        let text = pieces.join('');
        if (terminator === '@') text = text.replace(/;\n/g, '@\n');
        let parse: ParsedSql = parseSql(text, { terminator });
        for (const edit of edits) {
          const next = apply(text, edit);
          const re = reparseScript(text, parse, next, terminator);
          if (re) incremental++;
          parse = checkedParse(re, next, terminator, `after ${JSON.stringify(edit)} of ${JSON.stringify(text)}`);
          text = next;
        }
      }),
      { numRuns: 400 },
    );
    // The test must exercise the incremental path, not only the fallback.
    assert.ok(incremental > 500, `only ${incremental} incremental re-parses`);
  });

  it('equals a whole parse when told the change (exact or wider) and that the previous parse was plain', () => {
    let incremental = 0;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 25 }),
        fc.array(fc.record({ edit: editArb, widen: fc.tuple(fc.nat({ max: 30 }), fc.nat({ max: 30 })) }), { minLength: 1, maxLength: 8 }),
        fc.constantFrom(';', '@'),
        (pieces, edits, terminator) => {
          let text = pieces.join('');
          if (terminator === '@') text = text.replace(/;\n/g, '@\n');
          let parse: ParsedSql = parseSql(text, { terminator });
          let plainBefore = false;
          for (const { edit, widen } of edits) {
            const next = apply(text, edit);
            const at = edit.at % (text.length + 1);
            const removed = Math.min(text.length, at + edit.remove) - at;
            // A wider change than the edit is still true (the editor composes several into one).
            const left = Math.min(at, widen[0]);
            const right = Math.min(text.length - at - removed, widen[1]);
            const change = { start: at - left, oldEnd: at + removed + right, newEnd: at + edit.insert.length + right };
            const re = reparseScript(text, parse, next, terminator, { change, plain: plainBefore });
            if (re) incremental++;
            parse = checkedParse(re, next, terminator, `after ${JSON.stringify(edit)} of ${JSON.stringify(text)}`);
            plainBefore = re !== undefined;
            text = next;
          }
        },
      ),
      { numRuns: 400 },
    );
    assert.ok(incremental > 500, `only ${incremental} incremental re-parses`);
  });

  it('moves statements after an edit again and again, by the spans found the first time', () => {
    const text = Array.from({ length: 20 }, (_, i) => `INSERT INTO S.T (ID, NOTE) VALUES (${i}, 'n${i}'), (${i + 1}, 'm');\n`).join('');
    let parse: ParsedSql = parseSql(text);
    let current = text;
    for (let k = 0; k < 6; k++) {
      const at = current.indexOf('(3,');
      const next = k % 2 === 0 ? current.slice(0, at) + 'xy' + current.slice(at) : current.slice(0, at) + current.slice(at + 2);
      const change = k % 2 === 0 ? { start: at, oldEnd: at, newEnd: at + 2 } : { start: at, oldEnd: at + 2, newEnd: at };
      parse = reparseScript(current, parse, next, ';', { change, plain: k > 0 })!;
      assert.ok(parse, 'incremental');
      assert.deepEqual(plain(parse.statements), plain(parseSql(next).statements), `edit ${k}`);
      current = next;
    }
  });

  it('moves statements by spans found ahead (prepareShifts, in slices) as by spans found at the edit', () => {
    const text = Array.from({ length: 300 }, (_, i) => `INSERT INTO S.T (ID, NOTE) VALUES (${i}, 'n${i}'), (${i + 1}, 'm');\n`).join('');
    const parse: ParsedSql = parseSql(text);
    // A budget of 0 still gets on (64 statements a slice); the last slice says it is done.
    const first = prepareShifts(parse.statements, 0, 0);
    assert.ok(first > 0 && first < parse.statements.length, `${first}`);
    let next = first;
    while (next < parse.statements.length) next = prepareShifts(parse.statements, next, 0);
    assert.equal(next, parse.statements.length);
    assert.equal(prepareShifts(parse.statements, next, 0), next);
    const at = text.indexOf('(3,');
    const edited = text.slice(0, at) + 'xy' + text.slice(at);
    const reparsed = reparseScript(text, parse, edited, ';', { change: { start: at, oldEnd: at, newEnd: at + 2 } })!;
    assert.deepEqual(plain(reparsed.statements), plain(parseSql(edited).statements));
  });

  it('ignores a change that does not fit the texts, and parses whole on a directive typed into a plain script', () => {
    const text = 'INSERT INTO T VALUES (1);\nINSERT INTO T VALUES (2);\n';
    const next = text.replace('(2)', '(22)');
    const re = reparseScript(text, parseSql(text), next, ';', { change: { start: 0, oldEnd: 5, newEnd: 5 } });
    assert.deepEqual(plain(re?.statements), plain(parseSql(next).statements));
    const directive = text.replace('INSERT INTO T VALUES (2);', '--#SET TERMINATOR @');
    const at = text.indexOf('INSERT INTO T VALUES (2)');
    assert.equal(reparseScript(text, parseSql(text), directive, ';', { change: { start: at, oldEnd: at + 25, newEnd: at + 19 }, plain: true }), undefined);
    const completed = 'INSERT INTO T VALUES (1);\n--#SE TERMINATOR @\n';
    const withT = completed.replace('#SE ', '#SET ');
    const t = completed.indexOf('#SE') + 3;
    assert.equal(reparseScript(completed, parseSql(completed), withT, ';', { change: { start: t, oldEnd: t, newEnd: t + 1 }, plain: true }), undefined, 'a directive completed by one letter');
  });

  it('keeps the statements before and after a keystroke in a big script and parses few', () => {
    const lines: string[] = ['CREATE TABLE S.T (ID INT, NOTE VARCHAR(20));'];
    for (let i = 0; i < 2000; i++) lines.push(`INSERT INTO S.T (ID, NOTE) VALUES (${i}, 'n${i}');`);
    const text = lines.join('\n') + '\n';
    const before = parseSql(text);
    const firstStatements = [...before.statements];
    const at = text.indexOf("'n1000'");
    const next = text.slice(0, at) + ' ' + text.slice(at);
    const re = reparseScript(text, before, next, ';')!;
    assert.ok(re, 'incremental');
    assert.ok(re.parsed <= 5, `parsed ${re.parsed}`);
    assert.equal(re.statements[10], firstStatements[10], 'a statement before the edit is the same object');
    assert.equal(re.statements[1500], firstStatements[1500], 'a statement after the edit is the same object, moved');
    assert.deepEqual(plain(re.statements), plain(parseSql(next).statements));
    // The re-parsed statement packs its rows in a small chunk: it keeps that chunk alive while it lives, and
    // a session that edits a thousand statements must not hold a thousand 256 kB chunks.
    const edited = re.statements.find((s) => s.kind === 'insert' && s.span.start <= at && s.span.end >= at)!;
    assert.ok(edited.kind === 'insert' && edited.source.kind === 'values');
    const chunk = (edited.source.rows[0] as unknown as { data: Int32Array }).data;
    assert.ok(chunk.length <= 4096, `chunk of ${chunk.length} numbers`);
  });

  it('parses SQL PL and terminator directives whole', () => {
    const routine = 'CREATE PROCEDURE P() BEGIN COMMIT; END;\nINSERT INTO T VALUES (1);\n';
    assert.equal(reparseScript(routine, parseSql(routine), routine.replace('(1)', '(2)'), ';'), undefined);
    const directive = '--#SET TERMINATOR @\nINSERT INTO T VALUES (1)@\n';
    assert.equal(reparseScript(directive, parseSql(directive), directive.replace('(1)', '(2)'), ';'), undefined);
    // SET PASSTHRU: the statements up to the reset are another database's, state the parser carries across statements.
    const session = 'SET PASSTHRU ORA;\nINSERT INTO T VALUES (1);\nSET PASSTHRU RESET;\nINSERT INTO T VALUES (1);\n';
    assert.equal(reparseScript(session, parseSql(session), session.replace('RESET', 'RESE'), ';'), undefined);
    const plainText = 'INSERT INTO T VALUES (1);\nINSERT INTO T VALUES (2);\n';
    const typed = plainText.replace('INSERT INTO T VALUES (1)', 'SET PASSTHRU ORA');
    assert.equal(reparseScript(plainText, parseSql(plainText), typed, ';', { change: { start: 0, oldEnd: 24, newEnd: 16 }, plain: true }), undefined);
  });
});
