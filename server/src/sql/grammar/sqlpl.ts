// SQL PL: compound statements (BEGIN … END) and the statements of their bodies — declarations,
// SET, IF/CASE, the loops with their labels, ITERATE/LEAVE, dynamic SQL (PREPARE, EXECUTE,
// EXECUTE IMMEDIATE), cursors, CALL, SIGNAL/RESIGNAL, GET DIAGNOSTICS — and UPDATE/DELETE, which
// scripts use too. Each body is split at its ';' (splitter.ts) and every inner statement goes through
// parseBodyStatement, which falls back to the script grammar for INSERT, MERGE, COMMIT and the rest.
import type {
  Branch,
  BranchStatement,
  CompoundStatement,
  DeclaredLength,
  DynamicSql,
  LoopStatement,
  QualifiedName,
  Span,
  Statement,
} from '../ast';
import { fileSpanOf } from '../ast';
import { TK_WORD, TK_STRING, TK_LPAREN, TK_RPAREN, TK_COMMA, TK_DOT, TK_NUMBER } from '../lexer';
import type { Parser } from '../parser';
import { scanBlocks, splitBody } from '../splitter';
import { parseStatement } from '../grammar';
import { dataChangeAt, insertSequencesAndIsolation, oneTableRows, parseIdentifier, parseQualifiedName, tablesRead } from './clauses';
import { builtOrigin, flatten, readStringExpression } from './dynamic';
import { parseDeclareCursor } from './dml';
import { parseCreateTable } from './ddl-tables';

/** Bodies nested deeper than this (blocks in loops in blocks …) are kept as text; real code stays far below. */
const MAX_BODY_DEPTH = 32;

/** `name:` at token `i` (a label before BEGIN or a loop). */
export function labelAt(p: Parser, i: number): boolean {
  return p.isIdent(i) && p.isOp(i + 1, ':') && p.kind(i + 2) === TK_WORD;
}

/** One statement of an SQL PL body, with the variables it may assign besides a SET's targets (StatementBase.writes). */
export function parseBodyStatement(p: Parser, span: Span): Statement {
  const at = labelAt(p, p.pos) ? p.pos + 2 : p.pos;
  const writes = writesOf(p, at, p.end);
  const stmt = parseBodyStatementKind(p, span, at);
  if (writes) stmt.writes = stmt.writes ? [...new Set([...stmt.writes, ...writes])] : writes;
  return stmt;
}

/**
 * The variables a statement starting at token `at` may assign other than a SET's targets: every name after the INTO
 * of a SELECT, VALUES, FETCH or EXECUTE (up to a SELECT's FROM, an EXECUTE's USING: what they read), after CALL (OUT
 * parameters) or GET (GET DIAGNOSTICS v = …). More names than it assigns (an array target's index too), never
 * fewer; undefined for other statements.
 */
function writesOf(p: Parser, at: number, end: number): string[] | undefined {
  if (p.kind(at) !== TK_WORD) return undefined;
  const word = p.upper(at);
  let from = -1;
  let to = end;
  if (word === 'CALL' || word === 'GET') from = at + 1;
  else if (word === 'SELECT' || word === 'VALUES' || word === 'WITH' || word === 'FETCH' || word === 'EXECUTE') {
    // The INTO list ends where SELECT … INTO t FROM … reads its tables, and EXECUTE s INTO t USING … its inputs.
    const after = word === 'SELECT' || word === 'WITH' ? 'FROM' : word === 'EXECUTE' ? 'USING' : undefined;
    let depth = 0;
    for (let i = at + 1; i < end && to === end; i++) {
      const k = p.t.kind[i];
      if (k === TK_LPAREN) depth++;
      else if (k === TK_RPAREN) depth--;
      else if (depth === 0 && from < 0 && p.kw(i, 'INTO')) from = i + 1;
      else if (depth === 0 && from >= 0 && after !== undefined && p.kw(i, after)) to = i;
    }
  }
  return from < 0 ? undefined : namesIn(p, from, to);
}

/** The distinct names (words and delimited identifiers) among tokens [from, to); undefined when none. */
function namesIn(p: Parser, from: number, to: number): string[] | undefined {
  let names: Set<string> | undefined;
  for (let i = from; i < to; i++) if (p.isIdent(i)) (names ??= new Set()).add(p.identValue(i));
  return names ? [...names] : undefined;
}

/** One statement of an SQL PL body: control statements and declarations first, then the script grammar. */
function parseBodyStatementKind(p: Parser, span: Span, at: number): Statement {
  switch (p.kind(at) === TK_WORD ? p.upper(at) : '') {
    case 'BEGIN':
      return parseCompound(p, span);
    case 'IF':
      return parseBranches(p, span, 'if');
    case 'CASE':
      return parseBranches(p, span, 'case');
    case 'FOR':
    case 'WHILE':
    case 'REPEAT':
    case 'LOOP':
      return parseLoop(p, span);
    case 'DECLARE':
      return parseDeclare(p, span);
    case 'ITERATE':
    case 'LEAVE':
    case 'GOTO':
    case 'RETURN':
      return parseJump(p, span);
    case 'PREPARE':
      return parsePrepare(p, span);
    case 'EXECUTE':
      return parseExecute(p, span);
    case 'SIGNAL':
    case 'RESIGNAL':
      p.pos = p.end;
      return { kind: p.kw(at, 'SIGNAL') ? 'signal' : 'resignal', span, origin: p.origin };
    case 'GET':
      if (p.kw(at + 1, 'DIAGNOSTICS') || p.kw(at + 2, 'DIAGNOSTICS')) {
        p.pos = p.end;
        return { kind: 'getDiagnostics', span, origin: p.origin };
      }
      break;
  }
  // A label before any other statement: the statement after it.
  p.pos = at;
  return parseStatement(p, span);
}

