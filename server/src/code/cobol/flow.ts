// The control flow of a COBOL PROCEDURE DIVISION that decides how often SQL runs: paragraphs and sections,
// `PERFORM para [THRU para2] [n TIMES | UNTIL … | VARYING …]`, inline `PERFORM … END-PERFORM` loops,
// backward `GO TO` loops (the read loops of older batch programs), and the IFs around a statement that test a
// counter (`IF WS-COUNT >= 1000`), which make a COMMIT one per many rows. A paragraph performed from a loop,
// directly or through other paragraphs, runs in that loop (LoopInfo.via names the first PERFORM).
import type { Span } from '../../sql/ast';
import type { LoopInfo } from '../../code-model/types';
import type { Expanded, PlacedToken } from './expand';

/** An EXEC block (SQL, CICS …), or an IMS checkpoint call, with the loop and guard it runs under. */
export interface FlowItem {
  token: PlacedToken;
  /** `CALL 'CBLTDLI' USING CHKP …`: an IMS checkpoint, which commits the Db2 work of a BMP too. */
  checkpoint?: boolean;
  paragraph?: Paragraph;
  loop?: LoopInfo;
  guarded: boolean;
}

export interface Paragraph {
  name: string;
  /** Program span from the header to the next header. */
  span: Span;
}

interface Call {
  from?: Paragraph;
  targets: string[];
  loop?: LoopInfo;
  guarded: boolean;
  at: Span;
}

interface Construct {
  kind: 'if' | 'evaluate' | 'perform';
  guard: boolean;
  loop?: LoopInfo;
}

/** Words that start a statement: a PERFORM's loop phrase or an IF's condition ends before them. */
const VERBS = new Set([
  'ACCEPT', 'ADD', 'ALTER', 'CALL', 'CANCEL', 'CLOSE', 'COMPUTE', 'CONTINUE', 'DELETE', 'DISPLAY', 'DIVIDE', 'ELSE', 'END-IF',
  'END-EVALUATE', 'END-PERFORM', 'EVALUATE', 'EXIT', 'GO', 'GOBACK', 'IF', 'INITIALIZE', 'INSPECT', 'INVOKE', 'MOVE', 'MULTIPLY',
  'OPEN', 'PERFORM', 'READ', 'RELEASE', 'RETURN', 'REWRITE', 'SEARCH', 'SET', 'SORT', 'START', 'STOP', 'STRING', 'SUBTRACT',
  'UNSTRING', 'WHEN', 'WRITE', 'THEN', 'NEXT', 'JSON', 'XML', 'COPY',
]);
const NOT_PARAGRAPH = new Set([...VERBS, 'END-READ', 'END-WRITE', 'END-CALL', 'END-COMPUTE', 'END-STRING', 'END-EXEC', 'EXIT', 'GOBACK', 'DECLARATIVES', 'END']);
/** A condition that counts rows: a counter name, MOD/REM, or a number of 2 or more not compared with SQLCODE / a status. */
const COUNTER_WORD = /\b(?:MOD|REM|COUNT\w*|\w*-(?:COUNT|CNT|CTR|CTER|COUNTER|FREQ|INTERVAL|LIMIT|THRESHOLD|MAX)\b|\w*COMMIT\w*)/;
const STATUS_WORD = /\bSQLCODE\b|\bSQLSTATE\b|STATUS|EOF|END-OF|SQLERRD/;

