// A statement InsertLint could not fully read: its findings may be incomplete.
import type { FileLanguage, Rule } from '../server/src/engine/types';
import type { QualifiedName, Span, Statement } from '../server/src/sql/ast';
import { forEachStatement } from '../server/src/sql/walk';
import { countText, runReport } from './support/runs';

/**
 * From this many statements of another database's SQL in one file, they are one finding: such a file is
 * usually a script for that database (replication samples ship one per target), and the advice is the same.
 */
const OTHER_DIALECT_FILE = 3;

const ParseErrorRule: Rule = {
  meta: {
    id: 'parse-error',
    description: 'Statement InsertLint could not read (other rules may miss problems in it)',
    defaultSeverity: 'information',
    evidence: [],
    messages: {
      unreadable: 'InsertLint could not read this statement: {detail}. Rules skip what they cannot see in it; if it is valid Db2 SQL, please report it.',
      mistake: 'Db2 rejects this statement: {detail}.',
      mistakes: 'Db2 rejects {count} statements of this file ({runLines}) as written. The same mistake in each: {detail}.',
      gluedTerminator:
        'Statements run together: {detail} If so, set "terminator": "{terminator}" for this file in .insertlintrc.json or pass --terminator {terminator}; InsertLint infers it only from what the file shows (a -td comment, lines ending in the terminator).',
      otherDialect:
        'Not Db2 SQL: {detail}. Db2 rejects the statement as written, and InsertLint cannot analyse it. If the file is meant for another database, exclude it with "ignore" in .insertlintrc.json.',
      otherDialectFile:
        'Not Db2 SQL: {count} statements of this file ({runLines}) are written for another database. The first: {detail}. Db2 rejects them as written, and InsertLint cannot analyse them. If the file is meant for another database, exclude it with "ignore" in .insertlintrc.json.',
      gluedConfigured:
        'Statements run together: {detail} This file is read with the terminator {configured} that the configuration sets (--terminator or "terminator" in .insertlintrc.json), while its lines end in {terminator}: is that setting meant for this file?',
      hostSyntax:
        'The {language} here could not be parsed (a syntax error, or syntax its grammar does not know). The SQL calls after it may be read only in part, so findings can be missing from this file.',
      glued:
        'Statements run together: {detail} The CLP reads them as one statement and rejects it. End the statement before this line{newline}.',
      semicolonCut:
        "The CLP ends {what} at the first ';' of its body (line {cutLine}). The comment at line {commentLine} says this script is run with `{command}`, where ';' ends every statement: Db2 rejects the part up to it (SQL0104N), and the rest of the body runs as statements of their own. Run the script with -td@ and end each statement with @ (the script's other statements too), or put `--#SET TERMINATOR @` before {it} and `--#SET TERMINATOR ;` after it.",
      semicolonCuts:
        "The CLP ends {what} at the first ';' of its body (line {cutLine}). The comment at line {commentLine} says this script is run with `{command}`, where ';' ends every statement: Db2 rejects the part up to it (SQL0104N), and the rest of the body runs as statements of their own. This file holds {count} such routines, triggers or blocks ({runLines}). Run the script with -td@ and end each statement with @ (the script's other statements too), or put `--#SET TERMINATOR @` before each of them and `--#SET TERMINATOR ;` after it.",
    },
  },
  check({ file, report, lineOf }) {
    const language = file.syntaxError && LANGUAGE_NAMES[file.source.language];
    if (language) report({ messageId: 'hostSyntax', data: { language }, span: file.syntaxError! });
    const otherDialect: { stmt: Statement; span: Span; detail: string }[] = [];
    // Known mistakes, by what the message says: the same one repeated is one finding.
    const mistakes = new Map<string, { stmt: Statement; span: Span; detail: string }[]>();
    // Statements inside routines, blocks and triggers too: a body is read statement by statement.
    forEachStatement(file.statements, (stmt) => {
      const error = stmt.parseError;
      if (!error) return;
      if (error.dialect) {
        otherDialect.push({ stmt, span: error.span, detail: error.message.replace(/\.$/, '') });
      } else if (error.mistake) {
        const list = mistakes.get(error.message) ?? [];
        if (list.length === 0) mistakes.set(error.message, list);
        list.push({ stmt, span: error.span, detail: error.message.replace(/\.$/, '') });
      } else if (error.glued) {
        const terminator = error.glued.terminator;
        const configured = file.configuredTerminator;
        const messageId = !terminator ? 'glued' : configured !== undefined && configured !== terminator ? 'gluedConfigured' : 'gluedTerminator';
        // One command per line (db2 without -t) is a way out only when the statement before the glued one is one line.
        const oneLine = lineOf(stmt.origin.toFile(stmt.span.start)) >= lineOf(stmt.origin.toFile(error.span.start)) - 1;
        const newline = oneLine ? ' (or, for db2 without -t, set "terminator": "newline" in .insertlintrc.json)' : '';
        report({ messageId, data: { detail: error.message, terminator: terminator ?? '', configured: configured === '\n' ? 'newline' : (configured ?? ''), newline }, stmt, span: error.span });
      } else report({ messageId: 'unreadable', data: { detail: error.message.replace(/\.$/, '') }, stmt, span: error.span });
    });
    // A script that says it is run with `db2 -t` (';' ends every statement) and holds a routine, trigger or block
    // whose body holds ';' as the terminator it is read with: the CLP cuts it there (sql/terminator.ts).
    const stated = file.semicolonComment;
    if (stated) {
      const cut: Statement[] = [];
      for (const stmt of file.statements) if (stmt.innerTerminator !== undefined) cut.push(stmt);
      if (cut.length > 0) {
        const first = cut[0];
        const data = {
          commentLine: lineOf(stated.span.start),
          command: stated.command,
          what: describeCut(first),
          cutLine: lineOf(first.origin.toFile(first.innerTerminator!.start)),
          it: first.kind === 'createRoutine' ? 'the routine' : first.kind === 'createTrigger' ? 'the trigger' : first.kind === 'compound' ? 'the block' : 'the statement',
          count: countText(cut.length),
        };
        // Flagged at the first one's head; a run's extent is the statements whole (an edit in a body touches it).
        const last = cut[cut.length - 1];
        if (cut.length === 1) report({ messageId: 'semicolonCut', data, stmt: first, span: headSpan(first) });
        else report({ messageId: 'semicolonCuts', data, stmt: first, span: headSpan(first), extent: { first: { stmt: first, span: first.span }, last: { stmt: last, span: last.span } } });
      }
    }
    for (const list of mistakes.values()) {
      if (list.length === 1) report({ messageId: 'mistake', data: { detail: list[0].detail }, stmt: list[0].stmt, span: list[0].span });
      else report({ messageId: 'mistakes', data: { count: countText(list.length), detail: list[0].detail }, ...runReport(list, 1) });
    }
    if (otherDialect.length >= OTHER_DIALECT_FILE) {
      report({ messageId: 'otherDialectFile', data: { count: countText(otherDialect.length), detail: otherDialect[0].detail }, ...runReport(otherDialect, 1) });
    } else for (const { stmt, span, detail } of otherDialect) report({ messageId: 'otherDialect', data: { detail }, stmt, span });
  },
};

