// Routines: CREATE TRIGGER, CREATE PROCEDURE / FUNCTION / METHOD and ALTER MODULE … ADD | PUBLISH. The
// header is read for what the model keeps (name, language, parameters); the body goes to sqlpl.ts.
import type { CreateRoutineStatement, CreateTriggerStatement, DeclaredLength, QualifiedName, Span, Statement } from '../ast';
import { TK_COMMA, TK_LPAREN, TK_RPAREN, TK_WORD } from '../lexer';
import type { Parser } from '../parser';
import { parseIdentifier, parseQualifiedName, skipParens } from './clauses';
import { declaredLength, labelAt, parseRoutineBody } from './sqlpl';

export function parseCreateTrigger(p: Parser, span: Span): Statement {
  const context = 'CREATE TRIGGER';
  p.pos++;
  p.acceptSeq('OR', 'REPLACE');
  p.expect('TRIGGER', context);
  const trigger = parseQualifiedName(p, context);
  p.acceptSeq('NO', 'CASCADE');
  let timing: 'before' | 'after' | 'instead of';
  if (p.accept('BEFORE')) timing = 'before';
  else if (p.accept('AFTER')) timing = 'after';
  else if (p.acceptSeq('INSTEAD', 'OF')) timing = 'instead of';
  else p.fail('expected BEFORE, AFTER or INSTEAD OF', context);
  const events: ('insert' | 'update' | 'delete')[] = [];
  for (;;) {
    if (p.accept('INSERT')) events.push('insert');
    else if (p.accept('DELETE')) events.push('delete');
    else if (p.accept('UPDATE')) {
      events.push('update');
      if (p.accept('OF')) {
        parseIdentifier(p, context);
        while (p.kind(p.pos) === TK_COMMA) {
          p.pos++;
          parseIdentifier(p, context);
        }
      }
    } else p.fail('expected INSERT, UPDATE or DELETE', context);
    if (!p.accept('OR')) break;
  }
  p.expect('ON', context);
  const table = parseQualifiedName(p, context);
  const stmt: CreateTriggerStatement = {
    kind: 'createTrigger',
    trigger,
    timing,
    events,
    table,
    granularity: 'statement',
    body: [],
    bodySpan: { start: span.end, end: span.end },
    span,
    origin: p.origin,
  };
  p.partial = stmt;
  for (;;) {
    if (p.accept('REFERENCING')) {
      // OLD [ROW] [AS] x | NEW [ROW] [AS] x | OLD TABLE [AS] x | NEW TABLE [AS] x | OLD_TABLE … | NEW_TABLE …
      while (p.peek('OLD') || p.peek('NEW') || p.peek('OLD_TABLE') || p.peek('NEW_TABLE')) {
        p.pos++;
        if (!p.accept('TABLE')) p.accept('ROW');
        p.accept('AS');
        parseIdentifier(p, context);
      }
      continue;
    }
    if (p.acceptSeq('FOR', 'EACH')) {
      if (p.accept('ROW')) stmt.granularity = 'row';
      else if (p.accept('STATEMENT')) stmt.granularity = 'statement';
      else p.fail('expected ROW or STATEMENT', context);
      continue;
    }
    if (p.acceptSeq('MODE', 'DB2SQL') || p.acceptSeq('NOT', 'SECURED') || p.accept('SECURED')) continue;
    if (p.peek('WHEN') && p.kind(p.pos + 1) === TK_LPAREN) {
      p.pos++;
      skipParens(p, context);
      continue;
    }
    break;
  }
  if (p.atEnd()) p.fail('expected the triggered action', context);
  const bodyFirst = p.pos;
  stmt.bodySpan = p.rangeSpan(bodyFirst, p.end);
  // A trigger body cannot hold another trigger; nonsense input that nests them stays shallow.
  if (p.bodyDepth > 0) {
    stmt.body.push(p.other(stmt.bodySpan, bodyFirst, p.end));
    p.pos = p.end;
    return stmt;
  }
  p.bodyDepth++;
  try {
    parseTriggerBody(p, stmt, bodyFirst);
  } finally {
    p.bodyDepth--;
  }
  p.pos = p.end;
  return stmt;
}

function parseTriggerBody(p: Parser, stmt: CreateTriggerStatement, bodyFirst: number): void {
  // BEGIN ATOMIC … END: the statements of the block are the body; otherwise the one statement.
  const body = parseRoutineBody(p, bodyFirst);
  stmt.body = body.kind === 'compound' && !body.parseError ? body.body : [body];
}

// ---------- CREATE PROCEDURE / FUNCTION / METHOD, ALTER MODULE … ADD | PUBLISH ----------

