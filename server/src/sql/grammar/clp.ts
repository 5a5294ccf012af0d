// Commands of the Db2 command line processor that scripts mix with SQL: CONNECT, UPDATE COMMAND
// OPTIONS, UPDATE DATABASE CONFIGURATION, LOAD, IMPORT and INGEST.
import type { ConfigParameter, Span, Statement } from '../ast';
import { TK_WORD, TK_STRING, TK_NUMBER, TK_HOST, TK_COMMA, TK_LPAREN, TK_RPAREN } from '../lexer';
import type { Parser } from '../parser';
import { parseIdentifier, parseQualifiedName, plainNameListAt } from './clauses';

export function isCfgWord(p: Parser, i: number): boolean {
  return p.kw(i, 'CFG') || p.kw(i, 'CONFIG') || p.kw(i, 'CONFIGURATION');
}

export function parseConnect(p: Parser, span: Span): Statement {
  const context = 'CONNECT';
  p.pos++;
  const stmt: Statement = { kind: 'connect', reset: false, span, origin: p.origin };
  p.partial = stmt;
  if (p.accept('RESET')) {
    stmt.reset = true;
  } else if (p.accept('TO')) {
    if (p.kind(p.pos) === TK_HOST) {
      stmt.database = p.text.slice(p.t.start[p.pos], p.t.end[p.pos]);
      p.pos++;
    } else stmt.database = parseIdentifier(p, context).name;
    // IN SHARE MODE, USER u USING p, NEW p CONFIRM p, … are connection options
    p.pos = p.end;
  }
  p.expectEnd(context);
  return stmt;
}

export function parseUpdateCommandOptions(p: Parser, span: Span): Statement {
  const context = 'UPDATE COMMAND OPTIONS';
  p.pos += 3;
  const stmt: Statement = { kind: 'updateCommandOptions', options: {}, span, origin: p.origin };
  p.partial = stmt;
  p.expect('USING', context);
  for (;;) {
    if (p.kind(p.pos) !== TK_WORD) p.fail('expected an option letter', context);
    const letter = p.upper(p.pos++);
    let on: boolean;
    if (p.accept('ON')) on = true;
    else if (p.accept('OFF')) on = false;
    else p.fail('expected ON or OFF', context);
    stmt.options[letter] = on;
    if (letter === 'C') stmt.autocommit = on;
    // Some options take a value after ON (R ON file, Z ON file, L ON file, E ON c, …).
    if (on && !p.atEnd() && !(p.kind(p.pos) === TK_WORD && (p.kw(p.pos + 1, 'ON') || p.kw(p.pos + 1, 'OFF')))) {
      p.pos = p.afterAdjacentRun(p.pos);
    }
    if (p.atEnd()) break;
  }
  return stmt;
}

export function parseUpdateDbCfg(p: Parser, span: Span): Statement {
  const context = 'UPDATE DATABASE CONFIGURATION';
  p.pos += 3;
  const stmt: Statement = { kind: 'updateDbCfg', parameters: [], span, origin: p.origin };
  p.partial = stmt;
  for (;;) {
    if (p.accept('FOR')) {
      stmt.database = parseIdentifier(p, context).name;
      continue;
    }
    if (p.accept('MEMBER') || p.accept('DBPARTITIONNUM')) {
      p.pos++;
      continue;
    }
    break;
  }
  p.expect('USING', context);
  while (!p.atEnd()) {
    if (p.peek('IMMEDIATE') || p.peek('DEFERRED')) {
      p.pos++;
      continue;
    }
    const nameTok = p.pos;
    if (p.kind(nameTok) !== TK_WORD) p.fail('expected a configuration parameter name', context);
    p.pos++;
    if (p.atEnd()) p.fail('expected a value', context);
    const valueFirst = p.pos;
    p.pos = p.afterAdjacentRun(p.pos);
    let valueText = p.text.slice(p.t.start[valueFirst], p.t.end[p.pos - 1]);
    const param: ConfigParameter = { name: p.upper(nameTok), value: valueText, span: p.rangeSpan(nameTok, p.pos) };
    if (/^[+-]?\d+(\.\d+)?$/.test(valueText)) param.numericValue = Number(valueText);
    if (p.peek('AUTOMATIC') || p.peek('MANUAL')) {
      valueText += ' ' + p.upper(p.pos++);
      param.value = valueText;
      param.span = p.rangeSpan(nameTok, p.pos);
    }
    stmt.parameters.push(param);
  }
  return stmt;
}

/** File name in LOAD/IMPORT: a string literal or a run of adjacent tokens (a path). */
function parseFileName(p: Parser, context: string): string {
  if (p.atEnd()) p.fail('expected a file name', context);
  if (p.kind(p.pos) === TK_STRING) {
    const s = p.t.start[p.pos];
    const e = p.t.end[p.pos];
    p.pos++;
    return p.text.slice(s + 1, Math.max(s + 1, e - 1));
  }
  const first = p.pos;
  p.pos = p.afterAdjacentRun(p.pos);
  return p.text.slice(p.t.start[first], p.t.end[p.pos - 1]);
}

/** INSERT|REPLACE|… INTO table inside a LOAD/IMPORT command. */
function findInto(p: Parser, modes: string[]): { mode: string; at: number } | undefined {
  for (let i = p.pos; i + 1 < p.end; i++) {
    if (p.t.kind[i] !== TK_WORD || !p.kw(i + 1, 'INTO')) continue;
    const w = p.upper(i);
    if (modes.includes(w)) return { mode: w, at: i };
  }
  return undefined;
}

