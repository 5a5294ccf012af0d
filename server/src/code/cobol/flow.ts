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
  const start = procedureStart(program);
  const { items, calls, gotoLoops } = scanProcedure(program, start, paragraphHeaders(program, start), lineOf);

  // Calls and statements outside any PERFORM loop, between a paragraph and a GO TO back to it, run in that loop.
  for (const call of calls) call.loop ??= gotoLoopAround(gotoLoops, call.at);
  for (const item of items) item.loop ??= gotoLoopAround(gotoLoops, item.token.at);

  // Statements still outside a loop, in a paragraph performed from one, run in that loop.
  const reached = reachedFromLoops(calls);
  for (const item of items) {
    if (item.loop || !item.paragraph) continue;
    const context = reached.get(item.paragraph.name);
    if (!context) continue;
    item.loop = context.loop;
    item.guarded ||= context.guarded;
  }
  return items;
}

/** A paragraph or section, and the index of its header's first token. */
interface ParagraphHeader {
  paragraph: Paragraph;
  index: number;
}

/** The paragraphs and sections of the procedure part in program order, each spanning up to the next. */
function paragraphHeaders(program: Expanded, start: number): ParagraphHeader[] {
  const tokens = program.tokens;
  const paragraphs: ParagraphHeader[] = [];
  for (let i = start; i < tokens.length; i++) {
    const width = headerWidth(program, i);
    if (width > 0) paragraphs.push({ paragraph: { name: tokens[i].token.text, span: { start: tokens[i].at.start, end: tokens[i].at.end } }, index: i });
  }
  paragraphs.forEach((p, k) => (p.paragraph.span.end = k + 1 < paragraphs.length ? tokens[paragraphs[k + 1].index].at.start : tokens[tokens.length - 1]?.at.end ?? p.paragraph.span.end));
  return paragraphs;
}

/** The read of the procedure part, token by token: where it is, and what it has found. */
interface Scan {
  readonly tokens: readonly PlacedToken[];
  readonly paragraphs: readonly ParagraphHeader[];
  /** Paragraph names, in program order (PERFORM a THRU b runs those between). */
  readonly order: string[];
  readonly names: Set<string>;
  readonly lineOf: (offset: number) => number;
  /** The paragraph being read. */
  current: Paragraph | undefined;
  /** IFs, EVALUATEs and inline PERFORMs open at the token being read, outermost first (a period closes them all). */
  open: Construct[];
  readonly items: FlowItem[];
  /** Out-of-line PERFORMs. */
  readonly calls: Call[];
  /** Backward GO TOs: the paragraphs from the target up to the GO TO run again. */
  readonly gotoLoops: LoopInfo[];
}

/** Reads the procedure part: its EXEC blocks and checkpoint calls, PERFORMs and GO TO loops, under their constructs. */
function scanProcedure(program: Expanded, start: number, paragraphs: ParagraphHeader[], lineOf: (offset: number) => number): Scan {
  const tokens = program.tokens;
  const scan: Scan = {
    tokens,
    paragraphs,
    order: paragraphs.map((p) => p.paragraph.name),
    names: new Set(paragraphs.map((p) => p.paragraph.name)),
    lineOf,
    current: undefined,
    open: [],
    items: [],
    calls: [],
    gotoLoops: [],
  };
  let next = 0;
  for (let i = start; i < tokens.length; i++) {
    if (next < paragraphs.length && paragraphs[next].index === i) {
      scan.current = paragraphs[next++].paragraph;
      scan.open = [];
      i += headerWidth(program, i) - 1;
      continue;
    }
    const { token, at } = tokens[i];
    if (token.kind === 'period') {
      for (const c of scan.open) if (c.loop && c.loop.span.end < 0) c.loop.span.end = at.end;
      scan.open = [];
      continue;
    }
    if (token.kind === 'exec') {
      scan.items.push({ token: tokens[i], paragraph: scan.current, loop: loopAround(scan.open), guarded: isGuarded(scan.open) });
      continue;
    }
    if (token.kind !== 'word') continue;
    switch (token.text) {
      case 'IF': {
        const cond = phrase(tokens, i + 1);
        scan.open.push({ kind: 'if', guard: isCounterCondition(cond.text) });
        i = cond.last;
        break;
      }
      case 'EVALUATE':
        scan.open.push({ kind: 'evaluate', guard: false });
        break;
      case 'WHEN': {
        const cond = phrase(tokens, i + 1);
        const evaluate = [...scan.open].reverse().find((c) => c.kind === 'evaluate');
        if (evaluate) evaluate.guard = isCounterCondition(cond.text);
        i = cond.last;
        break;
      }
      case 'END-IF':
        closeTo(scan, 'if', at.end);
        break;
      case 'END-EVALUATE':
        closeTo(scan, 'evaluate', at.end);
        break;
      case 'END-PERFORM':
        closeTo(scan, 'perform', at.end);
        break;
      case 'CALL': {
        if (isCheckpointCall(tokens, i)) scan.items.push({ token: tokens[i], paragraph: scan.current, loop: loopAround(scan.open), guarded: isGuarded(scan.open), checkpoint: true });
        break;
      }
      case 'GO':
        i = readGoTo(scan, i);
        break;
      case 'PERFORM':
        i = readPerform(scan, i);
        break;
      default:
        break;
    }
  }
  for (const c of scan.open) if (c.loop && c.loop.span.end < 0) c.loop.span.end = tokens[tokens.length - 1]?.at.end ?? c.loop.span.start;
  return scan;
}

