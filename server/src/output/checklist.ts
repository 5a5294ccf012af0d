// The pull-request review checklist in Markdown: findings as `- [ ]` items grouped by file (changed lines
// first), the per-insert work of every table the change touches with the seed's measured costs, a verdict.
// Pure rendering: the checklist command gathers the data.
import type { Severity } from '../engine/types';
import type { InsertCostLine } from '../schema/insert-costs';
import { markdownText } from './escape';

/** Findings that predate the change, shown per file before the rest are only counted. */
export const MAX_ELSEWHERE_PER_FILE = 10;
/** File names listed in the "No findings" and "Not linted" lines before the rest are only counted. */
export const MAX_LISTED_FILES = 30;

export interface ChecklistFinding {
  displayPath: string;
  line: number;
  column: number;
  rule: string;
  severity: Severity;
  message: string;
  /** Link to the rule's documentation, when the rule is in the catalogue. */
  docUrl?: string;
  /** On a changed line and at or above the fail-on severity. */
  blocking: boolean;
}

export interface ChecklistFile {
  displayPath: string;
  status: 'added' | 'modified' | 'renamed' | 'copied' | 'typeChanged';
  oldDisplayPath?: string;
  onChangedLines: ChecklistFinding[];
  elsewhere: ChecklistFinding[];
  suppressed: number;
}

export interface ChecklistTable {
  /** Display name: SCHEMA.NAME or NAME. */
  name: string;
  /** What the change does to it, e.g. "inserted into (load.sql:3)", "altered (ddl.sql:10)". */
  roles: string[];
  /** False when no CREATE TABLE for it is in the analysed paths (its work may be undercounted). */
  defined: boolean;
  costs: InsertCostLine[];
}

export interface ChecklistInput {
  /** The base as given and the commit actually compared with. */
  base: string;
  baseCommit: string;
  mergeBase: boolean;
  changedFileCount: number;
  files: ChecklistFile[];
  /** Changed files that were not linted, with why (deleted, not a linted type, outside the paths…). */
  notLinted: { displayPath: string; reason: string }[];
  tables: ChecklistTable[];
  /** The severity at or above which a finding on a changed line blocks; undefined: nothing blocks. */
  failOn?: Severity;
}

/** Escapes Markdown inline syntax in text that comes from files or messages. */
export function escapeMarkdown(text: string): string {
  return markdownText(text).replace(/[\\`*_[\]<>|#~]/g, '\\$&');
}

/** An inline code span that survives backticks in the content. */
export function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${markdownText(text)}${pad}${fence}`;
}

/** The first sentence of a message: reviewers get the why in one line and the rule doc for the rest. */
export function firstSentence(message: string, max = 220): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.!?](\s|$)/);
  const sentence = end >= 0 ? flat.slice(0, end + 1) : flat;
  return sentence.length > max ? sentence.slice(0, max - 1).trimEnd() + '…' : sentence;
}

