// COBOL tokens over the cleaned source (source.ts): words (upper case; COBOL words hold hyphens), literals,
// the period that ends a sentence, and whole `EXEC … END-EXEC` blocks, each with its offsets.
export interface CobolToken {
  kind: 'word' | 'literal' | 'period' | 'exec' | 'other';
  /** Upper-case text of a word; the raw text otherwise. */
  text: string;
  start: number;
  end: number;
  /** For 'exec': the sub-language (SQL, CICS, DLI …) and the offsets of the text between it and END-EXEC. */
  exec?: { language: string; body: { start: number; end: number } };
}

const WORD = /[A-Za-z0-9\-_$#@]/;

/** A character of a COBOL word (letters, digits, - _ $ # @), by its code: the scan runs over every character. */
function isWordCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45 || c === 95 || c === 36 || c === 35 || c === 64;
}

const isDigitCode = (c: number) => c >= 48 && c <= 57;

/** White space as `\s` has it (ASCII by code, the rest by the expression). */
function isSpaceAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return /\s/.test(text[i]);
}

export function tokenize(clean: string): CobolToken[] {
  const tokens: CobolToken[] = [];
  const n = clean.length;
  // Past this offset no END-EXEC closes a block: an unclosed EXEC is a word, and the rest is not searched again
  // (each unclosed EXEC searching to the end would make a damaged file quadratic).
  let unclosedFrom = n + 1;
  let i = 0;
  while (i < n) {
    const c = clean.charCodeAt(i);
    // blank, newline, CR, tab, comma, semicolon
    if (c === 32 || c === 10 || c === 13 || c === 9 || c === 44 || c === 59) {
      i++;
      continue;
    }
    if (c === 39 || c === 34) {
      let j = i + 1;
      while (j < n) {
        const d = clean.charCodeAt(j);
        if (d === 10) break;
        if (d === c) {
          if (clean.charCodeAt(j + 1) === c) {
            j += 2;
            continue;
          }
          j++;
          break;
        }
        j++;
      }
      tokens.push({ kind: 'literal', text: clean.slice(i, j), start: i, end: j });
      i = j;
      continue;
    }
    if (c === 46 && (i + 1 >= n || isSpaceAt(clean, i + 1))) {
      tokens.push({ kind: 'period', text: '.', start: i, end: i + 1 });
      i++;
      continue;
    }
    if (isWordCode(c)) {
      let j = i + 1;
      // Digits with a decimal point (1.5) stay one token; a period before a blank ends the sentence.
      for (; j < n; j++) {
        const d = clean.charCodeAt(j);
        if (isWordCode(d)) continue;
        if (d === 46 && isDigitCode(clean.charCodeAt(j - 1)) && isDigitCode(clean.charCodeAt(j + 1))) continue;
        break;
      }
      // X'..', N'..', G'..': a literal with a prefix
      if (j === i + 1 && /[XNGZ]/i.test(clean[i]) && (clean.charCodeAt(j) === 39 || clean.charCodeAt(j) === 34)) {
        i = j;
        continue;
      }
      const text = clean.slice(i, j).toUpperCase();
      if ((text === 'EXEC' || text === 'EXECUTE') && j < unclosedFrom) {
        const block = execBlock(clean, j);
        if (!block) unclosedFrom = j;
        if (block) {
          tokens.push({ kind: 'exec', text: clean.slice(i, block.end), start: i, end: block.end, exec: { language: block.language, body: block.body } });
          i = block.end;
          continue;
        }
      }
      tokens.push({ kind: 'word', text, start: i, end: j });
      i = j;
      continue;
    }
    tokens.push({ kind: 'other', text: clean[i], start: i, end: i + 1 });
    i++;
  }
  return tokens;
}

/** `EXEC SQL … END-EXEC` from after EXEC: the language, the body, the end (after END-EXEC). */
function execBlock(clean: string, from: number): { language: string; body: { start: number; end: number }; end: number } | undefined {
  const m = /^\s+([A-Za-z][A-Za-z0-9]*)\b/.exec(clean.slice(from, from + 40));
  if (!m) return undefined;
  const bodyStart = from + m[0].length;
  // END-EXEC outside SQL strings
  const n = clean.length;
  for (let j = bodyStart; j < n; j++) {
    const c = clean[j];
    if (c === '\'' || c === '"') {
      const close = clean.indexOf(c, j + 1);
      const line = clean.indexOf('\n', j + 1);
      if (close < 0) break;
      // An unclosed quote on its line (continued literal): go on from the line's end.
      j = line >= 0 && line < close ? line : close;
      continue;
    }
    if ((c === 'E' || c === 'e') && /^END-EXEC\b/i.test(clean.slice(j, j + 9)) && !WORD.test(clean[j - 1] ?? ' ')) {
      return { language: m[1].toUpperCase(), body: { start: bodyStart, end: j }, end: j + 8 };
    }
  }
  return undefined;
}
