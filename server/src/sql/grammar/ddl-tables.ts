// CREATE TABLE (and CREATE SUMMARY TABLE, CREATE/DECLARE GLOBAL TEMPORARY TABLE) with its elements and
// table options (ALTER TABLE is read in ddl-alter-table.ts).
import type { CreateTableStatement, MqtDefinition, QualifiedName, Span, Statement } from '../ast';
import { TK_WORD, TK_NUMBER, TK_LPAREN, TK_RPAREN, TK_COMMA, TK_DOT } from '../lexer';
import type { Parser } from '../parser';
import { parseIdentifier, parseNameList, parseNumber, parseQualifiedName, skipParens, tablesRead } from './clauses';
import { parseColumnDef, parseTableConstraint } from './ddl-columns';

/** The statement CREATE TABLE's errors name. */
const CREATE_TABLE = 'CREATE TABLE';

export function parseCreateTable(p: Parser, span: Span): Statement {
  const context = 'CREATE TABLE';
  let temporary: 'global' | 'declared' | undefined;
  let summary = false;
  if (p.accept('DECLARE')) {
    p.expect('GLOBAL', context);
    p.expect('TEMPORARY', context);
    temporary = 'declared';
  } else {
    p.expect('CREATE', context);
    if (p.accept('GLOBAL')) {
      p.expect('TEMPORARY', context);
      temporary = 'global';
    } else if (p.accept('SUMMARY')) summary = true;
  }
  p.expect('TABLE', context);
  if (p.acceptSeq('IF', 'NOT', 'EXISTS')) {
    /* Db2 11.5 */
  }
  const table = parseQualifiedName(p, context);
  const stmt: CreateTableStatement = {
    kind: 'createTable',
    table,
    columns: [],
    constraints: [],
    tablespace: {},
    notLoggedInitially: false,
    span,
    origin: p.origin,
  };
  if (temporary) stmt.temporary = temporary;
  p.partial = stmt;

  let hadElements = false;
  if (p.kind(p.pos) === TK_LPAREN) {
    hadElements = true;
    // (c1, c2) AS (…) — a column name list for an MQT / AS query
    const nameListOnly = p.isIdent(p.pos + 1) && (p.kind(p.pos + 2) === TK_COMMA || p.kind(p.pos + 2) === TK_RPAREN);
    if (nameListOnly) parseNameList(p, context);
    else parseTableElements(p, stmt);
  }
  let queryTables: QualifiedName[] = [];
  if (p.accept('LIKE')) {
    stmt.like = parseQualifiedName(p, context);
  } else if (p.peek('AS') && p.kind(p.pos + 1) === TK_LPAREN) {
    p.pos++;
    const open = p.pos;
    stmt.asQuery = skipParens(p, context);
    queryTables = tablesRead(p, open + 1, p.pos - 1);
  } else if (!hadElements && p.accept('FOR')) {
    // staging table: CREATE TABLE s FOR mqt PROPAGATE IMMEDIATE
    parseQualifiedName(p, context);
    p.expect('PROPAGATE', context);
    p.expect('IMMEDIATE', context);
  } else if (!hadElements) {
    p.fail("expected '(', LIKE or AS", context);
  }
  parseTableOptions(p, stmt, summary, queryTables);
  return stmt;
}

function parseTableElements(p: Parser, stmt: CreateTableStatement): void {
  const context = 'CREATE TABLE';
  p.pos++; // (
  for (;;) {
    if (p.kind(p.pos) === TK_RPAREN) {
      p.pos++;
      return;
    }
    if (p.atEnd()) p.fail("expected ')'", context);
    if (p.peek('CONSTRAINT') || p.peek('PRIMARY') || p.peek('UNIQUE') || p.peek('FOREIGN') || (p.peek('CHECK') && p.kind(p.pos + 1) === TK_LPAREN)) {
      stmt.constraints.push(parseTableConstraint(p, context));
    } else if (p.peek('PERIOD') && (p.kw(p.pos + 1, 'SYSTEM_TIME') || p.kw(p.pos + 1, 'BUSINESS_TIME')) && p.kind(p.pos + 2) === TK_LPAREN) {
      p.pos += 2;
      skipParens(p, context);
    } else if (p.peek('LIKE') && p.isIdent(p.pos + 1)) {
      p.pos++;
      parseQualifiedName(p, context);
    } else {
      const col = parseColumnDef(p, context, stmt.constraints);
      stmt.columns.push(col);
    }
    if (p.kind(p.pos) === TK_COMMA) p.pos++;
    else if (p.kind(p.pos) !== TK_RPAREN) p.fail("expected ',' or ')'", context);
  }
}

