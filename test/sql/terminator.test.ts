// The terminator a script is run with: inferred from the file (sql/terminator.ts), configured per glob or
// given on the command line, and the message for statements that look run together.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { growthRatio } from '../robustness/support';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { directiveAt, inferenceReads, inferTerminator, scanAfterEdit, scanTerminator, startsWithCommand } from '../../server/src/sql/terminator';
import { parseScript, parseSql } from '../../server/src/sql/parser';
import { resolveConfig, terminatorFor, validateConfig, ConfigError } from '../../server/src/engine/config';
import { allRules } from '../../server/src/engine/registry';
import { Workspace } from '../../server/src/engine/workspace';
import { buildFileModel } from '../../server/src/engine/workspace-files';
import { runCli } from '../ci/repo';

const lines = (...l: string[]) => l.join('\n') + '\n';

describe('sql terminator inference', () => {
  const inferred = (text: string) => inferTerminator(text)?.terminator;

  it('reads a -td<x> named in a header comment', () => {
    assert.equal(inferred(lines('-- run with: db2 -td@ -vf this.sql', 'CREATE TABLE t (a INT);')), '@');
    assert.equal(inferred(lines('/* db2 -td! -f x */', 'VALUES 1;')), '!');
    assert.equal(inferred(lines('-- db2 -tvf x.sql', 'VALUES 1;')), undefined);
  });

  it('sees @ at line ends, END@ after SQL PL bodies full of ;, and lines holding only @', () => {
    assert.equal(inferred(lines('CREATE TABLE t (a INT)@', 'INSERT INTO t VALUES (1)@')), '@');
    const routine = lines('CREATE PROCEDURE p()', 'BEGIN', '  INSERT INTO t VALUES (1);', '  INSERT INTO t VALUES (2);', '  COMMIT;', 'END@');
    assert.equal(inferTerminator(routine)?.terminator, '@');
    assert.equal(inferred(lines('BEGIN', '  INSERT INTO t VALUES (1);', '  COMMIT;', 'END', '@')), '@');
  });

  it('reads lines holding only / as -td/, but not the / SQL*Plus puts after END; of a PL/SQL block', () => {
    assert.equal(inferred(lines('CREATE TABLE t (a INT)', '/', 'INSERT INTO t VALUES (1)', '/')), '/');
    const sqlplus = lines('CREATE TABLE t (a INT);', 'CREATE TABLE u (b INT);', 'BEGIN', '  NULL;', 'END;', '/');
    assert.equal(inferred(sqlplus), undefined);
  });

  it('leaves ; scripts, scripts with --#SET TERMINATOR, and @ inside strings and comments alone', () => {
    assert.equal(inferred(lines('CREATE TABLE t (a INT);', 'INSERT INTO t VALUES (1);')), undefined);
    assert.equal(inferred(lines('--#SET TERMINATOR @', 'CREATE PROCEDURE p() BEGIN END@')), undefined);
    assert.equal(inferred(lines("INSERT INTO t VALUES ('a@", "b@');", '-- mail me@', '/* x@', 'y@ */', 'COMMIT;')), undefined);
  });

  it('does not take the ! of IBM replication placeholders (!capschema!) for a terminator', () => {
    assert.equal(inferred(lines('CREATE TABLE !capschema!.T (A INT) IN !TS!', ';', 'ALTER TABLE !capschema!.T', 'ADD B INT;')), undefined);
  });

  it('recognises a script run without -t (one command per line, or lines continued with \\)', () => {
    assert.equal(inferred(lines('CONNECT TO sample', 'CREATE TABLE t (a INT)', 'INSERT INTO t VALUES (1)', 'CONNECT RESET')), '\n');
    assert.equal(inferred(lines('CREATE TABLE t (\\', ' a INT,\\', ' b INT,\\', ' c INT)')), '\n');
    // A single statement over several lines with no terminator is not one command per line.
    assert.equal(inferred(lines('CREATE VIEW v AS', 'SELECT a', 'FROM t')), undefined);
  });

  it('parseScript reads a / script as its statements, where ; would glue them into one', () => {
    const text = lines('CREATE TABLE t (a INT)', '/', 'INSERT INTO t VALUES (1)', '/', 'INSERT INTO t VALUES (2)', '/');
    assert.deepEqual(parseScript(text).statements.map((s) => s.kind), ['createTable', 'insert', 'insert']);
    assert.equal(parseSql(text).statements.length, 1);
  });
});

