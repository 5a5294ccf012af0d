// COBOL with embedded SQL (.cbl .cob .cpy .dcl; .sqb for Db2 LUW's precompiler), read without a tree-sitter
// grammar: the fixed-format source is cleaned (cobol/source.ts), copybooks put in place (cobol/expand.ts),
// the PROCEDURE DIVISION's loops worked out (cobol/flow.ts), and each EXEC SQL block becomes a statement and
// an execution of static SQL in the CodeModel the other languages fill, so the code rules apply unchanged:
// an INSERT per record in a PERFORM loop, a COMMIT per record, … . Host variables (:WS-NAME) are markers.
import type { FrontEndResult, SourceFile } from '../../engine/types';
import type { Span, SqlOrigin, Statement } from '../../sql/ast';
import { parseSql } from '../../sql/parser';
import type { CommitCall, SqlExecution } from '../../code-model/types';
import type { HostLanguage } from '../host-language';
import { expandProgram, type PlacedToken } from '../cobol/expand';
import { analyseFlow, type FlowItem } from '../cobol/flow';
import { dataTexts, type DataTexts } from '../cobol/dynamic';
import { buildMappedSql } from '../sqltext';
import { appendAll } from '../../engine/append';
import { partitionPoint } from '../../engine/sorted';

export const cobolLanguage: HostLanguage = {
  languages: ['cobol'],
  grammars: [],
  read(source, env) {
    return readCobol(source, env.options.member);
  },
};

/** The connection name of SQL run in a CICS task (committed by CICS at SYNCPOINT or task end). */
export const CICS_TASK = 'CICS task';

/** Statements run as static SQL (bound at precompile time). */
const EXECUTED = /^(?:INSERT|UPDATE|DELETE|MERGE|SELECT|WITH|VALUES|CALL|OPEN|CLOSE|FETCH|LOCK)\b/;