/** Splits tokens [from, to) at their ';' and parses each inner statement (a body, a branch). */
function parseStatements(p: Parser, from: number, to: number): Statement[] {
  const out: Statement[] = [];
  for (const r of splitBody(p.text, p.t, from, to)) out.push(p.parseRange(r.first, r.end, false, parseBodyStatement));
  return out;
}

/** Runs `read` one body level deeper; past MAX_BODY_DEPTH the statement is kept as text. */
function nested<T extends Statement>(p: Parser, span: Span, read: () => T): Statement {
  if (p.bodyDepth >= MAX_BODY_DEPTH || p.unterminatedBlock) {
    const stmt = p.other(span, p.pos, p.end);
    p.pos = p.end;
    return stmt;
  }
  p.bodyDepth++;
  try {
    return read();
  } finally {
    p.bodyDepth--;
  }
}

/** The END that closes the block or statement of [first, end): END, END label, END IF, END FOR label, … */
function closingEnd(p: Parser, first: number, closer: string | undefined, context: string): number {
  for (let j = p.end - 1; j >= first && j >= p.end - 3; j--) {
    if (!p.kw(j, 'END')) continue;
    if (closer === undefined || p.kw(j + 1, closer)) return j;
  }
  p.pos = p.end;
  return p.fail(`expected END${closer ? ' ' + closer : ''}`, context);
}

function readLabel(p: Parser): string | undefined {
  if (!labelAt(p, p.pos)) return undefined;
  const label = p.identValue(p.pos);
  p.pos += 2;
  return label;
}

// ---------- compound statement ----------

/** [label:] BEGIN [[NOT] ATOMIC] … END [label]. */
export function parseCompound(p: Parser, span: Span): Statement {
  return nested(p, span, () => {
    const context = 'BEGIN … END';
    const stmt: CompoundStatement = { kind: 'compound', atomic: false, body: [], span, origin: p.origin };
    const label = readLabel(p);
    if (label !== undefined) stmt.label = label;
    p.partial = stmt;
    p.expect('BEGIN', context);
    if (p.accept('ATOMIC')) stmt.atomic = true;
    else p.acceptSeq('NOT', 'ATOMIC');
    const endTok = closingEnd(p, p.pos, undefined, context);
    stmt.body = parseStatements(p, p.pos, endTok);
    p.pos = p.end;
    return stmt;
  });
}

/** The statements of a routine or trigger body that is one compound statement, or the one statement it is. */
export function parseRoutineBody(p: Parser, from: number): Statement {
  const saved = p.variables;
  p.variables = new Map();
  try {
    return p.parseRange(from, p.end, false, parseBodyStatement);
  } finally {
    p.variables = saved;
  }
}

// ---------- IF and CASE ----------

/**
 * The words of `separators` at nesting level 0 in [from, to) (THEN/ELSE of an IF, DO of a loop). `from`
 * starts a condition or a name, not a statement, unless `atStatementStart` (REPEAT's body).
 */
function separatorsAt(p: Parser, from: number, to: number, separators: readonly string[], atStatementStart = false): number[] {
  const out: number[] = [];
  const visit = (i: number, depth: number): void => {
    if (depth === 0 && p.t.kind[i] === TK_WORD) for (const w of separators) if (p.kw(i, w)) out.push(i);
  };
  scanBlocks(p.text, p.t, from, to, visit, atStatementStart);
  return out;
}

/**
 * IF c THEN … [ELSEIF c THEN …]* [ELSE …] END IF, and the CASE statement: CASE [expr] WHEN c THEN …
 * [ELSE …] END CASE. A branch's condition starts after IF, ELSEIF or WHEN and ends at its THEN.
 */
function parseBranches(p: Parser, span: Span, kind: 'if' | 'case'): Statement {
  return nested(p, span, () => {
    const context = kind.toUpperCase();
    const nextCondition = kind === 'if' ? 'ELSEIF' : 'WHEN';
    readLabel(p);
    p.expect(context, context);
    const endTok = closingEnd(p, p.pos, context, context);
    const marks = separatorsAt(p, p.pos, endTok, ['THEN', nextCondition, 'ELSE']);
    const branches: Branch[] = [];
    let conditionFrom = p.pos;
    for (let m = 0; m < marks.length; m++) {
      const at = marks[m];
      const next = m + 1 < marks.length ? marks[m + 1] : endTok;
      if (p.kw(at, 'THEN')) branches.push({ condition: p.rangeSpan(conditionFrom, at), body: parseStatements(p, at + 1, next) });
      else if (p.kw(at, nextCondition)) conditionFrom = at + 1;
      else branches.push({ body: parseStatements(p, at + 1, next) });
    }
    if (branches.length === 0) p.fail(kind === 'if' ? 'expected THEN' : 'expected WHEN … THEN', context, endTok);
    p.pos = p.end;
    const stmt: BranchStatement = { kind, branches, span, origin: p.origin };
    return stmt;
  });
}