export function analyseFlow(program: Expanded, lineOf: (offset: number) => number): FlowItem[] {
  const tokens = program.tokens;
  const start = procedureStart(program);
  const paragraphs: { paragraph: Paragraph; index: number }[] = [];
  for (let i = start; i < tokens.length; i++) {
    const width = headerWidth(program, i);
    if (width > 0) paragraphs.push({ paragraph: { name: tokens[i].token.text, span: { start: tokens[i].at.start, end: tokens[i].at.end } }, index: i });
  }
  paragraphs.forEach((p, k) => (p.paragraph.span.end = k + 1 < paragraphs.length ? tokens[paragraphs[k + 1].index].at.start : tokens[tokens.length - 1]?.at.end ?? p.paragraph.span.end));
  const names = new Set(paragraphs.map((p) => p.paragraph.name));
  const order = paragraphs.map((p) => p.paragraph.name);

  const items: FlowItem[] = [];
  const calls: Call[] = [];
  const gotoLoops: LoopInfo[] = [];
  let open: Construct[] = [];
  let current: Paragraph | undefined;
  let next = 0;
  const innermostLoop = (): number => {
    for (let k = open.length - 1; k >= 0; k--) if (open[k].loop) return k;
    return -1;
  };
  const guarded = (): boolean => open.slice(innermostLoop() + 1).some((c) => c.guard);
  const loop = (): LoopInfo | undefined => open[innermostLoop()]?.loop;
  const closeTo = (kind: Construct['kind'], end: number): void => {
    for (let k = open.length - 1; k >= 0; k--) {
      if (open[k].kind !== kind) continue;
      for (const c of open.slice(k)) if (c.loop) c.loop.span.end = end;
      open = open.slice(0, k);
      return;
    }
  };
  for (let i = start; i < tokens.length; i++) {
    if (next < paragraphs.length && paragraphs[next].index === i) {
      current = paragraphs[next++].paragraph;
      open = [];
      i += headerWidth(program, i) - 1;
      continue;
    }
    const { token, at } = tokens[i];
    if (token.kind === 'period') {
      for (const c of open) if (c.loop && c.loop.span.end < 0) c.loop.span.end = at.end;
      open = [];
      continue;
    }
    if (token.kind === 'exec') {
      items.push({ token: tokens[i], paragraph: current, loop: loop(), guarded: guarded() });
      continue;
    }
    if (token.kind !== 'word') continue;
    switch (token.text) {
      case 'IF': {
        const cond = phrase(tokens, i + 1);
        open.push({ kind: 'if', guard: isCounterCondition(cond.text) });
        i = cond.last;
        break;
      }
      case 'EVALUATE':
        open.push({ kind: 'evaluate', guard: false });
        break;
      case 'WHEN': {
        const cond = phrase(tokens, i + 1);
        const evaluate = [...open].reverse().find((c) => c.kind === 'evaluate');
        if (evaluate) evaluate.guard = isCounterCondition(cond.text);
        i = cond.last;
        break;
      }
      case 'END-IF':
        closeTo('if', at.end);
        break;
      case 'END-EVALUATE':
        closeTo('evaluate', at.end);
        break;
      case 'END-PERFORM':
        closeTo('perform', at.end);
        break;
      case 'CALL': {
        if (isCheckpointCall(tokens, i)) items.push({ token: tokens[i], paragraph: current, loop: loop(), guarded: guarded(), checkpoint: true });
        break;
      }
      case 'GO': {
        let j = i + 1;
        if (tokens[j]?.token.text === 'TO') j++;
        const target = tokens[j]?.token.text;
        const targetAt = target ? paragraphs.find((p) => p.paragraph.name === target) : undefined;
        // Backwards to a paragraph at or before this one: the paragraphs in between run again (a loop).
        if (targetAt && current && targetAt.paragraph.span.start <= current.span.start) {
          gotoLoops.push({ span: { start: targetAt.paragraph.span.start, end: tokens[j].at.end }, kind: 'GO TO', line: lineOf(targetAt.paragraph.span.start) });
        }
        i = j;
        break;
      }
      case 'PERFORM': {
        const first = tokens[i + 1]?.token;
        const outOfLine = first?.kind === 'word' && (names.has(first.text) || (!['VARYING', 'UNTIL', 'WITH', 'TEST', 'FOREVER'].includes(first.text) && tokens[i + 2]?.token.text !== 'TIMES' && !/^\d+$/.test(first.text)));
        if (outOfLine) {
          let j = i + 2;
          const targets = [first.text];
          if ((tokens[j]?.token.text === 'THRU' || tokens[j]?.token.text === 'THROUGH') && tokens[j + 1]) {
            const from = order.indexOf(first.text);
            const to = order.indexOf(tokens[j + 1].token.text);
            if (from >= 0 && to > from) for (let k = from + 1; k <= to; k++) targets.push(order[k]);
            j += 2;
          }
          const loopPhrase = phrase(tokens, j);
          const own = loopOf(loopPhrase.text, { start: at.start, end: tokens[Math.max(loopPhrase.last, j - 1)].at.end }, lineOf(at.start));
          calls.push({ from: current, targets, loop: own ?? loop(), guarded: own ? false : guarded(), at: { start: at.start, end: tokens[j - 1].at.end } });
          i = Math.max(loopPhrase.last, j - 1);
        } else {
          const loopPhrase = phrase(tokens, i + 1);
          const own = loopOf(loopPhrase.text, { start: at.start, end: -1 }, lineOf(at.start));
          open.push({ kind: 'perform', guard: false, loop: own });
          i = loopPhrase.last;
        }
        break;
      }
      default:
        break;
    }
  }
  for (const c of open) if (c.loop && c.loop.span.end < 0) c.loop.span.end = tokens[tokens.length - 1]?.at.end ?? c.loop.span.start;

  // Calls and statements outside any PERFORM loop, between a paragraph and a GO TO back to it, run in that loop.
  const inGoto = (at: Span): LoopInfo | undefined =>
    gotoLoops.filter((l) => l.span.start <= at.start && at.end <= l.span.end).sort((a, b) => a.span.end - a.span.start - (b.span.end - b.span.start))[0];
  for (const call of calls) call.loop ??= inGoto(call.at);
  for (const item of items) item.loop ??= inGoto(item.token.at);

  // Paragraphs reached from a loop: through the first PERFORM out of it, then any PERFORM chain.
  const reached = new Map<string, { loop: LoopInfo; guarded: boolean }>();
  const queue: string[] = [];
  for (const call of calls) {
    if (!call.loop) continue;
    for (const target of call.targets) {
      if (reached.has(target)) continue;
      reached.set(target, { loop: { ...call.loop, via: `PERFORM ${call.targets[0]}` }, guarded: call.guarded });
      queue.push(target);
    }
  }
  const callsFrom = new Map<string, Call[]>();
  for (const call of calls) {
    if (call.loop || !call.from) continue;
    const list = callsFrom.get(call.from.name);
    if (list) list.push(call);
    else callsFrom.set(call.from.name, [call]);
  }
  for (let head = 0; head < queue.length; head++) {
    const name = queue[head];
    const context = reached.get(name)!;
    for (const call of callsFrom.get(name) ?? []) {
      for (const target of call.targets) {
        if (reached.has(target)) continue;
        reached.set(target, { loop: context.loop, guarded: context.guarded || call.guarded });
        queue.push(target);
      }
    }
  }
  for (const item of items) {
    if (item.loop || !item.paragraph) continue;
    const context = reached.get(item.paragraph.name);
    if (!context) continue;
    item.loop = context.loop;
    item.guarded ||= context.guarded;
  }
  return items;
}

