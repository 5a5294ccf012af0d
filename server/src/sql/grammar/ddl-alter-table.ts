// ALTER TABLE with the actions the model keeps (others are skipped as 'other').
import type { AlterTableAction, AlterTableStatement, Span, Statement } from '../ast';
import { TK_WORD, TK_LPAREN, TK_RPAREN, TK_COMMA } from '../lexer';
import type { Parser } from '../parser';
import { isBuiltInTypeAt, parseDataType, parseIdentifier, parseNumber, parseQualifiedName, skipParens } from './clauses';
import { identityFollows, parseColumnDef, parseSequenceOptions, parseTableConstraint } from './ddl-columns';
import { parseLocksize } from './ddl-tables';

/** Words after ADD that start a clause rather than a column definition. */
const ADD_CLAUSE_WORDS = new Set(['PERIOD', 'PARTITION', 'VERSIONING', 'RESTRICT', 'SECURITY', 'SCOPE', 'MATERIALIZED']);

const ALTER_ACTION_WORDS = new Set([
  'ADD', 'DROP', 'ALTER', 'APPEND', 'LOCKSIZE', 'PCTFREE', 'ACTIVATE', 'DEACTIVATE', 'DATA', 'COMPRESS',
  'VOLATILE', 'RENAME', 'ATTACH', 'DETACH', 'LOG', 'VALUE', 'ORGANIZE', 'SECURITY', 'REFRESH', 'SET',
  'NOT', 'INCLUDE', 'EXCLUDE', 'FOREIGN', 'PRIMARY',
]);

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
