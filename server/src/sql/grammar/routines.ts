// CREATE TRIGGER and the bodies of routines: the triggered action (one statement or BEGIN ATOMIC … END)
// is split into its inner statements, each parsed like a statement of a script.
import type { CreateTriggerStatement, Span, Statement } from '../ast';
import { TK_COMMA, TK_LPAREN, TK_OP } from '../lexer';
import type { Parser } from '../parser';
import { splitBody } from '../splitter';
import { parseIdentifier, parseQualifiedName, skipParens } from './clauses';

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
    parseTriggerBody(p, stmt, bodyFirst, context);
  } finally {
    p.bodyDepth--;
  }
  p.pos = p.end;
  return stmt;
}

function parseTriggerBody(p: Parser, stmt: CreateTriggerStatement, bodyFirst: number, context: string): void {
  // label: BEGIN ATOMIC …
  let blockAt = bodyFirst;
  if (p.kind(bodyFirst + 1) === TK_OP && p.text.charCodeAt(p.t.start[bodyFirst + 1]) === 58 && p.kw(bodyFirst + 2, 'BEGIN')) blockAt = bodyFirst + 2;
  if (p.kw(blockAt, 'BEGIN')) {
    let inner = blockAt + 1;
    if (p.kw(inner, 'ATOMIC')) inner++;
    else if (p.kw(inner, 'NOT') && p.kw(inner + 1, 'ATOMIC')) inner += 2;
    // The block's own END is the last END in the statement (a label may follow it).
    let endTok = -1;
    for (let j = p.end - 1; j >= inner && j >= p.end - 3; j--) {
      if (p.kw(j, 'END')) {
        endTok = j;
        break;
      }
    }
    if (endTok < 0) {
      p.pos = p.end;
      p.fail('expected END closing the BEGIN block', context);
    }
    for (const r of splitBody(p.text, p.t, inner, endTok)) stmt.body.push(p.parseRange(r.first, r.end, false));
  } else {
    stmt.body.push(p.parseRange(bodyFirst, p.end, false));
  }
}