/** The first token of the procedure part (after PROCEDURE DIVISION [USING …].); 0 for a copybook of paragraphs. */
function procedureStart(program: Expanded): number {
  const tokens = program.tokens;
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (tokens[i].token.text === 'PROCEDURE' && tokens[i + 1].token.text === 'DIVISION') {
      let j = i + 2;
      while (j < tokens.length && tokens[j].token.kind !== 'period') j++;
      return j + 1;
    }
  }
  // No PROCEDURE DIVISION: a program without one has nothing to run; a copybook may hold paragraphs.
  return tokens.some((t) => t.token.text === 'DIVISION') ? tokens.length : 0;
}

/** 2 (`name.`) or 3 (`name SECTION.`) when a paragraph or section header starts at token i, else 0. */
function headerWidth(program: Expanded, i: number): number {
  const tokens = program.tokens;
  const t = tokens[i];
  if (t.token.kind !== 'word' || NOT_PARAGRAPH.has(t.token.text)) return 0;
  const width = tokens[i + 1]?.token.kind === 'period' ? 2 : tokens[i + 1]?.token.text === 'SECTION' && tokens[i + 2]?.token.kind === 'period' ? 3 : 0;
  if (width === 0) return 0;
  // The first word on its line, in area A (columns 8-11) in fixed format.
  const unit = program.units[t.unit];
  const clean = unit.source.clean;
  const lineStart = clean.lastIndexOf('\n', t.token.start - 1) + 1;
  if (clean.slice(lineStart, t.token.start).trim() !== '') return 0;
  if (unit.source.format === 'fixed' && t.token.start - lineStart > 10) return 0;
  return width;
}