// ---------- loops ----------

/** [label:] FOR v AS [c CURSOR [WITH HOLD] FOR] select DO … END FOR | WHILE c DO … END WHILE | REPEAT … UNTIL c END REPEAT | LOOP … END LOOP. */
function parseLoop(p: Parser, span: Span): Statement {
  return nested(p, span, () => {
    const label = readLabel(p);
    const word = p.upper(p.pos);
    const loop = word.toLowerCase() as LoopStatement['loop'];
    const context = word;
    p.pos++;
    const endTok = closingEnd(p, p.pos, word, context);
    const stmt: LoopStatement = { kind: 'loop', loop, body: [], span, origin: p.origin };
    if (label !== undefined) stmt.label = label;
    p.partial = stmt;
    let bodyFrom = p.pos;
    let bodyTo = endTok;
    if (loop === 'for' || loop === 'while') {
      const doAt = separatorsAt(p, p.pos, endTok, ['DO'])[0];
      if (doAt === undefined) p.fail('expected DO', context, endTok);
      if (loop === 'for') {
        // FOR v AS [c CURSOR [WITH HOLD] FOR] select
        parseIdentifier(p, context);
        p.expect('AS', context);
        if (p.isIdent(p.pos) && p.kw(p.pos + 1, 'CURSOR')) {
          p.pos += 2;
          p.acceptSeq('WITH', 'HOLD');
          p.expect('FOR', context);
        }
        if (p.pos >= doAt) p.fail('expected the SELECT the loop reads', context);
        stmt.query = p.rangeSpan(p.pos, doAt);
        stmt.tables = tablesRead(p, p.pos, doAt);
        for (let i = p.pos; i + 3 < doAt && !stmt.queryChangesData; i++) if (dataChangeAt(p, i)) stmt.queryChangesData = true;
        const rowsOf = oneTableRows(p, p.pos, doAt);
        if (rowsOf) stmt.rowsOf = rowsOf;
      } else {
        stmt.condition = p.rangeSpan(p.pos, doAt);
        if (mentionsArrayWalk(p, p.pos, doAt)) stmt.walksArray = true;
        const counter = counterCondition(p, p.pos, doAt);
        if (counter) stmt.counter = counter;
        const countdown = countdownCondition(p, p.pos, doAt);
        if (countdown) stmt.countdown = countdown;
      }
      bodyFrom = doAt + 1;
    } else if (loop === 'repeat') {
      const untils = separatorsAt(p, p.pos, endTok, ['UNTIL'], true);
      if (untils.length === 0) p.fail('expected UNTIL', context, endTok);
      const until = untils[untils.length - 1];
      stmt.condition = p.rangeSpan(until + 1, endTok);
      if (mentionsArrayWalk(p, until + 1, endTok)) stmt.walksArray = true;
      const counting = untilCondition(p, until + 1, endTok);
      if (counting) Object.assign(stmt, counting);
      bodyTo = until;
    }
    p.loopDepth++;
    try {
      stmt.body = parseStatements(p, bodyFrom, bodyTo);
    } finally {
      p.loopDepth--;
    }
    if (stmt.body.some((s) => s.kind === 'setVariable' && s.arrayStep)) stmt.walksArray = true;
    p.pos = p.end;
    return stmt;
  });
}

/** `v < bound` or `v <= bound` (a name or an integer), in parentheses or not, between tokens `from` and `to`. */
function counterCondition(p: Parser, from: number, to: number): LoopStatement['counter'] {
  if (to - from === 5 && p.kind(from) === TK_LPAREN && p.kind(to - 1) === TK_RPAREN) return counterCondition(p, from + 1, to - 1);
  if (to - from !== 3 || !p.isIdent(from)) return undefined;
  const inclusive = p.isOp(from + 1, '<=');
  if (!inclusive && !p.isOp(from + 1, '<')) return undefined;
  const bound = p.kind(from + 2) === TK_NUMBER ? integerAt(p, from + 2) : p.isIdent(from + 2) ? p.identValue(from + 2) : undefined;
  return bound === undefined ? undefined : { variable: p.identValue(from), inclusive, bound };
}

/** `v > n`, `v >= n`, `n < v` or `n <= v` (n an integer literal), in parentheses or not, between tokens `from` and `to`. */
function countdownCondition(p: Parser, from: number, to: number): LoopStatement['countdown'] {
  if (to - from === 5 && p.kind(from) === TK_LPAREN && p.kind(to - 1) === TK_RPAREN) return countdownCondition(p, from + 1, to - 1);
  if (to - from !== 3) return undefined;
  if (p.isIdent(from) && (p.isOp(from + 1, '>') || p.isOp(from + 1, '>='))) {
    const floor = integerAt(p, from + 2);
    return floor === undefined ? undefined : { variable: p.identValue(from), inclusive: p.isOp(from + 1, '>='), floor };
  }
  if (p.isIdent(from + 2) && (p.isOp(from + 1, '<') || p.isOp(from + 1, '<='))) {
    const floor = integerAt(p, from);
    return floor === undefined ? undefined : { variable: p.identValue(from + 2), inclusive: p.isOp(from + 1, '<='), floor };
  }
  return undefined;
}