/**
 * What CREATE TABLE's options say of a table made AS (fullselect): whether it is a materialized query table
 * (settleMqt decides at the end), and how it refreshes.
 */
interface MqtOptions {
  dataInitiallyDeferred: boolean;
  refresh: 'immediate' | 'deferred' | undefined;
  refreshSpan: Span | undefined;
  maintainedBy: MqtDefinition['maintainedBy'];
  /** WITH NO DATA / DEFINITION ONLY: a copy of the query's columns, not an MQT. */
  definitionOnly: boolean;
}

/**
 * Reads one table option, the cursor at its first word (`optStart`). False when the words there are no table
 * option after all (NO not followed by CYCLE, PARTITION not by BY, …): the caller reports it.
 */
type TableOptionReader = (p: Parser, stmt: CreateTableStatement, mqt: MqtOptions, optStart: number) => boolean;

function parseTableOptions(p: Parser, stmt: CreateTableStatement, summary: boolean, queryTables: QualifiedName[]): void {
  const mqt: MqtOptions = { dataInitiallyDeferred: false, refresh: undefined, refreshSpan: undefined, maintainedBy: undefined, definitionOnly: false };
  while (!p.atEnd()) {
    const optStart = p.pos;
    if (p.kind(p.pos) !== TK_WORD) {
      p.fail('expected a table option', CREATE_TABLE);
    }
    const read = TABLE_OPTION_READERS.get(p.upper(p.pos));
    if (read === undefined || !read(p, stmt, mqt, optStart)) p.fail('expected a table option', CREATE_TABLE);
  }
  settleMqt(stmt, summary, queryTables, mqt);
}

/** A table AS (fullselect) with an MQT's options (and not DEFINITION ONLY) is a materialized query table. */
function settleMqt(stmt: CreateTableStatement, summary: boolean, queryTables: QualifiedName[], options: MqtOptions): void {
  const { dataInitiallyDeferred, refresh, refreshSpan, maintainedBy, definitionOnly } = options;
  if (stmt.asQuery && (dataInitiallyDeferred || refresh || summary || maintainedBy) && !definitionOnly) {
    stmt.mqt = {
      query: stmt.asQuery,
      baseTables: queryTables,
      refresh: refresh ?? 'deferred',
      summary,
    };
    if (refreshSpan) stmt.mqt.refreshSpan = refreshSpan;
    if (maintainedBy) stmt.mqt.maintainedBy = maintainedBy;
    delete stmt.asQuery;
  }
}

// Where the rows go: table spaces, organization, distribution and range partitioning.

/** IN ts [, ts …], IN database.ts (Db2 for z/OS), IN DATABASE PARTITION GROUP g. */
function readInTablespace(p: Parser, stmt: CreateTableStatement): boolean {
  p.pos++;
  if (p.acceptSeq('DATABASE', 'PARTITION', 'GROUP')) {
    parseIdentifier(p, CREATE_TABLE);
    return true;
  }
  stmt.tablespace.data = parseIdentifier(p, CREATE_TABLE).name;
  // IN database.tablespace (Db2 for z/OS)
  if (p.kind(p.pos) === TK_DOT && p.isIdent(p.pos + 1)) {
    p.pos++;
    stmt.tablespace.database = stmt.tablespace.data;
    stmt.tablespace.data = parseIdentifier(p, CREATE_TABLE).name;
  }
  // IN ts1, ts2 (partitioned tables list several)
  while (p.kind(p.pos) === TK_COMMA && p.isIdent(p.pos + 1)) p.pos += 2;
  return true;
}

function readIndexTablespace(p: Parser, stmt: CreateTableStatement): boolean {
  p.pos++;
  p.expect('IN', CREATE_TABLE);
  stmt.tablespace.index = parseIdentifier(p, CREATE_TABLE).name;
  return true;
}

function readLongTablespace(p: Parser, stmt: CreateTableStatement): boolean {
  p.pos++;
  p.expect('IN', CREATE_TABLE);
  stmt.tablespace.long = parseIdentifier(p, CREATE_TABLE).name;
  while (p.kind(p.pos) === TK_COMMA && p.isIdent(p.pos + 1)) p.pos += 2;
  return true;
}

