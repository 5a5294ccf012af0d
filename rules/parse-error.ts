// A statement InsertLint could not fully read: its findings may be incomplete.
import type { FileLanguage, Rule } from '../server/src/engine/types';
import type { Span, Statement } from '../server/src/sql/ast';
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
    for (const list of mistakes.values()) {
      if (list.length === 1) report({ messageId: 'mistake', data: { detail: list[0].detail }, stmt: list[0].stmt, span: list[0].span });
      else report({ messageId: 'mistakes', data: { count: countText(list.length), detail: list[0].detail }, ...runReport(list, 1) });
    }
    if (otherDialect.length >= OTHER_DIALECT_FILE) {
      report({ messageId: 'otherDialectFile', data: { count: countText(otherDialect.length), detail: otherDialect[0].detail }, ...runReport(otherDialect, 1) });
    } else for (const { stmt, span, detail } of otherDialect) report({ messageId: 'otherDialect', data: { detail }, stmt, span });
  },
};

/**
 * Host languages whose syntax errors are reported. Not C and C++: their grammar reads source before the
 * preprocessor, so macros (SOCI's `SOCI_DUMMY_INIT(0)`, Catch's TEST_CASE) look like errors in valid code.
 */
const LANGUAGE_NAMES: Partial<Record<FileLanguage, string>> = { java: 'Java', python: 'Python', javascript: 'JavaScript', typescript: 'TypeScript' };

export default ParseErrorRule;