/**
 * REPEAT's `UNTIL v >= bound` (or >; bound a name or an integer) and `UNTIL v <= n` (or <; n an integer), in
 * parentheses or not, the variable on either side, between tokens `from` and `to`: the same counting loop as a
 * WHILE of the opposite test (REPEAT … UNTIL v >= 10 goes on while v < 10), in the shape of WHILE's `counter` or
 * `countdown`. Db2 tests UNTIL after each pass, so the body runs at least once (sqlpl-code-model.ts counts so).
 */
function untilCondition(p: Parser, from: number, to: number): Pick<LoopStatement, 'counter' | 'countdown'> | undefined {
  if (to - from === 5 && p.kind(from) === TK_LPAREN && p.kind(to - 1) === TK_RPAREN) return untilCondition(p, from + 1, to - 1);
  if (to - from !== 3) return undefined;
  const op = UNTIL_OPERATORS.find((o) => p.isOp(from + 1, o));
  if (op === undefined) return undefined;
  // The variable on the left, else on the right (`bound <= v` is `v >= bound`).
  return untilTest(p, from, op, from + 2) ?? untilTest(p, from + 2, FLIPPED[op], from);
}

const UNTIL_OPERATORS = ['<', '<=', '>', '>='] as const;
const FLIPPED: Record<(typeof UNTIL_OPERATORS)[number], (typeof UNTIL_OPERATORS)[number]> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/** `UNTIL v op x`, token `variable` being v and `other` x (untilCondition). */
function untilTest(p: Parser, variable: number, op: (typeof UNTIL_OPERATORS)[number], other: number): Pick<LoopStatement, 'counter' | 'countdown'> | undefined {
  if (!p.isIdent(variable)) return undefined;
  const name = p.identValue(variable);
  if (op === '>' || op === '>=') {
    // Until v reaches the bound: on while v < bound (v <= bound for UNTIL v > bound).
    const bound = p.kind(other) === TK_NUMBER ? integerAt(p, other) : p.isIdent(other) ? p.identValue(other) : undefined;
    return bound === undefined ? undefined : { counter: { variable: name, inclusive: op === '>', bound } };
  }
  // Until v falls to n: on while v > n (v >= n for UNTIL v < n).
  const floor = integerAt(p, other);
  return floor === undefined ? undefined : { countdown: { variable: name, inclusive: op === '<', floor } };
}

/** The value of an integer literal token (up to nine digits); undefined for any other token. */
export function integerAt(p: Parser, i: number): number | undefined {
  if (p.kind(i) !== TK_NUMBER) return undefined;
  const text = p.text.slice(p.t.start[i], p.t.end[i]);
  return /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}

/** CARDINALITY(a), ARRAY_FIRST/ARRAY_NEXT … between tokens `from` and `to`: a condition over an array's elements. */
function mentionsArrayWalk(p: Parser, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (p.kw(i, 'CARDINALITY') || p.kw(i, 'ARRAY_NEXT') || p.kw(i, 'ARRAY_PRIOR') || p.kw(i, 'ARRAY_FIRST') || p.kw(i, 'ARRAY_LAST')) return true;
  return false;
}

function parseJump(p: Parser, span: Span): Statement {
  const jump = p.upper(p.pos).toLowerCase() as 'iterate' | 'leave' | 'goto' | 'return';
  p.pos++;
  const stmt: Statement = { kind: 'jump', jump, span, origin: p.origin };
  if (jump !== 'return' && p.isIdent(p.pos)) stmt.label = p.identValue(p.pos);
  p.pos = p.end;
  return stmt;
}

// ---------- declarations ----------

/** DECLARE in a body: variables (also CURSOR and STATEMENT types), conditions, handlers, cursors, temporary tables. */
export function parseDeclare(p: Parser, span: Span): Statement {
  const context = 'DECLARE';
  const first = p.pos;
  if (p.kw(first + 2, 'HANDLER') && (p.kw(first + 1, 'CONTINUE') || p.kw(first + 1, 'EXIT') || p.kw(first + 1, 'UNDO'))) return parseHandler(p, span);
  if (p.kw(first + 2, 'CONDITION')) {
    p.pos++;
    const name = parseIdentifier(p, context).name;
    const stmt: Statement = { kind: 'declareCondition', name, span, origin: p.origin };
    for (let i = p.pos; i < p.end; i++) if (p.kind(i) === TK_STRING) stmt.sqlstate = p.text.slice(p.t.start[i] + 1, p.t.end[i] - 1);
    p.pos = p.end;
    return stmt;
  }
  if (p.kw(first + 1, 'GLOBAL') && p.kw(first + 2, 'TEMPORARY')) return parseCreateTable(p, span);
  if (p.kw(first + 2, 'CURSOR') && !cursorVariable(p, first + 3)) return parseDeclareCursor(p, span);
  return parseDeclareVariable(p, span);
}

