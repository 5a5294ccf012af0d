// Column definitions (CREATE TABLE, ALTER TABLE ADD COLUMN): data type options, DEFAULT, GENERATED
// (identity and expressions), inline and table constraints, and the identity/sequence options.
import type { ColumnDef, IdentityOptions, ReferentialAction, Span, TableConstraint } from '../ast';
import { TK_WORD, TK_STRING, TK_NUMBER, TK_HOST, TK_MARKER, TK_LPAREN, TK_RPAREN, TK_COMMA, TK_DOT, TK_OP } from '../lexer';
import type { Parser } from '../parser';
import { parseDataType, parseIdentifier, parseNameList, parseNumber, parseQualifiedName, skipParens, TYPED_LITERAL_WORDS } from './clauses';

const REFERENTIAL: Record<string, ReferentialAction> = {
  'NO ACTION': 'NO ACTION',
  RESTRICT: 'RESTRICT',
  CASCADE: 'CASCADE',
  'SET NULL': 'SET NULL',
};

/** Words that start a column option (so a DEFAULT right before them has no value). */
const COLUMN_OPTION_WORDS = new Set([
  'NOT', 'GENERATED', 'PRIMARY', 'UNIQUE', 'CONSTRAINT', 'REFERENCES', 'CHECK', 'LOGGED', 'COMPACT',
  'INLINE', 'IMPLICITLY', 'WITH', 'DEFAULT', 'FOR', 'CCSID', 'COMPRESS', 'SECURED', 'COLUMN',
]);

/** ALTER TABLE action words that end a column definition (NOT and COMPRESS are column options too). */
const COLUMN_ENDING_ALTER_ACTIONS = new Set([
  'ADD', 'DROP', 'ALTER', 'APPEND', 'LOCKSIZE', 'PCTFREE', 'ACTIVATE', 'DEACTIVATE', 'DATA', 'VOLATILE',
  'RENAME', 'ATTACH', 'DETACH', 'LOG', 'VALUE', 'ORGANIZE', 'SECURITY',
]);

export function parseColumnDef(p: Parser, context: string, constraints: TableConstraint[]): ColumnDef {
  const startTok = p.pos;
  const id = parseIdentifier(p, context);
  const type = parseDataType(p, context);
  const col: ColumnDef = { name: id.name, nameSpan: id.span, type, notNull: false, span: { start: 0, end: 0 } };
  parseColumnOptions(p, col, context, constraints);
  col.span = { start: p.t.start[startTok], end: p.t.end[p.pos - 1] };
  return col;
}

function parseColumnOptions(p: Parser, col: ColumnDef, context: string, constraints: TableConstraint[]): void {
  for (;;) {
    const k = p.kind(p.pos);
    if (p.atEnd() || k === TK_COMMA || k === TK_RPAREN) return;
    if (k !== TK_WORD) p.fail('expected a column option', context);
    const w = p.upper(p.pos);
    // ALTER TABLE … ADD COLUMN c t DEFAULT x ADD COLUMN …: the next action ends this column
    if (context === 'ALTER TABLE' && COLUMN_ENDING_ALTER_ACTIONS.has(w)) return;
    switch (w) {
      case 'NOT':
        if (p.acceptSeq('NOT', 'NULL')) col.notNull = true;
        else if (p.acceptSeq('NOT', 'LOGGED')) col.lobLogged = false;
        else if (p.acceptSeq('NOT', 'COMPACT')) col.lobCompact = false;
        else if (p.acceptSeq('NOT', 'HIDDEN')) {
          /* visible column */
        } else p.fail('expected NULL, LOGGED, COMPACT or HIDDEN after NOT', context, p.pos + 1);
        continue;
      case 'NULL':
        p.pos++;
        continue;
      case 'LOGGED':
        p.pos++;
        col.lobLogged = true;
        continue;
      case 'COMPACT':
        p.pos++;
        col.lobCompact = true;
        continue;
      case 'INLINE':
        p.pos++;
        p.expect('LENGTH', context);
        col.inlineLength = parseNumber(p, context);
        continue;
      case 'IMPLICITLY':
        p.pos++;
        p.expect('HIDDEN', context);
        col.implicitlyHidden = true;
        continue;
      case 'FOR':
        // FOR BIT DATA / FOR SBCS DATA / FOR MIXED DATA
        p.pos++;
        if (!(p.accept('BIT') || p.accept('SBCS') || p.accept('MIXED'))) p.fail('expected BIT, SBCS or MIXED', context);
        p.expect('DATA', context);
        continue;
      case 'CCSID':
        p.pos += 2;
        continue;
      case 'COMPRESS':
        p.pos++;
        if (p.acceptSeq('SYSTEM', 'DEFAULT') || p.accept('YES') || p.accept('NO')) continue;
        continue;
      case 'WITH':
        if (p.kw(p.pos + 1, 'DEFAULT')) {
          p.pos += 2;
          const v = parseDefaultValue(p);
          if (v) col.defaultValue = v;
          else col.defaultValue = p.tokSpan(p.pos - 1);
          if (v && isNullAt(p, v)) col.defaultNull = true;
          continue;
        }
        p.fail('expected DEFAULT after WITH', context, p.pos + 1);
        break;
      case 'DEFAULT': {
        p.pos++;
        const v = parseDefaultValue(p);
        col.defaultValue = v ?? p.tokSpan(p.pos - 1);
        if (v && isNullAt(p, v)) col.defaultNull = true;
        continue;
      }
      case 'GENERATED':
        parseGenerated(p, col, context);
        continue;
      case 'CONSTRAINT':
      case 'PRIMARY':
      case 'UNIQUE':
      case 'REFERENCES':
      case 'CHECK':
        constraints.push(parseColumnConstraint(p, col.name, context));
        continue;
      case 'SECURED':
        p.pos++;
        p.expect('WITH', context);
        p.pos++;
        continue;
      case 'COLUMN':
        if (p.kw(p.pos + 1, 'SECURED')) {
          p.pos += 4;
          continue;
        }
        break;
    }
    p.fail('expected a column option', context);
  }
}

