// Robustness of the COBOL and JCL readers (no grammar, hand-written): on damaged and random input they never
// throw, every statement and comment maps inside the file, and time grows linearly (an unclosed EXEC, deep
// PERFORM chains, a long in-stream SYSIN).
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { readCobol } from '../../server/src/code/languages/cobol';
import { readJclFile } from '../../server/src/code/languages/jcl';
import type { FrontEndResult } from '../../server/src/engine/types';
import { anyText, growthRatio, mutated, repoRoot } from './support';

const DIR = join(repoRoot(), 'test', 'fixtures', 'code', 'zos-batch');
const PIECES = ['EXEC SQL ', 'END-EXEC', '.', "'", '"', 'PERFORM ', ' UNTIL ', 'END-PERFORM', 'COPY X.', '\n      *', '\n//SYSIN DD *\n', '/*\n', 'GO TO ', 'IF ', 'END-IF', 'FOR :N ROWS'];

function inside(text: string, read: FrontEndResult): void {
  for (const stmt of read.statements) {
    const start = stmt.origin.toFile(stmt.span.start);
    const end = stmt.origin.toFile(stmt.span.end);
    assert.ok(Number.isInteger(start) && start >= 0 && end >= start && end <= text.length, `statement ${stmt.kind} maps to ${start}..${end} in ${text.length}`);
  }
  for (const c of read.comments) assert.ok(c.span.start >= 0 && c.span.end <= text.length);
  for (const e of read.code?.executions ?? []) assert.ok(e.callSpan.start >= 0 && e.callSpan.end <= text.length);
}

describe('robustness: COBOL and JCL readers', function () {
  this.timeout(60_000);
  const readers: [string, (text: string) => FrontEndResult][] = [
    ['DIVPOST.cbl', (text) => readCobol({ path: 'P.cbl', text, language: 'cobol' }, () => ({ path: 'M.cpy', text, language: 'cobol' }))],
    ['DIVLOAD.jcl', (text) => readJclFile(text)],
  ];
  for (const [name, read] of readers) {
    const seed = readFileSync(join(DIR, name), 'utf8');
    it(`never throws on damaged copies of ${name} or random text; spans stay inside the file`, () => {
      const damaged = fc.oneof(mutated(seed), fc.tuple(fc.nat(seed.length), fc.constantFrom(...PIECES)).map(([at, piece]) => seed.slice(0, at) + piece + seed.slice(at)), anyText);
      fc.assert(fc.property(damaged, (text) => inside(text, read(text))), { numRuns: 150 });
    });
  }

  it('reads in linear time: unclosed EXECs, long PERFORM chains, long SYSIN streams', () => {
    const cases: [string, (n: number) => string, (text: string) => unknown][] = [
      ['unclosed EXEC SQL', (n) => '       PROCEDURE DIVISION.\n' + '           EXEC SQL INSERT INTO T VALUES (1)\n'.repeat(n), (t) => readCobol({ path: 'P.cbl', text: t, language: 'cobol' })],
      ['PERFORM chains', (n) => '       PROCEDURE DIVISION.\n' + Array.from({ length: n }, (_, i) => `       P${i}.\n           PERFORM P${i + 1} UNTIL X = 1\n           EXEC SQL INSERT INTO T VALUES (:A) END-EXEC.\n`).join(''), (t) => readCobol({ path: 'P.cbl', text: t, language: 'cobol' })],
      ['dynamic SQL', (n) => '       PROCEDURE DIVISION.\n' + "           MOVE 'INSERT INTO T VALUES (?)' TO WS-SQL\n           EXEC SQL PREPARE S FROM :WS-SQL END-EXEC\n".repeat(n), (t) => readCobol({ path: 'P.cbl', text: t, language: 'cobol' })],
      ['SYSIN stream', (n) => '//S EXEC PGM=IKJEFT01\n//SYSTSIN DD *\n RUN PROGRAM(DSNTEP2)\n/*\n//SYSIN DD *\n' + ' INSERT INTO T VALUES (1);\n'.repeat(n) + '/*\n', (t) => readJclFile(t)],
    ];
    for (const [what, make, run] of cases) {
      const { ratio, smallMs, largeMs } = growthRatio(make, run, 300);
      assert.ok(ratio < 24, `${what}: 8× the input took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms)`);
    }
  });
});