describe('sql terminator inference: a comment naming db2 -t (; ends every statement)', () => {
  /** The command a comment of `text` names as run with -t, and its line; undefined when none (or vetoed). */
  const stated = (text: string) => {
    const found = scanTerminator(text).semicolonComment;
    if (!found) return undefined;
    assert.equal(text.slice(found.span.start, found.span.end), found.command);
    return { command: found.command, line: text.slice(0, found.span.start).split('\n').length };
  };

  it('finds -t without d<x> after db2, in any order and spelling of the options, in line and block comments', () => {
    assert.deepEqual(stated(lines('-- run with: db2 -tvf x.sql', 'VALUES 1;')), { command: 'db2 -tvf', line: 1 });
    assert.deepEqual(stated(lines('VALUES 1;', '-- db2 -tf x.sql')), { command: 'db2 -tf', line: 2 });
    assert.deepEqual(stated(lines('--   EXECUTION: db2 -stvf x.sql', 'VALUES 1;')), { command: 'db2 -stvf', line: 1 });
    assert.deepEqual(stated(lines('-- db2 -t -v -f x.sql', 'VALUES 1;')), { command: 'db2 -t -v -f', line: 1 });
    assert.deepEqual(stated(lines('-- db2 -x -tvf x.sql -z x.log', 'VALUES 1;')), { command: 'db2 -x -tvf', line: 1 });
    assert.deepEqual(stated(lines('-- DB2 +c -vtf X.SQL', 'VALUES 1;')), { command: 'DB2 +c -vtf', line: 1 });
    assert.deepEqual(stated(lines('-- db2 -f x.sql -t', 'VALUES 1;')), { command: 'db2 -f x.sql -t', line: 1 });
    assert.deepEqual(stated(lines('-- issue "db2 -tvf CreateGTF.db2"', 'VALUES 1;')), { command: 'db2 -tvf', line: 1 });
    assert.deepEqual(stated(lines('-- db2 -td; -vf x.sql', 'VALUES 1;')), { command: 'db2 -td; -vf', line: 1 });
    assert.deepEqual(stated(lines('/*', ' * run: db2 -x -tvf x.sql', ' */', 'VALUES 1;')), { command: 'db2 -x -tvf', line: 2 });
    // The first such comment counts.
    assert.deepEqual(stated(lines('-- db2 -tvf setup.sql', '-- db2 -tf x.sql', 'VALUES 1;')), { command: 'db2 -tvf', line: 1 });
  });

  it('finds none where no comment runs db2 with -t, or one names another terminator anywhere', () => {
    assert.equal(stated(lines('-- db2 -td@ -vf x.sql', 'VALUES 1@')), undefined);
    assert.equal(stated(lines('-- db2 -vf x.sql', 'VALUES 1')), undefined);
    assert.equal(stated(lines('-- run it with -tvf', 'VALUES 1;')), undefined);
    assert.equal(stated(lines('-- mydb2 -tvf x.sql', 'VALUES 1;')), undefined);
    assert.equal(stated(lines('-- db2 -type x', 'VALUES 1;')), undefined);
    // Another terminator named before or after it: the -tvf may be for another file (run x.db2 with -tvf, then this with -td@).
    assert.equal(stated(lines('-- run x.db2 with db2 -tvf x.db2, then this one with db2 -td@ -vf y.db2', 'VALUES 1;')), undefined);
    assert.equal(stated(lines('-- db2 -tvf x.db2', 'VALUES 1;', '-- db2 -td! -f y.db2')), undefined);
    assert.equal(stated(lines('-- db2 -tvf x.db2', 'VALUES 1;', '-- db2 -vtd@ -f y.db2')), undefined, '-vtd@');
    assert.equal(stated(lines('-- db2 -tvf x.db2', "-- SET STATEMENT TERMINATOR = '@'", 'VALUES 1@')), undefined);
    assert.equal(stated(lines('-- db2 +t -vf x.db2', 'VALUES 1;')), undefined, '+t turns -t off');
  });

  it('keeps it across --#SET TERMINATOR (the lexer follows that), and at the end of a longer text', () => {
    assert.deepEqual(stated(lines('-- db2 -tvf x.sql', '--#SET TERMINATOR @', 'CREATE PROCEDURE P() BEGIN END@', '--#SET TERMINATOR ;')), { command: 'db2 -tvf', line: 1 });
    const body = 'INSERT INTO T VALUES (1);\n'.repeat(64_000);
    const long = `${body}-- db2 -tvf x.sql\nVALUES 1;\n`;
    assert.ok(long.length > 1.5 * 2 ** 20);
    const found = scanTerminator(long).semicolonComment!;
    assert.equal(long.slice(found.span.start, found.span.end), 'db2 -tvf');
    // An edit between the head and the end moves it.
    const edited = `${body.slice(0, 1_200_000)}xx${body.slice(1_200_000)}-- db2 -tvf x.sql\nVALUES 1;\n`;
    const moved = scanAfterEdit(scanTerminator(long), { start: 1_200_000, oldEnd: 1_200_000, newEnd: 1_200_002 }).semicolonComment!;
    assert.equal(edited.slice(moved.span.start, moved.span.end), 'db2 -tvf');
  });

  it('reaches the model of a script whose terminator is inferred, not of one whose terminator is configured', () => {
    const text = lines('-- db2 -tvf a.sql', 'VALUES 1;');
    assert.equal(buildFileModel({ path: 'a.sql', text, language: 'sql' }).semicolonComment?.command, 'db2 -tvf');
    // One that runs another file does not say how this one is run.
    assert.equal(buildFileModel({ path: 'a.sql', text: lines('-- db2 -tvf x.sql', 'VALUES 1;'), language: 'sql' }).semicolonComment, undefined);
    const configured = buildFileModel({ path: 'a.sql', text, language: 'sql' }, [], ';');
    assert.deepEqual([configured.semicolonComment, configured.configuredTerminator], [undefined, ';']);
    const workspace = new Workspace(resolveConfig(allRules()));
    assert.equal(workspace.setFile('/w/a.sql', text)!.semicolonComment?.command, 'db2 -tvf');
    assert.equal(workspace.setFile('/w/a.sql', lines('-- db2 -td@ -vf x.sql', 'VALUES 1@'))!.semicolonComment, undefined);
    assert.equal(workspace.setFile('/w/a.sql', lines('-- db2 -tvf /w/x.sql', 'VALUES 1;'))!.semicolonComment, undefined);
    assert.equal(workspace.setFile('/w/a.sql', lines('-- db2 -tvf /w/A.SQL', 'VALUES 1;'))!.semicolonComment?.command, 'db2 -tvf');
  });
});

