// JSON the user writes (.insertlintrc.json, a baseline): parsed by JSON.parse, and when that fails, the error
// said at a line and column with what is wrong there. V8 gives an offset ("at position 38"), and for an
// unexpected character (a comment, a single quote) not even that; its wording also changes between Node
// versions. So the text is scanned again, only after JSON.parse has failed, to find the first error.
import { LineIndex } from './lines';

export class JsonSyntaxError extends Error {
  constructor(
    /** "at line 4, column 5: expected ',' or '}' after a property value, not '"'", to follow "not valid JSON". */
    message: string,
    /** 1-based; undefined when the scan did not place the error (JSON.parse's message is kept then). */
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
  }
}

/** JSON.parse, after a byte-order mark (Windows editors write one); throws JsonSyntaxError. */
export function parseJsonText(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch (error) {
    const found = firstJsonError(body);
    if (!found) throw new JsonSyntaxError(`(${(error as Error).message})`);
    const lines = new LineIndex(body);
    const at = lines.position(found.offset);
    let why = found.why;
    // A comma missing at the end of a line is found at the start of the next value: say which line lacks it.
    if (found.after !== undefined) {
      const prev = lines.position(found.after).line;
      if (prev < at.line) why += ` (is a comma missing at the end of line ${prev + 1}?)`;
    }
    // The column counts characters from 1 (a tab is one), as editors' "Go to line:column" does.
    throw new JsonSyntaxError(`at line ${at.line + 1}, column ${at.column + 1}: ${why}`, at.line + 1, at.column + 1);
  }
}

interface JsonError {
  offset: number;
  why: string;
  /** Where the value before the error ended (for the missing-comma hint). */
  after?: number;
}

/** What `c` is, for messages: 'x', or a name for what does not print. */
function shown(c: string): string {
  if (c === '\n' || c === '\r') return 'a line break';
  if (c === '\t') return 'a tab';
  const code = c.charCodeAt(0);
  if (code < 0x20 || code === 0x7f) return `the control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return `'${c}'`;
}

/** Why `c` cannot start a value (or a property name, `name`). */
function unexpected(c: string, name: boolean): string {
  if (c === '/') return 'comments are not allowed in JSON';
  if (c === "'") return `${name ? 'property names' : 'strings'} take double quotes in JSON, not single quotes`;
  if (name && /[A-Za-z_$]/.test(c)) return 'property names take double quotes in JSON';
  return `unexpected ${shown(c)} where ${name ? "a property name in double quotes or '}'" : 'a value'} should be`;
}

/**
 * The first syntax error of `text` by RFC 8259, or undefined if it is valid JSON. Iterative: a deeply nested
 * text cannot overflow the stack.
 */
export function firstJsonError(text: string): JsonError | undefined {
  const n = text.length;
  let i = 0;
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
      else break;
    }
  };
  const end = (what: string): JsonError => ({ offset: n, why: `the text ends ${what}` });
  /** A string at i (text[i] is '"'); undefined when it is valid, i then after it. */
  const string = (): JsonError | undefined => {
    const start = i++;
    while (i < n) {
      const c = text[i];
      if (c === '"') {
        i++;
        return undefined;
      }
      if (c === '\\') {
        const e = text[i + 1];
        if (e === undefined) break;
        if (e === 'u') {
          if (!/^[0-9A-Fa-f]{4}$/.test(text.slice(i + 2, i + 6))) return { offset: i, why: '\\u takes four hexadecimal digits' };
          i += 6;
        } else if ('"\\/bfnrt'.includes(e)) i += 2;
        else return { offset: i, why: `\\${e} is not a JSON escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)` };
        continue;
      }
      if (text.charCodeAt(i) < 0x20) return { offset: i, why: `${shown(c)} inside a string (a string that is not closed, or write it as an escape such as \\n)` };
      i++;
    }
    return { offset: start, why: 'this string is not closed' };
  };
  const number = (): JsonError | undefined => {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) return { offset: i, why: 'not a JSON number' };
    i += m[0].length;
    if (i < n && /[\d.eE+\-A-Za-z]/.test(text[i])) return { offset: i - m[0].length, why: `not a JSON number (${text.slice(i - m[0].length, i + 1)}…)` };
    return undefined;
  };
  /** A value at i; containers push onto the stack and return. */
  const stack: ('{' | '[')[] = [];
  // What the scanner expects next.
  let state: 'value' | 'name' | 'firstName' | 'firstValue' | 'after' = 'value';
  let valueEnd: number | undefined;
  for (;;) {
    ws();
    if (state === 'after') {
      const top = stack[stack.length - 1];
      if (!top) {
        if (i < n) return { offset: i, why: `unexpected ${shown(text[i])} after the JSON value (one value per file)` };
        return undefined;
      }
      const close = top === '{' ? '}' : ']';
      if (i >= n) return end(`before its last ${top === '{' ? 'object' : 'array'} is closed with '${close}'`);
      const c = text[i];
      if (c === close) {
        stack.pop();
        i++;
        valueEnd = i;
        continue;
      }
      if (c === ',') {
        const comma = i++;
        ws();
        if (text[i] === close) return { offset: comma, why: `a comma before '${close}' (JSON allows no trailing comma)` };
        state = top === '{' ? 'name' : 'value';
        continue;
      }
      if (c === '/') return { offset: i, why: 'comments are not allowed in JSON' };
      return { offset: i, why: `expected ',' or '${close}' after ${top === '{' ? 'a property value' : 'an array element'}, not ${shown(c)}`, after: valueEnd };
    }
    if (i >= n) return end(stack.length ? 'where a value should be' : 'before any JSON value');
    const c = text[i];
    if (state === 'name' || state === 'firstName') {
      if (state === 'firstName' && c === '}') {
        stack.pop();
        i++;
        valueEnd = i;
        state = 'after';
        continue;
      }
      if (c !== '"') return { offset: i, why: unexpected(c, true) };
      const bad = string();
      if (bad) return bad;
      ws();
      if (i >= n) return end("where ':' should be");
      if (text[i] !== ':') return { offset: i, why: `expected ':' after the property name, not ${shown(text[i])}` };
      i++;
      state = 'value';
      continue;
    }
    if (state === 'firstValue' && c === ']') {
      stack.pop();
      i++;
      valueEnd = i;
      state = 'after';
      continue;
    }
    if (c === '{' || c === '[') {
      stack.push(c);
      i++;
      state = c === '{' ? 'firstName' : 'firstValue';
      continue;
    }
    let bad: JsonError | undefined;
    if (c === '"') bad = string();
    else if (c === '-' || (c >= '0' && c <= '9')) bad = number();
    else {
      const word = /^(true|false|null)(?![A-Za-z0-9_$])/.exec(text.slice(i, i + 6));
      if (word) i += word[1].length;
      else bad = { offset: i, why: /[A-Za-z]/.test(c) ? `unexpected word '${/^[A-Za-z_$][\w$]*/.exec(text.slice(i, i + 40))![0]}' where a value should be (true, false, null, a number, a string in double quotes, an object or an array)` : unexpected(c, false) };
    }
    if (bad) return bad;
    valueEnd = i;
    state = 'after';
  }
}