/** The tokens from `i` up to the next statement (a verb, an EXEC block or a period): a condition or a loop phrase. */
function phrase(tokens: readonly PlacedToken[], i: number): { text: string; last: number } {
  const words: string[] = [];
  let j = i;
  while (j < tokens.length) {
    const t = tokens[j].token;
    if (t.kind === 'period' || t.kind === 'exec' || (t.kind === 'word' && VERBS.has(t.text) && t.text !== 'THEN')) break;
    if (t.kind === 'word' && t.text === 'THEN') {
      j++;
      break;
    }
    words.push(t.text);
    j++;
  }
  return { text: words.join(' '), last: j - 1 };
}

/** IMS's DL/I entry points, and the checkpoint calls (basic CHKP, symbolic CHKP, SYNC) that commit a BMP's work. */
const DLI_ENTRY = /^['"](?:CBLTDLI|AIBTDLI|CEETDLI|DFSLI000)['"]$/i;
const CHECKPOINT = /CHKP|SYNC/i;

function isCheckpointCall(tokens: readonly PlacedToken[], i: number): boolean {
  if (!DLI_ENTRY.test(tokens[i + 1]?.token.text ?? '')) return false;
  // CALL 'CBLTDLI' USING function-code …: the function is a literal or a field named for it (DLI-CHKP, WS-SYNC-FUNC)
  const fn = tokens[i + 2]?.token.text === 'USING' ? tokens[i + 3]?.token.text : undefined;
  return fn !== undefined && CHECKPOINT.test(fn);
}

function isCounterCondition(text: string): boolean {
  if (COUNTER_WORD.test(text)) return true;
  return !STATUS_WORD.test(text) && /(?:^|[\s(])\+?([2-9]|\d{2,})(?:$|[\s)])/.test(text) && /[<>=]|GREATER|LESS|EQUAL/.test(text);
}

/** The loop a PERFORM phrase makes (UNTIL, VARYING, n TIMES), with its passes when written as a number. */
function loopOf(text: string, span: Span, line: number): LoopInfo | undefined {
  const times = /^(\d+|[\w-]+)\s+TIMES\b/.exec(text);
  if (times) {
    const loop: LoopInfo = { span, kind: 'PERFORM … TIMES', line };
    if (/^\d+$/.test(times[1])) loop.passes = Number(times[1]);
    return loop;
  }
  if (/\bVARYING\b/.test(text)) {
    const loop: LoopInfo = { span, kind: 'PERFORM VARYING', line };
    const m = /VARYING\s+([\w-]+)\s+FROM\s+1\s+BY\s+1\s+UNTIL\s+([\w-]+)\s*(?:>|GREATER\s+(?:THAN\s+)?)\s*(\d+)\b/.exec(text);
    if (m && m[1] === m[2]) loop.passes = Number(m[3]);
    return loop;
  }
  if (/\bUNTIL\b/.test(text)) return { span, kind: 'PERFORM UNTIL', line };
  return undefined;
}
