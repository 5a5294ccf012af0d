// A quick scan of a shell script for reading it in time linear in its size however broken (languages/shell-read.ts).
// tree-sitter-bash recovers from an error at a cost that grows with the errors before it: broken lines in a row
// (SQL read as commands because a quote was lost: `NAME VARCHAR(30),`, `PRIMARY KEY (ID)`) took seconds, quadratic
// in the lines. The scan finds (1) the lines holding what a shell script does not hold, of the kinds tree-sitter is
// slow on, to be read apart, and (2) where the script can be cut into top-level commands that parse on their own:
// after a line end outside quotes, `$( )`, `${ }`, here-document bodies, `( )` and `{ }` groups and compound
// commands (if…fi, case…esac, for/while/until/select…done), unless the line goes on (`\`, `|`, `&&`, `||`, `f()`).
// A light scan, not a parser: a wrong guess makes a piece or a line that is broken on its own, never a wrong offset.

/** A piece of the text: [start, end). */
export interface Chunk {
  start: number;
  end: number;
}

export interface ShellScan {
  /** The top-level commands, in order, covering the text end to end. */
  pieces: Chunk[];
  /**
   * The lines (cut after each line end outside quotes and here-document bodies, whatever is open) that hold a `(`
   * after a word (no shell syntax puts one there), a `)`, `fi`, `done`, `esac` or `}` with nothing to close, the
   * opening of a group or compound command never closed, or a quote, expansion or here-document still open at the end.
   */
  suspectLines: Chunk[];
}

export function scanShell(text: string): ShellScan {
  return new ShellScanner(text).scan();
}

/** Reserved words that leave the next word in command position. */
const LEADS_COMMAND = new Set(['then', 'else', 'elif', 'do', '!', 'time', 'while', 'until', 'if', '{']);

/** Characters before `(` that make it no misplaced `(`: an array (`a=(`), process substitution, an extglob pattern. */
const BEFORE_PAREN = new Set(['=', '<', '>', '@', '!', '+', '*', '?']);

class ShellScanner {
  /** What closes the groups and compound commands open at this point, innermost last, with the line that opened each. */
  private readonly open: { closer: string; line: number }[] = [];
  /** The current line holds something suspect (ShellScan.suspectLines). */
  private suspect = false;
  /** Here-documents whose bodies start after the current line: their delimiters, and whether tabs are stripped. */
  private pending: { delimiter: string; tabs: boolean }[] = [];
  private readonly end: number;

  constructor(private readonly text: string) {
    this.end = text.length;
  }

