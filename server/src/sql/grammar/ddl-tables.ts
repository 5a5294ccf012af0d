// CREATE TABLE (and CREATE SUMMARY TABLE, CREATE/DECLARE GLOBAL TEMPORARY TABLE) with its elements and
// table options, and ALTER TABLE with the actions the model keeps (others are skipped as 'other').
import type { AlterTableAction, AlterTableStatement, CreateTableStatement, MqtDefinition, QualifiedName, Span, Statement } from '../ast';
import { TK_WORD, TK_NUMBER, TK_LPAREN, TK_RPAREN, TK_COMMA, TK_DOT } from '../lexer';
import type { Parser } from '../parser';
import { isBuiltInTypeAt, parseDataType, parseIdentifier, parseNameList, parseNumber, parseQualifiedName, skipParens, tablesRead } from './clauses';
import { identityFollows, parseColumnDef, parseSequenceOptions, parseTableConstraint } from './ddl-columns';

/** The statement CREATE TABLE's errors name. */
const CREATE_TABLE = 'CREATE TABLE';

/** Words after ADD that start a clause rather than a column definition. */
const ADD_CLAUSE_WORDS = new Set(['PERIOD', 'PARTITION', 'VERSIONING', 'RESTRICT', 'SECURITY', 'SCOPE', 'MATERIALIZED']);

const ALTER_ACTION_WORDS = new Set([
  'ADD', 'DROP', 'ALTER', 'APPEND', 'LOCKSIZE', 'PCTFREE', 'ACTIVATE', 'DEACTIVATE', 'DATA', 'COMPRESS',
  'VOLATILE', 'RENAME', 'ATTACH', 'DETACH', 'LOG', 'VALUE', 'ORGANIZE', 'SECURITY', 'REFRESH', 'SET',
  'NOT', 'INCLUDE', 'EXCLUDE', 'FOREIGN', 'PRIMARY',
]);

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

function parseLocksize(p: Parser, context: string): 'row' | 'table' | 'blockinsert' {
  if (p.accept('ROW')) return 'row';
  if (p.accept('TABLE')) return 'table';
  if (p.accept('BLOCKINSERT')) return 'blockinsert';
  p.fail('expected ROW, TABLE or BLOCKINSERT', context);
}

export function parseAlterTable(p: Parser, span: Span): Statement {
  const context = 'ALTER TABLE';
  p.pos += 2;
  const table = parseQualifiedName(p, context);
  const stmt: AlterTableStatement = { kind: 'alterTable', table, actions: [], span, origin: p.origin };
  p.partial = stmt;
  while (!p.atEnd()) {
    if (p.kind(p.pos) === TK_COMMA) {
      p.pos++;
      continue;
    }
    stmt.actions.push(parseAlterAction(p, context));
  }
  if (stmt.actions.length === 0) p.fail('expected an ALTER TABLE action', context);
  return stmt;
}

/** Words after DROP that begin another ALTER TABLE action, never a column's name (DROP VERSIONING, DROP CLONE). */
const DROP_CLAUSE_WORDS = new Set(['PARTITION', 'VERSIONING', 'RESTRICT', 'PERIOD', 'MATERIALIZED', 'SUMMARY', 'DISTRIBUTION', 'ORGANIZATION', 'CLONE', 'QUERY']);

/**
 * Whether `DROP name` at `i` (after DROP) drops a column, COLUMN not written: a name that is no clause word,
 * followed by the end, CASCADE, RESTRICT or the next action (DROP RESTRICT ON DROP has ON after it).
 */
function dropsColumnAt(p: Parser, i: number): boolean {
  if (!p.isIdent(i) || (p.kind(i) === TK_WORD && DROP_CLAUSE_WORDS.has(p.upper(i)))) return false;
  const next = i + 1;
  if (next >= p.end) return true;
  return p.kind(next) === TK_COMMA || p.kw(next, 'CASCADE') || p.kw(next, 'RESTRICT') || (p.kind(next) === TK_WORD && ALTER_ACTION_WORDS.has(p.upper(next)));
}

/** Skips tokens of an action we do not model, up to the next action keyword at this level. */
function skipToNextAction(p: Parser): void {
  while (!p.atEnd()) {
    if (p.kind(p.pos) === TK_WORD && ALTER_ACTION_WORDS.has(p.upper(p.pos))) return;
    p.skipUnit();
  }
}