/** DECLARE c CURSOR with nothing after, or only a default: a cursor variable (SET c = CURSOR FOR … later), not a cursor. */
function cursorVariable(p: Parser, after: number): boolean {
  return after >= p.end || p.kw(after, 'DEFAULT') || p.kw(after, 'CONSTANT');
}

/** DECLARE v1[, v2] type [DEFAULT … | CONSTANT …]. */
export function parseDeclareVariable(p: Parser, span: Span): Statement {
  const context = 'DECLARE';
  p.expect('DECLARE', context);
  const names = [parseIdentifier(p, context).name];
  while (p.kind(p.pos) === TK_COMMA) {
    p.pos++;
    names.push(parseIdentifier(p, context).name);
  }
  if (p.kind(p.pos) !== TK_WORD && p.kind(p.pos) !== TK_LPAREN) p.fail('expected a data type', context);
  const typeAt = p.pos;
  const type = p.kind(typeAt) === TK_WORD ? p.upper(typeAt) : 'ROW';
  // The default of a text variable, for EXECUTE IMMEDIATE of it later in the routine.
  let defaultAt = -1;
  let depth = 0;
  for (let i = typeAt; i < p.end; i++) {
    const k = p.t.kind[i];
    if (k === TK_LPAREN) depth++;
    else if (k === TK_RPAREN) depth--;
    else if (depth === 0 && (p.kw(i, 'DEFAULT') || p.kw(i, 'CONSTANT'))) {
      defaultAt = i + 1;
      break;
    }
  }
  if (defaultAt > 0) rememberText(p, names, defaultAt, p.end);
  else for (const name of names) p.variables.delete(name);
  p.pos = p.end;
  const stmt: Statement = { kind: 'declareVariable', names, type, span, origin: p.origin };
  const initial = defaultAt > 0 && defaultAt === p.end - 1 ? integerAt(p, defaultAt) : undefined;
  if (initial !== undefined) stmt.initial = initial;
  if (defaultAt > 0) stmt.defaulted = true;
  const length = declaredLength(p, typeAt, defaultAt > 0 ? defaultAt : p.end);
  if (length) stmt.length = length;
  return stmt;
}

/** The words a string type is written with after its first (CHARACTER VARYING, BINARY LARGE OBJECT, NATIONAL CHAR). */
const STRING_TYPE_WORDS = new Set(['CHAR', 'CHARACTER', 'VARYING', 'LARGE', 'OBJECT']);

/** The first word of a string type: what LENGTH of a value of it counts is at most its length attribute. */
const STRING_TYPES = new Set(['CHAR', 'CHARACTER', 'VARCHAR', 'VARCHAR2', 'CLOB', 'NATIONAL', 'NCHAR', 'NVARCHAR', 'NCLOB', 'GRAPHIC', 'VARGRAPHIC', 'DBCLOB', 'BINARY', 'VARBINARY', 'BLOB']);

const LENGTH_MULTIPLIERS: Record<string, number> = { K: 1024, M: 1024 * 1024, G: 1024 * 1024 * 1024 };

/**
 * The length attribute of a string type written at token `at`, before token `to`: VARCHAR(80), CLOB(100K),
 * CHARACTER VARYING(10 OCTETS). LENGTH of a value of the type, in the type's own units, is at most that.
 */
export function declaredLength(p: Parser, at: number, to: number): DeclaredLength | undefined {
  if (p.kind(at) !== TK_WORD || !STRING_TYPES.has(p.upper(at))) return undefined;
  const words = [p.upper(at)];
  let i = at + 1;
  for (; i < to && p.kind(i) === TK_WORD && STRING_TYPE_WORDS.has(p.upper(i)); i++) words.push(p.upper(i));
  if (i + 2 >= to || p.kind(i) !== TK_LPAREN) return undefined;
  let max = integerAt(p, i + 1);
  if (max === undefined) return undefined;
  let j = i + 2;
  let written = String(max);
  const multiplier = p.kind(j) === TK_WORD ? LENGTH_MULTIPLIERS[p.upper(j)] : undefined;
  if (multiplier !== undefined) {
    max *= multiplier;
    written += p.upper(j++);
  }
  if (p.kw(j, 'OCTETS') || p.kw(j, 'CODEUNITS16') || p.kw(j, 'CODEUNITS32')) written += ` ${p.upper(j++)}`;
  if (j >= to || p.kind(j) !== TK_RPAREN) return undefined;
  return { max, type: `${words.join(' ')}(${written})` };
}

