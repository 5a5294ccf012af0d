// A COBOL program's tokens with its copybooks in place: `COPY member.` and `EXEC SQL INCLUDE member END-EXEC`
// are replaced by the member's tokens (found by FrontEndOptions.member), as the compiler and the precompiler
// do, so that paragraphs and SQL in copybooks take part in the program's loops. A token of a member keeps its
// own offsets (into the member's text) and carries `at`, the span of the COPY/INCLUDE in the program: what is
// found there is reported on that line.
import type { Span } from '../../sql/ast';
import type { SourceFile } from '../../engine/types';
import { readCobolSource, type CobolSource } from './source';
import { tokenize, type CobolToken } from './tokens';

export interface Unit {
  path: string;
  text: string;
  source: CobolSource;
}

export interface PlacedToken {
  token: CobolToken;
  /** Index into Expanded.units of the text the token's offsets refer to (0: the program itself). */
  unit: number;
  /** Where the token is in the program: its own span, or the COPY / INCLUDE that brought it in. */
  at: Span;
}

export interface Expanded {
  units: Unit[];
  tokens: PlacedToken[];
  /** Members named by COPY / INCLUDE (upper case), found or not: the program is read again when one changes. */
  includes: string[];
}

/** Members the precompiler provides itself. */
const BUILT_IN = new Set(['SQLCA', 'SQLDA', 'SQLCODE', 'SQLSTATE', 'DFHAID', 'DFHBMSCA', 'DFHEIBLK']);
const MAX_DEPTH = 8;

/**
 * A member's cleaned source and tokens, kept with the member's SourceFile (a new text is a new SourceFile): a
 * copybook that every program of an application includes is cleaned and tokenised once, not once per program.
 */
const readMembers = new WeakMap<SourceFile, { source: CobolSource; tokens: CobolToken[] }>();

function readMember(file: SourceFile): { source: CobolSource; tokens: CobolToken[] } {
  let read = readMembers.get(file);
  if (!read) {
    const source = readCobolSource(file.text);
    read = { source, tokens: tokenize(source.clean) };
    readMembers.set(file, read);
  }
  return read;
}

export function expandProgram(path: string, text: string, member?: (name: string, from: string) => SourceFile | undefined): Expanded {
  const program = readCobolSource(text);
  const units: Unit[] = [{ path, text, source: program }];
  const unitTokens: CobolToken[][] = [tokenize(program.clean)];
  const tokens: PlacedToken[] = [];
  const includes: string[] = [];
  const walk = (unit: number, at: Span | undefined, open: string[]): void => {
    const { source } = units[unit];
    const list = unitTokens[unit];
    for (let i = 0; i < list.length; i++) {
      const token = list[i];
      const own = at ?? { start: token.start, end: token.end };
      const included = includedMember(list, i, source.clean);
      if (!included) {
        tokens.push({ token, unit, at: own });
        continue;
      }
      const end = list[included.last];
      const span = at ?? { start: token.start, end: end.end };
      i = included.last;
      if (BUILT_IN.has(included.name)) continue;
      if (!includes.includes(included.name)) includes.push(included.name);
      if (open.length >= MAX_DEPTH || open.includes(included.name)) continue;
      const found = member?.(included.name, units[unit].path);
      if (!found) continue;
      const read = readMember(found);
      units.push({ path: found.path, text: found.text, source: read.source });
      unitTokens.push(read.tokens);
      walk(units.length - 1, span, [...open, included.name]);
    }
  };
  walk(0, undefined, []);
  return { units, tokens, includes };
}

/** `COPY name [OF|IN lib] [REPLACING …].` or `EXEC SQL INCLUDE name END-EXEC` at token `i`: the member and the statement's last token. */
function includedMember(list: CobolToken[], i: number, clean: string): { name: string; last: number } | undefined {
  const token = list[i];
  if (token.kind === 'exec' && token.exec?.language === 'SQL') {
    const m = /^\s*INCLUDE\s+([A-Za-z0-9#@$_-]+|'[^']*'|"[^"]*")\s*$/i.exec(clean.slice(token.exec.body.start, token.exec.body.end));
    return m ? { name: m[1].replace(/['"]/g, '').toUpperCase(), last: i } : undefined;
  }
  if (token.kind !== 'word' || token.text !== 'COPY') return undefined;
  const name = list[i + 1];
  if (!name || (name.kind !== 'word' && name.kind !== 'literal')) return undefined;
  let last = i + 1;
  // to the period that ends the COPY statement (REPLACING ==a== BY ==b== is not applied)
  while (last + 1 < list.length && list[last].kind !== 'period' && last - i < 200) last++;
  return { name: name.text.replace(/['"]/g, '').toUpperCase(), last };
}