/** Whether the DEFAULT value just read (`span`, its last token before p.pos) is the one word NULL. */
function isNullAt(p: Parser, span: Span): boolean {
  const last = p.pos - 1;
  return p.kw(last, 'NULL') && p.t.start[last] === span.start;
}

/** Value after DEFAULT; undefined when the DEFAULT has no value (type default). */
function parseDefaultValue(p: Parser): Span | undefined {
  const first = p.pos;
  const k = p.kind(p.pos);
  if (p.atEnd() || k === TK_COMMA || k === TK_RPAREN) return undefined;
  if (k === TK_OP && (p.isOp(p.pos, '-') || p.isOp(p.pos, '+')) && p.kind(p.pos + 1) === TK_NUMBER) {
    p.pos += 2;
  } else if (k === TK_STRING || k === TK_NUMBER || k === TK_HOST || k === TK_MARKER) {
    p.pos++;
  } else if (k === TK_LPAREN) {
    p.pos = p.afterBalanced(p.pos);
  } else if (k === TK_WORD) {
    const w = p.upper(p.pos);
    if (COLUMN_OPTION_WORDS.has(w) && w !== 'DEFAULT') return undefined;
    if (w === 'CURRENT' && p.kind(p.pos + 1) === TK_WORD) {
      p.pos += 2;
      if (p.kind(p.pos) === TK_WORD && p.kw(p.pos - 1, 'CLIENT')) p.pos++;
      if (p.kind(p.pos) === TK_LPAREN) p.pos = p.afterBalanced(p.pos);
    } else if (TYPED_LITERAL_WORDS.has(w) && p.kind(p.pos + 1) === TK_STRING) {
      p.pos += 2;
    } else {
      p.pos++;
      while (p.kind(p.pos) === TK_DOT && p.isIdent(p.pos + 1)) p.pos += 2;
      if (p.kind(p.pos) === TK_LPAREN) p.pos = p.afterBalanced(p.pos);
    }
  } else {
    return undefined;
  }
  return p.rangeSpan(first, p.pos);
}

