// `insertlint checklist [paths…] --base REV [--format markdown]`: a pull-request review checklist of what
// the change since REV does to insert performance. The whole tree under the paths is linted (so the schema
// knows every index, FK and trigger); only the changed files are reported.
import { relative, sep } from 'node:path';
import { findRule, ruleDocUrl } from '../engine/registry';
import { displayKey, type SchemaModel } from '../schema/schema';
import { insertCostSummary } from '../schema/insert-costs';
import { fileSpanOf, type QualifiedName, type Statement } from '../sql/ast';
import { renderChecklist, type ChecklistFile, type ChecklistFinding, type ChecklistTable } from '../output/checklist';
import { changesSince, fileAtRevision, GitError, touchesChangedLines, touchesFinding, untrackedFiles, type ChangedFile, type ChangeSet } from '../ci/git';
import { changedFileIndex, changedFileOf, FAIL_ON_LEVELS, ciFindings, meetsSeverity, type CiFinding } from '../ci/check-ci';
import { buildFileModel } from '../engine/workspace-files';
import { LineIndex } from '../engine/lines';
import { decodeSource } from './files';
import { plainLine } from '../output/escape';
import { parseArgs, single, oneOf, UsageError, type CliIo } from './args';
import { type LintRun } from './lint-run';
import { lintForCommand, writeOutput } from './lint-command';

export const CHECKLIST_FORMATS = ['markdown'] as const;

export const CHECKLIST_USAGE = `insertlint checklist [paths…] --base REV [--format markdown] [--fail-on error|warning|information|never] [--output FILE] [--config FILE] [--rule id=severity|off]… [--schema PATH]… [--terminator X]
  Prints a Markdown review checklist for the files changed since REV (compared with the merge base of REV and HEAD):
  findings on changed lines first, the per-insert work of every table the change inserts into or alters, a verdict.
  The schema is read from the whole tree under the paths (default: .), plus --schema PATH… and "schema" in the config.
  --output FILE writes it to FILE instead.
  Exit 0 when no finding on a changed line is at or above --fail-on (default: warning), 1 when one is, 2 for errors.`;

/**
 * The tables a statement changes the insert workload of, with what it does to them. `whole` says whether the
 * change wrote the whole statement (new DDL) or edited part of it.
 */
function touchedTables(stmt: Statement, whole: boolean): { name: QualifiedName; role: string }[] {
  switch (stmt.kind) {
    case 'insert':
      return [{ name: stmt.target, role: 'inserted into' }];
    case 'merge':
      return stmt.hasInsert ? [{ name: stmt.target, role: 'inserted into (MERGE)' }] : [];
    case 'import':
      return [{ name: stmt.table, role: 'inserted into (IMPORT)' }];
    case 'createTable':
      return [
        { name: stmt.table, role: whole ? 'created' : 'CREATE TABLE edited' },
        ...(stmt.mqt?.refresh === 'immediate' ? stmt.mqt.baseTables.map((name) => ({ name, role: 'REFRESH IMMEDIATE MQT over it' })) : []),
      ];
    case 'alterTable':
      return [{ name: stmt.table, role: 'altered' }];
    case 'createIndex':
      return [{ name: stmt.table, role: `${stmt.cluster ? 'clustering index' : 'index'} ${stmt.index.name} ${whole ? 'added' : 'edited'}` }];
    case 'createTrigger':
      return stmt.events.includes('insert') ? [{ name: stmt.table, role: `INSERT trigger ${stmt.trigger.name} ${whole ? 'added' : 'edited'}` }] : [];
    default:
      return [];
  }
}

/** What deleting a file that held `stmt` takes away from a table's insert workload. */
function removedTables(stmt: Statement): { name: QualifiedName; role: string }[] {
  switch (stmt.kind) {
    case 'createTable':
      return [{ name: stmt.table, role: 'CREATE TABLE deleted' }];
    case 'alterTable':
      return [{ name: stmt.table, role: 'ALTER TABLE deleted' }];
    case 'createIndex':
      return [{ name: stmt.table, role: `${stmt.cluster ? 'clustering index' : 'index'} ${stmt.index.name} deleted` }];
    case 'createTrigger':
      return stmt.events.includes('insert') ? [{ name: stmt.table, role: `INSERT trigger ${stmt.trigger.name} deleted` }] : [];
    default:
      return [];
  }
}

