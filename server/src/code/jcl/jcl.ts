// z/OS JCL as far as Db2 work goes: the steps (EXEC PGM= or a procedure, and the program a TSO batch step
// runs with `DSN SYSTEM(…) RUN PROGRAM(…)` in SYSTSIN) and their in-stream data (`//SYSIN DD *` … `/*`).
// In-stream records are read to column 72, as DSNTEP2 and the utilities read them.
import type { Comment, Span } from '../../sql/ast';

export interface InStream {
  /** DD name: SYSIN, SYSTSIN … */
  dd: string;
  /** File offsets of the data lines, from the first line's start to the last line's end. */
  span: Span;
}

export interface JclStep {
  name: string;
  /** PGM=…, or the procedure run, upper case. */
  program: string;
  /** The program a TSO step (IKJEFT01) runs: RUN PROGRAM(DSNTEP2). */
  runs?: string;
  data: InStream[];
}

export interface Jcl {
  steps: JclStep[];
  /** `//*` comment lines. */
  comments: Comment[];
}

export function looksLikeJcl(text: string): boolean {
  return /^\/\/\S*\s+(?:JOB|EXEC|DD|PROC|SET|JCLLIB|INCLUDE)\b/m.test(text);
}

export function readJcl(text: string): Jcl {
  const steps: JclStep[] = [];
  const comments: Comment[] = [];
  let step: JclStep | undefined;
  let data: { dd: string; delimiter: string; ownsSlash: boolean; start: number; end: number } | undefined;
  let lastDd = '';
  let at = 0;
  const lines = text.split('\n');
  for (const raw of lines) {
    const lineStart = at;
    at += raw.length + 1;
    const line = raw.replace(/\r$/, '');
    if (data) {
      const ends = line.startsWith(data.delimiter) || (!data.ownsSlash && line.startsWith('//'));
      if (!ends) {
        data.end = lineStart + Math.min(line.length, 72);
        continue;
      }
      if (data.end > data.start && step) step.data.push({ dd: data.dd, span: { start: data.start, end: data.end } });
      data = undefined;
      if (!line.startsWith('//')) continue;
    }
    if (line.startsWith('//*')) {
      comments.push({ span: { start: lineStart + 3, end: lineStart + line.length }, text: line.slice(3) });
      continue;
    }
    const m = /^\/\/(\S*)\s+(\S+)\s*(.*)$/.exec(line);
    if (!m) continue;
    const [, name, op, operands] = m;
    if (op === 'EXEC') {
      const pgm = /\bPGM=([A-Z0-9#@$]+)/i.exec(operands);
      const proc = /^(?:PROC=)?([A-Z0-9#@$]+)/i.exec(operands);
      step = { name, program: (pgm?.[1] ?? proc?.[1] ?? '').toUpperCase(), data: [] };
      steps.push(step);
      continue;
    }
    if (op !== 'DD') continue;
    if (name) lastDd = name.toUpperCase();
    const inStream = /^(\*|DATA)(?:,|\s|$)/i.exec(operands);
    if (!inStream) continue;
    const dlm = /\bDLM=(?:'([^']{2})'|([^,\s]{2}))/i.exec(operands);
    const isData = inStream[1].toUpperCase() === 'DATA';
    data = { dd: lastDd, delimiter: dlm ? (dlm[1] ?? dlm[2]) : '/*', ownsSlash: isData || !!dlm, start: at, end: at };
  }
  if (data && data.end > data.start && step) step.data.push({ dd: data.dd, span: { start: data.start, end: data.end } });
  for (const s of steps) {
    const systsin = s.data.find((d) => d.dd === 'SYSTSIN');
    const run = systsin ? /\bRUN\s+PROGRAM\s*\(\s*([A-Z0-9#@$]+)\s*\)/i.exec(text.slice(systsin.span.start, systsin.span.end)) : null;
    if (run) s.runs = run[1].toUpperCase();
  }
  return { steps, comments };
}

/** The text with everything outside `spans` blanked (newlines kept), and in-stream lines cut at column 72. */
export function maskOutside(text: string, spans: readonly Span[]): string {
  // Which characters stay, then the text copied in runs: one string per character of the file (split and
  // join) cost more than the rest of reading a job.
  const keep = new Uint8Array(text.length);
  for (const span of spans) {
    let column = 0;
    for (let i = Math.max(0, span.start); i < span.end && i < text.length; i++) {
      if (text.charCodeAt(i) === 10) column = 0;
      else if (column++ < 72) keep[i] = 1;
    }
  }
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const kept = keep[i];
    let j = i + 1;
    while (j < text.length && keep[j] === kept) j++;
    const run = text.slice(i, j);
    out.push(kept ? run : run.replace(/[^\r\n]/g, ' '));
    i = j;
  }
  return out.join('');
}
