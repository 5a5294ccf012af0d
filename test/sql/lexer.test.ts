// Db2 lexer: token kinds, identifier/string/number forms, comments, terminators, unterminated input.
import { strict as assert } from 'node:assert';
import {
  lex,
  FLAG_UNTERMINATED,
  TK_BAD_COMMENT,
  TK_COMMA,
  TK_DELIM,
  TK_DOT,
  TK_HOST,
  TK_LPAREN,
  TK_MARKER,
  TK_NUMBER,
  TK_OP,
  TK_RAW,
  TK_RPAREN,
  TK_SEMI,
  TK_STRING,
  TK_TERM,
  TK_WORD,
  terminatorDirective,
} from '../../server/src/sql/lexer';

/** [kind, text] of every token. */
function tokensOf(text: string, terminator?: string): [number, string][] {
  const { tokens } = lex(text, terminator);
  const out: [number, string][] = [];
  for (let i = 0; i < tokens.count; i++) out.push([tokens.kind[i], text.slice(tokens.start[i], tokens.end[i])]);
  return out;
}

describe('sql lexer', () => {
  it('reads words, punctuation, numbers and the terminator, skipping whitespace', () => {
    assert.deepEqual(tokensOf('insert into s.t (a, b) values (1, 2.5);'), [
      [TK_WORD, 'insert'],
      [TK_WORD, 'into'],
      [TK_WORD, 's'],
      [TK_DOT, '.'],
      [TK_WORD, 't'],
      [TK_LPAREN, '('],
      [TK_WORD, 'a'],
      [TK_COMMA, ','],
      [TK_WORD, 'b'],
      [TK_RPAREN, ')'],
      [TK_WORD, 'values'],
      [TK_LPAREN, '('],
      [TK_NUMBER, '1'],
      [TK_COMMA, ','],
      [TK_NUMBER, '2.5'],
      [TK_RPAREN, ')'],
      [TK_TERM, ';'],
    ]);
  });

  it('reads numbers with exponents and leading dots, and keeps a size suffix as its own word', () => {
    assert.deepEqual(tokensOf('1e10 2.5E-3 .5 7 CLOB(1M)').map(([k, t]) => `${k}:${t}`), [
      `${TK_NUMBER}:1e10`,
      `${TK_NUMBER}:2.5E-3`,
      `${TK_NUMBER}:.5`,
      `${TK_NUMBER}:7`,
      `${TK_WORD}:CLOB`,
      `${TK_LPAREN}:(`,
      `${TK_NUMBER}:1`,
      `${TK_WORD}:M`,
      `${TK_RPAREN}:)`,
    ]);
  });

  it("reads strings with '' escapes, and a ';' inside a string is not a terminator", () => {
    assert.deepEqual(tokensOf("'it''s; here' x"), [
      [TK_STRING, "'it''s; here'"],
      [TK_WORD, 'x'],
    ]);
  });

  it("reads X'..', G'..', N'..', GX'..', UX'..' and U&'..' literals as strings", () => {
    const toks = tokensOf("X'FF' g'ab' N'x' GX'0041' UX'0041' U&'\\0041' BX'00'");
    assert.deepEqual(
      toks.map(([k]) => k),
      [TK_STRING, TK_STRING, TK_STRING, TK_STRING, TK_STRING, TK_STRING, TK_STRING],
    );
    assert.equal(toks[5][1], "U&'\\0041'");
  });

  it('reads delimited identifiers with "" escapes and U&"…" identifiers', () => {
    assert.deepEqual(tokensOf('"a""b" U&"x"'), [
      [TK_DELIM, '"a""b"'],
      [TK_DELIM, 'U&"x"'],
    ]);
  });

  it('reads parameter markers, host variables with indicators, and operators', () => {
    assert.deepEqual(tokensOf('? :hv :hv:ind a<>b c>=d e||f g!=h'), [
      [TK_MARKER, '?'],
      [TK_HOST, ':hv'],
      [TK_HOST, ':hv:ind'],
      [TK_WORD, 'a'],
      [TK_OP, '<>'],
      [TK_WORD, 'b'],
      [TK_WORD, 'c'],
      [TK_OP, '>='],
      [TK_WORD, 'd'],
      [TK_WORD, 'e'],
      [TK_OP, '||'],
      [TK_WORD, 'f'],
      [TK_WORD, 'g'],
      [TK_OP, '!='],
      [TK_WORD, 'h'],
    ]);
  });

  it('allows # @ $ in ordinary identifiers', () => {
    assert.deepEqual(tokensOf('col# a@b $x'), [
      [TK_WORD, 'col#'],
      [TK_WORD, 'a@b'],
      [TK_WORD, '$x'],
    ]);
  });

  it('keeps -- and nested /* */ comments in the comment list with their text', () => {
    const text = 'a -- insertlint-disable-next-line x: why\n/* outer /* inner */ still */ b';
    const { tokens, comments } = lex(text);
    assert.equal(tokens.count, 2);
    assert.deepEqual(
      comments.map((c) => c.text),
      [' insertlint-disable-next-line x: why', ' outer /* inner */ still '],
    );
    assert.equal(text.slice(comments[1].span.start, comments[1].span.end), '/* outer /* inner */ still */');
  });

  it("does not start a comment at XQuery steps '//*' and '/*:name'", () => {
    const { comments } = lex('XQUERY $i//*:po/item/*:id;');
    assert.equal(comments.length, 0);
  });

  it("treats '#' at the start of a line as a comment (Quartz scripts), but not #names", () => {
    const { tokens, comments } = lex('# a comment\n#T1 x\nDROP TABLE y;');
    assert.deepEqual(
      comments.map((c) => c.text),
      [' a comment'],
    );
    assert.equal(tokens.kind[0], TK_WORD);
    assert.equal(tokens.end[0] - tokens.start[0], 3); // #T1
  });

  it('turns an unterminated string, identifier or comment into one token to the end, flagged', () => {
    for (const [text, kind] of [
      ["x 'abc", TK_STRING],
      ['x "abc', TK_DELIM],
      ['x /* abc /* nested */', TK_BAD_COMMENT],
    ] as const) {
      const { tokens } = lex(text);
      const last = tokens.count - 1;
      assert.equal(tokens.kind[last], kind, text);
      assert.equal(tokens.end[last], text.length);
      assert.equal(tokens.flags[last] & FLAG_UNTERMINATED, FLAG_UNTERMINATED);
    }
  });

  it('follows --#SET TERMINATOR and then treats ; as ordinary punctuation', () => {
    const toks = tokensOf('a;\n--#SET TERMINATOR @\nb; c@\n--#SET TERMINATOR ;\nd;');
    assert.deepEqual(toks, [
      [TK_WORD, 'a'],
      [TK_TERM, ';'],
      [TK_WORD, 'b'],
      [TK_SEMI, ';'],
      [TK_WORD, 'c'],
      [TK_TERM, '@'],
      [TK_WORD, 'd'],
      [TK_TERM, ';'],
    ]);
  });

  it('supports multi-character terminators and the initial terminator option (-td@)', () => {
    assert.deepEqual(tokensOf('a; b@@\nc', '@@'), [
      [TK_WORD, 'a'],
      [TK_SEMI, ';'],
      [TK_WORD, 'b'],
      [TK_TERM, '@@'],
      [TK_WORD, 'c'],
    ]);
    assert.deepEqual(tokensOf('x@\ny', '@'), [
      [TK_WORD, 'x'],
      [TK_TERM, '@'],
      [TK_WORD, 'y'],
    ]);
  });

  it('recognises an alternative terminator only at the end of a line, as the CLP does', () => {
    const toks = tokensOf("XQUERY $c/@Cid = 'a@b' @\nx", '@');
    assert.deepEqual(
      toks.filter(([k]) => k === TK_TERM).map(([, t]) => t),
      ['@'],
    );
    assert.equal(toks[toks.length - 1][1], 'x');
  });

  it('reads CLP ECHO and !shell commands as free text up to the terminator', () => {
    assert.deepEqual(tokensOf("echo don't -- stop; !ls -l 'x;\nnext;"), [
      [TK_WORD, 'echo'],
      [TK_RAW, " don't -- stop"],
      [TK_TERM, ';'],
      [TK_RAW, "!ls -l 'x"],
      [TK_TERM, ';'],
      [TK_WORD, 'next'],
      [TK_TERM, ';'],
    ]);
  });

  it('reads !name! placeholders of replication templates as names', () => {
    assert.deepEqual(tokensOf('ALTER TABLE !capschema!.T'), [
      [TK_WORD, 'ALTER'],
      [TK_WORD, 'TABLE'],
      [TK_WORD, '!capschema!'],
      [TK_DOT, '.'],
      [TK_WORD, 'T'],
    ]);
  });

  it('parses terminator directives', () => {
    assert.equal(terminatorDirective('#SET TERMINATOR @'), '@');
    assert.equal(terminatorDirective('#set terminator !!'), '!!');
    assert.equal(terminatorDirective(' <ScriptOptions statementTerminator="$"/>'), '$');
    assert.equal(terminatorDirective(' SET TERMINATOR @'), undefined);
  });

  it('finds a terminator directive after any white space the expressions allow, and nowhere else', () => {
    // The directives are looked for only where their first character is: the same answers as the expressions.
    const plain = (body: string) => /^\s*#SET\s+TERMINATOR\s+(\S+)/i.exec(body)?.[1] ?? /<ScriptOptions\s+statementTerminator="([^"\s]+)"/i.exec(body)?.[1];
    const parts = [' ', '\t', '\u00a0', '\u2003', '\ufeff', '#SET TERMINATOR @', '#set\tterminator !!', 'x', '<ScriptOptions statementTerminator="$"/>', '<', '#', 'é'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    for (let n = 0; n < 3000; n++) {
      let body = '';
      for (let k = next() % 5; k >= 0; k--) body += parts[next() % parts.length];
      assert.equal(terminatorDirective(body), plain(body), JSON.stringify(body));
    }
    assert.equal(terminatorDirective('\u00a0#SET TERMINATOR @'), '@');
    assert.equal(terminatorDirective('x <ScriptOptions statementTerminator="!"/>'), '!');
  });
});