function allLinesChanged(changed: ChangedFile, start: number, end: number): boolean {
  if (changed.allLinesChanged) return true;
  for (let n = start; n <= end; n++) if (!changed.changedLines.has(n)) return false;
  return true;
}

interface TableUse {
  key: string;
  name: QualifiedName;
  stmt: Statement;
  roles: Map<string, string[]>;
}

function collectTables(run: LintRun, schema: SchemaModel, linted: { file: string; changed: ChangedFile }[], changes: ChangeSet): ChecklistTable[] {
  const uses = new Map<string, TableUse>();
  const note = (name: QualifiedName, stmt: Statement, role: string, where: string) => {
    const table = schema.table(name, stmt);
    const key = table?.key ?? schema.keyOf(name, stmt);
    let use = uses.get(key);
    if (!use) {
      use = { key, name, stmt, roles: new Map() };
      uses.set(key, use);
    }
    const list = use.roles.get(role) ?? [];
    list.push(where);
    use.roles.set(role, list);
  };
  for (const { file, changed } of linted) {
    const model = run.workspace.model(file)!;
    const lines = run.workspace.lines(file)!;
    const shown = changed.repoPath;
    for (const stmt of model.statements) {
      const span = fileSpanOf(stmt.origin, stmt.span);
      const start = lines.position(span.start).line + 1;
      const end = lines.position(Math.max(span.start, span.end - 1)).line + 1;
      if (!touchesChangedLines(changed, start, end)) continue;
      for (const { name, role } of touchedTables(stmt, allLinesChanged(changed, start, end))) note(name, stmt, role, `${shown}:${start}`);
    }
  }
  // Deleted SQL files can take DDL away (an index, a trigger); their old text says which tables lost what.
  for (const deleted of changes.files.filter((f) => f.status === 'deleted')) {
    if (run.workspace.languageOf(deleted.path) !== 'sql') continue;
    const bytes = fileAtRevision(changes.root, changes.baseCommit, deleted.repoPath, run.config.maxFileBytes);
    const read = bytes && decodeSource(bytes);
    if (!read || 'skip' in read) continue;
    const model = buildFileModel({ path: deleted.path, text: read.text, language: 'sql' });
    const lines = new LineIndex(read.text);
    for (const stmt of model.statements) {
      const start = lines.position(stmt.origin.toFile(stmt.span.start)).line + 1;
      for (const { name, role } of removedTables(stmt)) note(name, stmt, role, `${deleted.repoPath}:${start}`);
    }
  }
  return [...uses.values()]
    .sort((a, b) => displayKey(a.key).localeCompare(displayKey(b.key)))
    .map((use) => {
      const table = schema.tableByKey(use.key);
      const roles = [...use.roles].map(([role, where]) => `${role} (${where.slice(0, 3).join(', ')}${where.length > 3 ? ', …' : ''})`);
      const costs = table ? insertCostSummary(table, schema) : [];
      return { name: displayKey(use.key), roles, defined: Boolean(table?.definition), costs };
    });
}

function toItem(d: CiFinding, shownPath: string, onChangedLine: boolean, failOn: (typeof FAIL_ON_LEVELS)[number], docsBaseUrl?: string): ChecklistFinding {
  return {
    displayPath: shownPath,
    line: d.line,
    column: d.column,
    rule: d.rule,
    severity: d.severity,
    message: d.message,
    docUrl: findRule(d.rule) ? ruleDocUrl(d.rule, docsBaseUrl) : undefined,
    blocking: onChangedLine && failOn !== 'never' && meetsSeverity(d.severity, failOn),
  };
}