/** An action we do not model: its words up to the next action keyword at this level. */
function otherAction(p: Parser, start: number): AlterTableAction {
  skipToNextAction(p);
  return { kind: 'other', span: p.rangeSpan(start, p.pos) };
}

// Each action below is made whole, its span (from `start`, its first token) read last, after what its other fields
// parse: not copied with a span added (a spread per action was a tenth of parsing a one-line ALTER TABLE).

function parseAlterAction(p: Parser, context: string): AlterTableAction {
  const start = p.pos;
  if (p.kind(p.pos) !== TK_WORD) p.fail('expected an ALTER TABLE action', context);
  const w = p.upper(p.pos);
  switch (w) {
    case 'ADD':
      return parseAddAction(p, context, start);
    case 'DROP':
      return parseDropAction(p, context, start);
    case 'ALTER':
      p.pos++;
      if (p.acceptSeq('FOREIGN', 'KEY') || p.accept('CHECK') || p.accept('CONSTRAINT')) return parseAlterConstraint(p, context, start);
      return parseAlterColumn(p, context, start);
    case 'APPEND':
      return parseAppendAction(p, context, start);
    case 'LOCKSIZE': {
      p.pos++;
      const locksize = parseLocksize(p, context);
      return { kind: 'locksize', locksize, span: p.rangeSpan(start, p.pos) };
    }
    case 'PCTFREE': {
      p.pos++;
      const value = parseNumber(p, context);
      return { kind: 'pctfree', value, span: p.rangeSpan(start, p.pos) };
    }
    case 'FOREIGN':
    case 'PRIMARY':
      // ALTER TABLE t FOREIGN KEY name (c) REFERENCES p: Db2 for z/OS writes it without ADD (its sample DDL does).
      if (p.kw(p.pos + 1, 'KEY')) return { kind: 'addConstraint', constraint: parseTableConstraint(p, context), span: p.rangeSpan(start, p.pos) };
      break;
    case 'ACTIVATE':
      return parseActivateAction(p, start);
  }
  if (ALTER_ACTION_WORDS.has(w)) {
    p.pos++;
    return otherAction(p, start);
  }
  p.fail('expected an ALTER TABLE action', context);
}

/** ADD [COLUMN] definition, ADD constraint, ADD MATERIALIZED QUERY, or a clause not modelled (ADD PERIOD …). */
function parseAddAction(p: Parser, context: string, start: number): AlterTableAction {
  p.pos++;
  if (p.peek('CONSTRAINT') || p.peek('PRIMARY') || p.peek('UNIQUE') || p.peek('FOREIGN') || p.peek('CHECK')) {
    const constraint = parseTableConstraint(p, context);
    return { kind: 'addConstraint', constraint, span: p.rangeSpan(start, p.pos) };
  }
  if (p.peek('MATERIALIZED') || p.peek('SUMMARY') || (p.kind(p.pos) === TK_LPAREN && p.kw(p.afterBalanced(p.pos), 'DATA'))) {
    return parseAddMaterializedQuery(p, context, start);
  }
  // ADD PERIOD SYSTEM_TIME (…), ADD PARTITION …, ADD VERSIONING …: unless the word is a column's name (ADD period INT).
  if (ADD_CLAUSE_WORDS.has(p.kind(p.pos) === TK_WORD ? p.upper(p.pos) : '') && !isBuiltInTypeAt(p, p.pos + 1)) {
    p.pos++;
    return otherAction(p, start);
  }
  p.accept('COLUMN');
  const column = parseColumnDef(p, context, []);
  return { kind: 'addColumn', column, span: p.rangeSpan(start, p.pos) };
}

/** ADD MATERIALIZED QUERY (…) DATA INITIALLY DEFERRED REFRESH …, the cursor after ADD: the table becomes an MQT. */
function parseAddMaterializedQuery(p: Parser, context: string, start: number): AlterTableAction {
  p.accept('MATERIALIZED');
  p.accept('QUERY');
  skipParens(p, context);
  let refresh: 'immediate' | 'deferred' = 'deferred';
  while (!p.atEnd()) {
    if (p.acceptSeq('DATA', 'INITIALLY', 'DEFERRED')) continue;
    if (p.accept('REFRESH')) {
      if (p.accept('IMMEDIATE')) refresh = 'immediate';
      else p.expect('DEFERRED', context);
      continue;
    }
    if (p.acceptSeq('ENABLE', 'QUERY', 'OPTIMIZATION') || p.acceptSeq('DISABLE', 'QUERY', 'OPTIMIZATION')) continue;
    if (p.accept('MAINTAINED')) {
      p.expect('BY', context);
      p.pos++;
      continue;
    }
    break;
  }
  return { kind: 'refresh', refresh, span: p.rangeSpan(start, p.pos) };
}

