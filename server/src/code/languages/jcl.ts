// z/OS JCL (.jcl) and control-card members (.ctl): the SQL that DSNTEP2/DSNTEP4/DSNTIAD/DSNTIAUL steps read
// from SYSIN is a script as a CLP script is (the script forms of the rules apply, autocommit off: those
// programs commit at the end), and DSNUTILB's LOAD control statements make their tables bulk targets. A .ctl
// member holds either utility statements or SQL, run by the JCL that names it. Offsets stay the file's.
import type { FrontEndResult } from '../../engine/types';
import type { Comment, Span, Statement } from '../../sql/ast';
import { parseSql } from '../../sql/parser';
import { inferTerminator } from '../../sql/terminator';
import type { SqlExecution } from '../../code-model/types';
import type { HostLanguage } from '../host-language';
import { looksLikeJcl, maskOutside, readJcl } from '../jcl/jcl';
import { appendAll } from '../../engine/append';

export const jclLanguage: HostLanguage = {
  languages: ['jcl'],
  grammars: [],
  read(source) {
    return readJclFile(source.text);
  },
};

/** Programs that run the SQL statements of SYSIN. */
const SQL_PROGRAMS = /^(?:DSNTEP\w*|DSNTIAD|DSNTIAUL|DSNTIAUP)$/;
/** Programs and procedures that run utility control statements (LOAD, REORG …). */
const UTILITY_PROGRAMS = /^(?:DSNUTILB|DSNUPROC|DSNUTILS)$/;
/** Words that start a utility control statement. */
const UTILITY_WORDS = /^\s*(LOAD|REORG|RUNSTATS|COPY|COPYTOCOPY|TEMPLATE|LISTDEF|OPTIONS|REBUILD|RECOVER|CHECK|QUIESCE|UNLOAD|MODIFY|REPAIR|MERGECOPY|REPORT|DIAGNOSE|STOSPACE)\b/i;

export function readJclFile(text: string): FrontEndResult {
  const statements: Statement[] = [];
  const executions: SqlExecution[] = [];
  const comments: Comment[] = [];
  const addScript = (masked: string, span: Span, program: string) => {
    const script = readScript(masked, span);
    appendAll(statements, script.statements);
    appendAll(comments, script.comments);
    if (script.statements.length > 0) executions.push(scriptExecution(span, program, script.statements));
  };
  if (!looksLikeJcl(text)) {
    // Oracle's SQL*Loader uses .ctl too (LOAD DATA INFILE … FIELDS TERMINATED BY …): not Db2's.
    if (/\bINFILE\b|\bFIELDS\s+TERMINATED\s+BY\b/i.test(text)) return { statements: [], comments: [], leftOut: 'an Oracle SQL*Loader control file, not Db2 input' };
    // A control-card member: utility statements, or SQL for DSNTEP2 & co.
    const span = { start: 0, end: text.length };
    const masked = maskOutside(text, [span]);
    if (UTILITY_WORDS.test(masked.replace(/\/\*[\s\S]*?\*\/|--[^\n]*/g, (c) => c.replace(/[^\n]/g, ' ')))) appendAll(statements, readUtility(masked, span, comments));
    else addScript(masked, span, 'DSNTEP2');
    return { statements, comments, code: { executions, commits: [] }, dialect: 'zos' };
  }
  const jcl = readJcl(text);
  appendAll(comments, jcl.comments);
  const masked = maskOutside(text, jcl.steps.flatMap((s) => s.data.filter((d) => d.dd !== 'SYSTSIN').map((d) => d.span)));
  for (const step of jcl.steps) {
    const program = step.runs ?? step.program;
    for (const data of step.data) {
      if (data.dd !== 'SYSIN') continue;
      if (SQL_PROGRAMS.test(program)) addScript(masked, data.span, program);
      else if (UTILITY_PROGRAMS.test(step.program)) appendAll(statements, readUtility(masked, data.span, comments));
    }
  }
  return { statements, comments, code: { executions, commits: [] }, dialect: 'zos' };
}

/** `<DB2DBID>`: a placeholder of a template job, filled in before it is submitted; read as the name it stands for. */
const PLACEHOLDER = /<([A-Za-z][\w#@$]*)>/g;

function readScript(masked: string, span: Span): { statements: Statement[]; comments: Comment[] } {
  const text = masked.slice(span.start, span.end).replace(PLACEHOLDER, ' $1 ');
  const parsed = parseSql(text, { origin: { toFile: (o) => span.start + o }, terminator: inferTerminator(text)?.terminator });
  return { statements: parsed.statements, comments: parsed.comments.map((c) => ({ ...c, span: { start: c.span.start + span.start, end: c.span.end + span.start } })) };
}

/** Utility control statements, each from its utility word to the next; LOAD is parsed (grammar/zos.ts), the others are not needed. */
function readUtility(masked: string, span: Span, comments: Comment[]): Statement[] {
  const text = masked.slice(span.start, span.end);
  const starts: number[] = [];
  const word = new RegExp(UTILITY_WORDS.source.replace('^\\s*', '(?:^|\\n)[ \\t]*'), 'gi');
  for (let m = word.exec(text); m; m = word.exec(text)) starts.push(m.index + m[0].length - m[1].length);
  const out: Statement[] = [];
  starts.forEach((start, k) => {
    const end = k + 1 < starts.length ? starts[k + 1] : text.length;
    if (!/^LOAD\b/i.test(text.slice(start, start + 5))) return;
    const base = span.start + start;
    const parsed = parseSql(text.slice(start, end), { origin: { toFile: (o) => base + o }, terminator: ';' });
    appendAll(out, parsed.statements);
    appendAll(comments, parsed.comments.map((c) => ({ ...c, span: { start: c.span.start + base, end: c.span.end + base } })));
  });
  return out;
}

function scriptExecution(span: Span, program: string, statements: Statement[]): SqlExecution {
  return { callSpan: span, api: program.toLowerCase(), action: 'executeDirect', statements, textKind: 'constant', splicedValues: [], batched: false, script: true, connection: { autocommit: 'off' } };
}