  scan(): ShellScan {
    const { text, end, open } = this;
    const pieces: Chunk[] = [];
    // Every line's start and end (a line: up to a line end outside quotes and here-document bodies), and the suspect ones.
    const lineStarts: number[] = [];
    const lineEnds: number[] = [];
    const suspect = new Set<number>();
    let pieceStart = 0;
    let lineStart = 0;
    let i = 0;
    // At a place where a command word starts (keywords count only there), and whether the line goes on.
    let commandStart = true;
    let goesOn = false;
    // After `function`: the next word is the function's name, and its body follows (on this line or the next).
    let functionName = false;
    // The last plain word (`for` before `((`).
    let previousWord = '';
    // Inside `[[ … ]]`, where `(` groups and regular expressions hold parentheses of their own.
    let test = false;
    const endLine = (at: number) => {
      if (this.suspect) suspect.add(lineStarts.length);
      lineStarts.push(lineStart);
      lineEnds.push(at);
      lineStart = at;
      this.suspect = false;
    };
    const opens = (closer: string) => open.push({ closer, line: lineStarts.length });
    while (i < end) {
      const c = text.charCodeAt(i);
      switch (c) {
        case 0x20: // space
        case 0x09: // tab
        case 0x0d: // CR
          i++;
          continue;
        case 0x0a: // LF
          i++;
          if (this.pending.length > 0) i = this.skipHereDocuments(i);
          if (goesOn) continue;
          endLine(i);
          if (open.length === 0) {
            pieces.push({ start: pieceStart, end: i });
            pieceStart = i;
          }
          commandStart = true;
          goesOn = false;
          continue;
        case 0x5c: // \ at a line's end: the line goes on
          if (text.charCodeAt(i + 1) === 0x0a || (text.charCodeAt(i + 1) === 0x0d && text.charCodeAt(i + 2) === 0x0a)) {
            i += text.charCodeAt(i + 1) === 0x0a ? 2 : 3;
            continue;
          }
          break;
        case 0x23: // # at a word's start: a comment to the line's end
          i = this.lineEnd(i);
          continue;
        case 0x3b: // ; ;; ;& ;;&
          i++;
          while (i < end && (text.charCodeAt(i) === 0x3b || text.charCodeAt(i) === 0x26)) i++;
          commandStart = true;
          goesOn = false;
          continue;
        case 0x26: // & && &>
          if (text.charCodeAt(i + 1) === 0x3e) {
            i++;
            continue;
          }
          goesOn = text.charCodeAt(i + 1) === 0x26;
          i += goesOn ? 2 : 1;
          commandStart = true;
          continue;
        case 0x7c: // | || |&
          i += text.charCodeAt(i + 1) === 0x7c || text.charCodeAt(i + 1) === 0x26 ? 2 : 1;
          goesOn = true;
          commandStart = true;
          continue;
        case 0x28: { // ( : a subshell, an arithmetic command, or f() before a function's body
          if (test) {
            i++;
            continue;
          }
          const after = this.skipBlanks(i + 1);
          if (text.charCodeAt(after) === 0x29) {
            i = after + 1;
            goesOn = true;
            commandStart = true;
            continue;
          }
          // Where no command starts (`INSERT INTO T (A, B)`), and not `for ((`, a case pattern's `(a)`, `a=(…)`, `<(…)`, `@(…)`.
          if (!commandStart && previousWord !== 'for' && this.innermost() !== 'esac' && !BEFORE_PAREN.has(text[i - 1])) this.suspect = true;
          opens(')');
          i++;
          commandStart = true;
          continue;
        }
        case 0x29: // )
          i++;
          if (test) continue;
          if (this.innermost() === 'esac') {
            // The end of a case pattern: its commands follow.
            commandStart = true;
            continue;
          }
          this.closeTo(')');
          commandStart = false;
          previousWord = '';
          continue;
        case 0x3c: // < << <<- <<<
          i = this.redirectIn(i);
          commandStart = false;
          continue;
        case 0x3e: // > >> >| >&
          i += text.charCodeAt(i + 1) === 0x7c ? 2 : 1;
          commandStart = false;
          continue;
      }
      const wordStart = i;
      const { end: wordEnd, plain } = this.word(i);
      i = wordEnd;
      goesOn = false;
      previousWord = plain ? text.slice(wordStart, wordEnd) : '';
      if (test) {
        if (previousWord === ']]') test = false;
        commandStart = false;
        continue;
      }
      if (functionName) {
        functionName = false;
        goesOn = true;
        commandStart = true;
        continue;
      }
      if (!plain || !commandStart) {
        commandStart = false;
        continue;
      }
      const word = previousWord;
      commandStart = LEADS_COMMAND.has(word);
      switch (word) {
        case 'if':
          opens('fi');
          break;
        case 'case':
          opens('esac');
          break;
        case 'for':
        case 'select':
        case 'while':
        case 'until':
          opens('done');
          break;
        case '{':
          opens('}');
          break;
        case 'function':
          functionName = true;
          break;
        case '[[':
          test = true;
          break;
        case 'fi':
        case 'esac':
        case 'done':
        case '}':
          // Not a case pattern that happens to be spelled so (`done)`).
          if (this.innermost() !== 'esac' || word === 'esac' || this.nextSignificant(i) !== 0x29) this.closeTo(word);
          else commandStart = true;
          break;
        default:
          // A case pattern (`a|b)`) leaves its commands in command position.
          if (this.innermost() === 'esac') commandStart = this.nextSignificant(i) === 0x29;
      }
    }
    if (lineStart < end) endLine(end);
    // What is never closed: the line that opened it (an `if` without `fi` makes the rest of the script its body).
    for (const { line } of open) suspect.add(Math.min(line, lineStarts.length - 1));
    if (pieceStart < end) pieces.push({ start: pieceStart, end });
    const suspectLines = [...suspect].sort((a, b) => a - b).map((k) => ({ start: lineStarts[k], end: lineEnds[k] }));
    return { pieces, suspectLines };
  }

  /** What closes the innermost open group or compound command. */
  private innermost(): string | undefined {
    return this.open[this.open.length - 1]?.closer;
  }

  /** Closes the innermost open `closer` and what is open inside it; a closer with nothing to close is let be (suspect). */
  private closeTo(closer: string): void {
    const { open } = this;
    for (let at = open.length - 1; at >= 0; at--) {
      if (open[at].closer !== closer) continue;
      open.length = at;
      return;
    }
    this.suspect = true;
  }

