// Broken shell scripts (issue 15): tree-sitter-bash recovers from broken lines in a row at a cost that grows with
// them, so a broken script is read in pieces (languages/shell-chunks.ts finds them, shell-read.ts parses them in the
// file's offsets). A script that parses cleanly is read as before; a broken one keeps its db2 commands, its loops
// and its variables, at their exact positions. (Its time: test/robustness/code.test.ts.)
import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { runCli } from '../ci/repo';
import { mutated } from '../robustness/support';
import { scanShell } from '../../server/src/code/languages/shell-chunks';
import { fileSpanOf, type Statement } from '../../server/src/sql/ast';
import { brief, codeFrontEnd, INSERT_RULES, lintCode, posOf } from './helpers';

/** The pieces' texts (they must cover the script end to end) and the suspect lines' texts. */
function scanned(text: string): { pieces: string[]; suspect: string[] } {
  const { pieces, suspectLines } = scanShell(text);
  let at = 0;
  for (const piece of pieces) {
    assert.equal(piece.start, at, 'the pieces cover the script end to end');
    at = piece.end;
  }
  assert.equal(at, text.length);
  return { pieces: pieces.map((p) => text.slice(p.start, p.end)), suspect: suspectLines.map((l) => text.slice(l.start, l.end)) };
}

/** Lines of SQL read as commands, as when the quote of a multi-line `db2 "CREATE TABLE …"` is lost. */
const COLUMNS = ['    PATIENT_ID INT NOT NULL,', '    NAME VARCHAR(30),', '    AGE SMALLINT,', '    PRIMARY KEY (PATIENT_ID)'];

