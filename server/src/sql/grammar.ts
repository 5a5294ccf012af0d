// Which grammar family reads a statement, from its leading keywords. A new family (z/OS DDL, …) is a
// file in grammar/ and a case here.
import type { Span, Statement } from './ast';
import { TK_WORD, TK_BAD_COMMENT, TK_DOT } from './lexer';
import type { Parser } from './parser';
import { isCfgWord, parseConnect, parseImport, parseIngest, parseLoad, parseUpdateCommandOptions, parseUpdateDbCfg } from './grammar/clp';
import { parseCreateTable } from './grammar/ddl-tables';
import { parseAlterTable } from './grammar/ddl-alter-table';
import { parseCreateIndex, parseCreateTablespace, parseSequence } from './grammar/ddl-objects';
import { isZosLoad, parseDeclareTable, parseZosLoad } from './grammar/zos';
import { parseInsert, parseLockTable, parseMerge, parseSetSchema, parseTransaction } from './grammar/dml';
import { dataChangeAt } from './grammar/clauses';
import { parseAlterModule, parseCreateRoutine, parseCreateTrigger } from './grammar/routines';
import { isSetVariable, labelAt, parseBodyStatement, parseCall, parseCursorStatement, parseDeclare, parseDelete, parseSetVariable, parseUpdate } from './grammar/sqlpl';

export function parseStatement(p: Parser, span: Span): Statement {
  const first = p.pos;
  if (p.t.kind[first] === TK_BAD_COMMENT) return p.other(span, first, p.end);
  if (p.t.kind[first] !== TK_WORD) return p.other(span, first, p.end);
  // The most common statement first, without allocating its keyword.
  if (p.kw(first, 'INSERT')) return parseInsert(p, span);
  const w = p.upper(first);
  switch (w) {
    case 'INSERT':
      return parseInsert(p, span);
    case 'MERGE':
      return parseMerge(p, span);
    case 'CREATE':
      return parseCreate(p, span);
    case 'ALTER':
      if (p.kw(first + 1, 'TABLE')) return parseAlterTable(p, span);
      if (p.kw(first + 1, 'SEQUENCE')) return parseSequence(p, span, 'alterSequence');
      if (p.kw(first + 1, 'MODULE')) return parseAlterModule(p, span);
      return p.other(span, first, p.end);
    case 'DECLARE':
      if (declaresTable(p, first)) return parseDeclareTable(p, span);
      return parseDeclare(p, span);
    case 'COMMIT':
    case 'ROLLBACK':
      return parseTransaction(p, span, w === 'COMMIT' ? 'commit' : 'rollback');
    case 'SET':
      if (p.kw(first + 1, 'SCHEMA') || (p.kw(first + 1, 'CURRENT') && (p.kw(first + 2, 'SCHEMA') || p.kw(first + 2, 'SQLID'))) || p.kw(first + 1, 'CURRENT_SCHEMA')) {
        return parseSetSchema(p, span);
      }
      if (isSetVariable(p, first)) return parseSetVariable(p, span);
      return p.other(span, first, p.end);
    case 'CONNECT':
      return parseConnect(p, span);
    case 'UPDATE':
      if (p.kw(first + 1, 'COMMAND') && p.kw(first + 2, 'OPTIONS')) return parseUpdateCommandOptions(p, span);
      if ((p.kw(first + 1, 'DB') || p.kw(first + 1, 'DATABASE')) && isCfgWord(p, first + 2)) return parseUpdateDbCfg(p, span);
      return parseUpdate(p, span) ?? p.other(span, first, p.end);
    case 'DELETE':
      return parseDelete(p, span) ?? p.other(span, first, p.end);
    case 'CALL':
      return parseCall(p, span);
    case 'OPEN':
    case 'FETCH':
    case 'CLOSE':
      if (p.isIdent(first + 1)) return parseCursorStatement(p, span);
      return p.other(span, first, p.end);
    case 'ALLOCATE':
      // ALLOCATE c CURSOR FOR RESULT SET loc (the other ALLOCATE is CLP's ALLOCATE … of a descriptor).
      if (p.isIdent(first + 1) && p.kw(first + 2, 'CURSOR')) return parseCursorStatement(p, span);
      return p.other(span, first, p.end);
    case 'BEGIN':
    case 'EXECUTE':
    case 'PREPARE':
      // Anonymous blocks (CLP runs BEGIN … END as one statement) and dynamic SQL (in SQL strings of code).
      return parseBodyStatement(p, span);
    case 'INGEST':
      return parseIngest(p, span);
    case 'LOAD':
      return isZosLoad(p, first) ? parseZosLoad(p, span) : parseLoad(p, span);
    case 'IMPORT':
      return parseImport(p, span);
    case 'LOCK':
      if (p.kw(first + 1, 'TABLE')) return parseLockTable(p, span);
      return p.other(span, first, p.end);
    case 'SELECT':
    case 'WITH':
    case 'VALUES':
      return parseDataChangeInsert(p, span) ?? p.other(span, first, p.end);
    default:
      // label: BEGIN … END
      if (labelAt(p, first)) return parseBodyStatement(p, span);
      return p.other(span, first, p.end);
  }
}

