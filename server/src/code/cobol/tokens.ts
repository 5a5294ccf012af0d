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

export function tokenize(clean: string): CobolToken[] {
  const tokens: CobolToken[] = [];
  const n = clean.length;
  // Past this offset no END-EXEC closes a block: an unclosed EXEC is a word, and the rest is not searched again
  // (each unclosed EXEC searching to the end would make a damaged file quadratic).
  let unclosedFrom = n + 1;
  let i = 0;
  while (i < n) {
    const c = clean[i];
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t' || c === ',' || c === ';') {
      i++;
      continue;
    }
    if (c === '\'' || c === '"') {
      let j = i + 1;
      while (j < n && clean[j] !== '\n') {
        if (clean[j] === c) {
          if (clean[j + 1] === c) {
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
    if (c === '.' && (i + 1 >= n || /\s/.test(clean[i + 1]))) {
      tokens.push({ kind: 'period', text: '.', start: i, end: i + 1 });
      i++;
      continue;
    }
    if (WORD.test(c)) {
      let j = i + 1;
      // Digits with a decimal point (1.5) stay one token; a period before a blank ends the sentence.
      while (j < n && (WORD.test(clean[j]) || (clean[j] === '.' && /[0-9]/.test(clean[j - 1]) && /[0-9]/.test(clean[j + 1] ?? '')))) j++;
      // X'..', N'..', G'..': a literal with a prefix
      if (j === i + 1 && /[XNGZ]/i.test(c) && (clean[j] === '\'' || clean[j] === '"')) {
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
    tokens.push({ kind: 'other', text: c, start: i, end: i + 1 });
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