describe('code: broken shell scripts', () => {
  it('cuts a script after its top-level commands only, never inside quotes, here-documents, groups or compound commands', () => {
    const sh = [
      'db2 connect to X',
      'sql="INSERT INTO T',
      '  VALUES (1)"',
      'cat > in.sql <<-EOF',
      '\tINSERT INTO T VALUES (2);',
      '\tdone',
      '\tEOF',
      'for f in *.csv; do',
      '  db2 "IMPORT FROM $f OF DEL INSERT INTO T"',
      'done',
      'load() {',
      '  case "$1" in',
      '    a|b) db2 "$sql" ;;',
      '    (c) echo "$(date',
      '      )" ;;',
      '  esac',
      '}',
      'grep x f | \\',
      '  while read l; do echo "$l"; done',
      'ls |',
      '  wc -l && echo a',
      'if [[ $x =~ ^(a|b)$ ]]; then arr=(1 2); cat <(ls) @(x|y); for ((i = 0; i < 3; i++)); do :; done; fi',
      'function f',
      '{ :; }',
      '',
    ].join('\n');
    const { pieces, suspect } = scanned(sh);
    assert.deepEqual(pieces.map((p) => p.split('\n')[0]), [
      'db2 connect to X',
      'sql="INSERT INTO T',
      'cat > in.sql <<-EOF',
      'for f in *.csv; do',
      'load() {',
      'grep x f | \\',
      'ls |',
      'if [[ $x =~ ^(a|b)$ ]]; then arr=(1 2); cat <(ls) @(x|y); for ((i = 0; i < 3; i++)); do :; done; fi',
      'function f',
    ]);
    assert.deepEqual(suspect, [], 'nothing of a well-formed script is suspect');
  });

  it('finds the lines tree-sitter is slow on: a ( after a word, a closer with nothing to close, what is left open', () => {
    const sh = ['db2 CREATE TABLE APP.P (', ...COLUMNS, ')', 'fi', 'echo done', 'if true; then', '  echo "never closed', ''].join('\n');
    const { suspect } = scanned(sh);
    // (The `)` closes the `(` of the first line.)
    assert.deepEqual(suspect, ['db2 CREATE TABLE APP.P (\n', '    NAME VARCHAR(30),\n', '    PRIMARY KEY (PATIENT_ID)\n', 'fi\n', 'if true; then\n', '  echo "never closed\n']);
  });

  it('reads a well-formed script as one tree, as before', async () => {
    const frontEnd = await codeFrontEnd();
    const sh = 'db2 connect to X\nfor f in *.csv; do\n  db2 "INSERT INTO APP.T (A) VALUES (1)"\ndone\n';
    const read = frontEnd.read({ path: 'ok.sh', text: sh, language: 'shell' });
    assert.equal(read.syntaxError, undefined);
    assert.deepEqual(read.statements.map((s) => s.kind), ['insert']);
  });

  it('keeps the db2 commands of a broken script, their loops and variables, at their exact positions', async () => {
    const head = ['#!/bin/sh', 'db2 connect to SALESDB', 'sql="INSERT INTO APP.T (A) VALUES (1)"', 'for f in *.csv; do', '  db2 "INSERT INTO APP.T (A) VALUES (2)"', 'done'];
    const tail = ['while read id; do', '  db2 "$sql"', 'done < ids.txt', 'db2 "INSERT INTO APP.U (A) VALUES (3)" )', ''];
    // 300 column lines in a row: the whole script took seconds to parse.
    const broken = [...head, 'db2 CREATE TABLE APP.PATIENTS (', ...Array.from({ length: 75 }, () => COLUMNS).flat(), ')', ...tail].join('\n');
    const clean = [...head, ...tail.filter((l) => !l.endsWith(' )')), 'db2 "INSERT INTO APP.U (A) VALUES (3)"', ''].join('\n');
    const found = await lintCode({ 'broken.sh': broken, 'clean.sh': clean });
    const findings = (file: string) => found.findings.filter((f) => f.file === file);
    // The same findings as the script without its broken lines, on the same commands.
    const anchors = (text: string) => new Map([
      [posOf(text, 'db2 "INSERT INTO APP.T'), 'loop insert'],
      [posOf(text, 'db2 "$sql"'), 'variable in a loop'],
      [posOf(text, 'db2 "INSERT INTO APP.U'), 'last command'],
    ]);
    const named = (file: string, text: string) => brief(findings(file), INSERT_RULES).map((b) => b.replace(/@(.*)$/, (_, at: string) => `@${anchors(text).get(at) ?? at}`));
    assert.deepEqual(named('broken.sh', broken), named('clean.sh', clean));
    assert.ok(named('broken.sh', broken).some((b) => b.endsWith('@variable in a loop')), named('broken.sh', broken).join(', '));
    // A parse-error notice where the script breaks (the first broken line).
    assert.deepEqual(findings('broken.sh').filter((f) => f.rule === 'parse-error').map((f) => f.line), [7]);
    // Each statement's names are at their place in the file, whichever piece of it they were read from (the first
    // broken line is a db2 command too: `db2 CREATE TABLE APP.PATIENTS`).
    const model = found.models.get('broken.sh')!;
    const targets = model.statements.map((s: Statement) => (s.kind === 'insert' ? broken.slice(s.origin.toFile(s.target.span.start), s.origin.toFile(s.target.span.end)) : s.kind));
    assert.deepEqual(targets, ['APP.T', 'APP.T', 'createTable', 'APP.U']);
    const create = model.statements.find((s) => s.kind === 'createTable')!;
    assert.equal(create.kind === 'createTable' && broken.slice(create.origin.toFile(create.table.span.start), create.origin.toFile(create.table.span.end)), 'APP.PATIENTS');
  });

  it('check reads a 125 KB broken script well within the time budget, with the findings of its db2 commands', async function () {
    this.timeout(60_000);
    // 6,000 lines of SQL read as commands between two loaders: the whole parse ran past the 10 s budget.
    const loop = 'for f in *.csv; do\n  db2 "INSERT INTO APP.T (A) VALUES (1)"\ndone\n';
    const sh = `db2 connect to X\n${loop}${Array.from({ length: 6000 }, (_, i) => COLUMNS[i % COLUMNS.length] + '\n').join('')}${loop}`;
    assert.ok(sh.length > 125_000);
    const dir = mkdtempSync(join(tmpdir(), 'insertlint-broken-shell-'));
    writeFileSync(join(dir, 'load.sh'), sh);
    const result = await runCli(['check', 'load.sh', '--format', 'json', '--file-time-budget', '3'], dir);
    assert.equal(result.stderr, '');
    const report = JSON.parse(result.stdout);
    assert.deepEqual(report.leftOut, []);
    const lines = report.diagnostics.filter((d: { rule: string }) => d.rule === 'no-autocommit').map((d: { line: number }) => d.line);
    assert.deepEqual(lines, [3, 6006]);
  });

  it('reads damaged scripts without failing, every statement where its text is in the file', async function () {
    this.timeout(60_000);
    const frontEnd = await codeFrontEnd();
    const seed = [
      '#!/bin/sh',
      'db2 connect to X',
      'sql="INSERT INTO APP.T (A) VALUES (1)"',
      'for f in *.csv; do',
      '  db2 "INSERT INTO APP.U (A) VALUES (2)"',
      '  if [ $((i % 100)) -eq 0 ]; then db2 commit; fi',
      'done',
      'db2 "CREATE TABLE APP.P (',
      ...COLUMNS,
      ')"',
      'db2 -tv <<EOF',
      'INSERT INTO APP.V (A) VALUES (3);',
      'EOF',
      'load() { db2 "$sql"; }',
      '',
    ].join('\n');
    fc.assert(
      fc.property(mutated(seed), (text) => {
        const read = frontEnd.read({ path: 'load.sh', text, language: 'shell' });
        assert.ok(!read.leftOut?.includes('fault of InsertLint'), read.leftOut);
        for (const stmt of read.statements) {
          if (stmt.kind !== 'insert' || stmt.target.span.end <= stmt.target.span.start) continue;
          // Where findings on the name go (fileSpanOf): inside the file, never backwards.
          const shown = fileSpanOf(stmt.origin, stmt.target.span);
          assert.ok(shown.start >= 0 && shown.end <= text.length && shown.start <= shown.end, `${shown.start}..${shown.end} in ${text.length}`);
          // A name read across a splice ends in another place of the file than it starts (`INSERT INTO "$sql"` in a
          // heredoc, $sql set above): no one stretch of the file holds it.
          const start = stmt.origin.toFile(stmt.target.span.start);
          const end = stmt.origin.toFile(stmt.target.span.end);
          if (end <= start) continue;
          // The name the statement was read with, at its place in the file (spliced names aside; a damaged name
          // of three parts, APP.PP.S, is read as the schema and table of its last two).
          const written = text.slice(start, end).toUpperCase();
          const name = [stmt.target.schema, stmt.target.name].filter(Boolean).join('.');
          if (/^[\w.]+$/.test(written)) assert.ok(written === name || written.endsWith(`.${name}`), `${written} read as ${name}`);
        }
      }),
      // A damaged name of three parts (found by a CI run's seed); a quoted name spliced from a variable in an
      // unterminated heredoc (seed -1770937744).
      {
        numRuns: 200,
        examples: [
          ['#!/bin/sh\ndb2 connect to X\nfor f in *.csv; do\n  db2 "INSERT INTO APP.PP.S (2)"\ndone\n'],
          ['#!/bin/sh\ndb2 connect to X\nsql="INSERT INTO APP.T (A) VALUES (1)"\ndb2 -tv <<EOF\nINSERT INTO "$sql"; }\n'],
        ],
      },
    );
  });
});
