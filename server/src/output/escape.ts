// Text from the user's files (names, SQL, plan objects, driver messages) ends up in output that other
// programs read: terminals, CI runners, Markdown renderers, SARIF viewers. Each gets its own escaping here,
// so a file name cannot move the cursor, start a workflow command or add a link.

/** C0 and C1 controls, DEL, line/paragraph separators and the bidirectional overrides ("Trojan Source"). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

function visible(ch: string): string {
  const code = ch.charCodeAt(0);
  return NAMED[ch] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
}

/**
 * One line of human output: control characters shown as escapes (\n, \e, \x07…), so the text stays on its
 * line and sends the terminal nothing; `##[` (the runner's older command syntax, matched anywhere in a
 * line) is broken up so that a CI log never takes it for a workflow command.
 */
export function plainLine(text: string): string {
  return text.replace(CONTROL, visible).replace(/##\[/g, '##\\[');
}

/** A path at the start of an output line: plainLine, and never starting with `::` (a workflow command). */
export function linePath(path: string): string {
  const safe = plainLine(path);
  return /^[\s:]/.test(safe) ? `./${safe}` : safe;
}

/** Control characters as escapes, whitespace runs as one space: for text inside Markdown. */
export function markdownText(text: string): string {
  return text.replace(/\s+/g, ' ').replace(CONTROL, visible);
}

/**
 * SARIF plain-text messages read `[text](target)` as an embedded link; literal brackets are escaped with a
 * backslash (SARIF 2.1.0, 3.11.6), so a name in a message cannot link anywhere.
 */
export function sarifText(text: string): string {
  return text.replace(/\\(?=[[\]])/g, '\\\\').replace(/[[\]]/g, '\\$&');
}