describe('sql terminator inference: the options of a db2 command in a comment', () => {
  const inferred = (text: string, name?: string) => inferTerminator(text, { name })?.terminator;
  /** The db2 -t command the scan takes as this script's, and its line (see the describe block above). */
  const stated = (text: string, name?: string) => {
    const found = scanTerminator(text, { name }).semicolonComment;
    return found && { command: found.command, line: text.slice(0, found.span.start).split('\n').length };
  };

  it('reads -td<x> after other options of the same cluster (-vtd@), as the CLP does', () => {
    assert.equal(inferred(lines('-- run with: db2 -vtd@ -f x.sql', 'CREATE TABLE t (a INT);')), '@');
    assert.equal(inferTerminator(lines('-- db2 -vtd@ -f x.sql', 'VALUES 1;'))?.reason, 'a comment says the script runs with -td@');
    assert.equal(inferred(lines('-- DB2 +c -SVTD! -F X.SQL', 'VALUES 1;')), '!');
    assert.equal(inferred(lines('-- db2 -v -s -td/ -f x.sql', 'VALUES 1;')), '/');
    assert.equal(inferred(lines('/*', ' * Run: db2 -svtd@ -f x.sql', ' */', 'VALUES 1;')), '@');
    assert.equal(inferred(lines('/* db2 +c -xvtd! -f x */', 'VALUES 1;')), '!');
    assert.equal(inferred(lines('-- issue "db2 -vtd@ -f x.db2"', 'VALUES 1;')), '@');
    // A db2 -t comment before it on the line is another file's; this one's terminator is still read.
    assert.equal(inferred(lines('-- db2 -tvf a.sql, then db2 -vtd@ -f b.sql', 'VALUES 1;')), '@');
  });

  it('does not read it where the t has no d right after it, outside a db2 command, or inside a word', () => {
    // -tvd@f: t without d<x> (';'), v, d (XML declarations), then '@', which is no option: not a CLP command line.
    assert.equal(inferred(lines('-- db2 -stvd@f x.sql', 'VALUES 1;')), undefined);
    assert.equal(stated(lines('-- db2 -stvd@f x.sql', 'VALUES 1;')), undefined);
    assert.equal(inferred(lines('-- db2 -tvd@ -f x.sql', 'VALUES 1;')), undefined);
    // A cluster counts as a db2 command's options only (a lone -td<x> counts anywhere, as before).
    assert.equal(inferred(lines('-- run it with -vtd@', 'VALUES 1;')), undefined);
    assert.equal(inferred(lines('-- see https://example.com/a-vtd@x and mydb2 -vtd@ -f x', 'VALUES 1;')), undefined);
    assert.equal(inferred(lines('-- db2 connect to x -vtd@', 'VALUES 1;')), undefined);
    assert.equal(inferred(lines('/* db2 -vtdx -f x.sql */', 'VALUES 1;')), undefined);
    // -td followed by a quote or punctuation is the option named in prose, not a terminator.
    assert.equal(inferred(lines("-- the 'db2 -td' option, (-td), -td.", 'VALUES 1;')), undefined);
    assert.equal(inferred(lines('-- db2 -vtd, or -td: see the manual', 'VALUES 1;')), undefined);
    // A placeholder for the character, or one every statement holds: no script is cut at each '(' or '?'.
    for (const comment of ['-- db2 -td<x> -f file.sql', '-- db2 -td[char] -f x.sql', '-- db2 -td{c}', '-- db2 -td(', '-- db2 -vtd* -f x.sql', '-- db2 -td=@ -f x.sql', '-- -td+', '-- -td-', '-- db2 -td? -f x.sql']) {
      assert.equal(inferred(lines(comment, 'INSERT INTO T (A, B) VALUES (?, 1 * 2 + 3 - 4);')), undefined, comment);
    }
    for (const mark of ['@', '!', '/', '#', '$', '%', '&', '~', '^', '|']) assert.equal(inferred(lines(`-- db2 -td${mark} -f x.sql`, 'VALUES 1;')), mark);
  });

  it('does not take a character beyond ASCII after -td for a terminator: typographic quotes, an ellipsis, a letter, an emoji', () => {
    // Comments copied from a word processor or a web page quote the option with typographic quotes.
    for (const comment of ['-- use the \u201c-td\u201d option', '-- the \u2018-td\u2019 option', '-- db2 -td\u2026 see the manual', '-- db2 -vtd\u00e9 -f x.sql', '/* db2 -td\ud83d\ude00 -f x.sql */', '-- -td\u00a0@']) {
      assert.equal(inferred(lines(comment, 'VALUES 1;')), undefined, comment);
      assert.deepEqual(inferTerminator(lines(comment, 'VALUES 1;')), inferTerminator(lines(comment, 'VALUES 1;'), { plainLines: false }));
    }
    // A -td<x> cluster with a non-ASCII character names no terminator, so it vetoes a db2 -t comment as any other -td<x>.
    assert.equal(stated(lines('-- db2 -tvf x.sql', '-- db2 -vtd\u00e9 -f y.sql', 'VALUES 1;')), undefined);
    assert.equal(inferred(lines('-- db2 -td~ -f x.sql', 'VALUES 1;')), '~');
  });

  it("reads the command of a comment that runs this file, or names none, and not one that runs another file", () => {
    const procs = (...comment: string[]) => lines(...comment, 'CREATE PROCEDURE P () BEGIN', '  INSERT INTO T VALUES (1);', 'END');
    // The script is run with -td@ (its last statement needs no '@'); the comment tells how to run another one.
    assert.deepEqual(stated(procs('-- run other.sql first: db2 -tvf other.sql')), { command: 'db2 -tvf', line: 1 }, 'without a name: as before');
    assert.equal(stated(procs('-- run other.sql first: db2 -tvf other.sql'), '/w/procs.sql'), undefined);
    assert.equal(stated(procs('-- db2 -tvf C:\\setup\\other.sql'), 'C:\\setup\\procs.sql'), undefined);
    // This file, by its name in any case, with a path, quoted, or without its extension; a placeholder; no file.
    for (const comment of ['-- db2 -tvf procs.sql', '-- db2 -tvf PROCS.SQL', '-- db2 -tvf ./scripts/procs.sql', '-- issue "db2 -tvf procs.sql".', '-- db2 -tvf procs', '-- db2 -tvf <script-name>', '-- db2 -tvf $1', '-- db2 -t -v < procs.sql', '-- db2 -tv']) {
      assert.ok(stated(procs(comment), '/w/procs.sql'), comment);
    }
    // The first comment that runs this file counts, after those that run others.
    assert.deepEqual(stated(procs('-- 1. db2 -tvf setup.sql', '-- 2. db2 -tvf procs.sql', '-- 3. db2 -tvf cleanup.sql'), 'procs.sql'), { command: 'db2 -tvf', line: 2 });
    assert.deepEqual(stated(procs('/* 1. db2 -tvf setup.sql', '   2. db2 -x -tvf procs.sql */'), 'procs.sql'), { command: 'db2 -x -tvf', line: 2 });
    // A document that is no file (an editor's untitled one) has no name to compare with.
    assert.ok(stated(procs('-- db2 -tvf other.sql'), 'untitled:Untitled-1'));
  });

  it('takes no terminator from a command that runs another file, and lets it veto nothing', () => {
    // tables.sql is a ';' script; its comment says procs.sql (another file) is run with -td@.
    const tables = lines('-- then: db2 -vtd@ -f procs.sql', 'CREATE TABLE t (a INT);', 'INSERT INTO t VALUES (1);');
    assert.equal(inferred(tables), '@', 'without a name, as any -td@ comment');
    assert.equal(inferred(tables, 'tables.sql'), undefined);
    assert.equal(inferred(lines('-- then: db2 -td@ -vf procs.sql', 'VALUES 1;'), 'tables.sql'), undefined);
    assert.equal(inferred(lines('/* then: db2 -td@ -vf procs.sql */', 'VALUES 1;'), 'tables.sql'), undefined);
    assert.equal(inferred(lines('-- db2 -td@ -vf tables.sql', 'VALUES 1;'), 'tables.sql'), '@');
    // Run this one with -tvf and the next with -td@: the -tvf comment stands.
    const both = lines('-- db2 -tvf tables.sql; then db2 -td@ -vf procs.sql', 'VALUES 1;');
    assert.deepEqual(stated(both, 'tables.sql'), { command: 'db2 -tvf', line: 1 });
    assert.equal(stated(both), undefined, 'without a name: vetoed as before');
    assert.equal(stated(both, 'procs.sql'), undefined);
    assert.equal(inferred(both, 'procs.sql'), '@');
  });
});