export function readCobol(source: SourceFile, member?: (name: string, from: string) => SourceFile | undefined): FrontEndResult {
  const program = expandProgram(source.path, source.text, member);
  const lines = lineStarts(source.text);
  const lineOf = (offset: number) => upperBound(lines, offset);
  const flow = analyseFlow(program, lineOf);
  const flowByToken = new Map<PlacedToken, FlowItem>(flow.map((f) => [f.token, f]));
  const statements: Statement[] = [];
  const executions: SqlExecution[] = [];
  const commits: CommitCall[] = [];
  // CICS commits each task when it ends: a loop in a transaction program is no batch unit of work.
  const cics = program.tokens.some((t) => t.token.exec?.language === 'CICS');
  for (const item of flow) if (item.checkpoint) commits.push(commitAt(item.token, item, 'ims'));
  const texts = dataTexts(program);
  const prepared = new Map<string, SqlExecution>();
  program.tokens.forEach((placed, index) => {
    const exec = placed.token.exec;
    if (placed.token.kind !== 'exec' || !exec) return;
    const item = flowByToken.get(placed);
    const clean = program.units[placed.unit].source.clean;
    const body = clean.slice(exec.body.start, exec.body.end);
    const upper = body.trim().toUpperCase();
    if (exec.language === 'CICS') {
      // A CICS task commits with SYNCPOINT (EXEC SQL COMMIT is not allowed there).
      if (/^SYNCPOINT\b(?!\s+ROLLBACK)/.test(upper)) commits.push(commitAt(placed, item, 'cics'));
      return;
    }
    if (exec.language !== 'SQL') return;
    if (/^COMMIT\b/.test(upper)) {
      commits.push(commitAt(placed, item, 'esql'));
      return;
    }
    const dynamic = dynamicExecution(upper, index, texts, prepared, source.text);
    if (dynamic) {
      appendAll(statements, dynamic.statements.filter((s) => !statements.includes(s)));
      executions.push(placeExecution({ ...dynamic, callSpan: placed.at }, item, cics));
      if (dynamic.action === 'prepare') prepared.set(/^PREPARE\s+([\w-]+)/.exec(upper)![1], executions[executions.length - 1]);
      return;
    }
    const declaresTable = /^DECLARE\s+[\w."$#@-]+\s+TABLE\b/.test(upper);
    // A DCLGEN member's DECLARE TABLE is the member's own statement: read where the member is linted.
    if (declaresTable && placed.unit !== 0) return;
    if (!declaresTable && !/^DECLARE\s+\S+\s+(?:\w+\s+)*CURSOR\b/.test(upper) && !EXECUTED.test(upper)) return;
    const sql = sqlOfBlock(clean, exec.body);
    const origin = placed.unit === 0 ? shifted(exec.body.start) : within(placed.at);
    const parsed = parseSql(sql.text, { origin });
    appendAll(statements, parsed.statements);
    if (!EXECUTED.test(upper)) return;
    const execution: SqlExecution = {
      callSpan: placed.at,
      api: 'esql',
      action: 'executePrepared',
      statements: parsed.statements,
      textKind: 'constant',
      splicedValues: [],
      batched: sql.rowset,
    };
    executions.push(placeExecution(execution, item, cics));
  });
  const result: FrontEndResult = { statements, comments: program.units[0].source.comments, code: { executions, commits } };
  if (program.includes.length > 0) result.includes = program.includes;
  // .sqb is the Db2 LUW precompiler's COBOL; other COBOL with EXEC SQL is, nearly always, a z/OS program.
  result.dialect = /\.sqb$/i.test(source.path) ? 'luw' : 'zos';
  return result;
}

/** The loop, paragraph and connection of an execution. */
function placeExecution(execution: SqlExecution, item: FlowItem | undefined, cics: boolean): SqlExecution {
  execution.connection = cics ? { autocommit: 'off', name: CICS_TASK } : { autocommit: 'off' };
  if (item?.paragraph) execution.inFunction = { name: item.paragraph.name, span: item.paragraph.span };
  if (item?.loop) execution.loop = item.loop;
  if (item?.guarded) execution.guarded = true;
  return execution;
}

/**
 * Dynamic SQL: `PREPARE s FROM :item` (prepared text: the item's, see cobol/dynamic.ts), `EXECUTE s` (runs
 * that prepare), `EXECUTE IMMEDIATE :item`. The api is 'esql-dynamic': its text is compiled when it runs.
 */
function dynamicExecution(upper: string, index: number, texts: DataTexts, prepared: Map<string, SqlExecution>, source: string): Omit<SqlExecution, 'callSpan'> | undefined {
  const read = (name: string) => {
    const text = texts.textOf(name, index);
    if (!text) return { statements: [], splicedValues: [], splices: [], textKind: 'unknown' as const };
    const mapped = buildMappedSql(text);
    const splicedValues = mapped.splices.map((x) => x.fileSpan);
    return { statements: parseSql(mapped.text, { origin: mapped.origin }).statements, splicedValues, splices: splicedValues.map((span) => ({ span, text: source.slice(span.start, span.end) })), textKind: text.kind === 'constant' ? ('variable' as const) : text.kind };
  };
  let m = /^PREPARE\s+([\w-]+)\s+(?:INTO\s+\S+\s+(?:USING\s+\w+\s+)?)?FROM\s+:?\s*([\w-]+)/.exec(upper);
  if (m) return { api: 'esql-dynamic', action: 'prepare', batched: false, ...read(m[2]) };
  m = /^EXECUTE\s+IMMEDIATE\s+:?\s*([\w-]+)/.exec(upper);
  if (m) return { api: 'esql-dynamic', action: 'executeDirect', batched: false, ...read(m[1]) };
  m = /^EXECUTE\s+([\w-]+)/.exec(upper);
  if (!m) return undefined;
  const prepare = prepared.get(m[1]);
  const rowset = /\bFOR\s+(?::\s*[\w-]+|\d+)\s+ROWS\b/.test(upper);
  return { api: 'esql-dynamic', action: 'executePrepared', batched: rowset, statements: prepare?.statements ?? [], splicedValues: [], textKind: prepare?.textKind ?? 'unknown', ...(prepare ? { preparedAt: prepare.callSpan } : {}) };
}

function commitAt(placed: PlacedToken, item: FlowItem | undefined, api: string): CommitCall {
  const commit: CommitCall = { callSpan: placed.at, api, guarded: item?.guarded ?? false };
  if (item?.loop) commit.loop = item.loop;
  return commit;
}

/**
 * The SQL of a block as the parser should see it, same length: hyphens inside COBOL names become underscores
 * (`:WS-REC-ID` is one host variable, not a subtraction; the precompiler wants blanks around a minus), and a rowset clause `FOR n ROWS [ATOMIC …]` (a
 * multi-row INSERT from host-variable arrays, Db2 for z/OS) is blanked and reported as `rowset`.
 */
export function sqlOfBlock(clean: string, body: Span): { text: string; rowset: boolean } {
  let text = underscoreHyphens(clean.slice(body.start, body.end));
  let rowset = false;
  text = text.replace(/\bFOR\s+(?::\s*[\w-]+|\d+)\s+ROWS\b[\s\S]*$/i, (m) => {
    rowset = true;
    return m.replace(/[^\r\n]/g, ' ');
  });
  return { text, rowset };
}

/** Hyphens inside COBOL names outside quotes become underscores (host variables, cursor names like C-TR-FWD). */
function underscoreHyphens(sql: string): string {
  const out = sql.split('');
  let quote = '';
  for (let i = 0; i < out.length; i++) {
    const c = out[i];
    if (quote) {
      if (c === quote || c === '\n') quote = '';
    } else if (c === '\'' || c === '"') quote = c;
    else if (c === '-' && i > 0 && /[A-Za-z0-9_]/.test(out[i - 1]) && /[A-Za-z0-9]/.test(out[i + 1] ?? '') && /[A-Za-z_]/.test(wordStart(out, i - 1))) out[i] = '_';
  }
  return out.join('');
}

/** The first character of the word that ends at `i` (a name starts with a letter; `1-2` is arithmetic). */
function wordStart(chars: readonly string[], i: number): string {
  let j = i;
  while (j > 0 && /[A-Za-z0-9_]/.test(chars[j - 1])) j--;
  return chars[j];
}

function shifted(start: number): SqlOrigin {
  return { toFile: (offset) => start + offset };
}

/** SQL of a copybook reported inside the COPY / INCLUDE statement that brought it in. */
function within(at: Span): SqlOrigin {
  return { toFile: (offset) => at.start + Math.max(0, Math.min(offset, at.end - at.start)) };
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** 1-based line of an offset. */
function upperBound(starts: readonly number[], offset: number): number {
  return partitionPoint(starts, (start) => start <= offset);
}
