// Human output: `file:line:col severity rule message` with a code frame, then a summary line.
import type { Diagnostic } from '../engine/types';
import type { LineIndex } from '../engine/lines';
import { linePath, plainLine } from './escape';

interface Position1 {
  /** Path as displayed. */
  displayPath: string;
  /** 1-based. */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface PositionedDiagnostic extends Diagnostic, Position1 {
  /** `related` with positions (the DDL line of a schema file a finding comes from). */
  relatedPositions?: (Position1 & { message: string })[];
  /** The 1-based lines of `extent` (a run's first to last statement): where a change touches the finding. */
  extentLines?: { line: number; endLine: number };
}

/** How outputs find the display path and lines of another file a finding refers to. */
export type FileLocator = (file: string) => { displayPath: string; lines: LineIndex } | undefined;

function position1(span: Diagnostic['span'], displayPath: string, lines: LineIndex): Position1 {
  // Lines and columns without an object per position (every finding of a run passes here).
  const line = lines.line(span.start);
  const endLine = lines.line(span.end);
  return { displayPath, line: line + 1, column: span.start - lines.lineStart(line) + 1, endLine: endLine + 1, endColumn: span.end - lines.lineStart(endLine) + 1 };
}

export function positioned(d: Diagnostic, displayPath: string, lines: LineIndex, locate?: FileLocator): PositionedDiagnostic {
  const out: PositionedDiagnostic = { ...d, ...position1(d.span, displayPath, lines) };
  if (d.extent) out.extentLines = { line: lines.line(d.extent.start) + 1, endLine: lines.line(d.extent.end) + 1 };
  if (d.related && locate) {
    out.relatedPositions = d.related.flatMap((r) => {
      const where = locate(r.file);
      return where ? [{ ...position1(r.span, where.displayPath, where.lines), message: r.message }] : [];
    });
  }
  return out;
}

/** `path:line:col` of a position, for messages. */
export function positionText(p: Position1): string {
  return `${linePath(p.displayPath)}:${p.line}:${p.column}`;
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
  // A file's path escaped once, not for each of its findings (a script can have thousands).
  const paths = new Map<string, string>();
  const at = (p: Position1) => {
    let path = paths.get(p.displayPath);
    if (path === undefined) paths.set(p.displayPath, (path = linePath(p.displayPath)));
    return `${path}:${p.line}:${p.column}`;
  };
  return items
    .map(({ d, text, lines }) => {
      const related = (d.relatedPositions ?? []).map((r) => `  → ${at(r)}: ${plainLine(r.message)}\n`).join('');
      return `${at(d)} ${d.severity} ${d.rule} ${plainLine(d.message)}\n${codeFrame(text, lines, d)}\n${related}`;
    })
    .join('\n');
}