describe('sql parser: a ; terminator inside an SQL PL body', () => {
  const routine = lines('CREATE PROCEDURE P (IN N INT)', 'BEGIN', '  DECLARE I INT DEFAULT 0;', '  SET I = N;', 'END;', 'COMMIT;');

  it("notes the first ';' a routine, trigger or block read with ; holds in its body", () => {
    const [proc, commit] = parseSql(routine).statements;
    assert.equal(proc.kind, 'createRoutine');
    assert.deepEqual(proc.innerTerminator, { start: routine.indexOf(';'), end: routine.indexOf(';') + 1 });
    assert.equal(commit.innerTerminator, undefined);
    const trigger = lines('CREATE TRIGGER TR AFTER INSERT ON T FOR EACH ROW', 'BEGIN ATOMIC', '  INSERT INTO L VALUES (1);', 'END;');
    assert.equal(parseSql(trigger).statements[0].innerTerminator?.start, trigger.indexOf(';'));
    const block = lines('L1: BEGIN', '  INSERT INTO L VALUES (1);', 'END L1;');
    assert.equal(parseSql(block).statements[0].innerTerminator?.start, block.indexOf(';'));
  });

  it("notes none when ; is not the terminator there, or the body holds no ';'", () => {
    assert.equal(parseSql(routine.replace('END;', 'END@'), { terminator: '@' }).statements[0].innerTerminator, undefined);
    const switched = `--#SET TERMINATOR @\n${routine.replace('END;', 'END@\n--#SET TERMINATOR ;')}`;
    assert.deepEqual(parseSql(switched).statements.map((s) => [s.kind, s.innerTerminator]), [['createRoutine', undefined], ['commit', undefined]]);
    assert.equal(parseSql(lines('CREATE FUNCTION F () RETURNS INT RETURN 1;', 'VALUES 1;')).statements[0].innerTerminator, undefined);
    assert.equal(parseSql(lines('CREATE PROCEDURE P () BEGIN END;', 'VALUES 1;')).statements[0].innerTerminator, undefined);
    assert.equal(parseSql(lines('CREATE TRIGGER TR AFTER INSERT ON T FOR EACH ROW INSERT INTO L VALUES (1);')).statements[0].innerTerminator, undefined);
  });
});