/** DROP CONSTRAINT | FOREIGN KEY | PRIMARY KEY | UNIQUE | CHECK, DROP [COLUMN] c, or a clause not modelled. */
function parseDropAction(p: Parser, context: string, start: number): AlterTableAction {
  p.pos++;
  if (p.accept('CONSTRAINT')) return { kind: 'dropConstraint', name: parseIdentifier(p, context).name, span: p.rangeSpan(start, p.pos) };
  if (p.acceptSeq('FOREIGN', 'KEY')) return { kind: 'dropConstraint', name: parseIdentifier(p, context).name, constraintKind: 'foreignKey', span: p.rangeSpan(start, p.pos) };
  if (p.acceptSeq('PRIMARY', 'KEY')) return { kind: 'dropConstraint', name: '', constraintKind: 'primaryKey', span: p.rangeSpan(start, p.pos) };
  if (p.accept('UNIQUE')) return { kind: 'dropConstraint', name: parseIdentifier(p, context).name, constraintKind: 'unique', span: p.rangeSpan(start, p.pos) };
  if (p.accept('CHECK')) return { kind: 'dropConstraint', name: parseIdentifier(p, context).name, constraintKind: 'check', span: p.rangeSpan(start, p.pos) };
  if (p.accept('COLUMN') || dropsColumnAt(p, p.pos)) {
    const column = parseIdentifier(p, context).name;
    const restrict = p.accept('RESTRICT');
    if (!restrict) p.accept('CASCADE');
    return { kind: 'dropColumn', column, restrict, span: p.rangeSpan(start, p.pos) };
  }
  // DROP PARTITION, DROP VERSIONING, DROP RESTRICT ON DROP, … are not modelled
  return otherAction(p, start);
}

/**
 * ALTER FOREIGN KEY | CHECK | CONSTRAINT name, the cursor at the name: [NOT] ENFORCED is modelled, an action
 * that only changes TRUSTED or QUERY OPTIMIZATION is not.
 */
function parseAlterConstraint(p: Parser, context: string, start: number): AlterTableAction {
  const name = parseIdentifier(p, context).name;
  let enforced: boolean | undefined;
  for (;;) {
    if (p.acceptSeq('NOT', 'ENFORCED')) enforced = false;
    else if (p.accept('ENFORCED')) enforced = true;
    else if (p.acceptSeq('NOT', 'TRUSTED') || p.accept('TRUSTED')) continue;
    else if (p.acceptSeq('ENABLE', 'QUERY', 'OPTIMIZATION') || p.acceptSeq('DISABLE', 'QUERY', 'OPTIMIZATION')) continue;
    else break;
  }
  if (enforced === undefined) return otherAction(p, start);
  return { kind: 'alterConstraintEnforcement', name, enforced, span: p.rangeSpan(start, p.pos) };
}

/** What the alterations of one column change of its identity, if anything (CACHE is all the model keeps). */
interface IdentityAlteration {
  altered: boolean;
  cache: number | undefined;
  cacheSpan: Span | undefined;
}

/** ALTER [COLUMN] c, the cursor after ALTER, and its alterations: modelled when they alter an identity column. */
function parseAlterColumn(p: Parser, context: string, start: number): AlterTableAction {
  p.accept('COLUMN');
  const column = parseIdentifier(p, context).name;
  const identity: IdentityAlteration = { altered: false, cache: undefined, cacheSpan: undefined };
  // one or more column alterations
  while (readColumnAlteration(p, context, identity));
  if (identity.altered) {
    const a: AlterTableAction = { kind: 'alterColumnIdentity', column, span: p.rangeSpan(start, p.pos) };
    if (identity.cache !== undefined) a.cache = identity.cache;
    if (identity.cacheSpan) a.cacheSpan = identity.cacheSpan;
    return a;
  }
  return { kind: 'other', span: p.rangeSpan(start, p.pos) };
}