export async function runChecklistCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, { values: ['base', 'format', 'config', 'rule', 'fail-on', 'output', 'schema', 'terminator', 'encoding', 'docs-url', 'file-time-budget'], flags: ['help'] });
  if (args.flags.has('help')) {
    io.stdout(CHECKLIST_USAGE + '\n');
    return 0;
  }
  oneOf(single(args, 'format'), CHECKLIST_FORMATS, 'format', 'markdown');
  const base = single(args, 'base');
  if (!base) throw new UsageError('--base REV is required (the revision the change is compared with, e.g. origin/main or the PR base SHA)');
  const failOn = oneOf(single(args, 'fail-on'), FAIL_ON_LEVELS, 'fail-on', 'warning');

  let changes: ChangeSet;
  try {
    changes = changesSince(io.cwd, base);
  } catch (error) {
    if (error instanceof GitError) {
      io.stderr(`insertlint checklist: ${plainLine(error.message)}\n`);
      return 2;
    }
    throw error;
  }
  if (changes.warning) io.stderr(`insertlint checklist: ${plainLine(changes.warning)}\n`);

  // The checklist shows no quick fixes: they need not be worked out.
  const run = await lintForCommand(args, io, { fixes: false });
  if (typeof run === 'number') return run;

  // Reviewers read paths as the pull request shows them: relative to the repository root.
  const index = changedFileIndex(changes);
  const linted: { file: string; changed: ChangedFile }[] = [];
  for (const file of run.files) {
    const changed = changedFileOf(index, file);
    if (changed) linted.push({ file, changed });
  }
  const lintedChanges = new Set(linted.map((l) => l.changed));
  // New files not yet added are in no diff: say so, or a local run before committing seems to have read them.
  const untracked = untrackedFiles(changes.root);
  const notCompared = run.files.filter((f) => untracked.has(f));
  if (notCompared.length > 0) {
    const names = notCompared.slice(0, 3).map((f) => plainLine(relative(changes.root, f).split(sep).join('/')));
    io.stderr(`insertlint checklist: ${notCompared.length} untracked file${notCompared.length > 1 ? 's are' : ' is'} not part of the change (${names.join(', ')}${notCompared.length > 3 ? ', …' : ''}); git add (or git add -N) to include ${notCompared.length > 1 ? 'them' : 'it'}\n`);
  }
  const skipped = new Map(run.skipped.map((s) => [s.path, s.reason]));
  const notLinted = changes.files
    .filter((f) => !lintedChanges.has(f))
    .map((f) => ({
      displayPath: f.repoPath,
      reason: f.status === 'deleted' ? 'deleted' : (skipped.get(f.path) ?? 'not a file InsertLint lints, or outside the given paths'),
    }));

  const byFile = new Map<string, CiFinding[]>();
  for (const d of ciFindings(run, false)) {
    const list = byFile.get(d.file) ?? [];
    list.push(d);
    byFile.set(d.file, list);
  }
  const files: ChecklistFile[] = linted.map(({ file, changed }) => {
    const findings = byFile.get(file) ?? [];
    const visible = findings.filter((d) => !d.suppressed);
    const onChanged = visible.filter((d) => touchesFinding(changed, d));
    const elsewhere = visible.filter((d) => !onChanged.includes(d));
    return {
      displayPath: changed.repoPath,
      status: changed.status === 'deleted' ? 'modified' : changed.status,
      oldDisplayPath: changed.oldRepoPath,
      onChangedLines: onChanged.map((d) => toItem(d, changed.repoPath, true, failOn, run.docsBaseUrl)),
      elsewhere: elsewhere.map((d) => toItem(d, changed.repoPath, false, failOn, run.docsBaseUrl)),
      suppressed: findings.length - visible.length,
    };
  });

  const tables = collectTables(run, run.workspace.schema, linted, changes);
  const checklist =
    renderChecklist({
      base,
      baseCommit: changes.baseCommit,
      mergeBase: changes.mergeBase,
      changedFileCount: changes.files.length,
      files,
      notLinted,
      tables,
      failOn: failOn === 'never' ? undefined : failOn,
    }) + '\n';
  const output = single(args, 'output');
  if (output === undefined) io.stdout(checklist);
  else if (!writeOutput(io, output, checklist)) return 2;
  return files.some((f) => f.onChangedLines.some((d) => d.blocking)) ? 1 : 0;
}