/** DECLARE CONTINUE | EXIT | UNDO HANDLER FOR condition[, …] action. */
function parseHandler(p: Parser, span: Span): Statement {
  return nested(p, span, () => {
    const context = 'DECLARE HANDLER';
    p.pos++;
    const handler = p.upper(p.pos++).toLowerCase() as 'continue' | 'exit' | 'undo';
    p.expect('HANDLER', context);
    p.expect('FOR', context);
    const conditions: string[] = [];
    for (;;) {
      if (p.acceptSeq('NOT', 'FOUND')) conditions.push('NOT FOUND');
      else if (p.accept('SQLSTATE')) {
        p.accept('VALUE');
        if (p.kind(p.pos) !== TK_STRING) p.fail('expected an SQLSTATE string', context);
        conditions.push(`SQLSTATE ${p.text.slice(p.t.start[p.pos], p.t.end[p.pos])}`);
        p.pos++;
      } else conditions.push(parseIdentifier(p, context).name);
      if (p.kind(p.pos) !== TK_COMMA) break;
      p.pos++;
    }
    const stmt: Statement = { kind: 'declareHandler', handler, conditions, span, origin: p.origin };
    if (!p.atEnd()) stmt.action = p.parseRange(p.pos, p.end, false, parseBodyStatement);
    p.pos = p.end;
    return stmt;
  });
}

// ---------- SET, and the text of variables ----------

/** SET target = value[, target = value]… and SET (a, b) = (…): variables, not SCHEMA or special registers. */
export function parseSetVariable(p: Parser, span: Span): Statement {
  const context = 'SET';
  p.expect('SET', context);
  const targets: string[] = [];
  const stmt: Statement = { kind: 'setVariable', targets, span, origin: p.origin };
  p.partial = stmt;
  for (;;) {
    const names: string[] = [];
    if (p.kind(p.pos) === TK_LPAREN) {
      const close = p.afterBalanced(p.pos) - 1;
      for (let i = p.pos + 1; i < close; i++) if (p.isIdent(i) && (p.kind(i - 1) === TK_LPAREN || p.kind(i - 1) === TK_COMMA)) names.push(p.identValue(i));
      p.pos = close + 1;
    } else {
      names.push(parseIdentifier(p, context).name);
      // v.field, v[1], array element or row field
      while (!p.atEnd() && !p.isOp(p.pos, '=')) p.skipUnit();
    }
    if (!p.isOp(p.pos, '=')) p.fail("expected '='", context);
    p.pos++;
    targets.push(...names);
    // The value runs to the next ',' at nesting level 0 (SET a = 1, b = 2).
    const valueFrom = p.pos;
    // CURSOR FOR select runs to the end (its select list has commas).
    if (p.kw(valueFrom, 'CURSOR') && p.kw(valueFrom + 1, 'FOR')) p.pos = p.end;
    while (!p.atEnd() && p.kind(p.pos) !== TK_COMMA) p.skipUnit();
    const valueTo = p.pos;
    let drawsSequence = false;
    for (let i = valueFrom; i < valueTo; i++) {
      if (p.kw(i, 'SELECT')) stmt.selects = true;
      else if (p.kw(i, 'ARRAY_NEXT') || p.kw(i, 'ARRAY_PRIOR')) stmt.arrayStep = true;
      else if (p.kw(i, 'NEXT') || p.kw(i, 'NEXTVAL')) drawsSequence = true;
    }
    if (drawsSequence) {
      const { sequences } = insertSequencesAndIsolation(p, valueFrom, valueTo);
      if (sequences.length > 0) (stmt.sequences ??= []).push(...sequences);
    }
    // SET v = v + n (or v - n): a counter's step.
    if (names.length === 1 && valueTo - valueFrom === 3 && p.isIdent(valueFrom) && p.identValue(valueFrom) === names[0] && (p.isOp(valueFrom + 1, '+') || p.isOp(valueFrom + 1, '-'))) {
      const by = integerAt(p, valueFrom + 2);
      if (by !== undefined) stmt.step = { variable: names[0], by: p.isOp(valueFrom + 1, '-') ? -by : by };
    }
    // SET v = n or SET v = LENGTH(x): where a count-down starts.
    if (names.length === 1) {
      const integer = valueTo - valueFrom === 1 ? integerAt(p, valueFrom) : undefined;
      if (integer !== undefined) stmt.value = { integer };
      else if (valueTo - valueFrom === 4 && p.kw(valueFrom, 'LENGTH') && p.kind(valueFrom + 1) === TK_LPAREN && p.isIdent(valueFrom + 2) && p.kind(valueFrom + 3) === TK_RPAREN) {
        stmt.value = { lengthOf: p.identValue(valueFrom + 2) };
      }
    }
    // A function that is the whole value may assign its arguments (its OUT parameters): SET v = f(a, b).
    const call = functionCallArguments(p, valueFrom, valueTo);
    if (call) stmt.writes = [...new Set([...(stmt.writes ?? []), ...call])];
    if (p.kw(valueFrom, 'CURSOR') && p.kw(valueFrom + 1, 'FOR')) {
      stmt.cursorTables = tablesRead(p, valueFrom + 2, valueTo);
      for (const name of names) p.variables.delete(name);
    } else rememberText(p, names, valueFrom, valueTo, true);
    if (p.kind(p.pos) !== TK_COMMA) break;
    p.pos++;
  }
  // (SET a = 1, b = 2: no one value.)
  if (targets.length !== 1) delete stmt.value;
  p.expectEnd(context);
  return stmt;
}