/** `SCHEMA.NAME` as written (folded). */
function nameText(name: QualifiedName): string {
  return name.schema !== undefined ? `${name.schema}.${name.name}` : name.name;
}

/** What the CLP cuts, for the message: CREATE PROCEDURE APP.FILL, CREATE TRIGGER T1, the BEGIN … END block. */
function describeCut(stmt: Statement): string {
  if (stmt.kind === 'createRoutine') {
    const routine = `${stmt.routine.toUpperCase()} ${nameText(stmt.name)}`;
    return stmt.module ? `the ${routine} of ALTER MODULE ${nameText(stmt.module)}` : `CREATE ${routine}`;
  }
  if (stmt.kind === 'createTrigger') return `CREATE TRIGGER ${nameText(stmt.trigger)}`;
  if (stmt.kind === 'compound') return 'the BEGIN … END block';
  return 'the statement';
}

/** Where a statement the CLP cuts is flagged: its head, up to the routine's or trigger's name (BEGIN of a block). */
function headSpan(stmt: Statement): Span {
  const start = stmt.span.start;
  if (stmt.kind === 'createRoutine') return { start, end: stmt.name.span.end };
  if (stmt.kind === 'createTrigger') return { start, end: stmt.trigger.span.end };
  return { start, end: Math.min(stmt.span.end, start + (stmt.kind === 'compound' && stmt.label ? stmt.label.length : 5)) };
}

/**
 * Host languages whose syntax errors are reported. Not C and C++: their grammar reads source before the
 * preprocessor, so macros (SOCI's `SOCI_DUMMY_INIT(0)`, Catch's TEST_CASE) look like errors in valid code.
 */
const LANGUAGE_NAMES: Partial<Record<FileLanguage, string>> = { java: 'Java', python: 'Python', javascript: 'JavaScript', typescript: 'TypeScript' };

export default ParseErrorRule;