/** The index in `open` of the innermost construct that is a loop, or -1. */
function innermostLoop(open: readonly Construct[]): number {
  for (let k = open.length - 1; k >= 0; k--) if (open[k].loop) return k;
  return -1;
}

/** The innermost open loop. */
function loopAround(open: readonly Construct[]): LoopInfo | undefined {
  return open[innermostLoop(open)]?.loop;
}

/** Whether a construct inside the innermost open loop tests a counter. */
function isGuarded(open: readonly Construct[]): boolean {
  return open.slice(innermostLoop(open) + 1).some((c) => c.guard);
}

/** Closes the innermost open construct of `kind` and those inside it (END-IF, END-EVALUATE, END-PERFORM). */
function closeTo(scan: Scan, kind: Construct['kind'], end: number): void {
  const open = scan.open;
  for (let k = open.length - 1; k >= 0; k--) {
    if (open[k].kind !== kind) continue;
    for (const c of open.slice(k)) if (c.loop) c.loop.span.end = end;
    scan.open = open.slice(0, k);
    return;
  }
}

/** GO [TO] paragraph at token `i`: a loop when it goes back. The index of its last token. */
function readGoTo(scan: Scan, i: number): number {
  const { tokens, current } = scan;
  let j = i + 1;
  if (tokens[j]?.token.text === 'TO') j++;
  const target = tokens[j]?.token.text;
  const targetAt = target ? scan.paragraphs.find((p) => p.paragraph.name === target) : undefined;
  // Backwards to a paragraph at or before this one: the paragraphs in between run again (a loop).
  if (targetAt && current && targetAt.paragraph.span.start <= current.span.start) {
    scan.gotoLoops.push({ span: { start: targetAt.paragraph.span.start, end: tokens[j].at.end }, kind: 'GO TO', line: scan.lineOf(targetAt.paragraph.span.start) });
  }
  return j;
}

/**
 * PERFORM at token `i`: out of line (PERFORM para [THRU para2] [loop phrase]), a call; inline (PERFORM [loop
 * phrase] … END-PERFORM), a construct opened. The index of its last token read.
 */
function readPerform(scan: Scan, i: number): number {
  const { tokens, lineOf } = scan;
  const at = tokens[i].at;
  const first = tokens[i + 1]?.token;
  const outOfLine = first?.kind === 'word' && (scan.names.has(first.text) || (!['VARYING', 'UNTIL', 'WITH', 'TEST', 'FOREVER'].includes(first.text) && tokens[i + 2]?.token.text !== 'TIMES' && !/^\d+$/.test(first.text)));
  if (outOfLine) {
    let j = i + 2;
    const targets = [first.text];
    if ((tokens[j]?.token.text === 'THRU' || tokens[j]?.token.text === 'THROUGH') && tokens[j + 1]) {
      const from = scan.order.indexOf(first.text);
      const to = scan.order.indexOf(tokens[j + 1].token.text);
      if (from >= 0 && to > from) for (let k = from + 1; k <= to; k++) targets.push(scan.order[k]);
      j += 2;
    }
    const loopPhrase = phrase(tokens, j);
    const own = loopOf(loopPhrase.text, { start: at.start, end: tokens[Math.max(loopPhrase.last, j - 1)].at.end }, lineOf(at.start));
    scan.calls.push({ from: scan.current, targets, loop: own ?? loopAround(scan.open), guarded: own ? false : isGuarded(scan.open), at: { start: at.start, end: tokens[j - 1].at.end } });
    return Math.max(loopPhrase.last, j - 1);
  }
  const loopPhrase = phrase(tokens, i + 1);
  const own = loopOf(loopPhrase.text, { start: at.start, end: -1 }, lineOf(at.start));
  scan.open.push({ kind: 'perform', guard: false, loop: own });
  return loopPhrase.last;
}

/** The innermost backward GO TO loop around `at`. */
function gotoLoopAround(gotoLoops: LoopInfo[], at: Span): LoopInfo | undefined {
  return gotoLoops.filter((l) => l.span.start <= at.start && at.end <= l.span.end).sort((a, b) => a.span.end - a.span.start - (b.span.end - b.span.start))[0];
}

/** Paragraphs reached from a loop: through the first PERFORM out of it, then any PERFORM chain. */
function reachedFromLoops(calls: Call[]): Map<string, { loop: LoopInfo; guarded: boolean }> {
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
  return reached;
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
