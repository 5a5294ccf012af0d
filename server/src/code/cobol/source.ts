// COBOL source as the compiler sees it, in a copy of the file of the same length (every offset stays the
// file's): in fixed format the sequence area (columns 1-6) and everything after column 72 are blanked, a
// `*` or `/` in the indicator column (7) makes the line a comment, `D` a debugging line (off unless WITH
// DEBUGGING MODE), `-` a continuation; in free format (`>>SOURCE FORMAT FREE`, or lines that use column 7
// for code) only `*>` comments go. Tabs count as one column.
import type { Comment } from '../../sql/ast';

export interface CobolSource {
  /** The text with comments, sequence numbers and indicators replaced by blanks (newlines kept). */
  clean: string;
  format: 'fixed' | 'free';
  /** Comment lines and `*>` comments (file offsets), for suppressions. */
  comments: Comment[];
}

const INDICATORS = new Set([' ', '*', '/', '-', 'D', 'd', '$']);

/** Fixed unless a directive says free or enough lines put code in the indicator column. */
export function sourceFormat(text: string): 'fixed' | 'free' {
  if (/>>\s*SOURCE\s+(?:FORMAT\s+(?:IS\s+)?)?FREE\b/i.test(text)) return 'free';
  let lines = 0;
  let codeInColumn7 = 0;
  for (const line of text.split(/\r?\n/, 2000)) {
    if (line.trim() === '') continue;
    lines++;
    if (line.length > 7 && !INDICATORS.has(line[6]) && !/^\s*\*>/.test(line)) codeInColumn7++;
  }
  return lines > 0 && codeInColumn7 > lines / 10 ? 'free' : 'fixed';
}

export function readCobolSource(text: string): CobolSource {
  const format = sourceFormat(text);
  const out: string[] = [];
  const comments: Comment[] = [];
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const lineEnd = end > start && text[end - 1] === '\r' ? end - 1 : end;
    const line = text.slice(start, lineEnd);
    out.push(format === 'fixed' ? fixedLine(line, start, comments) : freeLine(line, start, comments));
    out.push(text.slice(lineEnd, Math.min(end + 1, text.length)));
    if (end >= text.length) break;
    start = end + 1;
  }
  return { clean: out.join(''), format, comments };
}

function blank(s: string): string {
  // A line holds no newline; a stray CR inside one is kept.
  return s.includes('\r') ? s.replace(/[^\r\n]/g, ' ') : ' '.repeat(s.length);
}

function fixedLine(line: string, at: number, comments: Comment[]): string {
  if (line.length <= 6) return blank(line);
  const indicator = line[6];
  if (indicator === '*' || indicator === '/' || indicator === 'D' || indicator === 'd') {
    if (indicator !== 'D' && indicator !== 'd') comments.push({ span: { start: at + 7, end: at + Math.min(line.length, 72) }, text: line.slice(7, 72) });
    return blank(line);
  }
  let code = line.slice(7, 72);
  const inline = inlineComment(code);
  if (inline >= 0) {
    comments.push({ span: { start: at + 7 + inline, end: at + 7 + code.length }, text: code.slice(inline + 2) });
    code = code.slice(0, inline) + blank(code.slice(inline));
  }
  return '       ' + code + blank(line.slice(72));
}

function freeLine(line: string, at: number, comments: Comment[]): string {
  const inline = inlineComment(line);
  if (inline < 0) return /^\s*>>/.test(line) ? blank(line) : line;
  comments.push({ span: { start: at + inline, end: at + line.length }, text: line.slice(inline + 2) });
  return line.slice(0, inline) + blank(line.slice(inline));
}

/** Where a `*>` comment starts outside literals, or -1. */
function inlineComment(code: string): number {
  if (!code.includes('*>')) return -1;
  let quote = '';
  for (let i = 0; i < code.length - 1; i++) {
    const c = code[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '\'' || c === '"') quote = c;
    else if (c === '*' && code[i + 1] === '>') return i;
  }
  return -1;
}