function parseGenerated(p: Parser, col: ColumnDef, context: string): void {
  const startTok = p.pos;
  p.pos++; // GENERATED
  let always = true;
  if (p.accept('ALWAYS')) always = true;
  else if (p.acceptSeq('BY', 'DEFAULT')) always = false;
  if (p.acceptSeq('FOR', 'EACH', 'ROW', 'ON', 'UPDATE', 'AS', 'ROW', 'CHANGE', 'TIMESTAMP')) {
    col.generatedExpression = p.rangeSpan(startTok, p.pos);
    return;
  }
  p.expect('AS', context);
  if (p.accept('IDENTITY')) {
    const ident: IdentityOptions = { always, span: { start: 0, end: 0 } };
    if (p.kind(p.pos) === TK_LPAREN) {
      p.pos++;
      parseSequenceOptions(p, ident, context, true);
      p.expectKind(TK_RPAREN, "')'", context);
    }
    ident.span = p.rangeSpan(startTok, p.pos);
    col.identity = ident;
    return;
  }
  if (p.kind(p.pos) === TK_LPAREN) {
    col.generatedExpression = skipParens(p, context);
    return;
  }
  // Temporal: AS ROW BEGIN | ROW END | TRANSACTION START ID
  if (p.acceptSeq('ROW', 'BEGIN') || p.acceptSeq('ROW', 'END') || p.acceptSeq('TRANSACTION', 'START', 'ID')) {
    col.generatedExpression = p.rangeSpan(startTok, p.pos);
    return;
  }
  p.fail("expected IDENTITY or '(' after GENERATED … AS", context);
}

/** [ALWAYS | BY DEFAULT] AS IDENTITY at token i. */
export function identityFollows(p: Parser, i: number): boolean {
  if (p.kw(i, 'ALWAYS')) i++;
  else if (p.kw(i, 'BY') && p.kw(i + 1, 'DEFAULT')) i += 2;
  return p.kw(i, 'AS') && p.kw(i + 1, 'IDENTITY');
}

/**
 * Identity / sequence options. Stops (without error) at ')' when `inParens`, or at the end.
 * Writes start, increment, cache (0 = NO CACHE), cacheSpan and order.
 */
export function parseSequenceOptions(p: Parser, 
  target: { start?: number; increment?: number; cache?: number; cacheSpan?: Span; order?: boolean },
  context: string,
  inParens: boolean,
): void {
  for (;;) {
    if (p.atEnd() || (inParens && p.kind(p.pos) === TK_RPAREN)) return;
    if (p.kind(p.pos) === TK_COMMA) {
      p.pos++;
      continue;
    }
    const optStart = p.pos;
    if (p.acceptSeq('START', 'WITH')) target.start = parseNumber(p, context);
    else if (p.acceptSeq('INCREMENT', 'BY')) target.increment = parseNumber(p, context);
    else if (p.accept('MINVALUE') || p.accept('MAXVALUE')) parseNumber(p, context);
    else if (p.acceptSeq('NO', 'MINVALUE') || p.acceptSeq('NO', 'MAXVALUE') || p.acceptSeq('NO', 'CYCLE') || p.accept('CYCLE') || p.accept('NOMINVALUE') || p.accept('NOMAXVALUE') || p.accept('NOCYCLE')) {
      /* not modelled */
    } else if (p.accept('CACHE')) {
      target.cache = parseNumber(p, context);
      target.cacheSpan = p.rangeSpan(optStart, p.pos);
    } else if (p.acceptSeq('NO', 'CACHE') || p.accept('NOCACHE')) {
      target.cache = 0;
      target.cacheSpan = p.rangeSpan(optStart, p.pos);
    } else if (p.accept('ORDER')) {
      if ('order' in target || !inParens) target.order = true;
    } else if (p.acceptSeq('NO', 'ORDER') || p.accept('NOORDER')) {
      if ('order' in target || !inParens) target.order = false;
    } else if (!inParens && p.accept('RESTART')) {
      if (p.accept('WITH')) parseNumber(p, context);
    } else if (!inParens && p.accept('AS')) {
      parseDataType(p, context);
    } else {
      p.fail('expected a sequence option (START WITH, INCREMENT BY, CACHE, …)', context);
    }
  }
}

function parseColumnConstraint(p: Parser, column: string, context: string): TableConstraint {
  const startTok = p.pos;
  let name: string | undefined;
  if (p.accept('CONSTRAINT')) name = parseIdentifier(p, context).name;
  let c: TableConstraint;
  if (p.acceptSeq('PRIMARY', 'KEY')) {
    c = { kind: 'primaryKey', columns: [column], span: { start: 0, end: 0 } };
    parseConstraintAttributes(p, c, context);
  } else if (p.accept('UNIQUE')) {
    c = { kind: 'unique', columns: [column], span: { start: 0, end: 0 } };
    parseConstraintAttributes(p, c, context);
  } else if (p.peek('REFERENCES')) {
    c = parseReferences(p, [column], context);
  } else if (p.accept('CHECK')) {
    skipParens(p, context);
    c = { kind: 'check', enforced: true, span: { start: 0, end: 0 } };
    parseConstraintAttributes(p, c, context);
  } else {
    p.fail('expected PRIMARY KEY, UNIQUE, REFERENCES or CHECK', context);
  }
  if (name !== undefined) c.name = name;
  c.span = p.rangeSpan(startTok, p.pos);
  return c;
}