describe('sql parser: statements run together', () => {
  it('asks whether the script is run with -td@ when a line ending in @ is followed by another statement', () => {
    const text = lines('CREATE TABLE t (a INT)@', 'CREATE TABLE u (b INT)@');
    const [stmt] = parseSql(text).statements;
    assert.deepEqual(stmt.parseError?.glued, { terminator: '@' });
    assert.match(stmt.parseError!.message, /run with -td@\?/);
    assert.equal(text.slice(stmt.parseError!.span.start, stmt.parseError!.span.end), 'CREATE');
  });

  it('says a terminator is missing when the line before ends without one', () => {
    const text = lines('create table a (x int)', '', 'create table b (y int);');
    const [stmt] = parseSql(text).statements;
    assert.deepEqual(stmt.parseError?.glued, {});
    assert.match(stmt.parseError!.message, /'create' starts another statement with no terminator before it/);
  });

  it('does not call a trigger body or a MERGE branch on its own line another statement', () => {
    const trigger = parseSql(lines('CREATE TRIGGER tr AFTER INSERT ON t FOR EACH ROW', 'INSERT INTO log VALUES (1) oops oops;')).statements[0];
    assert.equal(trigger.parseError?.glued, undefined);
    const merge = parseSql(lines('MERGE INTO t USING s ON t.a = s.a WHEN NOT MATCHED THEN', 'INSERT (a) VALUES (s.a);')).statements[0];
    assert.equal(merge.parseError, undefined);
  });
});