export function parseLoad(p: Parser, span: Span): Statement {
  const context = 'LOAD';
  p.pos++;
  const client = p.accept('CLIENT');
  p.expect('FROM', context);
  const name = parseFileName(p, context);
  while (p.kind(p.pos) === TK_COMMA) {
    p.pos++;
    parseFileName(p, context);
  }
  p.expect('OF', context);
  if (p.kind(p.pos) !== TK_WORD) p.fail('expected a file type (DEL, ASC, IXF, CURSOR)', context);
  const fileType = p.upper(p.pos++);
  const found = findInto(p, ['INSERT', 'REPLACE', 'RESTART', 'TERMINATE']);
  if (!found) p.fail('expected INSERT|REPLACE|RESTART|TERMINATE INTO table', context, p.end);
  let nonrecoverable = false;
  for (let i = p.pos; i < p.end; i++) if (p.kw(i, 'NONRECOVERABLE')) nonrecoverable = true;
  p.pos = found.at + 2;
  const table = parseQualifiedName(p, context);
  const stmt: Statement = {
    kind: 'load',
    from: { kind: fileType === 'CURSOR' ? 'cursor' : 'file', name: fileType === 'CURSOR' ? name.toUpperCase() : name },
    fileType,
    mode: found.mode.toLowerCase() as 'insert' | 'replace' | 'restart' | 'terminate',
    table,
    nonrecoverable,
    client,
    span,
    origin: p.origin,
  };
  p.pos = p.end;
  return stmt;
}

export function parseImport(p: Parser, span: Span): Statement {
  const context = 'IMPORT';
  p.pos++;
  p.expect('FROM', context);
  const from = parseFileName(p, context);
  p.expect('OF', context);
  if (p.kind(p.pos) !== TK_WORD) p.fail('expected a file type (DEL, ASC, IXF)', context);
  const fileType = p.upper(p.pos++);
  let commitCount: number | 'automatic' | undefined;
  let commitCountSpan: Span | undefined;
  let allowWriteAccess = false;
  for (let i = p.pos; i < p.end; i++) {
    if (p.kw(i, 'ALLOW') && p.kw(i + 1, 'WRITE') && p.kw(i + 2, 'ACCESS')) allowWriteAccess = true;
    if (!p.kw(i, 'COMMITCOUNT') || commitCountSpan) continue;
    if (p.kw(i + 1, 'AUTOMATIC')) commitCount = 'automatic';
    else if (p.kind(i + 1) === TK_NUMBER) commitCount = Number(p.text.slice(p.t.start[i + 1], p.t.end[i + 1]));
    if (commitCount !== undefined) commitCountSpan = { start: p.t.start[i + 1], end: p.t.end[i + 1] };
  }
  const found = findInto(p, ['INSERT', 'INSERT_UPDATE', 'REPLACE', 'REPLACE_CREATE', 'CREATE']);
  if (!found) p.fail('expected INSERT|INSERT_UPDATE|REPLACE|REPLACE_CREATE|CREATE INTO table', context, p.end);
  p.pos = found.at + 2;
  const table = parseQualifiedName(p, context);
  // INTO table (insert-column, …): the columns the input fills (the others get their defaults).
  const columns = plainNameListAt(p, p.pos)?.names;
  const stmt: Statement = {
    kind: 'import',
    from,
    fileType,
    mode: found.mode.toLowerCase() as 'insert' | 'insert_update' | 'replace' | 'replace_create' | 'create',
    table,
    modeSpan: { start: p.t.start[found.at], end: p.t.end[found.at] },
    span,
    origin: p.origin,
  };
  if (commitCount !== undefined) stmt.commitCount = commitCount;
  if (commitCountSpan) stmt.commitCountSpan = commitCountSpan;
  if (allowWriteAccess) stmt.allowWriteAccess = true;
  if (columns) stmt.columns = columns;
  p.pos = p.end;
  return stmt;
}

/** INGEST [DATA] FROM FILE f[, …] | PIPE p … INSERT INTO | REPLACE INTO | UPDATE | DELETE FROM | MERGE INTO table …. */
export function parseIngest(p: Parser, span: Span): Statement {
  const context = 'INGEST';
  p.pos++;
  p.accept('DATA');
  p.expect('FROM', context);
  const fromFirst = p.pos;
  // The operation is at nesting level 0, after the input, its FORMAT (field list in parentheses) and options.
  let depth = 0;
  for (let i = p.pos; i < p.end; i++) {
    const k = p.t.kind[i];
    if (k === TK_LPAREN) depth++;
    else if (k === TK_RPAREN) depth--;
    if (depth !== 0 || k !== TK_WORD) continue;
    let operation: 'insert' | 'replace' | 'update' | 'delete' | 'merge' | undefined;
    let nameAt = i + 2;
    if (p.kw(i, 'INSERT') && p.kw(i + 1, 'INTO')) operation = 'insert';
    else if (p.kw(i, 'REPLACE') && p.kw(i + 1, 'INTO')) operation = 'replace';
    else if (p.kw(i, 'MERGE') && p.kw(i + 1, 'INTO')) operation = 'merge';
    else if (p.kw(i, 'DELETE') && p.kw(i + 1, 'FROM')) operation = 'delete';
    else if (p.kw(i, 'UPDATE') && p.isIdent(i + 1)) {
      operation = 'update';
      nameAt = i + 1;
    }
    if (!operation) continue;
    const from = p.text.slice(p.t.start[fromFirst], p.t.end[Math.max(fromFirst, i - 1)]).replace(/\s+/g, ' ').slice(0, 200);
    p.pos = nameAt;
    const table = parseQualifiedName(p, context);
    p.pos = p.end;
    return { kind: 'ingest', from, operation, table, span, origin: p.origin };
  }
  return p.fail('expected INSERT INTO, REPLACE INTO, UPDATE, DELETE FROM or MERGE INTO and the table', context, p.end);
}