/** Reads one alteration of a column (SET …, RESTART, DROP DEFAULT …) into `identity`; false when none follows. */
function readColumnAlteration(p: Parser, context: string, identity: IdentityAlteration): boolean {
  const s = p.pos;
  if (p.acceptSeq('SET', 'CACHE')) {
    identity.cache = parseNumber(p, context);
    identity.cacheSpan = p.rangeSpan(s, p.pos);
    identity.altered = true;
  } else if (p.acceptSeq('SET', 'NO', 'CACHE')) {
    identity.cache = 0;
    identity.cacheSpan = p.rangeSpan(s, p.pos);
    identity.altered = true;
  } else if (p.accept('RESTART')) {
    identity.altered = true;
    if (p.accept('WITH')) parseNumber(p, context);
  } else if (p.acceptSeq('SET', 'INCREMENT', 'BY') || p.acceptSeq('SET', 'START', 'WITH') || p.acceptSeq('SET', 'MINVALUE') || p.acceptSeq('SET', 'MAXVALUE')) {
    identity.altered = true;
    parseNumber(p, context);
  } else if (p.acceptSeq('SET', 'NO', 'MINVALUE') || p.acceptSeq('SET', 'NO', 'MAXVALUE') || p.acceptSeq('SET', 'NO', 'CYCLE') || p.acceptSeq('SET', 'CYCLE') || p.acceptSeq('SET', 'NO', 'ORDER') || p.acceptSeq('SET', 'ORDER')) {
    identity.altered = true;
  } else if (p.kw(p.pos, 'SET') && p.kw(p.pos + 1, 'GENERATED') && identityFollows(p, p.pos + 2)) {
    readSetGeneratedIdentity(p, context, identity);
  } else if (p.acceptSeq('SET', 'DATA', 'TYPE')) {
    parseDataType(p, context);
  } else if (p.peek('SET')) {
    p.pos++;
    // SET DEFAULT x / SET NOT NULL / SET INLINE LENGTH n / SET GENERATED … / SET EXPRESSION AS (…)
    while (!p.atEnd() && !p.peek('SET') && !p.peek('DROP') && !p.peek('RESTART') && !p.peek('ADD') && !p.peek('ALTER')) p.skipUnit();
  } else if (p.peek('DROP') && ['DEFAULT', 'NOT', 'IDENTITY', 'GENERATED', 'EXPRESSION', 'COLUMN'].some((x) => p.kw(p.pos + 1, x))) {
    p.pos += 2;
    if (p.kw(p.pos - 1, 'NOT') || p.kw(p.pos - 1, 'COLUMN')) p.pos++;
  } else return false;
  return true;
}

/** SET GENERATED [ALWAYS | BY DEFAULT] AS IDENTITY [(START WITH …, CACHE n, …)], the cursor at SET. */
function readSetGeneratedIdentity(p: Parser, context: string, identity: IdentityAlteration): void {
  p.pos += 2;
  if (!p.accept('ALWAYS')) p.acceptSeq('BY', 'DEFAULT');
  p.expect('AS', context);
  p.expect('IDENTITY', context);
  identity.altered = true;
  if (p.kind(p.pos) === TK_LPAREN) {
    const optsStart = p.pos;
    p.pos++;
    const opts: { cache?: number; cacheSpan?: Span } = {};
    parseSequenceOptions(p, opts, context, true);
    p.expectKind(TK_RPAREN, "')'", context);
    if (opts.cache !== undefined) {
      identity.cache = opts.cache;
      identity.cacheSpan = opts.cacheSpan ?? p.rangeSpan(optsStart, p.pos);
    }
  }
}

function parseAppendAction(p: Parser, context: string, start: number): AlterTableAction {
  p.pos++;
  if (p.accept('ON') || p.accept('YES')) return { kind: 'append', on: true, span: p.rangeSpan(start, p.pos) };
  if (p.accept('OFF') || p.accept('NO')) return { kind: 'append', on: false, span: p.rangeSpan(start, p.pos) };
  p.fail('expected ON or OFF (YES or NO on Db2 for z/OS)', context);
}

/** ACTIVATE NOT LOGGED INITIALLY [WITH EMPTY TABLE]; ACTIVATE VALUE COMPRESSION and others are not modelled. */
function parseActivateAction(p: Parser, start: number): AlterTableAction {
  if (p.acceptSeq('ACTIVATE', 'NOT', 'LOGGED', 'INITIALLY')) {
    const withEmptyTable = p.acceptSeq('WITH', 'EMPTY', 'TABLE');
    return { kind: 'activateNotLoggedInitially', withEmptyTable, span: p.rangeSpan(start, p.pos) };
  }
  p.pos++;
  return otherAction(p, start);
}
