// Property tests of the Db2 lexer and the statement splitter: they never throw, the tokens and comments
// account for every character of the input, statement ranges are ordered and within the token list, and
// the work grows linearly with the input.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { lex, TK_BAD_COMMENT, TK_TERM, type LexResult } from '../../server/src/sql/lexer';
import { splitStatements, splitBody } from '../../server/src/sql/splitter';
import { anyText, fixture, growthRatio, mutated, sqlish } from './support';

const WHITESPACE = new Set([32, 9, 10, 13, 12, 11, 0xa0, 0xfeff, 0]);

/** Undefined when tokens and comments cover `text` exactly (gaps only whitespace), else what is wrong. */
export function coverageProblem(text: string, { tokens, comments }: LexResult): string | undefined {
  const spans: { start: number; end: number; what: string }[] = [];
  for (let i = 0; i < tokens.count; i++) {
    const start = tokens.start[i];
    const end = tokens.end[i];
    if (!(start >= 0 && end > start && end <= text.length)) return `token ${i} has span ${start}..${end} (text length ${text.length})`;
    // An unterminated /* comment is both a token (so the parser sees it) and a comment: count it once.
    if (tokens.kind[i] === TK_BAD_COMMENT) {
      if (!comments.some((c) => c.span.start === start && c.span.end === end)) return `bad-comment token ${i} has no matching comment`;
      continue;
    }
    spans.push({ start, end, what: `token ${i} (kind ${tokens.kind[i]})` });
  }
  for (const [i, c] of comments.entries()) {
    if (!(c.span.start >= 0 && c.span.end > c.span.start && c.span.end <= text.length)) return `comment ${i} has span ${c.span.start}..${c.span.end}`;
    spans.push({ start: c.span.start, end: c.span.end, what: `comment ${i}` });
  }
  spans.sort((a, b) => a.start - b.start);
  let at = 0;
  for (const s of spans) {
    if (s.start < at) return `${s.what} at ${s.start} overlaps what ends at ${at}`;
    for (let k = at; k < s.start; k++) {
      if (!WHITESPACE.has(text.charCodeAt(k))) return `character ${JSON.stringify(text[k])} at ${k} is in no token or comment`;
    }
    at = s.end;
  }
  for (let k = at; k < text.length; k++) {
    if (!WHITESPACE.has(text.charCodeAt(k))) return `character ${JSON.stringify(text[k])} at ${k} (after the last token) is in no token or comment`;
  }
  return undefined;
}

function checkSplit(text: string, result: LexResult): void {
  const ranges = splitStatements(text, result.tokens);
  let previousEnd = 0;
  for (const r of ranges) {
    assert.ok(r.first >= previousEnd && r.first < r.end && r.end <= result.tokens.count, `bad range ${JSON.stringify(r)} after ${previousEnd}`);
    previousEnd = r.end;
    // A body split never leaves the statement's own tokens.
    for (const inner of splitBody(text, result.tokens, r.first, r.end)) {
      assert.ok(inner.first >= r.first && inner.first < inner.end && inner.end <= r.end, `bad body range ${JSON.stringify(inner)} in ${JSON.stringify(r)}`);
    }
  }
  // Every token that is not a terminator belongs to exactly one statement.
  let covered = 0;
  for (const r of ranges) covered += r.end - r.first;
  let terminatorsOutside = 0;
  let next = 0;
  for (const r of ranges) {
    for (let i = next; i < r.first; i++) if (result.tokens.kind[i] === TK_TERM) terminatorsOutside++;
    next = r.end;
  }
  for (let i = next; i < result.tokens.count; i++) if (result.tokens.kind[i] === TK_TERM) terminatorsOutside++;
  assert.equal(covered + terminatorsOutside, result.tokens.count, 'tokens outside every statement that are not terminators');
}

function lexAndCheck(text: string, terminator?: string): void {
  const result = lex(text, terminator);
  const problem = coverageProblem(text, result);
  assert.equal(problem, undefined, problem);
  checkSplit(text, result);
}

describe('robustness: lexer and splitter', () => {
  it('cover any string exactly and never throw', () => {
    fc.assert(fc.property(anyText, (text) => lexAndCheck(text)), { numRuns: 1500 });
  });

  it('cover SQL-shaped random text exactly, with ; @ and multi-character terminators', () => {
    fc.assert(
      fc.property(sqlish(80), fc.constantFrom(';', '@', '!', 'END', '', '--'), (text, terminator) => lexAndCheck(text, terminator)),
      { numRuns: 2500 },
    );
  });

  for (const name of ['workload.sql', 'procedure.clp']) {
    it(`cover mutations of ${name} exactly`, () => {
      const seed = fixture(name);
      lexAndCheck(seed);
      fc.assert(fc.property(mutated(seed), (text) => lexAndCheck(text)), { numRuns: 600 });
    });
  }

  it('splits the fixtures where a Db2 CLP would', () => {
    // Not a parser test: it pins that the property tests above run on inputs the splitter understands.
    const workload = fixture('workload.sql');
    assert.equal(splitStatements(workload, lex(workload).tokens).length, 15);
    const clp = fixture('procedure.clp');
    assert.equal(splitStatements(clp, lex(clp).tokens).length, 7);
  });

  // Inputs built to hit each scanning loop with its worst case: long runs of quote pairs, nested comment
  // openers, unterminated strings, directive comments, ECHO/shell lines, BEGIN blocks that never end.
  const SHAPES: Record<string, (n: number) => string> = {
    'doubled quotes': (n) => "'" + "''".repeat(n / 2) + "'",
    'unterminated string per line': (n) => "'abc\n".repeat(n / 5),
    'nested comment openers, never closed': (n) => '/*'.repeat(n / 2),
    'comment openers and closers': (n) => '/* /* */ */ x'.repeat(n / 13),
    'terminator directives': (n) => '--#SET TERMINATOR @\nX@\n--#SET TERMINATOR ;\nY;\n'.repeat(n / 44),
    'ECHO lines': (n) => "ECHO it's -- here;\n".repeat(n / 20),
    'unclosed BEGIN blocks': (n) => 'CREATE PROCEDURE P BEGIN BEGIN CASE IF ;\n'.repeat(n / 42),
    'host variables and markers': (n) => ':a:b ? :"x" '.repeat(n / 12),
    'long identifier': (n) => 'A'.repeat(n),
    'numbers with exponents': (n) => '1.5E+3 2e 3E- .5 '.repeat(n / 17),
    'statements without terminator': (n) => 'INSERT INTO T VALUES (1, 2) '.repeat(n / 28),
  };
  for (const [shape, make] of Object.entries(SHAPES)) {
    it(`lexes and splits "${shape}" in time linear in its length`, () => {
      lexAndCheck(make(2000));
      const { ratio, smallMs, largeMs } = growthRatio(make, (text) => splitStatements(text, lex(text).tokens), 200_000);
      assert.ok(ratio < 24, `8× the input took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
    });
  }
});
