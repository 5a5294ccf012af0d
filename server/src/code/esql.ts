// Embedded SQL inside host code: `EXEC SQL … ;` (C/C++ .sqc/.sqC/.sqx; COBOL .sqb ends with END-EXEC)
// and SQLJ `#sql [ctx] { … };` in Java. A small scanner finds the blocks outside host strings and
// comments; each is replaced, in a copy of the text of the same length, by a call `_E<n>();` so that
// the host grammar parses the file and the block keeps its place in loops and functions.
import type { Span } from '../sql/ast';
import type { ApiEvent, CallContext, Evaluator } from './adapter';
import type { ExtractHooks } from './model';
import { plainPiece, type HostText } from './sqltext';

export interface EmbeddedBlock {
  /** The whole block: from EXEC/#sql to its terminator included. */
  span: Span;
  /** The SQL inside (file offsets). */
  sql: Span;
  kind: 'exec-sql' | 'sqlj';
}

export interface ScanResult {
  /** The text handed to the host parser (blocks replaced by placeholder calls). */
  hostText: string;
  blocks: EmbeddedBlock[];
}

export const PLACEHOLDER = /^_E(\d+)$/;

const IDENT = /[A-Za-z0-9_$]/;

/** Finds EXEC SQL / #sql blocks. `cobol` accepts END-EXEC as the terminator. */
export function scanEmbeddedSql(text: string, options: { sqlj?: boolean; execSql?: boolean; cobol?: boolean }): ScanResult {
  const blocks: EmbeddedBlock[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i];
    const d = text[i + 1];
    if (c === '/' && d === '/') { i = lineEnd(text, i); continue; }
    if (c === '/' && d === '*') { const e = text.indexOf('*/', i + 2); i = e < 0 ? n : e + 2; continue; }
    if (c === '"' || c === '\'') { i = quotedEnd(text, i, c); continue; }
    if (options.cobol && c === '*' && (i === 0 || text[i - 1] === '\n')) { i = lineEnd(text, i); continue; }
    if (options.execSql && (c === 'E' || c === 'e') && (i === 0 || !IDENT.test(text[i - 1]))) {
      const m = /^EXEC\s+SQL\b/i.exec(text.slice(i, i + 40));
      if (m) {
        const sqlStart = i + m[0].length;
        const end = sqlEnd(text, sqlStart, options.cobol ?? false);
        blocks.push({ span: { start: i, end: end.blockEnd }, sql: { start: sqlStart, end: end.sqlEnd }, kind: 'exec-sql' });
        i = end.blockEnd;
        continue;
      }
    }
    if (options.sqlj && c === '#' && /^#sql\b/.test(text.slice(i, i + 5))) {
      const open = text.indexOf('{', i);
      if (open > 0) {
        const close = braceEnd(text, open + 1);
        if (close > 0) {
          let end = close + 1;
          while (end < n && /[ \t]/.test(text[end])) end++;
          if (text[end] === ';') end++;
          blocks.push({ span: { start: i, end }, sql: { start: open + 1, end: close }, kind: 'sqlj' });
          i = end;
          continue;
        }
      }
    }
    i++;
  }
  if (blocks.length === 0) return { hostText: text, blocks };
  const parts: string[] = [];
  let last = 0;
  blocks.forEach((b, index) => {
    parts.push(text.slice(last, b.span.start));
    const original = text.slice(b.span.start, b.span.end);
    const blank = original.replace(/[^\n\r]/g, ' ');
    const call = `_E${index}();`;
    const firstLine = original.search(/[\n\r]/);
    const room = firstLine < 0 ? original.length : firstLine;
    const quiet = /^EXEC\s+SQL\s+(?:BEGIN|END|INCLUDE|WHENEVER)\b/i.test(original);
    parts.push(!quiet && call.length <= room ? call + blank.slice(call.length) : blank);
    last = b.span.end;
  });
  parts.push(text.slice(last));
  return { hostText: parts.join(''), blocks };
}

function lineEnd(text: string, i: number): number {
  const e = text.indexOf('\n', i);
  return e < 0 ? text.length : e + 1;
}

