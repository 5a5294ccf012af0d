// Human output: `file:line:col severity rule message` with a code frame, then a summary line.
import type { Diagnostic } from '../engine/types';
import type { LineIndex } from '../engine/lines';
import { linePath, plainLine } from './escape';

export interface PositionedDiagnostic extends Diagnostic {
  /** Path as displayed. */
  displayPath: string;
  /** 1-based. */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export function positioned(d: Diagnostic, displayPath: string, lines: LineIndex): PositionedDiagnostic {
  const start = lines.position(d.span.start);
  const end = lines.position(d.span.end);
  return { ...d, displayPath, line: start.line + 1, column: start.column + 1, endLine: end.line + 1, endColumn: end.column + 1 };
}

const FRAME_WIDTH = 160;

export function codeFrame(text: string, lines: LineIndex, d: PositionedDiagnostic): string {
  const lineStart = lines.lineStart(d.line - 1);
  // The line ends at LF, CRLF or a lone CR (old Mac files): the LineIndex counts all three.
  let lineEnd = lineStart;
  while (lineEnd < text.length && text.charCodeAt(lineEnd) !== 10 && text.charCodeAt(lineEnd) !== 13) lineEnd++;
  let source = text.slice(lineStart, lineEnd);
  let caretFrom = d.column - 1;
  let caretTo = d.endLine === d.line ? Math.max(d.endColumn - 1, caretFrom + 1) : source.length;
  // Long lines (generated scripts) are shown around the finding, not whole.
  if (source.length > FRAME_WIDTH) {
    const from = Math.max(0, caretFrom - 40);
    source = (from > 0 ? '…' : '') + source.slice(from, from + FRAME_WIDTH) + (from + FRAME_WIDTH < source.length ? '…' : '');
    const shift = from > 0 ? from - 1 : 0;
    caretFrom -= shift;
    caretTo = Math.min(caretTo - shift, source.length);
  }
  source = source.replace(/\t/g, ' ');
  // Control characters in the line are shown as escapes; the caret moves with the text before it.
  const shown = plainLine(source);
  if (shown !== source) {
    caretTo = plainLine(source.slice(0, caretTo)).length;
    caretFrom = plainLine(source.slice(0, caretFrom)).length;
    source = shown;
  }
  const gutter = String(d.line);
  const pad = ' '.repeat(gutter.length);
  return `  ${gutter} | ${source}\n  ${pad} | ${' '.repeat(Math.max(0, caretFrom))}${'^'.repeat(Math.max(1, caretTo - caretFrom))}`;
}

export function formatText(items: { d: PositionedDiagnostic; text: string; lines: LineIndex }[]): string {
  return items.map(({ d, text, lines }) => `${linePath(d.displayPath)}:${d.line}:${d.column} ${d.severity} ${d.rule} ${plainLine(d.message)}\n${codeFrame(text, lines, d)}\n`).join('\n');
}