/** Functions Db2 supplies that a SET's value is often alone (SET part = SUBSTR(…)): built-in, none has an OUT parameter. */
const BUILT_IN_FUNCTIONS = new Set([
  'CAST', 'SUBSTR', 'SUBSTRING', 'SUBSTRB', 'LEFT', 'RIGHT', 'LENGTH', 'CHARACTER_LENGTH', 'CHAR_LENGTH', 'OCTET_LENGTH', 'COALESCE', 'VALUE', 'NULLIF', 'MIN', 'MAX', 'LEAST', 'GREATEST',
  'TRIM', 'LTRIM', 'RTRIM', 'STRIP', 'UPPER', 'LOWER', 'UCASE', 'LCASE', 'REPLACE', 'TRANSLATE', 'LOCATE', 'LOCATE_IN_STRING', 'POSSTR', 'POSITION', 'INSTR', 'CONCAT', 'REPEAT', 'SPACE', 'LPAD', 'RPAD',
  'CHAR', 'VARCHAR', 'CLOB', 'INTEGER', 'INT', 'BIGINT', 'SMALLINT', 'DECIMAL', 'DEC', 'DOUBLE', 'FLOAT', 'REAL', 'DATE', 'TIME', 'TIMESTAMP', 'DIGITS', 'HEX',
  'ABS', 'MOD', 'ROUND', 'TRUNC', 'TRUNCATE', 'CEIL', 'CEILING', 'FLOOR', 'POWER', 'SIGN',
]);

/**
 * The names among the arguments when tokens [from, to) are one call of a function that may have OUT parameters (a
 * user-defined [schema.]f(…); not one Db2 supplies), else undefined.
 */
function functionCallArguments(p: Parser, from: number, to: number): string[] | undefined {
  let i = from;
  if (!p.isIdent(i)) return undefined;
  while (p.kind(i + 1) === TK_DOT && p.isIdent(i + 2)) i += 2;
  if (p.kind(i + 1) !== TK_LPAREN || p.afterBalanced(i + 1) !== to) return undefined;
  const schema = i > from ? p.identValue(i - 2) : undefined;
  if ((schema === undefined || schema === 'SYSIBM' || schema === 'SYSFUN') && p.kind(i) === TK_WORD && BUILT_IN_FUNCTIONS.has(p.upper(i))) return undefined;
  return namesIn(p, i + 2, to - 1);
}

/**
 * Records the text a string expression gives `names` (SET v = 'INSERT …' || x), read with what the
 * variables held before; a variable becomes unknown when the value is no text, or when it appends to
 * itself inside a loop (each pass adds to it).
 */
function rememberText(p: Parser, names: string[], from: number, to: number, mayAppend = false): void {
  let built = names.length === 1 ? readStringExpression(p, from, to, p.variables) : undefined;
  if (built && mayAppend && p.loopDepth > 0) {
    for (let i = from; i < to; i++) if (p.t.kind[i] === TK_WORD && names.includes(p.identValue(i))) built = undefined;
  }
  for (const name of names) {
    if (built) p.variables.set(name, built.pieces);
    else p.variables.delete(name);
  }
}

// ---------- dynamic SQL ----------

/** The SQL a string expression in [from, to) builds, parsed. */
function dynamicSql(p: Parser, from: number, to: number): DynamicSql {
  const built = from < to ? readStringExpression(p, from, to, p.variables) : undefined;
  if (!built) return { textKind: from + 1 === to && p.isIdent(from) ? 'variable' : 'unknown', statements: [], splices: from < to ? [p.rangeSpan(from, to)] : [] };
  const flat = flatten(built.pieces);
  return { textKind: built.textKind, statements: p.parseBuilt(flat.text, builtOrigin(flat, p.origin, fileSpanOf(p.origin, p.rangeSpan(from, to)))), splices: flat.splices };
}

/** PREPARE s [OUTPUT INTO …] [INPUT INTO …] FROM text. */
function parsePrepare(p: Parser, span: Span): Statement {
  const context = 'PREPARE';
  p.pos++;
  const statementName = parseIdentifier(p, context).name;
  while (!p.atEnd() && !p.peek('FROM')) p.skipUnit();
  p.expect('FROM', context);
  const text = dynamicSql(p, p.pos, p.end);
  p.pos = p.end;
  return { kind: 'prepare', statementName, text, span, origin: p.origin };
}

/** EXECUTE IMMEDIATE text | EXECUTE s [INTO …] [USING …]. */
function parseExecute(p: Parser, span: Span): Statement {
  const context = 'EXECUTE';
  p.pos++;
  if (p.accept('IMMEDIATE')) {
    const text = dynamicSql(p, p.pos, p.end);
    p.pos = p.end;
    return { kind: 'executeImmediate', text, span, origin: p.origin };
  }
  const statementName = parseIdentifier(p, context).name;
  p.pos = p.end;
  return { kind: 'execute', statementName, span, origin: p.origin };
}

// ---------- statements a script has too ----------