function quotedEnd(text: string, i: number, quote: string): number {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') { j++; continue; }
    if (text[j] === quote || text[j] === '\n') return j + 1;
  }
  return text.length;
}

/** End of an SQL block: `;` outside SQL strings and comments (or END-EXEC for COBOL). */
function sqlEnd(text: string, i: number, cobol: boolean): { sqlEnd: number; blockEnd: number } {
  const n = text.length;
  for (let j = i; j < n; j++) {
    const c = text[j];
    if (c === '\'' || c === '"') {
      const close = text.indexOf(c, j + 1);
      if (close < 0) break;
      j = close;
      continue;
    }
    if (c === '-' && text[j + 1] === '-') { j = lineEnd(text, j) - 1; continue; }
    if (c === ';') return { sqlEnd: j, blockEnd: j + 1 };
    if (cobol && (c === 'E' || c === 'e') && /^END-EXEC\b/i.test(text.slice(j, j + 9))) {
      let end = j + 8;
      if (text[end] === '.') end++;
      return { sqlEnd: j, blockEnd: end };
    }
  }
  return { sqlEnd: n, blockEnd: n };
}

function braceEnd(text: string, i: number): number {
  let depth = 1;
  for (let j = i; j < text.length; j++) {
    const c = text[j];
    if (c === '\'' || c === '"') {
      const close = text.indexOf(c, j + 1);
      if (close < 0) return -1;
      j = close;
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return j;
  }
  return -1;
}

/** The SQL of a block as host text (characters map one to one onto the file). */
export function blockText(source: string, block: EmbeddedBlock): HostText {
  return { pieces: [plainPiece(source.slice(block.sql.start, block.sql.end), block.sql.start)], kind: 'constant' };
}

/** Events of an embedded SQL block (EXEC SQL or SQLJ #sql) standing at a placeholder call. */
export function embeddedEvents(sqlText: HostText, raw: string, api: 'esql' | 'sqlj', ev: Evaluator, at: number): ApiEvent[] {
  const body = raw.replace(/^\s*(?:\[[^\]]*\]\s*)?/, '').trim();
  const upper = body.toUpperCase();
  if (/^COMMIT\b/.test(upper)) return [{ kind: 'commit', api, connection: api }];
  if (/^CONNECT\b/.test(upper)) return [{ kind: 'connect', api, connection: api }];
  let m = /^PREPARE\s+(\w+)\s+(?:INTO\s+\S+\s+)?FROM\s+(?::\s*)?(\w+)/i.exec(body);
  if (m) return [{ kind: 'execute', api, action: 'prepare', handle: m[1], connection: api, sql: ev.variable(m[2], at) }];
  m = /^EXECUTE\s+IMMEDIATE\s+(?::\s*)?(\w+)/i.exec(body);
  if (m) return [{ kind: 'execute', api, action: 'executeDirect', connection: api, sql: ev.variable(m[1], at) }];
  m = /^EXECUTE\s+(\w+)/i.exec(body);
  if (m) return [{ kind: 'execute', api, action: 'executePrepared', handle: m[1], connection: api }];
  if (/^(?:INSERT|UPDATE|DELETE|MERGE|SELECT|VALUES|WITH|CALL|SET|FETCH|OPEN|CLOSE|DECLARE|LOCK)\b/.test(upper)) {
    // Static SQL is bound at precompile time: running it costs no prepare.
    return [{ kind: 'execute', api, action: 'executePrepared', sql: sqlText, connection: api }];
  }
  return [];
}

/** Hooks that turn the placeholder calls of a scan back into the events of their blocks. */
export function embeddedHooks(text: string, scan: ScanResult): ExtractHooks {
  const blocks = scan.blocks;
  if (blocks.length === 0) return {};
  return {
    preEvents: (ctx: CallContext, ev: Evaluator): ApiEvent[] | undefined => {
      const m = PLACEHOLDER.exec(ctx.call.name);
      if (!m || ctx.call.args.length > 0) return undefined;
      const block = blocks[Number(m[1])];
      if (!block) return undefined;
      return embeddedEvents(blockText(text, block), text.slice(block.sql.start, block.sql.end), block.kind === 'sqlj' ? 'sqlj' : 'esql', ev, block.span.start);
    },
  };
}