export function parseTableConstraint(p: Parser, context: string): TableConstraint {
  const startTok = p.pos;
  let name: string | undefined;
  if (p.accept('CONSTRAINT')) name = parseIdentifier(p, context).name;
  let c: TableConstraint;
  if (p.acceptSeq('PRIMARY', 'KEY')) {
    c = { kind: 'primaryKey', columns: parseNameList(p, context), span: { start: 0, end: 0 } };
    parseConstraintAttributes(p, c, context);
  } else if (p.accept('UNIQUE')) {
    c = { kind: 'unique', columns: parseNameList(p, context), span: { start: 0, end: 0 } };
    parseConstraintAttributes(p, c, context);
  } else if (p.acceptSeq('FOREIGN', 'KEY')) {
    // FOREIGN KEY name (cols): the constraint's name after the keywords (Db2 for z/OS and IBM i samples).
    if (p.isIdent(p.pos) && p.kind(p.pos + 1) === TK_LPAREN) {
      const named = parseIdentifier(p, context).name;
      name ??= named;
    }
    const cols = parseNameList(p, context);
    c = parseReferences(p, cols, context);
  } else if (p.accept('CHECK')) {
    skipParens(p, context);
    c = { kind: 'check', enforced: true, span: { start: 0, end: 0 } };
    parseConstraintAttributes(p, c, context);
  } else {
    p.fail('expected PRIMARY KEY, UNIQUE, FOREIGN KEY or CHECK', context);
  }
  if (name !== undefined) c.name = name;
  c.span = p.rangeSpan(startTok, p.pos);
  return c;
}

function parseReferences(p: Parser, columns: string[], context: string): TableConstraint {
  p.expect('REFERENCES', context);
  const parent = parseQualifiedName(p, context);
  const parentColumns = p.kind(p.pos) === TK_LPAREN ? parseNameList(p, context) : [];
  const fk: TableConstraint = { kind: 'foreignKey', columns, parent, parentColumns, enforced: true, span: { start: 0, end: 0 } };
  parseConstraintAttributes(p, fk, context);
  return fk;
}

/** ON DELETE/UPDATE rules, [NOT] ENFORCED, [NOT] TRUSTED, ENABLE/DISABLE QUERY OPTIMIZATION. */
function parseConstraintAttributes(p: Parser, c: TableConstraint, context: string): void {
  for (;;) {
    if (p.kw(p.pos, 'ON') && (p.kw(p.pos + 1, 'DELETE') || p.kw(p.pos + 1, 'UPDATE'))) {
      const isDelete = p.kw(p.pos + 1, 'DELETE');
      p.pos += 2;
      let action: ReferentialAction;
      if (p.acceptSeq('NO', 'ACTION')) action = REFERENTIAL['NO ACTION'];
      else if (p.acceptSeq('SET', 'NULL')) action = REFERENTIAL['SET NULL'];
      else if (p.accept('RESTRICT')) action = 'RESTRICT';
      else if (p.accept('CASCADE')) action = 'CASCADE';
      else p.fail('expected NO ACTION, RESTRICT, CASCADE or SET NULL', context);
      if (c.kind === 'foreignKey') {
        if (isDelete) c.onDelete = action;
        else c.onUpdate = action;
      }
      continue;
    }
    if (p.acceptSeq('NOT', 'ENFORCED')) {
      if (c.kind === 'foreignKey' || c.kind === 'check') c.enforced = false;
      continue;
    }
    if (p.kw(p.pos, 'ENFORCED')) {
      if (c.kind === 'foreignKey') c.enforcedSpan = p.rangeSpan(p.pos, p.pos + 1);
      p.pos++;
      if (c.kind === 'foreignKey' || c.kind === 'check') c.enforced = true;
      continue;
    }
    if (p.acceptSeq('NOT', 'TRUSTED') || p.accept('TRUSTED')) continue;
    if (p.acceptSeq('ENABLE', 'QUERY', 'OPTIMIZATION') || p.acceptSeq('DISABLE', 'QUERY', 'OPTIMIZATION')) continue;
    return;
  }
}