function readOrganizeBy(p: Parser, stmt: CreateTableStatement): boolean {
  p.pos++;
  p.expect('BY', CREATE_TABLE);
  if (p.accept('ROW')) {
    stmt.organizeBy = 'row';
    if (p.accept('USING')) skipParens(p, CREATE_TABLE);
  } else if (p.accept('COLUMN')) stmt.organizeBy = 'column';
  else if (p.accept('DIMENSIONS')) {
    stmt.organizeBy = 'dimensions';
    skipParens(p, CREATE_TABLE);
  } else if (p.acceptSeq('KEY', 'SEQUENCE')) {
    stmt.organizeBy = 'key sequence';
    skipParens(p, CREATE_TABLE);
    while (p.accept('ALLOW') || p.accept('DISALLOW') || p.accept('OVERFLOW') || p.accept('PCTFREE')) {
      if (p.kind(p.pos) === TK_NUMBER) p.pos++;
    }
  } else if (p.acceptSeq('INSERT', 'TIME')) stmt.organizeBy = 'insert time';
  else if (p.kind(p.pos) === TK_LPAREN) {
    stmt.organizeBy = 'dimensions';
    skipParens(p, CREATE_TABLE);
  } else p.fail('expected ROW, COLUMN, DIMENSIONS, KEY SEQUENCE or INSERT TIME', CREATE_TABLE);
  return true;
}

function readDistributeBy(p: Parser, stmt: CreateTableStatement): boolean {
  p.pos++;
  // DISTRIBUTE ON (…) / ON RANDOM is the Netezza-compatible spelling Db2 also accepts
  if (!p.accept('ON')) p.expect('BY', CREATE_TABLE);
  if (p.accept('RANDOM')) stmt.distributeBy = { kind: 'random', columns: [] };
  else if (p.accept('REPLICATION')) stmt.distributeBy = { kind: 'replication', columns: [] };
  else {
    p.accept('HASH');
    stmt.distributeBy = { kind: 'hash', columns: parseNameList(p, CREATE_TABLE) };
  }
  return true;
}

/** PARTITIONING KEY (c, …) [USING HASHING]: the older spelling of DISTRIBUTE BY HASH. */
function readPartitioningKey(p: Parser, stmt: CreateTableStatement): boolean {
  p.pos++;
  p.expect('KEY', CREATE_TABLE);
  stmt.distributeBy = { kind: 'hash', columns: parseNameList(p, CREATE_TABLE) };
  p.acceptSeq('USING', 'HASHING');
  return true;
}

function readUsingHashing(p: Parser): boolean {
  p.pos++;
  p.expect('HASHING', CREATE_TABLE);
  return true;
}

/** PARTITION BY [RANGE] (columns) (ranges): the whole clause is kept as a span. */
function readPartitionBy(p: Parser, stmt: CreateTableStatement): boolean {
  if (!p.kw(p.pos + 1, 'BY')) return false;
  p.pos += 2;
  p.accept('RANGE');
  const s = p.pos;
  skipParens(p, CREATE_TABLE);
  if (p.kind(p.pos) === TK_LPAREN) skipParens(p, CREATE_TABLE);
  stmt.partitionBy = p.rangeSpan(s, p.pos);
  return true;
}

// How rows are inserted, locked, logged and compressed.

function readAppend(p: Parser, stmt: CreateTableStatement, _mqt: MqtOptions, optStart: number): boolean {
  p.pos++;
  // ON|OFF on LUW, YES|NO on z/OS
  if (p.accept('ON') || p.accept('YES')) stmt.append = true;
  else if (p.accept('OFF') || p.accept('NO')) stmt.append = false;
  else p.fail('expected ON or OFF (YES or NO on Db2 for z/OS)', CREATE_TABLE);
  stmt.appendSpan = p.rangeSpan(optStart, p.pos);
  return true;
}

function readLocksize(p: Parser, stmt: CreateTableStatement): boolean {
  p.pos++;
  stmt.locksize = parseLocksize(p, CREATE_TABLE);
  return true;
}

function readPctfree(p: Parser, stmt: CreateTableStatement, _mqt: MqtOptions, optStart: number): boolean {
  p.pos++;
  stmt.pctfree = parseNumber(p, CREATE_TABLE);
  stmt.pctfreeSpan = p.rangeSpan(optStart, p.pos);
  return true;
}

