// Db2 for z/OS statements and clauses: the table space options that shape insert cost (CREATE TABLESPACE …
// IN db), DCLGEN's DECLARE t TABLE, and the LOAD utility's control statement (DSNUTILB SYSIN, .ctl cards).
// The LUW forms stay in their own families; these are reached from them when the z/OS words appear.
import type { ColumnDef, DeclareTableStatement, TableConstraint, QualifiedName, Span, Statement, ZosLoadOptions, ZosTablespaceOptions } from '../ast';
import { TK_COMMA, TK_LPAREN, TK_RPAREN } from '../lexer';
import type { Parser } from '../parser';
import { parseIdentifier, parseNumber, parseQualifiedName } from './clauses';
import { parseColumnDef } from './ddl-columns';

/** Words only a z/OS table space is written with (USING STOGROUP, PRIQTY …): they make it a z/OS one without IN db. */
const ZOS_TABLESPACE_WORDS = new Set(['STOGROUP', 'PRIQTY', 'SECQTY', 'DSSIZE', 'SEGSIZE', 'MAXPARTITIONS', 'NUMPARTS', 'FREEPAGE', 'TRACKMOD', 'CCSID', 'LOCKMAX', 'MAXROWS', 'GBPCACHE', 'MEMBER']);

/**
 * Reads one z/OS option of CREATE TABLESPACE at the parser's position into `zos`; false when the word is no
 * option kept here (the caller skips it). `IN db` names the database (LUW's IN DATABASE PARTITION GROUP is not this).
 */
export function parseZosTablespaceOption(p: Parser, zos: ZosTablespaceOptions, context: string): boolean {
  const s = p.pos;
  if (p.peek('IN') && !p.kw(p.pos + 1, 'DATABASE') && !p.kw(p.pos + 1, 'NODEGROUP') && p.isIdent(p.pos + 1)) {
    p.pos++;
    zos.database = parseIdentifier(p, context).name;
  } else if (p.acceptSeq('MEMBER', 'CLUSTER')) {
    zos.memberCluster = true;
    zos.memberClusterSpan = p.rangeSpan(s, p.pos);
  } else if (p.accept('PCTFREE')) {
    zos.pctfree = parseNumber(p, context);
    if (p.acceptSeq('FOR', 'UPDATE')) parseNumber(p, context);
    zos.freeSpaceSpan ??= p.rangeSpan(s, p.pos);
  } else if (p.accept('FREEPAGE')) {
    zos.freepage = parseNumber(p, context);
    zos.freeSpaceSpan ??= p.rangeSpan(s, p.pos);
  } else if (p.accept('TRACKMOD')) {
    zos.trackmod = yesNo(p, context);
  } else if (p.accept('LOCKSIZE')) {
    zos.locksize = p.upper(p.pos++);
  } else if (p.accept('SEGSIZE')) {
    zos.segsize = parseNumber(p, context);
  } else if (p.accept('MAXPARTITIONS')) {
    zos.maxPartitions = parseNumber(p, context);
  } else if (p.accept('NUMPARTS')) {
    zos.numParts = parseNumber(p, context);
  } else {
    return false;
  }
  return true;
}

/** True when a word of a CREATE TABLESPACE is written only for Db2 for z/OS. */
export function isZosTablespaceWord(p: Parser, at: number): boolean {
  return ZOS_TABLESPACE_WORDS.has(p.upper(at));
}

/** YES or NO after an option word (APPEND YES, TRACKMOD NO, LOG NO …). */
export function yesNo(p: Parser, context: string): boolean {
  if (p.accept('YES')) return true;
  if (p.accept('NO')) return false;
  return p.fail('expected YES or NO', context);
}

/** DECLARE t TABLE (c1 type, …): DCLGEN's declaration of a table's columns for the precompiler. */
export function parseDeclareTable(p: Parser, span: Span): Statement {
  const context = 'DECLARE TABLE';
  p.expect('DECLARE', context);
  const table = parseQualifiedName(p, context);
  p.expect('TABLE', context);
  const stmt: DeclareTableStatement = { kind: 'declareTable', table, columns: [], span, origin: p.origin };
  p.partial = stmt;
  if (p.kind(p.pos) !== TK_LPAREN) p.fail("expected '(' and the columns", context);
  p.pos++;
  const ignored: TableConstraint[] = [];
  while (!p.atEnd() && p.kind(p.pos) !== TK_RPAREN) {
    const column: ColumnDef = parseColumnDef(p, context, ignored);
    stmt.columns.push(column);
    if (p.kind(p.pos) === TK_COMMA) p.pos++;
    else if (p.kind(p.pos) !== TK_RPAREN) p.fail("expected ',' or ')'", context);
  }
  p.expectKind(TK_RPAREN, "')'", context);
  return stmt;
}

/** True when LOAD at `at` is the z/OS utility (LOAD DATA …, LOAD INDDN …), not the LUW command (LOAD FROM …). */
export function isZosLoad(p: Parser, at: number): boolean {
  return !p.kw(at + 1, 'FROM') && !p.kw(at + 1, 'CLIENT');
}

/**
 * The z/OS LOAD utility: `LOAD [DATA] [INDDN dd] [RESUME YES|NO] [REPLACE] [LOG YES|NO] [SHRLEVEL NONE|CHANGE]
 * … INTO TABLE t [PART n] [(field specifications)] [INTO TABLE …]`. The options may stand in any order and
 * some also after a table's PART clause; the field specifications are skipped.
 */
export function parseZosLoad(p: Parser, span: Span): Statement {
  const context = 'LOAD';
  p.pos++; // LOAD
  const utility: ZosLoadOptions = { tables: [], resume: false, replace: false, log: true, shrlevel: 'none' };
  let inddn = 'SYSREC';
  while (!p.atEnd()) {
    if (p.acceptSeq('INTO', 'TABLE')) {
      utility.tables.push(parseQualifiedName(p, context));
    } else if (p.accept('RESUME')) {
      utility.resume = yesNo(p, context);
    } else if (p.accept('REPLACE')) {
      utility.replace = true;
    } else if (p.accept('LOG')) {
      utility.log = yesNo(p, context);
    } else if (p.accept('SHRLEVEL')) {
      const level = p.upper(p.pos++);
      if (level === 'CHANGE' || level === 'NONE' || level === 'REFERENCE') utility.shrlevel = level.toLowerCase() as ZosLoadOptions['shrlevel'];
      else p.fail('expected NONE, CHANGE or REFERENCE', context, p.pos - 1);
    } else if (p.accept('INDDN') && p.isIdent(p.pos)) {
      inddn = p.upper(p.pos++);
    } else {
      p.skipUnit();
    }
  }
  if (utility.tables.length === 0) p.fail('expected INTO TABLE and the table to load', context, p.end);
  const table: QualifiedName = utility.tables[0];
  return {
    kind: 'load',
    from: { kind: 'file', name: inddn },
    mode: utility.replace ? 'replace' : 'insert',
    table,
    nonrecoverable: !utility.log,
    client: false,
    utility,
    span,
    origin: p.origin,
  };
}