/**
 * SELECT … FROM FINAL TABLE (INSERT …) (or NEW TABLE; also in WITH and VALUES … INTO): the INSERT inside, which
 * returns the rows it wrote (a generated key, the usual way to get one back). It is read as the statement: it
 * inserts, and the query around it only reads those rows. Undefined when the statement has no such INSERT, or it
 * cannot be read (the statement then stays text, as other queries do).
 */
function parseDataChangeInsert(p: Parser, span: Span): Statement | undefined {
  for (let i = p.pos; i + 3 < p.end; i++) {
    if (!dataChangeAt(p, i) || !p.kw(i + 3, 'INSERT')) continue;
    const close = p.afterBalanced(i + 2) - 1;
    const stmt = p.parseRange(i + 3, close, false, parseInsert);
    if (stmt.kind !== 'insert' || stmt.parseError) return undefined;
    stmt.span = span;
    stmt.returnsRows = true;
    p.pos = p.end;
    return stmt;
  }
  return undefined;
}

function parseCreate(p: Parser, span: Span): Statement {
  let i = p.pos + 1;
  if (p.kw(i, 'OR') && p.kw(i + 1, 'REPLACE')) i += 2;
  const w = p.kind(i) === TK_WORD ? p.upper(i) : '';
  switch (w) {
    case 'TABLE':
    case 'SUMMARY':
      return parseCreateTable(p, span);
    case 'GLOBAL':
      if (p.kw(i + 1, 'TEMPORARY')) return parseCreateTable(p, span);
      break;
    case 'UNIQUE':
    case 'INDEX':
      if (w === 'INDEX' || p.kw(i + 1, 'INDEX')) return parseCreateIndex(p, span);
      break;
    case 'SEQUENCE':
      return parseSequence(p, span, 'createSequence');
    case 'TRIGGER':
      return parseCreateTrigger(p, span);
    case 'PROCEDURE':
    case 'FUNCTION':
    case 'METHOD':
      return parseCreateRoutine(p, span);
    case 'TABLESPACE':
    case 'LARGE':
    case 'REGULAR':
      return parseCreateTablespace(p, span);
    case 'LOB':
      if (p.kw(i + 1, 'TABLESPACE')) return parseCreateTablespace(p, span);
      break;
    case 'USER':
    case 'SYSTEM':
      if (p.kw(i + 1, 'TEMPORARY') && p.kw(i + 2, 'TABLESPACE')) return parseCreateTablespace(p, span);
      break;
    case 'TEMPORARY':
      if (p.kw(i + 1, 'TABLESPACE')) return parseCreateTablespace(p, span);
      break;
  }
  return p.other(span, p.pos, p.end);
}

/** DECLARE name TABLE / DECLARE schema.name TABLE (DCLGEN), not a cursor or a variable. */
function declaresTable(p: Parser, first: number): boolean {
  if (p.kw(first + 2, 'TABLE')) return true;
  return p.kind(first + 2) === TK_DOT && p.kw(first + 4, 'TABLE');
}
