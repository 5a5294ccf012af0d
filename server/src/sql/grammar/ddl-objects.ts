// CREATE INDEX, CREATE/ALTER SEQUENCE, CREATE TABLESPACE: the database objects besides tables that
// shape insert cost.
import type { CreateIndexStatement, CreateTablespaceStatement, IndexColumn, SequenceStatement, Span, Statement } from '../ast';
import { TK_LPAREN, TK_RPAREN, TK_COMMA } from '../lexer';
import type { Parser } from '../parser';
import { parseIdentifier, parseNameList, parseNumber, parseQualifiedName, parseSize } from './clauses';
import { parseSequenceOptions } from './ddl-columns';
import { isZosTablespaceWord, parseZosTablespaceOption } from './zos';

export function parseCreateIndex(p: Parser, span: Span): Statement {
  const context = 'CREATE INDEX';
  p.pos++; // CREATE
  p.acceptSeq('OR', 'REPLACE');
  const unique = p.accept('UNIQUE');
  if (unique) p.acceptSeq('WHERE', 'NOT', 'NULL');
  p.expect('INDEX', context);
  p.acceptSeq('IF', 'NOT', 'EXISTS');
  const index = parseQualifiedName(p, context);
  p.expect('ON', context);
  const table = parseQualifiedName(p, context);
  const stmt: CreateIndexStatement = {
    kind: 'createIndex',
    index,
    table,
    unique,
    columns: [],
    include: [],
    cluster: false,
    span,
    origin: p.origin,
  };
  p.partial = stmt;
  if (p.kind(p.pos) !== TK_LPAREN) p.fail("expected '(' and the index columns", context);
  p.pos++;
  for (;;) {
    if (p.kind(p.pos) === TK_RPAREN) {
      p.pos++;
      break;
    }
    if (p.atEnd()) p.fail("expected ')'", context);
    const col: IndexColumn = { name: '', descending: false };
    if (p.isIdent(p.pos)) col.name = p.identValue(p.pos);
    while (!p.atEnd() && p.kind(p.pos) !== TK_COMMA && p.kind(p.pos) !== TK_RPAREN) {
      if (p.kw(p.pos, 'DESC')) col.descending = true;
      p.skipUnit();
    }
    stmt.columns.push(col);
    if (p.kind(p.pos) === TK_COMMA) p.pos++;
  }
  // Options: the ones the model keeps are read; the many others are skipped word by word.
  while (!p.atEnd()) {
    const s = p.pos;
    if ((p.peek('INCLUDE') || p.peek('EXCLUDE')) && p.kw(p.pos + 1, 'NULL') && p.kw(p.pos + 2, 'KEYS')) {
      p.pos += 3; // INCLUDE NULL KEYS (the default) / EXCLUDE NULL KEYS: which rows get index entries
    } else if (p.peek('INCLUDE') && p.kind(p.pos + 1) === TK_LPAREN) {
      p.pos++;
      stmt.include = parseNameList(p, context);
    } else if (p.accept('CLUSTER')) {
      stmt.cluster = true;
      stmt.clusterSpan = p.tokSpan(s);
    } else if (p.accept('PCTFREE')) {
      stmt.pctfree = parseNumber(p, context);
    } else if (p.accept('PARTITIONED')) {
      stmt.partitioned = true;
    } else if (p.acceptSeq('NOT', 'PARTITIONED')) {
      stmt.partitioned = false;
    } else if (p.accept('FREEPAGE')) {
      stmt.freepage = parseNumber(p, context);
    } else if (p.accept('PADDED')) {
      stmt.padded = true;
    } else if (p.acceptSeq('NOT', 'PADDED')) {
      stmt.padded = false;
    } else {
      p.skipUnit();
    }
  }
  return stmt;
}

export function parseSequence(p: Parser, span: Span, kind: 'createSequence' | 'alterSequence'): Statement {
  const context = kind === 'createSequence' ? 'CREATE SEQUENCE' : 'ALTER SEQUENCE';
  p.pos++;
  p.acceptSeq('OR', 'REPLACE');
  p.expect('SEQUENCE', context);
  const sequence = parseQualifiedName(p, context);
  const stmt: SequenceStatement = { kind, sequence, span, origin: p.origin };
  p.partial = stmt;
  parseSequenceOptions(p, stmt, context, false);
  return stmt;
}

export function parseCreateTablespace(p: Parser, span: Span): Statement {
  const context = 'CREATE TABLESPACE';
  p.pos++;
  let type: CreateTablespaceStatement['type'];
  p.accept('LOB'); // Db2 for z/OS: CREATE LOB TABLESPACE
  if (p.accept('LARGE')) type = 'large';
  else if (p.accept('REGULAR')) type = 'regular';
  else if (p.acceptSeq('USER', 'TEMPORARY')) type = 'user temporary';
  else if (p.acceptSeq('SYSTEM', 'TEMPORARY')) type = 'system temporary';
  else if (p.accept('TEMPORARY')) type = 'temporary';
  p.expect('TABLESPACE', context);
  const id = parseIdentifier(p, context);
  const stmt: CreateTablespaceStatement = { kind: 'createTablespace', tablespace: id.name, nameSpan: id.span, span, origin: p.origin };
  if (type) stmt.type = type;
  p.partial = stmt;
  let extentRaw: { value: number; unitBytes: number } | undefined;
  const zos: NonNullable<CreateTablespaceStatement['zos']> = {};
  let zosWords = false;
  while (!p.atEnd()) {
    const s = p.pos;
    zosWords ||= isZosTablespaceWord(p, p.pos);
    if (parseZosTablespaceOption(p, zos, context)) {
      zosWords = true;
    } else if (p.accept('PAGESIZE')) {
      stmt.pageSize = parseSize(p, context);
    } else if (p.acceptSeq('MANAGED', 'BY')) {
      if (p.accept('SYSTEM')) stmt.managedBy = 'system';
      else if (p.accept('DATABASE')) stmt.managedBy = 'database';
      else if (p.acceptSeq('AUTOMATIC', 'STORAGE')) stmt.managedBy = 'automatic storage';
      else p.fail('expected SYSTEM, DATABASE or AUTOMATIC STORAGE', context);
      stmt.managedBySpan = p.rangeSpan(s, p.pos);
    } else if (p.accept('EXTENTSIZE')) {
      const value = parseNumber(p, context);
      let unitBytes = 0;
      if (p.accept('K')) unitBytes = 1024;
      else if (p.accept('M')) unitBytes = 1024 * 1024;
      extentRaw = { value, unitBytes };
      stmt.extentSizeSpan = p.rangeSpan(s, p.pos);
    } else if (p.accept('PREFETCHSIZE')) {
      if (!p.accept('AUTOMATIC')) {
        stmt.prefetchSize = parseNumber(p, context);
        if (!p.accept('K')) p.accept('M');
      }
    } else if (p.acceptSeq('NO', 'FILE', 'SYSTEM', 'CACHING')) {
      stmt.fileSystemCaching = false;
    } else if (p.acceptSeq('FILE', 'SYSTEM', 'CACHING')) {
      stmt.fileSystemCaching = true;
    } else {
      p.skipUnit();
    }
  }
  if (zosWords) stmt.zos = zos;
  if (extentRaw) {
    stmt.extentSize = extentRaw.unitBytes ? Math.max(1, Math.round((extentRaw.value * extentRaw.unitBytes) / (stmt.pageSize ?? 4096))) : extentRaw.value;
  }
  return stmt;
}
