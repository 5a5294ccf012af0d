// The edits behind "Disable <rule> for this line / for this file": a suppression comment in the
// file's own comment syntax (issue 2's directives), or the rule added to a directive already there.
import type { FileLanguage, FileModel, TextEdit } from '../engine/types';
import type { LineIndex } from '../engine/lines';

interface CommentSyntax {
  open: string;
  close: string;
}

export function commentSyntax(language: FileLanguage): CommentSyntax {
  switch (language) {
    case 'sql':
      return { open: '--', close: '' };
    case 'python':
    case 'shell':
      return { open: '#', close: '' };
    case 'jcl':
      // Findings sit on the SQL of SYSIN streams and control cards, where SQL comments are read.
      return { open: '--', close: '' };
    case 'cobol':
      // A floating comment indicator, fixed or free format (Enterprise COBOL 6).
      return { open: '*>', close: '' };
    case 'embedded-sql':
      // Precompiled C: a block comment is safe both in C and inside EXEC SQL blocks.
      return { open: '/*', close: ' */' };
    default:
      return { open: '//', close: '' };
  }
}

const DIRECTIVE_RULES = /insertlint-disable-(next-line|file)([^:\r\n*]*)/;

/** Where to add `, rule-b, rule-c` (the rules it lacks) to an existing directive comment without a reason, or undefined. */
function extendDirective(text: string, commentStart: number, commentEnd: number, kind: 'next-line' | 'file', rules: readonly string[]): TextEdit | undefined {
  const slice = text.slice(commentStart, commentEnd);
  const m = DIRECTIVE_RULES.exec(slice);
  if (!m || m[1] !== kind) return undefined;
  const listed = m[2].split(',').map((r) => r.trim()).filter(Boolean);
  const missing = rules.filter((r) => !listed.includes(r));
  if (listed.length === 0 || missing.length === 0) return undefined;
  if (slice.slice(m.index + m[0].length).startsWith(':')) return undefined; // it has a reason: keep it about its rules
  const at = commentStart + m.index + m[0].trimEnd().length;
  return { span: { start: at, end: at }, newText: `, ${missing.join(', ')}` };
}

function eol(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/**
 * Edit that suppresses `rules` on the 0-based line `line`: one rule, or every rule of a merged finding in one
 * directive (`-- insertlint-disable-next-line no-autocommit, single-row-insert`).
 */
export function disableForLineEdit(model: FileModel, lines: LineIndex, rules: string | readonly string[], line: number): TextEdit {
  const ids = typeof rules === 'string' ? [rules] : rules;
  const text = model.source.text;
  const lineStart = lines.lineStart(line);
  // A directive on the line above: extend it rather than stacking a second one.
  for (const c of model.comments) {
    if (lines.position(c.span.end).line === line - 1 && c.text.includes('insertlint-disable-next-line')) {
      const edit = extendDirective(text, c.span.start, c.span.end, 'next-line', ids);
      if (edit) return edit;
    }
  }
  const indent = /^[ \t]*/.exec(text.slice(lineStart, lineStart + 200))![0];
  const { open, close } = commentSyntax(model.source.language);
  return { span: { start: lineStart, end: lineStart }, newText: `${indent}${open} insertlint-disable-next-line ${ids.join(', ')}${close}${eol(text)}` };
}

/** Edit that suppresses `rules` (one, or those of a merged finding) in the whole file. */
export function disableForFileEdit(model: FileModel, lines: LineIndex, rules: string | readonly string[]): TextEdit {
  const ids = typeof rules === 'string' ? [rules] : rules;
  const text = model.source.text;
  for (const c of model.comments) {
    if (c.text.includes('insertlint-disable-file')) {
      const edit = extendDirective(text, c.span.start, c.span.end, 'file', ids);
      if (edit) return edit;
    }
  }
  // Keep a shebang or a Python coding line first.
  let line = 0;
  while (line < 2 && line < lines.lineCount - 1) {
    const start = lines.lineStart(line);
    const first = text.slice(start, lines.lineStart(line + 1));
    if (first.startsWith('#!') || /^#.*coding[:=]/.test(first)) line++;
    else break;
  }
  const at = line < lines.lineCount ? lines.lineStart(line) : text.length;
  const { open, close } = commentSyntax(model.source.language);
  return { span: { start: at, end: at }, newText: `${open} insertlint-disable-file ${ids.join(', ')}${close}${eol(text)}` };
}
