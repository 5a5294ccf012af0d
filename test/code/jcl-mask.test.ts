// maskOutside (jcl/jcl.ts) blanks a job outside its in-stream data and cuts data lines at column 72; it
// copies the text in runs, and must give what blanking every character and copying the kept ones gives.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { maskOutside } from '../../server/src/code/jcl/jcl';
import type { Span } from '../../server/src/sql/ast';

function byCharacter(text: string, spans: readonly Span[]): string {
  const out = text.replace(/[^\r\n]/g, ' ').split('');
  for (const span of spans) {
    let column = 0;
    for (let i = span.start; i < span.end; i++) {
      const c = text[i];
      if (c === '\n') column = 0;
      else if (column++ < 72) out[i] = c;
    }
  }
  return out.join('');
}

describe('JCL masking', () => {
  it('keeps what a per-character copy keeps, for any spans', () => {
    const line = fc.string({ maxLength: 90 }).map((s) => s.replace(/\n/g, ''));
    const text = fc.array(fc.tuple(line, fc.constantFrom('\n', '\r\n')), { maxLength: 8 }).map((ls) => ls.map(([l, nl]) => l + nl).join(''));
    fc.assert(
      fc.property(text, fc.array(fc.tuple(fc.nat(400), fc.nat(400)), { maxLength: 4 }), (t, pairs) => {
        const spans = pairs.map(([a, b]) => ({ start: Math.min(a, b, t.length), end: Math.min(Math.max(a, b), t.length) }));
        assert.equal(maskOutside(t, spans), byCharacter(t, spans));
      }),
      { numRuns: 2000 },
    );
  });

  it('cuts in-stream lines at column 72 and blanks the rest', () => {
    const data = 'INSERT INTO T VALUES (1);' + ' '.repeat(47) + '00010000';
    const text = `//S1 EXEC PGM=IKJEFT01\n${data}\n//`;
    const start = text.indexOf('INSERT');
    const masked = maskOutside(text, [{ start, end: start + data.length }]);
    assert.equal(masked, `${' '.repeat(22)}\n${data.slice(0, 72)}${' '.repeat(8)}\n  `);
  });
});
