// The statements of given kinds in a file, from an index built once per model. A million-line insert
// workload holds ~151,000 statements of which a few hundred are DDL; rules about DDL used to walk all of
// them, each, checking the kind (about 27 walks per lint; ~0.3 s of the 1M-line run, bench/RESULTS.md).
import type { Statement, StatementKind } from '../sql/ast';
import { forEachStatement, hasNestedStatements } from '../sql/walk';
import type { FileModel, RuleReads, StatementIndex } from './types';
import { tickDeadline } from './deadline';

type OfKind<K extends StatementKind> = Extract<Statement, { kind: K }>;

/**
 * The statements of `file` whose kind is one of `kinds`, in file order: the script's statements and those
 * its routines, blocks and dynamic SQL run (an INSERT inside a procedure is an INSERT into its table), not
 * the triggered actions of CREATE TRIGGER (the schema model reads those as the trigger's work).
 * The result is shared between callers: do not modify it.
 */
export function statementsOf<K extends StatementKind>(file: FileModel, ...kinds: K[]): readonly OfKind<K>[] {
  // Rules ask for these per statement too (a rule may loop long): the file's time budget is checked now and then.
  tickDeadline();
  const index = indexOf(file);
  // Most files hold none of most kinds (about 25 rules ask for theirs on every file, most files are small):
  // no key, list or cache entry is made for them.
  let held = 0;
  for (let i = 0; i < kinds.length; i++) if (index.positions.has(kinds[i])) held++;
  if (held === 0) return NONE as readonly OfKind<K>[];
  const key = kinds.length === 1 ? kinds[0] : kinds.join(',');
  let list = index.lists.get(key);
  if (!list) {
    list = merged(index, kinds);
    index.lists.set(key, list);
  }
  return list as readonly OfKind<K>[];
}

const NONE: readonly Statement[] = Object.freeze([]);

/**
 * Whether `file` holds something a rule that declares `reads` can report on (RuleMeta.reads): a statement of
 * one of its kinds where statementsOf() would find it, or code facts. The kinds come from the index the rules'
 * statementsOf() calls share, made once per model: a one-line script holds one kind, and most rules none of it.
 */
export function holdsWhatRuleReads(file: FileModel, reads: RuleReads | undefined): boolean {
  if (!reads) return true;
  if (reads.code && holdsCodeFacts(file)) return true;
  const kinds = reads.statements;
  if (!kinds) return false;
  const positions = indexOf(file).positions;
  for (let i = 0; i < kinds.length; i++) if (positions.has(kinds[i])) return true;
  return false;
}

/**
 * What holdsWhatRuleReads answers on, for every rule at once: the kinds of statement `file` holds where
 * statementsOf() finds them (sorted, joined with ','), and `+code` when it holds code facts a rule reads.
 */
export function heldKey(file: FileModel): string {
  const index = indexOf(file);
  let kinds = index.kindsKey;
  if (kinds === undefined) {
    const positions = index.positions;
    // (Most files hold one kind or two: no array and sort for one.)
    if (positions.size <= 1) for (const kind of positions.keys()) kinds = kind;
    else kinds = [...positions.keys()].sort().join(',');
    kinds ??= '';
    index.kindsKey = kinds;
  }
  return holdsCodeFacts(file) ? `${kinds}+code` : kinds;
}

/** Whether `file` holds code facts a rule that reads code (RuleReads.code) can report on; heldKey's answer too. */
function holdsCodeFacts(file: FileModel): boolean {
  const code = file.code;
  return code !== undefined && (code.executions.length > 0 || code.commits.length > 0 || (code.returnedTexts?.length ?? 0) > 0);
}

function indexOf(file: FileModel): StatementIndex {
  const statements = file.statements;
  const known = file.statementIndex;
  // A model whose statements were replaced or extended since (an editor's incremental update) is indexed again.
  if (known && known.statements === statements && known.length === statements.length) return known;
  const positions = new Map<StatementKind, number[]>();
  const all = workloadStatements(statements);
  for (let i = 0; i < all.length; i++) {
    const kind = all[i].kind;
    const list = positions.get(kind);
    if (list) list.push(i);
    else positions.set(kind, [i]);
  }
  const index: StatementIndex = { statements, length: statements.length, positions, lists: new Map(), all, kindsKey: undefined };
  file.statementIndex = index;
  return index;
}

/** The statements at the positions of several kinds, merged back into file order. */
function merged(index: StatementIndex, kinds: readonly StatementKind[]): Statement[] {
  const lists = kinds.map((k) => index.positions.get(k)).filter((p): p is number[] => p !== undefined && p.length > 0);
  const out: Statement[] = [];
  if (lists.length === 1) {
    for (const i of lists[0]) out.push(index.all[i]);
    return out;
  }
  // Few kinds, each list sorted: take the smallest head each time.
  const heads = lists.map(() => 0);
  for (;;) {
    let best = -1;
    for (let l = 0; l < lists.length; l++) {
      if (heads[l] < lists[l].length && (best < 0 || lists[l][heads[l]] < lists[best][heads[best]])) best = l;
    }
    if (best < 0) return out;
    out.push(index.all[lists[best][heads[best]++]]);
  }
}

/** The statements a file runs, nested ones (routine bodies, dynamic SQL) after the statement that holds them. */
export function workloadStatements(statements: readonly Statement[]): readonly Statement[] {
  if (!hasNestedStatements(statements, { triggers: false })) return statements;
  const all: Statement[] = [];
  forEachStatement(statements, (stmt) => all.push(stmt), { triggers: false });
  return all;
}

/** How much of a file the parser read: statements, those inside bodies, unreadable ones, and ones kept as text. */
export interface Coverage {
  /** The script's statements (or, for code, those of its SQL strings). */
  statements: number;
  /** Statements inside routine, trigger and block bodies, and in SQL text routines build. */
  inBodies: number;
  /** Statements (at any depth) with a parse error, those in another database's dialect aside. */
  parseErrors: number;
  /** Statements written for another database (Oracle, SQL Server, …) that Db2 rejects as they stand. */
  otherDialect: number;
  /** Statements (at any depth) read without error and kept only as text: no model of what is inside (SELECT, GRANT, CLP commands, unknown words). */
  opaque: number;
  /** Statements a SET PASSTHRU session sends to a federated data source (another database's SQL, not read). */
  passedThrough: number;
}

export function coverageOf(file: FileModel): Coverage {
  const coverage: Coverage = { statements: file.statements.length, inBodies: 0, parseErrors: 0, otherDialect: 0, opaque: 0, passedThrough: 0 };
  forEachStatement(file.statements, (stmt, parent) => {
    if (parent) coverage.inBodies++;
    // Each statement counted once: an unreadable one is not also "kept as text".
    if (stmt.parseError?.dialect) coverage.otherDialect++;
    else if (stmt.parseError) coverage.parseErrors++;
    else if (stmt.kind === 'other') {
      if (stmt.passedTo !== undefined) coverage.passedThrough++;
      else coverage.opaque++;
    }
  });
  return coverage;
}
