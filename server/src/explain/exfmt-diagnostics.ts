// db2exfmt's "Extended Diagnostic Information": a `Diagnostic Identifier: n` line, then `Diagnostic Details:` and
// a message (EXP0147W …) that db2exfmt itself breaks over lines at its blanks, its lines joined with one. A wrapped
// paste may have cut a message inside a word, or cut a heading in two: a heading is put back (its words are known),
// a message that may have been cut inside a word is not used, with a warning that names the line.
import type { ExplainMessage, ExplainStatement } from './model';
import { ambiguousBreak, breakWhy, type PasteCuts } from './exfmt-wrap';

const DETAILS = /^\s*Diagnostic Details:\s*(.*)$/;
const HEADING = /^\s*Diagnostic (Identifier|Details):/;
const HEADINGS = ['Diagnostic Identifier:', 'Diagnostic Details:'];

/** Each message of lines [start, end) into stmt.diagnostics; those a wrap may have cut, in stmt.warnings. */
export function readDiagnostics(stmt: ExplainStatement, lines: readonly string[], start: number, end: number, cuts: PasteCuts): void {
  for (let i = start; i < end; i++) {
    let m = DETAILS.exec(lines[i]);
    let first = i;
    if (!m && isHeadingPiece(lines[i])) {
      // A heading cut in two: its pieces end to end, or a blank between them (a wrap at the blank).
      const joined = i + 1 < end ? headingJoined(lines[i], lines[i + 1]) : undefined;
      if (joined !== undefined) {
        first = i + 1;
        m = DETAILS.exec(joined);
      } else if ('Diagnostic Details:'.startsWith(lines[i].trim())) {
        const last = messageEnd(lines, i + 1, end);
        refuse(stmt.warnings, i, `"${lines[i].trim()}" is a "Diagnostic Details:" heading cut where the paste was wrapped`);
        i = last - 1;
        continue;
      }
    }
    if (!m) continue;
    const last = messageEnd(lines, first + 1, end);
    let text = m[1].trim();
    let why: string | undefined;
    for (let j = first + 1; j < last && !why; j++) {
      if (ambiguousBreak(lines, j - 1, j, cuts)) why = `${breakWhy(j - 1, j, cuts)} and may have been cut inside a word`;
      else text += ' ' + lines[j].trim();
    }
    if (why) refuse(stmt.warnings, i, why);
    else stmt.diagnostics.push(text);
    i = last - 1;
  }
}

/** The line after the message's last: the next blank line, heading, or piece of a heading. */
function messageEnd(lines: readonly string[], from: number, end: number): number {
  let j = from;
  while (j < end && lines[j].trim() !== '' && !HEADING.test(lines[j]) && !isHeadingPiece(lines[j])) j++;
  return j;
}

/** The start of a heading a wrap cut off its line ("Diagnostic", "Diagnostic Deta"): no message line reads so. */
function isHeadingPiece(line: string): boolean {
  const t = line.trim();
  return t.length >= 4 && HEADINGS.some((h) => h.startsWith(t) && h !== t);
}

/** The heading line that a piece and the next line make, or undefined when neither way of joining them gives one. */
function headingJoined(piece: string, next: string): string | undefined {
  const a = piece.trim();
  const b = next.trim();
  return [a + b, `${a} ${b}`].find((j) => HEADING.test(j));
}

function refuse(warnings: ExplainMessage[], i: number, why: string): void {
  warnings.push({ code: 'wrapped-value', message: `Extended Diagnostic Information line ${i + 1}: a diagnostic message is not used: ${why}.`, line: i + 1 });
}
