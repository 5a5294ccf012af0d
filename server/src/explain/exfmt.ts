// parseExfmt: reads db2exfmt output (whole files, several statements, or just a pasted Access Plan graph)
// into ExfmtDocument. It never throws: problems become errors/warnings on the document or statement.
// This file reads the document: the input's checks, what a paste did to its lines, the header and where each
// statement's block starts; each block is read by exfmt-sections.ts.
import type { ExfmtDocument, ExplainMessage, ExplainStatement } from './model';
import type { PasteCuts } from './exfmt-wrap';
import { preparePaste } from './exfmt-paste';
import { parseStatementRegion } from './exfmt-sections';
import { readHeader } from './exfmt-header';

// explain-tables.ts reads EXPLAIN_OBJECT's types with it.
export { objectKindFromType } from './exfmt-objects';

/** Inputs above this size are refused rather than scanned (a db2exfmt file of 2,000 operators is ~2 MB). */
export const MAX_EXFMT_BYTES = 32 * 1024 * 1024;

/** The header is read in the text's first lines, up to its first statement. */
const HEADER_LINES = 200;
const INSTANCE = /^\s*\*{10,}\s*EXPLAIN INSTANCE\s*\*{10,}\s*$/;
const STATEMENT = /^\s*-{5,}\s*STATEMENT\s+(\d+)\s+SECTION\s+(\d+)\s*-{5,}\s*$/;

interface StatementStart {
  /** The line of its `STATEMENT n SECTION m` banner. */
  line: number;
  number: number;
  section: number;
}

export interface ExfmtOptions {
  /** The text is db2exfmt's own output (a live explain), not a paste: no line of it was cut by a wrap. */
  fromDb2exfmt?: boolean;
}

export function parseExfmt(input: unknown, options: ExfmtOptions = {}): ExfmtDocument {
  const doc: ExfmtDocument = { kind: 'unknown', header: { fields: {} }, statements: [], errors: [], warnings: [] };
  try {
    parseInto(doc, input, options);
  } catch (err) {
    // A parser bug must not take the caller down; report it like any other unreadable input.
    doc.errors.push({ code: 'internal-error', message: `The plan parser failed unexpectedly: ${(err as Error)?.message ?? String(err)}` });
  }
  return doc;
}

function parseInto(doc: ExfmtDocument, input: unknown, options: ExfmtOptions): void {
  const refused = inputProblem(input);
  if (refused) {
    doc.errors.push(refused);
    return;
  }
  const text = (input as string).replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const { lines, cuts } = preparePaste(text.split('\n'), options.fromDb2exfmt);

  if (isDb2expln(lines)) {
    doc.kind = 'db2expln';
    doc.errors.push({
      code: 'db2expln',
      message:
        'This is db2expln output (the "SQL and XQUERY Explain Tool"), not db2exfmt. db2expln describes section steps and draws a graph without I/O costs or plan details, so InsertLint does not read it. Run EXPLAIN PLAN FOR <insert> and then `db2exfmt -d <db> -1 -o plan.txt`, or use `insertlint explain --sql … --connection …`.',
      line: 1,
    });
    return;
  }

  const starts = statementStarts(lines);
  readHeader(doc, lines, Math.min(lines.length, HEADER_LINES, starts[0]?.line ?? Infinity), cuts);
  if (starts.length === 0) readUnnumberedStatement(doc, lines, cuts);
  else {
    readStatements(doc, lines, starts, cuts);
    // A second EXPLAIN INSTANCE starts statements of another explain, which the head does not describe.
    const next = lines.findIndex((l, i) => i > starts[0].line && INSTANCE.test(l));
    if (next >= 0) doc.header.statementsDescribed = starts.filter((s) => s.line < next).length;
  }
  if (doc.statements.length === 0) {
    doc.errors.push({
      code: 'no-plan',
      message: 'No access plan found: the text has neither a db2exfmt "Access Plan:" section nor a plan graph with numbered operator boxes such as "(   1)".',
    });
  }
}

/** Why the input is not read at all (not text, too large, binary), or undefined. */
function inputProblem(input: unknown): ExplainMessage | undefined {
  if (typeof input !== 'string') return { code: 'not-text', message: 'The input is not text.' };
  if (input.length > MAX_EXFMT_BYTES) return { code: 'too-large', message: `The input is ${Math.round(input.length / 1048576)} MB; plans above ${MAX_EXFMT_BYTES / 1048576} MB are not read.` };
  if (input.includes('\u0000')) return { code: 'binary', message: 'The input looks binary (it contains NUL bytes), not a db2exfmt text.' };
  return undefined;
}

function isDb2expln(lines: string[]): boolean {
  const head = lines.slice(0, 40).join('\n');
  if (/SQL (and XQUERY )?Explain Tool/i.test(head)) return true;
  let score = 0;
  for (const l of lines.slice(0, 5000)) {
    if (/^\s*\*{10,}\s*(DYNAMIC|STATIC|SETUP SCRIPT)\s*\*{10,}/.test(l)) score += 2;
    if (/^\s*={10,}\s*STATEMENT\s*={10,}/.test(l)) score += 2;
    if (/^\|?[\s|]*Access Table Name = /.test(l)) score++;
    if (/^\s*Optimizer Plan:\s*$/.test(l)) score++;
    if (/^\s*End of section\s*$/.test(l)) score++;
  }
  return score >= 3;
}

function statementStarts(lines: string[]): StatementStart[] {
  const starts: StatementStart[] = [];
  lines.forEach((l, i) => {
    const m = STATEMENT.exec(l);
    if (m) starts.push({ line: i, number: Number(m[1]), section: Number(m[2]) });
  });
  return starts;
}

function newStatement(): ExplainStatement {
  return { diagnostics: [], errors: [], warnings: [] };
}

/** A text without `STATEMENT n SECTION m` banners (a pasted graph, an excerpt) is one statement, kept if it has a plan or says why not. */
function readUnnumberedStatement(doc: ExfmtDocument, lines: string[], cuts: PasteCuts): void {
  const stmt = newStatement();
  parseStatementRegion(stmt, lines, 0, lines.length, cuts);
  if (stmt.plan || stmt.errors.length > 0) {
    doc.kind = lines.some((l) => INSTANCE.test(l)) ? 'db2exfmt' : 'graph';
    doc.statements.push(stmt);
  }
}

/** Each statement runs from its banner to the next banner or the next EXPLAIN INSTANCE header. */
function readStatements(doc: ExfmtDocument, lines: string[], starts: StatementStart[], cuts: PasteCuts): void {
  doc.kind = 'db2exfmt';
  starts.forEach((s, i) => {
    let end = i + 1 < starts.length ? starts[i + 1].line : lines.length;
    for (let l = s.line + 1; l < end; l++) {
      if (INSTANCE.test(lines[l])) {
        end = l;
        break;
      }
    }
    const stmt = newStatement();
    stmt.statementNumber = s.number;
    stmt.sectionNumber = s.section;
    parseStatementRegion(stmt, lines, s.line + 1, end, cuts);
    doc.statements.push(stmt);
  });
}