describe('engine: configured terminators', () => {
  it('validates "terminator" and picks the last matching glob', () => {
    assert.throws(() => validateConfig({ terminator: 'abc' }, allRules(), 'x'), ConfigError);
    assert.throws(() => validateConfig({ terminator: { 'a/*.sql': ' ' } }, allRules(), 'x'), ConfigError);
    const file = validateConfig({ terminator: { '*.db2': '@', 'patches/**': '/', 'patches/auto/**': 'auto', 'cli/*.clp': 'newline' } }, allRules(), 'x');
    const config = resolveConfig(allRules(), file);
    config.source = '/repo/.insertlintrc.json';
    assert.equal(terminatorFor('/repo/lib/x.db2', config), '@');
    assert.equal(terminatorFor('/repo/patches/1.sql', config), '/');
    assert.equal(terminatorFor('/repo/patches/auto/2.sql', config), undefined);
    assert.equal(terminatorFor('/repo/cli/a.clp', config), '\n');
    assert.equal(terminatorFor('/repo/x.sql', config), undefined);
    assert.equal(terminatorFor('/repo/x.sql', resolveConfig(allRules(), file, { terminator: '%' })), '%');
  });

  it('reads a script again when the configured terminator changes', () => {
    const text = lines('CREATE TABLE t (', '  a INT', ')%', 'INSERT INTO t VALUES (1)%');
    const workspace = new Workspace(resolveConfig(allRules()));
    assert.equal(workspace.setFile('/w/a.sql', text)!.statements.length, 1);
    workspace.setConfig(resolveConfig(allRules(), { terminator: '%' }));
    assert.deepEqual(workspace.model('/w/a.sql')!.statements.map((s) => s.kind), ['createTable', 'insert']);
  });
});

describe('cli: --terminator and "terminator" in .insertlintrc.json', () => {
  const dir = mkdtempSync(join(tmpdir(), 'insertlint-term-'));
  mkdirSync(join(dir, 'etl'));
  // Not inferable: % is no usual terminator, and the lines are not one command each.
  const script = lines('CREATE TABLE t (', '  a INT', ')%', 'INSERT INTO t VALUES (1)%');
  writeFileSync(join(dir, 'etl', 'load.sql'), script);
  writeFileSync(join(dir, 'other.sql'), script);

  it('without help, reports the glued statements with the question', async () => {
    const result = await runCli(['check', '--format', 'json', 'etl'], dir);
    const out = JSON.parse(result.stdout);
    assert.equal(out.summary.parseErrors, 1);
    assert.match(out.diagnostics.find((d: { rule: string }) => d.rule === 'parse-error').message, /-td%\?/);
  });

  it('--terminator % reads the scripts, and a bad value is a usage error', async () => {
    const out = JSON.parse((await runCli(['check', '--format', 'json', '--terminator', '%'], dir)).stdout);
    assert.deepEqual([out.summary.statements, out.summary.parseErrors], [4, 0]);
    const bad = await runCli(['check', '--terminator', 'xyz'], dir);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--terminator/);
  });

  it('"terminator" by glob applies to the files it matches only', async () => {
    writeFileSync(join(dir, '.insertlintrc.json'), JSON.stringify({ terminator: { 'etl/**': '%' } }));
    const out = JSON.parse((await runCli(['check', '--format', 'json'], dir)).stdout);
    assert.deepEqual([out.summary.statements, out.summary.parseErrors], [3, 1]);
  });
});