/** NOT LOGGED INITIALLY, NOT LOGGED [ON ROLLBACK DELETE|PRESERVE ROWS] (temporary tables), NOT VOLATILE. */
function readNotOption(p: Parser, stmt: CreateTableStatement, _mqt: MqtOptions, optStart: number): boolean {
  if (p.acceptSeq('NOT', 'LOGGED', 'INITIALLY')) {
    stmt.notLoggedInitially = true;
    stmt.notLoggedInitiallySpan = p.rangeSpan(optStart, p.pos);
    return true;
  }
  if (p.acceptSeq('NOT', 'LOGGED')) {
    if (p.accept('ON')) {
      p.expect('ROLLBACK', CREATE_TABLE);
      if (!(p.accept('DELETE') || p.accept('PRESERVE'))) p.fail('expected DELETE or PRESERVE', CREATE_TABLE);
      p.expect('ROWS', CREATE_TABLE);
    }
    return true;
  }
  if (p.acceptSeq('NOT', 'VOLATILE')) {
    p.accept('CARDINALITY');
    return true;
  }
  return false;
}

/** LOGGED (temporary tables). */
function readLogged(p: Parser): boolean {
  p.pos++;
  return true;
}

function readVolatile(p: Parser): boolean {
  p.pos++;
  p.accept('CARDINALITY');
  return true;
}

function readCompress(p: Parser): boolean {
  p.pos++;
  if (p.accept('YES')) {
    if (!p.accept('ADAPTIVE')) p.accept('STATIC');
  } else if (!p.accept('NO')) p.fail('expected YES or NO', CREATE_TABLE);
  return true;
}

function readValueCompression(p: Parser): boolean {
  p.pos++;
  p.expect('COMPRESSION', CREATE_TABLE);
  return true;
}

/** CCSID and the encoding scheme after it (Db2 for z/OS). */
function readCcsid(p: Parser): boolean {
  p.pos += 2;
  return true;
}

/** [NO] CYCLE [ON]. */
function readCycle(p: Parser): boolean {
  if (p.acceptSeq('NO', 'CYCLE') || p.accept('CYCLE')) {
    p.accept('ON');
    return true;
  }
  return false;
}

// A materialized query table's options, and those of a copy made AS (fullselect) or LIKE another table.

/** DATA INITIALLY DEFERRED (an MQT's), DATA CAPTURE NONE | CHANGES [INCLUDE LONGVAR COLUMNS]. */
function readDataOption(p: Parser, _stmt: CreateTableStatement, mqt: MqtOptions): boolean {
  if (p.acceptSeq('DATA', 'INITIALLY', 'DEFERRED')) {
    mqt.dataInitiallyDeferred = true;
    return true;
  }
  if (p.acceptSeq('DATA', 'CAPTURE')) {
    if (!p.accept('NONE')) {
      p.expect('CHANGES', CREATE_TABLE);
      p.acceptSeq('INCLUDE', 'LONGVAR', 'COLUMNS');
    }
    return true;
  }
  return false;
}

function readRefresh(p: Parser, _stmt: CreateTableStatement, mqt: MqtOptions, optStart: number): boolean {
  p.pos++;
  if (p.accept('IMMEDIATE')) mqt.refresh = 'immediate';
  else if (p.accept('DEFERRED')) mqt.refresh = 'deferred';
  else p.fail('expected IMMEDIATE or DEFERRED', CREATE_TABLE);
  mqt.refreshSpan = p.rangeSpan(optStart, p.pos);
  return true;
}

/** ENABLE | DISABLE QUERY OPTIMIZATION. */
function readQueryOptimization(p: Parser): boolean {
  p.pos++;
  p.expect('QUERY', CREATE_TABLE);
  p.expect('OPTIMIZATION', CREATE_TABLE);
  return true;
}

function readMaintainedBy(p: Parser, _stmt: CreateTableStatement, mqt: MqtOptions): boolean {
  p.pos++;
  p.expect('BY', CREATE_TABLE);
  if (p.accept('SYSTEM')) mqt.maintainedBy = 'system';
  else if (p.accept('USER')) mqt.maintainedBy = 'user';
  else if (p.accept('FEDERATED_TOOL')) mqt.maintainedBy = 'federated_tool';
  else if (p.accept('REPLICATION')) mqt.maintainedBy = 'replication';
  else p.fail('expected SYSTEM, USER, FEDERATED_TOOL or REPLICATION', CREATE_TABLE);
  return true;
}