/** Words that start a routine's body when it is a single statement (CREATE FUNCTION … RETURN …). */
const BODY_STARTERS = new Set([
  'BEGIN', 'RETURN', 'INSERT', 'UPDATE', 'DELETE', 'MERGE', 'CALL', 'SIGNAL', 'IF', 'WHILE', 'REPEAT', 'LOOP', 'CASE', 'SELECT', 'VALUES', 'SET',
]);

/** CREATE [OR REPLACE] PROCEDURE | FUNCTION | METHOD name …, from the word after CREATE [OR REPLACE]. */
export function parseCreateRoutine(p: Parser, span: Span): Statement {
  p.pos++;
  p.acceptSeq('OR', 'REPLACE');
  return parseRoutine(p, span, undefined);
}

/** ALTER MODULE m ADD | PUBLISH PROCEDURE | FUNCTION …; other module alterations are kept as text. */
export function parseAlterModule(p: Parser, span: Span): Statement {
  const context = 'ALTER MODULE';
  const first = p.pos;
  p.pos += 2;
  const module = parseQualifiedName(p, context);
  if ((p.accept('ADD') || p.accept('PUBLISH')) && (p.peek('PROCEDURE') || p.peek('FUNCTION'))) return parseRoutine(p, span, module);
  const stmt = p.other(span, first, p.end);
  p.pos = p.end;
  return stmt;
}

/** PROCEDURE | FUNCTION | METHOD name [(parameters)] options… [body]. */
function parseRoutine(p: Parser, span: Span, module: QualifiedName | undefined): Statement {
  const word = p.upper(p.pos++);
  const routine = word === 'FUNCTION' ? 'function' : word === 'METHOD' ? 'method' : 'procedure';
  const context = `CREATE ${word}`;
  const name = parseQualifiedName(p, context);
  const stmt: CreateRoutineStatement = { kind: 'createRoutine', routine, name, language: 'SQL', parameters: [], span, origin: p.origin };
  if (module) stmt.module = module;
  p.partial = stmt;
  if (p.kind(p.pos) === TK_LPAREN) {
    const { names, lengths } = parameterNames(p);
    stmt.parameters = names;
    if (lengths.some((l) => l !== undefined)) stmt.parameterLengths = lengths;
  }
  let external = false;
  let bodyFirst = -1;
  while (!p.atEnd()) {
    if (p.kind(p.pos) === TK_LPAREN) {
      p.pos = p.afterBalanced(p.pos);
      continue;
    }
    if (p.kind(p.pos) === TK_WORD) {
      if (p.accept('LANGUAGE')) {
        if (p.kind(p.pos) === TK_WORD) stmt.language = p.upper(p.pos++);
        continue;
      }
      if (p.accept('EXTERNAL')) {
        // EXTERNAL NAME '…' (an external routine); EXTERNAL ACTION is an option of SQL routines.
        if (!p.accept('ACTION')) external = true;
        continue;
      }
      if (p.acceptSeq('SPECIFIC') || p.acceptSeq('PARAMETER', 'STYLE')) {
        p.pos++;
        continue;
      }
      if (labelAt(p, p.pos) && p.kw(p.pos + 2, 'BEGIN')) {
        bodyFirst = p.pos;
        break;
      }
      if (BODY_STARTERS.has(p.upper(p.pos))) {
        bodyFirst = p.pos;
        break;
      }
    }
    p.pos++;
  }
  if (bodyFirst >= 0 && !external && stmt.language === 'SQL') {
    const body = parseRoutineBody(p, bodyFirst);
    stmt.body = body;
  } else if (!external && stmt.language === 'SQL' && !module && bodyFirst < 0 && routine === 'procedure') {
    p.fail('expected the body of the SQL procedure (BEGIN … END)', context, p.end);
  }
  p.pos = p.end;
  return stmt;
}

/** ( [IN|OUT|INOUT] name type [DEFAULT …], … ): the names, and the length of each string type (CLOB(100000)). */
function parameterNames(p: Parser): { names: string[]; lengths: (DeclaredLength | undefined)[] } {
  const close = p.afterBalanced(p.pos) - 1;
  const names: string[] = [];
  const lengths: (DeclaredLength | undefined)[] = [];
  let expectName = true;
  let depth = 0;
  for (let i = p.pos + 1; i < close; i++) {
    const k = p.t.kind[i];
    if (k === TK_LPAREN) depth++;
    else if (k === TK_RPAREN) depth--;
    else if (depth === 0 && k === TK_COMMA) expectName = true;
    else if (expectName && p.isIdent(i) && !(p.kw(i, 'IN') || p.kw(i, 'OUT') || p.kw(i, 'INOUT'))) {
      names.push(p.identValue(i));
      lengths.push(declaredLength(p, i + 1, close));
      expectName = false;
    }
  }
  p.pos = close + 1;
  return { names, lengths };
}