  /** The first character after `i` that is not a blank (0 at the end). */
  private nextSignificant(i: number): number {
    const { text, end } = this;
    while (i < end && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i++;
    return i < end ? text.charCodeAt(i) : 0;
  }

  private lineEnd(i: number): number {
    const at = this.text.indexOf('\n', i);
    return at < 0 || at > this.end ? this.end : at;
  }

  /**
   * One word from `i`: plain characters, quoted strings, expansions and escapes, up to a blank or an operator.
   * `plain`: nothing quoted, escaped or expanded (only such a word can be a reserved word).
   */
  private word(i: number): { end: number; plain: boolean } {
    const { text, end } = this;
    let plain = true;
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x3b || c === 0x26 || c === 0x7c || c === 0x28 || c === 0x29 || c === 0x3c || c === 0x3e) break;
      if (c === 0x5c) i += 2;
      else if (c === 0x27) i = this.singleQuoted(i + 1);
      else if (c === 0x22) i = this.doubleQuoted(i + 1);
      else if (c === 0x60) i = this.backQuoted(i + 1);
      else if (c === 0x24) i = this.dollar(i);
      else {
        i++;
        continue;
      }
      plain = false;
    }
    return { end: Math.min(i, end), plain };
  }

  /** After `$`: `$'...'`, `$(...)`, `$((...))`, `${...}`, or a plain `$name`. */
  private dollar(i: number): number {
    const next = this.text.charCodeAt(i + 1);
    if (next === 0x27) return this.ansiQuoted(i + 2);
    if (next === 0x22) return this.doubleQuoted(i + 2);
    if (next === 0x28) return this.parenthesised(i + 2);
    if (next === 0x7b) return this.braced(i + 2);
    return i + 1;
  }

  private singleQuoted(i: number): number {
    const at = this.text.indexOf("'", i);
    return at < 0 || at >= this.end ? this.unclosed() : at + 1;
  }

  /** The end of the text, reached inside a quote, an expansion or a here-document: suspect. */
  private unclosed(): number {
    this.suspect = true;
    return this.end;
  }

  /** `$'...'`: to the closing `'`, past backslash escapes. */
  private ansiQuoted(i: number): number {
    return this.escapedTo(i, 0x27);
  }

  private doubleQuoted(i: number): number {
    const { text, end } = this;
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) i += 2;
      else if (c === 0x22) return i + 1;
      else if (c === 0x60) i = this.backQuoted(i + 1);
      else if (c === 0x24 && (text.charCodeAt(i + 1) === 0x28 || text.charCodeAt(i + 1) === 0x7b)) i = this.dollar(i);
      else i++;
    }
    return this.unclosed();
  }

  /** A backquoted command substitution: to the closing backquote, past backslash escapes. */
  private backQuoted(i: number): number {
    return this.escapedTo(i, 0x60);
  }

  /** To just after the `closer` that ends a quote, past backslash escapes (nothing else is special inside). */
  private escapedTo(i: number, closer: number): number {
    const { text, end } = this;
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) i += 2;
      else if (c === closer) return i + 1;
      else i++;
    }
    return this.unclosed();
  }

  /** The inside of `$(...)` (a command substitution) or `$((...))`, with its quotes, to the matching `)`. */
  private parenthesised(i: number): number {
    return this.nested(i, 0x28, 0x29, 0x7b);
  }

  /** The inside of `${...}`, with its quotes and nested expansions, to the matching `}`. */
  private braced(i: number): number {
    return this.nested(i, 0x7b, 0x7d, 0x28);
  }

  /**
   * To the `closer` matching an opening before `i`, past quotes and the other kind of expansion (`$` then
   * `otherOpener`); one of the same kind only counts in the depth (no recursion: `$(` nested 100,000 deep).
   */
  private nested(i: number, opener: number, closer: number, otherOpener: number): number {
    const { text, end } = this;
    let depth = 1;
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) i += 2;
      else if (c === 0x27) i = this.singleQuoted(i + 1);
      else if (c === 0x22) i = this.doubleQuoted(i + 1);
      else if (c === 0x60) i = this.backQuoted(i + 1);
      else if (c === 0x24 && text.charCodeAt(i + 1) === otherOpener) i = otherOpener === 0x7b ? this.braced(i + 2) : this.parenthesised(i + 2);
      else {
        if (c === opener) depth++;
        else if (c === closer && --depth === 0) return i + 1;
        i++;
      }
    }
    return this.unclosed();
  }

  /** `<`, `<<<` (a here-string), or `<<` / `<<-` and the delimiter of a here-document (its body follows the line). */
  private redirectIn(i: number): number {
    const { text } = this;
    if (text.charCodeAt(i + 1) !== 0x3c) return i + 1;
    if (text.charCodeAt(i + 2) === 0x3c) return i + 3;
    i += 2;
    const tabs = text.charCodeAt(i) === 0x2d;
    if (tabs) i++;
    i = this.skipBlanks(i);
    const { end } = this.word(i);
    // The delimiter is the word without its quotes and escapes (`'EOF'`, `"EOF"`, `\EOF`).
    const delimiter = text.slice(i, end).replace(/["'\\]/g, '');
    if (delimiter) this.pending.push({ delimiter, tabs });
    return end;
  }

  private skipBlanks(i: number): number {
    const { text, end } = this;
    while (i < end && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i++;
    return i;
  }

  /** The bodies of the pending here-documents, from `i` (a line's start): past the line that ends the last one. */
  private skipHereDocuments(i: number): number {
    const { text, end } = this;
    for (const { delimiter, tabs } of this.pending) {
      while (i < end) {
        const lineEnd = this.lineEnd(i);
        let line = text.slice(i, lineEnd);
        if (line.endsWith('\r')) line = line.slice(0, -1);
        if (tabs) line = line.replace(/^\t+/, '');
        i = lineEnd < end ? lineEnd + 1 : end;
        if (line === delimiter) break;
        if (i >= end) this.unclosed();
      }
    }
    this.pending = [];
    return i;
  }
}