function readDefinitionOnly(p: Parser, _stmt: CreateTableStatement, mqt: MqtOptions): boolean {
  p.pos++;
  p.expect('ONLY', CREATE_TABLE);
  mqt.definitionOnly = true;
  return true;
}

/** WITH NO DATA (as DEFINITION ONLY), WITH DATA, WITH REPLACE, WITH RESTRICT ON DROP. */
function readWithOption(p: Parser, _stmt: CreateTableStatement, mqt: MqtOptions): boolean {
  if (p.acceptSeq('WITH', 'NO', 'DATA')) {
    mqt.definitionOnly = true;
    return true;
  }
  if (p.acceptSeq('WITH', 'DATA') || p.acceptSeq('WITH', 'REPLACE')) return true;
  if (p.acceptSeq('WITH', 'RESTRICT', 'ON', 'DROP')) return true;
  return false;
}

/** LIKE/AS copy options: INCLUDING COLUMN DEFAULTS, EXCLUDING IDENTITY COLUMN ATTRIBUTES, … */
function readCopyOptions(p: Parser): boolean {
  p.pos++;
  while (p.kind(p.pos) === TK_WORD && ['COLUMN', 'DEFAULTS', 'IDENTITY', 'ATTRIBUTES'].includes(p.upper(p.pos))) p.pos++;
  return true;
}

// Temporary tables, security, federation and periods.

/** ON COMMIT DELETE | PRESERVE ROWS (temporary tables). */
function readOnCommit(p: Parser): boolean {
  if (!p.kw(p.pos + 1, 'COMMIT')) return false;
  p.pos += 2;
  if (!(p.accept('DELETE') || p.accept('PRESERVE'))) p.fail('expected DELETE or PRESERVE', CREATE_TABLE);
  p.expect('ROWS', CREATE_TABLE);
  return true;
}

function readSecurityPolicy(p: Parser): boolean {
  p.pos++;
  p.expect('POLICY', CREATE_TABLE);
  parseIdentifier(p, CREATE_TABLE);
  return true;
}

/** OPTIONS (…): a federated table's options. */
function readFederatedOptions(p: Parser): boolean {
  p.pos++;
  skipParens(p, CREATE_TABLE);
  return true;
}

/** PERIOD SYSTEM_TIME | BUSINESS_TIME (start, end). */
function readPeriod(p: Parser): boolean {
  p.pos += 2;
  skipParens(p, CREATE_TABLE);
  return true;
}

/** The reader of each table option by its first word (several options share one). */
const TABLE_OPTION_READERS = new Map<string, TableOptionReader>([
  ['IN', readInTablespace],
  ['INDEX', readIndexTablespace],
  ['LONG', readLongTablespace],
  ['ORGANIZE', readOrganizeBy],
  ['DISTRIBUTE', readDistributeBy],
  ['PARTITIONING', readPartitioningKey],
  ['USING', readUsingHashing],
  ['PARTITION', readPartitionBy],
  ['APPEND', readAppend],
  ['LOCKSIZE', readLocksize],
  ['PCTFREE', readPctfree],
  ['NOT', readNotOption],
  ['LOGGED', readLogged],
  ['VOLATILE', readVolatile],
  ['COMPRESS', readCompress],
  ['VALUE', readValueCompression],
  ['CCSID', readCcsid],
  ['CYCLE', readCycle],
  ['NO', readCycle],
  ['DATA', readDataOption],
  ['REFRESH', readRefresh],
  ['ENABLE', readQueryOptimization],
  ['DISABLE', readQueryOptimization],
  ['MAINTAINED', readMaintainedBy],
  ['DEFINITION', readDefinitionOnly],
  ['WITH', readWithOption],
  ['INCLUDING', readCopyOptions],
  ['EXCLUDING', readCopyOptions],
  ['ON', readOnCommit],
  ['SECURITY', readSecurityPolicy],
  ['OPTIONS', readFederatedOptions],
  ['PERIOD', readPeriod],
]);

/** LOCKSIZE's value, in CREATE TABLE and ALTER TABLE. */
export function parseLocksize(p: Parser, context: string): 'row' | 'table' | 'blockinsert' {
  if (p.accept('ROW')) return 'row';
  if (p.accept('TABLE')) return 'table';
  if (p.accept('BLOCKINSERT')) return 'blockinsert';
  p.fail('expected ROW, TABLE or BLOCKINSERT', context);
}