/** OPEN c [USING …] | FETCH [NEXT|PRIOR|FIRST|LAST] [FROM] c INTO … | CLOSE c | ALLOCATE c CURSOR FOR RESULT SET loc. */
export function parseCursorStatement(p: Parser, span: Span): Statement {
  const kind = p.upper(p.pos).toLowerCase() as 'open' | 'fetch' | 'close' | 'allocate';
  const context = kind.toUpperCase();
  p.pos++;
  if (kind === 'fetch') {
    if (p.peek('NEXT') || p.peek('PRIOR') || p.peek('FIRST') || p.peek('LAST')) p.pos++;
    p.accept('FROM');
  }
  const cursor = parseIdentifier(p, context).name;
  p.pos = p.end;
  return { kind, cursor, span, origin: p.origin };
}

/** CALL procedure[(arguments)]. */
export function parseCall(p: Parser, span: Span): Statement {
  p.pos++;
  const procedure = parseQualifiedName(p, 'CALL');
  const stmt: Statement = { kind: 'call', procedure, span, origin: p.origin };
  if (procedure.name === 'ADMIN_CMD' && (procedure.schema ?? 'SYSPROC') === 'SYSPROC' && p.kind(p.pos) === TK_LPAREN) {
    // Its one argument: the command text (a literal, or a variable or expression a routine built).
    const close = p.afterBalanced(p.pos) - 1;
    if (close > p.pos + 1) stmt.command = dynamicSql(p, p.pos + 1, close);
  } else if (p.kind(p.pos) === TK_LPAREN) {
    // The arguments, an integer literal's value each (CALL insertdata(1000): a routine loop's count).
    const close = p.afterBalanced(p.pos) - 1;
    const args: (number | undefined)[] = [];
    let from = p.pos + 1;
    let depth = 0;
    for (let i = from; i <= close && close > p.pos + 1; i++) {
      const k = p.kind(i);
      if (k === TK_LPAREN) depth++;
      else if (k === TK_RPAREN && i < close) depth--;
      else if (i === close || (depth === 0 && k === TK_COMMA)) {
        args.push(i - from === 1 ? integerAt(p, from) : undefined);
        from = i + 1;
      }
    }
    if (args.some((a) => a !== undefined)) stmt.integerArguments = args;
  }
  p.pos = p.end;
  return stmt;
}

/** UPDATE table [[AS] x] SET … — or undefined when UPDATE is a CLP command (UPDATE DBM CFG …) or targets a fullselect. */
export function parseUpdate(p: Parser, span: Span): Statement | undefined {
  const target = changedTable(p, p.pos + 1);
  if (!target || !p.kw(target.next, 'SET')) return undefined;
  p.pos = p.end;
  return { kind: 'update', target: target.name, span, origin: p.origin };
}

/** DELETE FROM table …. */
export function parseDelete(p: Parser, span: Span): Statement | undefined {
  if (!p.kw(p.pos + 1, 'FROM')) return undefined;
  const target = changedTable(p, p.pos + 2);
  if (!target) return undefined;
  p.pos = p.end;
  return { kind: 'delete', target: target.name, span, origin: p.origin };
}

/** The table named at `i`, and the token after it and its correlation name. */
function changedTable(p: Parser, i: number): { name: QualifiedName; next: number } | undefined {
  if (!p.isIdent(i) || p.kind(i + 1) === TK_LPAREN) return undefined;
  const saved = p.pos;
  p.pos = i;
  const name = parseQualifiedName(p, 'UPDATE');
  let next = p.pos;
  p.pos = saved;
  if (p.kw(next, 'AS')) next++;
  if (p.isIdent(next) && !p.kw(next, 'SET') && !p.kw(next, 'WHERE') && p.kind(next + 1) !== TK_DOT) next++;
  return { name, next };
}

/** Words after SET that name a special register or a command, not a variable (SET PATH = …, SET INTEGRITY …). */
const SET_NOT_VARIABLE = new Set([
  'CURRENT', 'SCHEMA', 'PATH', 'SQLID', 'ISOLATION', 'ENCRYPTION', 'CONNECTION', 'PASSTHRU', 'SERVER', 'SESSION',
  'ROLE', 'INTEGRITY', 'EVENT', 'TABLESPACE', 'WRITE', 'RUNTIME', 'UTIL_IMPACT_PRIORITY', 'CLIENT', 'OPTION', 'COMPILATION',
]);

/** SET target = … (a variable, a row field, an array element) or SET (a, b) = …. */
export function isSetVariable(p: Parser, first: number): boolean {
  if (p.kind(first + 1) === TK_LPAREN) return true;
  if (!p.isIdent(first + 1)) return false;
  if (p.kind(first + 1) === TK_WORD) {
    const word = p.upper(first + 1);
    if (SET_NOT_VARIABLE.has(word) || word.startsWith('CURRENT_')) return false;
  }
  // The '=' comes before any word that is not a field after a dot or inside a subscript (v.f = 1, a[i + 1] = 2).
  let subscript = 0;
  for (let i = first + 2; i < p.end && i < first + 32; i++) {
    if (p.isOp(i, '[')) subscript++;
    else if (p.isOp(i, ']')) subscript--;
    else if (subscript === 0 && p.isOp(i, '=')) return true;
    else if (subscript === 0 && p.kind(i) === TK_WORD && p.kind(i - 1) !== TK_DOT) return false;
  }
  return false;
}