/** A path as one shell word: as it is when plain, else single-quoted. */
function shellWord(path: string): string {
  return /^[\w./@%+=:,-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

function plural(n: number, word: string, many = word + 's'): string {
  return `${n} ${n === 1 ? word : many}`;
}

function item(f: ChecklistFinding): string {
  const doc = f.docUrl ? ` ([why and how to fix](${f.docUrl}))` : '';
  const mark = f.blocking ? ' **blocking**' : '';
  return `- [ ] ${codeSpan(`${f.displayPath}:${f.line}`)} ${codeSpan(f.rule)} (${f.severity}${mark}): ${escapeMarkdown(firstSentence(f.message))}${doc}`;
}

function fileHeading(file: ChecklistFile): string {
  const status =
    file.status === 'renamed' && file.oldDisplayPath
      ? ` (renamed from ${codeSpan(file.oldDisplayPath)})`
      : file.status === 'copied' && file.oldDisplayPath
        ? ` (copied from ${codeSpan(file.oldDisplayPath)})`
        : file.status === 'added'
          ? ' (new file)'
          : '';
  return `#### ${codeSpan(file.displayPath)}${status}`;
}

function costTable(table: ChecklistTable): string[] {
  const present = table.costs.filter((c) => c.present);
  const absent = table.costs.filter((c) => !c.present);
  const out: string[] = [];
  const roles = table.roles.length ? ` — ${table.roles.map(escapeMarkdown).join('; ')}` : '';
  out.push(`#### ${codeSpan(table.name)}${roles}`, '');
  if (!table.defined) out.push(`_No CREATE TABLE for ${escapeMarkdown(table.name)} in the analysed paths: only the DDL found is counted._`, '');
  if (present.length) {
    out.push('| Work per inserted row | On this table | Db2 INSERT tips measured |', '| --- | --- | --- |');
    for (const c of present) {
      out.push(`| ${escapeMarkdown(c.label)} | ${escapeMarkdown(c.detail)} | ${escapeMarkdown(c.factorText)} (${escapeMarkdown(c.source)}) |`);
    }
    out.push('');
  }
  // What the table has that costs no per-row work: NOT ENFORCED keys, REFRESH DEFERRED MQTs, LOBs no insert writes.
  const notes = absent.filter((c) => c.detail !== 'none').map((c) => `${c.label}: ${c.detail}`);
  if (!present.length) {
    out.push(`No per-insert work beyond writing the row and its log record.${notes.length ? ` (${escapeMarkdown(notes.join('; '))})` : ''}`, '');
  } else if (absent.length) {
    out.push(`Not on this table: ${absent.map((c) => escapeMarkdown(c.label)).join(', ')}.${notes.length ? ` (${escapeMarkdown(notes.join('; '))})` : ''}`, '');
  }
  return out;
}

export function renderChecklist(input: ChecklistInput): string {
  const out: string[] = [];
  const baseShort = input.baseCommit.slice(0, 12);
  const compared = input.base.startsWith(baseShort) || baseShort.startsWith(input.base)
    ? codeSpan(baseShort)
    : `${codeSpan(input.base)} (compared with ${codeSpan(baseShort)}${input.mergeBase ? ', its merge base with HEAD' : ''})`;
  out.push('## InsertLint review checklist', '');
  out.push(`Changes since ${compared}: ${plural(input.changedFileCount, 'changed file')}, ${input.files.length} linted.`, '');

  const all = input.files.flatMap((f) => [...f.onChangedLines, ...f.elsewhere]);
  out.push('### Findings', '');
  const withFindings = input.files.filter((f) => f.onChangedLines.length || f.elsewhere.length);
  if (withFindings.length === 0) out.push('No findings in the changed files.', '');
  for (const file of withFindings) {
    out.push(fileHeading(file), '');
    if (file.onChangedLines.length) {
      out.push('On lines this change touches:', '', ...file.onChangedLines.map(item), '');
    }
    if (file.elsewhere.length) {
      // Old findings are context, not the review's subject: a few are shown, the rest counted.
      const shown = file.elsewhere.slice(0, MAX_ELSEWHERE_PER_FILE);
      const rest = file.elsewhere.length - shown.length;
      out.push('Elsewhere in this file (already there before this change):', '', ...shown.map(item));
      if (rest > 0) out.push(`- … and ${plural(rest, 'more finding')} (run ${codeSpan(`insertlint check ${shellWord(file.displayPath)}`)} to see them)`);
      out.push('');
    }
    if (file.suppressed) out.push(`_${plural(file.suppressed, 'finding')} suppressed by insertlint-disable comments._`, '');
  }
  const clean = input.files.filter((f) => !f.onChangedLines.length && !f.elsewhere.length);
  if (clean.length && withFindings.length) {
    const names = clean.slice(0, MAX_LISTED_FILES).map((f) => codeSpan(f.displayPath));
    if (clean.length > MAX_LISTED_FILES) names.push(`${clean.length - MAX_LISTED_FILES} more`);
    out.push(`No findings: ${names.join(', ')}.`, '');
  }
  if (input.notLinted.length) {
    const names = input.notLinted.slice(0, MAX_LISTED_FILES).map((n) => `${codeSpan(n.displayPath)} (${escapeMarkdown(n.reason)})`);
    if (input.notLinted.length > MAX_LISTED_FILES) names.push(`${input.notLinted.length - MAX_LISTED_FILES} more`);
    out.push(`Not linted: ${names.join(', ')}.`, '');
  }

  out.push('### Per-insert work of the tables this change touches', '');
  if (input.tables.length === 0) {
    out.push('The change inserts into, creates or alters no table that InsertLint can see.', '');
  } else {
    for (const table of input.tables) out.push(...costTable(table));
    out.push(
      '_Factors: elapsed time of 100,000 rows inserted by CLI array inserts with that work, divided by the same inserts without it (Db2 INSERT tips, Appendix A, baseline 31.51 s). Each kind of work was measured alone, so the factors are not multiplied._',
      '',
    );
  }

  const blocking = all.filter((f) => f.blocking).length;
  const onChanged = input.files.reduce((n, f) => n + f.onChangedLines.length, 0);
  out.push('### Verdict', '');
  const rule = input.failOn ? `blocking: on a changed line and ${input.failOn} or worse` : 'nothing blocks (--fail-on never)';
  out.push(
    `**${plural(all.length, 'finding')}, ${blocking} blocking** (${rule}); ${onChanged} on changed lines, ${all.length - onChanged} elsewhere in the changed files.`,
    '',
  );
  return out.join('\n');
}