describe('sql terminator inference: plain lines read at once', () => {
  // inferTerminator reads lines without comments or open strings with one regular expression; reading every
  // line character by character ({ plainLines: false }) must give the same answer on any text.
  const fragments = ["'", '"', "''", '--', '/*', '*/', '/', '*', ';', '@', '!', '\\', '-', ' ', '  ', '\t', '\r', '\n', '\n', '\n', 'END', 'end', 'INSERT INTO t VALUES (1)', "'a;b'", '"x-y"', '-td@', '-td!', 'db2 ', 'DB2\t', ' -tvf', ' -x', ' -t', ' x.sql', ' -vtd@', ' -f', ' a.sql', '"', '+c', '#SET TERMINATOR @', 'SET STATEMENT TERMINATOR = \'@\'', 'CONNECT TO db', 'x', '!p!', '\u00a0', '\ufeff'];
  const text = fc.array(fc.constantFrom(...fragments), { maxLength: 60 }).map((parts) => parts.join(''));

  it('gives what the character-by-character reading gives', () => {
    fc.assert(
      fc.property(text, (t) => {
        assert.deepEqual(inferTerminator(t), inferTerminator(t, { plainLines: false }));
        assert.deepEqual(scanTerminator(t).semicolonComment, scanTerminator(t, { plainLines: false }).semicolonComment);
        assert.deepEqual(scanTerminator(t, { name: 'a.sql' }), scanTerminator(t, { name: 'a.sql', plainLines: false }));
      }),
      { numRuns: 5000 },
    );
  });

  it("tells a ';' in a plain line's strings from one in its code", () => {
    // Every line a command and ';' only inside strings: a script run without -t, one command per line.
    assert.equal(inferTerminator("CONNECT TO db\nINSERT INTO t VALUES ('a;b')\nCOMMIT")?.terminator, '\n');
    assert.equal(inferTerminator('CONNECT TO db\nINSERT INTO t VALUES ("a;b", \'c;\')\nCOMMIT')?.terminator, '\n');
    // A ';' in code, after a string holding one or before it: run with -t.
    assert.equal(inferTerminator("CONNECT TO db\nINSERT INTO t VALUES ('a;b');\nCOMMIT"), undefined);
    assert.equal(inferTerminator("CONNECT TO db\nINSERT INTO t VALUES ('a;b'); COMMIT\nCOMMIT"), undefined);
    assert.equal(inferTerminator("CONNECT TO db\nINSERT INTO t VALUES (1); SELECT 'a;b' FROM t\nCOMMIT"), undefined);
  });

  it('gives it on scripts of many lines, where the counts decide', () => {
    const script = fc.array(fc.oneof(text, fc.constantFrom('INSERT INTO t VALUES (1)@', 'END@', '@', "VALUES ('a', \"b\");", 'CALL p() !', 'x \\')), { maxLength: 40 }).map((l) => l.join('\n'));
    fc.assert(
      fc.property(script, (t) => {
        assert.deepEqual(inferTerminator(t), inferTerminator(t, { plainLines: false }));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('sql terminator inference: comments and command words read without copies', () => {
  // The readings before 2026-11-26 (branch i48): each comment line's first 80 characters copied and
  // upper-cased, each line's first word sliced and upper-cased, -td looked for character by character.
  const COMMANDS = new Set(['ACTIVATE', 'ALTER', 'ATTACH', 'BACKUP', 'BIND', 'CALL', 'CATALOG', 'COMMENT', 'COMMIT', 'CONNECT', 'CREATE', 'DB2', 'DEACTIVATE', 'DECLARE', 'DELETE', 'DESCRIBE', 'DETACH', 'DISCONNECT', 'DROP', 'ECHO', 'EXPORT', 'FORCE', 'GET', 'GRANT', 'IMPORT', 'INSERT', 'LIST', 'LOAD', 'LOCK', 'QUIESCE', 'REBIND', 'REORG', 'RESTORE', 'REVOKE', 'ROLLBACK', 'RUNSTATS', 'SELECT', 'SET', 'TERMINATE', 'UNCATALOG', 'UPDATE', 'VALUES']);
  const directiveBefore = (text: string, from: number, to: number): string | undefined => {
    let i = from;
    while (i < to && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
    const head = text.slice(i, Math.min(to, i + 80)).toUpperCase();
    if (head.startsWith('#SET') && /^#SET\s+TERMINATOR\b/.test(head)) return 'set';
    if (head.includes('STATEMENTTERMINATOR=')) return 'set';
    const m = /^SET\s+STATEMENT\s+TERMINATOR\s*=\s*'(\S)'/.exec(head);
    return m ? m[1] : undefined;
  };
  const commandBefore = (text: string, first: number, last: number): boolean => {
    if (text.charCodeAt(first) === 33) return true;
    let j = first;
    while (j <= last && j - first < 12 && /[0-9A-Za-z]/.test(text[j])) j++;
    return j > first && COMMANDS.has(text.slice(first, j).toUpperCase());
  };
  const pieces = [' ', '\t', '#', '#SET', ' TERMINATOR', 'statementTerminator=', 'STATEMENTTERMINATOR', 'r', 'R', '=', ' = ', "'@'", "'!'", 'SET', 's', ' STATEMENT', 'set statement terminator', '@', 'x', 'ß', '\n', 'Connect', 'db2', 'DISCONNECT', 'DEACTIVATES', 'a1', '9', 'z', '!', '-'];
  const text = fc.array(fc.constantFrom(...pieces), { maxLength: 30 }).map((p) => p.join(''));

  it('finds the directives a comment holds as the copying reading did', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), (t, a, b) => {
        const from = a % (t.length + 1);
        const to = from + (b % (t.length - from + 1));
        assert.equal(directiveAt(t, from, to), directiveBefore(t, from, to));
      }),
      { numRuns: 20000 },
    );
    assert.equal(directiveAt("-- SET STATEMENT TERMINATOR = '@'", 2, 33), '@');
    assert.equal(directiveAt('--#SET TERMINATOR !', 2, 19), 'set');
    assert.equal(directiveAt('-- no directive here, only text', 2, 31), undefined);
    // The first 80 characters count: the '=' as the 80th, and one further.
    const at80 = `--${'x'.repeat(60)}statementTerminator=`;
    assert.equal(directiveAt(at80, 2, at80.length), 'set');
    assert.equal(directiveAt(`--x${at80.slice(2)}`, 2, at80.length + 1), undefined);
  });

  it('tells command words as the copying reading did', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), (t, a, b) => {
        fc.pre(t.length > 0);
        const first = a % t.length;
        const last = first + (b % (t.length - first));
        assert.equal(startsWithCommand(t, first, last), commandBefore(t, first, last));
      }),
      { numRuns: 20000 },
    );
    for (const word of COMMANDS) assert.ok(startsWithCommand(`${word.toLowerCase()} x`, 0, word.length + 1), word);
    assert.equal(startsWithCommand('CONNECTED', 0, 8), false);
  });

  it('finds -td<x> after other dashes, in block comments after long text, and not inside a word', () => {
    assert.equal(inferTerminator('-- ------ run with -TD@ please\nselect 1 from t@\n')?.reason, 'a comment says the script runs with -td@');
    assert.equal(inferTerminator('-- x-td! is not it, -td@ is\nselect 1 from t@\n')?.terminator, '@');
    assert.equal(inferTerminator(`/* ${'A long banner line. '.repeat(20)}\n   ${'more text '.repeat(30)} -td!\n*/\nselect 1 from t!\n`)?.terminator, '!');
    assert.equal(inferTerminator(`/* ${'text '.repeat(50)} */ select 1 from t;\n-- x-td@\n`), undefined);
  });
});

describe('sql terminator inference: time', () => {
  it('is linear in a script without any ; (a search per line for the next one was quadratic)', () => {
    // Lines ending in '@' and no ';' at all: up to the 1 MB the inference reads (here 64 KB and 512 KB).
    const script = (lines: number) => 'INSERT INTO t VALUES (1, \'a\')@\n'.repeat(lines);
    const { ratio, smallMs, largeMs } = growthRatio(script, (text) => void inferTerminator(text), 2_000);
    assert.ok(ratio < 24, `8× the script took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
    assert.equal(inferTerminator(script(10))?.terminator, '@');
  });

  it('reads comments of thousands of db2 commands, options and -td mentions in linear time', () => {
    const shapes: Record<string, (n: number) => string> = {
      'db2 -x on one line': (n) => `-- ${'db2 -x '.repeat(n)}\nVALUES 1;\n`,
      'db2 -f on one line': (n) => `-- ${'db2 -f '.repeat(n)}\nVALUES 1;\n`,
      'options of one db2 in a block comment': (n) => `/* db2 ${'-v '.repeat(n)} */\nVALUES 1;\n`,
      'db2 commands in a block comment': (n) => `/* ${'db2 -a x -b '.repeat(n)}*/\nVALUES 1;\n`,
      'an unterminated block comment of -td': (n) => `/* ${'x -td'.repeat(n)}\nVALUES 1;\n`,
      'lines of db2 -t comments': (n) => '-- db2 -x -s -v -tf a.sql\n'.repeat(n / 4) + 'VALUES 1;\n',
    };
    for (const [shape, make] of Object.entries(shapes)) {
      const { ratio, smallMs, largeMs } = growthRatio(make, (text) => void scanTerminator(text, { name: 'a.sql' }), 4_000);
      assert.ok(ratio < 24, `${shape}: 8× the text took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
    }
  });

  it('reads the end of a file longer than the megabyte it reads first: a routine longer than that ends with END@ there', () => {
    const body = Array.from({ length: 60_000 }, (_, i) => `INSERT INTO T VALUES (${i});`).join('\n');
    const routine = `CREATE PROCEDURE P () BEGIN\n${body}\nEND@\nCALL P()@\n`;
    assert.ok(routine.length > 1.5 * 2 ** 20);
    assert.equal(inferTerminator(routine)?.terminator, '@');
    const [procedure, call] = parseSql(routine, { terminator: '@' }).statements;
    assert.deepEqual([procedure.kind, call?.kind, procedure.parseError], ['createRoutine', 'call', undefined]);
    // A ';' script that switches with --#SET TERMINATOR near its end starts as its head shows.
    const switching = `${body}\n--#SET TERMINATOR @\nCREATE PROCEDURE Q () BEGIN\nINSERT INTO T VALUES (1);\nEND@\n`;
    assert.equal(inferTerminator(switching), undefined);
    // An edit in the middle of a long text cannot change the inference; one in its first megabyte or its end can.
    const length = routine.length;
    assert.equal(inferenceReads(2 ** 20 + 10, length), false);
    assert.equal(inferenceReads(10, length), true);
    assert.equal(inferenceReads(length - 100, length), true);
    assert.equal(inferenceReads(2 ** 20 + 10, length, length - 100), true, 'a paste from the middle to the end');
  });
});
