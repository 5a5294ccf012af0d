// The words of an explained plan: what each piece of hidden work is, the notes on what Explain cannot show,
// and the verdict. Each sentence claims only what the plan or the schema shows, in the direction the
// statement works (a DELETE from a parent checks or changes its dependents; an INSERT checks its parents).
import { displayKey } from '../schema/schema';
import type { HiddenWorkKind, PlanOperator } from './model';
import { sameObject, statementWord, type StatementKind } from './statement';
import type { ExplainContext, Facts, ForeignKeyFact, HiddenPiece, HiddenWorkReport, TriggerFact } from './classify';

const KIND_WORDS: Record<HiddenWorkKind, string> = {
  'foreign-key-check': 'foreign-key check',
  trigger: 'trigger',
  'mqt-maintenance': 'MQT maintenance',
  'trigger-or-mqt': 'trigger or MQT maintenance',
  'ri-cascade': 'RI cascade',
  'check-constraint': 'check constraint',
};

export function hiddenKindLabel(kind: HiddenWorkKind): string {
  return KIND_WORDS[kind];
}

/** Why an extra DML operator writes its table, and what says so. */
export interface WriteCause {
  kind: HiddenWorkKind;
  /** schema: the DDL/catalog names it; unexplained: the schema knows the table but nothing there writes it;
   *  aggregated: the plan applies aggregated rows (MQT maintenance); plan: only the plan's shape. */
  how: 'schema' | 'unexplained' | 'aggregated' | 'plan';
  operator: number;
  table?: string;
  foreignKey?: ForeignKeyFact;
  trigger?: TriggerFact;
}

export interface PieceFacts {
  statementKind: StatementKind;
  target?: string;
  context?: ExplainContext;
  facts: Facts;
  causes: WriteCause[];
}

function opList(ops: PlanOperator[]): string {
  return ops
    .slice()
    .sort((a, b) => a.id - b.id)
    .map((op) => `${op.label} ${op.id}`)
    .join(', ');
}

const names = (keys: string[]) => keys.map(displayKey).join(', ');
const deletedOrChanged = (kind: StatementKind) => (kind === 'delete' ? 'the deleted rows' : kind === 'update' ? 'the changed keys' : 'the deleted or changed rows');

export function describePiece(piece: HiddenPiece, ops: PlanOperator[], f: PieceFacts): void {
  const reads = [...new Set(ops.flatMap((op) => op.objectsRead))].filter((k) => !/^SYSIBM\.GENROW$/i.test(k));
  const writes = [...new Set(ops.flatMap((op) => op.objectsWritten))];
  const t = f.target ? displayKey(f.target) : 'the target';
  const via = reads.length ? ` via ${names(reads)}` : '';
  const statement = statementWord(f.statementKind);
  switch (piece.kind) {
    case 'foreign-key-check': {
      const tables = [...new Set(reads.map((r) => f.facts.baseTableOf(r)).filter((x): x is string => x !== undefined))];
      const parents = f.facts.parents();
      const dependents = f.facts.dependents();
      let parentFk = parents.find((p) => tables.some((x) => sameObject(x, p.parent)));
      const dependentFk = parentFk ? undefined : dependents.find((d) => tables.some((x) => sameObject(x, d.child)));
      const direction = parentFk ? 'parent' : dependentFk ? 'dependent' : f.statementKind === 'insert' ? 'parent' : f.statementKind === 'delete' ? 'dependent' : 'either';
      if (direction === 'parent') {
        if (!parentFk && parents.length === 1) parentFk = parents[0];
        const parent = parentFk?.parent ?? tables[0];
        piece.name = parentFk?.name;
        piece.description = `a foreign-key check on ${t}'s parent${parent ? ` ${displayKey(parent)}` : ''}${via}${parentFk?.name ? ` (constraint ${parentFk.name})` : ''}`;
      } else if (direction === 'dependent' && dependentFk) {
        piece.name = dependentFk.name;
        const rule = (dependentFk.deleteRule ?? 'no action').toUpperCase();
        const fk = `foreign key ${dependentFk.name ?? 'without a name'}`;
        piece.description =
          f.statementKind === 'delete' && (rule === 'CASCADE' || rule === 'SET NULL')
            ? `a read of the dependent table ${displayKey(dependentFk.child)}${via}: the schema you gave makes ${fk} ON DELETE ${rule}, yet the plan only reads the table (plan and schema may not match)`
            : `a check that no row of the dependent table ${displayKey(dependentFk.child)} still references ${deletedOrChanged(f.statementKind)}${via} (${fk}, ON DELETE ${rule})`;
      } else if (direction === 'dependent') {
        const table = tables.find((x) => !sameObject(x, f.target));
        piece.description = `a check that no row of a table depending on ${t}${table ? ` (${displayKey(table)})` : ''} still references ${deletedOrChanged(f.statementKind)}${via}: what a foreign key with ON DELETE RESTRICT or NO ACTION makes Db2 check`;
      } else {
        piece.description = `a foreign-key check on a parent or a dependent table of ${t}${via}`;
      }
      break;
    }
    case 'trigger': {
      const named = f.causes.find((c) => c.trigger);
      const what = writes.length ? ` writing ${names(writes)}` : '';
      piece.name = named?.trigger?.name;
      if (named) piece.description = `trigger ${named.trigger!.name}${what}`;
      else if (f.causes.some((c) => c.how === 'unexplained')) {
        piece.description = `a write to ${names(writes)} that the schema you gave does not explain (no trigger, cascade or MQT there writes it from ${t})`;
      } else piece.description = `a trigger action${what} (another table changed by the ${statement})`;
      break;
    }
    case 'mqt-maintenance': {
      const mqt = [...writes, ...reads].map((k) => f.facts.baseTableOf(k) ?? k)[0];
      piece.name = mqt ? displayKey(mqt) : undefined;
      const m = mqt ? displayKey(mqt) : '(unnamed)';
      piece.description = f.causes.length > 0 && f.causes.every((c) => c.how === 'aggregated')
        ? `maintenance of ${m}, which the plan updates with the changed rows aggregated (GRPBY), as Db2 keeps a REFRESH IMMEDIATE materialized query table current`
        : `maintenance of the REFRESH IMMEDIATE materialized query table ${m}`;
      break;
    }
    case 'trigger-or-mqt': {
      const dml = [...new Set(f.causes.map((c) => ops.find((o) => o.id === c.operator)?.type ?? 'write'))].join('/');
      piece.description = `${/^[AEIOU]/.test(dml) ? 'an' : 'a'} ${dml} of ${names(writes)} done for the ${statement}: a trigger or the maintenance of a materialized query table; the plan alone cannot tell which (give the DDL with --schema)`;
      break;
    }
    case 'ri-cascade': {
      const parts = f.causes.map((c) => {
        const table = c.table ? displayKey(c.table) : 'a dependent table';
        const type = ops.find((o) => o.id === c.operator)?.type;
        if (c.foreignKey) {
          piece.name = piece.name ?? c.foreignKey.name;
          return c.foreignKey.deleteRule === 'set null'
            ? `the ON DELETE SET NULL of foreign key ${c.foreignKey.name ?? '(unnamed)'}: sets the foreign key of the dependent rows of ${table} to NULL`
            : `the ON DELETE CASCADE of foreign key ${c.foreignKey.name ?? '(unnamed)'}: deletes the dependent rows of ${table}`;
        }
        return type === 'UPDATE'
          ? `an UPDATE of ${table}, a table depending on ${t}: what an ON DELETE SET NULL foreign key does (a trigger could do the same; the schema would tell)`
          : `a DELETE of ${table}, a table depending on ${t}: what an ON DELETE CASCADE foreign key does (a trigger could do the same; the schema would tell)`;
      });
      piece.description = parts.length ? parts.join('; ') : `a referential cascade${writes.length ? ` to ${names(writes)}` : ''}`;
      break;
    }
    case 'check-constraint':
      piece.description = `a check-constraint test on ${t}`;
      break;
  }
  piece.description += ` (${opList(ops)})`;
}

/** What each kind of statement does to the indexes of its table, per row. */
const INDEX_WORK: Record<StatementKind, string> = {
  insert: 'every inserted row also adds a key to',
  update: 'every updated row also changes its key (where it sets indexed columns) in',
  delete: 'every deleted row also removes its key from',
  merge: 'every merged row also adds, changes or removes its key in',
  query: 'a query changes none of',
};

const INDEX_WORK_PER_ROW: Record<StatementKind, string> = {
  insert: 'one key insert per row into every index on',
  update: 'one key change per row in every index on the updated columns of',
  delete: 'one key delete per row from every index on',
  merge: 'one key insert, change or delete per row in the indexes on',
  query: 'none for a query on',
};

export function addNotes(report: HiddenWorkReport, context: ExplainContext | undefined, facts: Facts): void {
  const target = report.target;
  const kind = report.statementKind;
  const t = target ? displayKey(target) : 'the target table';
  const statement = statementWord(kind);
  if (!context) {
    report.notes.push(`Explain does not show index maintenance (${INDEX_WORK_PER_ROW[kind]} ${t}); give InsertLint the table's DDL to list those indexes.`);
  } else if (!target || !facts.knows(target)) {
    report.notes.push(`${t} is not in the schema you gave, so its indexes are not known; Explain does not show index maintenance either (it is inside the ${statement} operator's own cost).`);
  } else {
    const indexes = context.indexesOf?.(target);
    if (indexes === undefined) {
      report.notes.push(`Explain does not show index maintenance (${INDEX_WORK_PER_ROW[kind]} ${t}); the schema given does not list those indexes.`);
    } else if (indexes.length > 0) {
      const list = indexes.map((i) => displayKey(i.name) + (i.unique ? ', unique' : '')).join('; ');
      report.notes.push(
        `Explain does not show index maintenance: ${INDEX_WORK[kind]} ${indexes.length === 1 ? 'the index' : `each of the ${indexes.length} indexes`} on ${t} (${list}). That work is inside the ${statement} operator's own cost, not a separate operator.`,
      );
    } else {
      report.notes.push(`The schema declares no index on ${t} (no primary key or unique constraint either), so the ${statement} maintains none (Explain would not show it anyway).`);
    }
  }
  const shared = facts.sharedOperators();
  if (shared.length > 0) {
    report.notes.push(
      `${shared.map((op) => `${op.label} ${op.id}`).join(', ')} feed${shared.length === 1 ? 's' : ''} more than one operator (a shared result read again): its cost is counted once here, while Db2's cumulative costs include it under each reader, so the shares add up to less than 100%.`,
    );
  }
  if (!context || !target || !facts.knows(target)) return;
  if (kind === 'insert' || kind === 'merge') {
    const parents = facts.parents();
    const fkPieces = report.pieces.filter((p) => p.kind === 'foreign-key-check').length;
    if (parents.length > fkPieces) {
      const missing = parents.filter((p) => !report.pieces.some((piece) => piece.name === p.name && p.name));
      if (fkPieces === 0 || missing.length > 0) {
        report.notes.push(`The schema has ${parents.length} enforced foreign key(s) on ${t} but the plan shows ${fkPieces} parent check(s).`);
      }
    }
  }
  if (kind === 'delete') {
    const dependents = facts.dependents();
    const shown = report.pieces.filter((p) => p.kind === 'foreign-key-check' || p.kind === 'ri-cascade').length;
    if (dependents.length > shown) {
      report.notes.push(`The schema has ${dependents.length} enforced foreign key(s) referencing ${t} (${dependents.map((d) => `${displayKey(d.child)} ON DELETE ${(d.deleteRule ?? 'no action').toUpperCase()}`).join('; ')}) but the plan shows ${shown} check(s) or cascade(s) for them.`);
    }
  }
  const event = kind === 'merge' || kind === 'query' ? undefined : kind;
  for (const tr of context.triggersOn(target)) {
    if (tr.timing === 'before' && event && (!tr.events || tr.events.includes(event))) {
      report.notes.push(`BEFORE trigger ${tr.name} runs inside the ${statement}'s input (it computes the new row values), so its cost is not labelled separately.`);
    }
  }
  const checks = context.checkConstraintsOn?.(target) ?? 0;
  if (checks > 0 && (kind === 'insert' || kind === 'update' || kind === 'merge') && !report.pieces.some((p) => p.kind === 'check-constraint')) {
    report.notes.push(`${t} has ${checks} check constraint(s); Db2 evaluates them on each row inside the ${statement}, usually without an operator of their own.`);
  }
}

/** A share as a percentage for people: whole numbers from 10%, one decimal below. */
export function pct(x: number | undefined, unknown = '?%'): string {
  if (x === undefined || !Number.isFinite(x)) return unknown;
  const p = x * 100;
  return p >= 10 || p === 0 ? `${Math.round(p)}%` : `${p.toFixed(1)}%`;
}

/** The shares of one statement as shown: each piece of hidden work (in report order), their sum, the statement's own. */
export interface ShownShares {
  pieces: string[];
  hidden: string;
  main: string;
}

const shownCache = new WeakMap<HiddenWorkReport, ShownShares>();

/**
 * The shares of one statement, rounded together so that what is shown adds up: the pieces add up to the
 * hidden work, and hidden work plus the statement's own share is 100% when they cover the whole cost
 * (largest-remainder rounding, with what neither covers as one more part). Whole percentages, or tenths
 * for all of them when one is below 10% (as pct shows a lone share).
 */
export function shownShares(report: HiddenWorkReport): ShownShares {
  const cached = shownCache.get(report);
  if (cached) return cached;
  const known = (x: number | undefined): x is number => x !== undefined && Number.isFinite(x);
  const values = [...report.pieces.map((p) => p.share), report.mainShare];
  const parts = values.filter(known);
  const covered = parts.reduce((sum, x) => sum + x, 0);
  // (The hidden work in all is below 10% only when each piece is.)
  const tenths = parts.some((x) => x * 100 > 0 && x * 100 < 10);
  const scale = tenths ? 1000 : 100;
  // What neither the pieces nor the statement's own operators cover (RETURN, a shared result counted once).
  const scaled = [...parts, Math.max(0, 1 - covered)].map((x) => x * scale);
  const units = scaled.map(Math.floor);
  let missing = Math.round(scaled.reduce((sum, x) => sum + x, 0)) - units.reduce((sum, x) => sum + x, 0);
  const order = scaled.map((x, i) => i).sort((a, b) => scaled[b] - units[b] - (scaled[a] - units[a]) || a - b);
  for (const i of order) {
    if (missing <= 0) break;
    units[i]++;
    missing--;
  }
  const text = (n: number, exact: number) => (exact === 0 ? '0%' : tenths ? `${(n / 10).toFixed(1)}%` : `${n}%`);
  let k = 0;
  const rounded = values.map((x) => (known(x) ? { n: units[k], exact: parts[k++] } : undefined));
  const pieces = rounded.slice(0, report.pieces.length);
  const main = rounded[report.pieces.length];
  const shown: ShownShares = {
    pieces: pieces.map((r) => (r ? text(r.n, r.exact) : '?%')),
    hidden: pieces.every((r) => r !== undefined)
      ? text(
          pieces.reduce((sum, r) => sum + r!.n, 0),
          pieces.reduce((sum, r) => sum + r!.exact, 0),
        )
      : '?%',
    main: main ? text(main.n, main.exact) : '?%',
  };
  shownCache.set(report, shown);
  return shown;
}

export function formatCost(n: number | undefined): string {
  if (n === undefined) return '?';
  if (n === 0) return '0';
  const a = Math.abs(n);
  if (a >= 1e6 || a < 1e-3) return n.toExponential(3);
  return Number(n.toPrecision(6)).toString();
}

export function verdict(report: HiddenWorkReport, mains: PlanOperator[], total: number | undefined): string {
  const ids = mains.map((m) => m.id).sort((a, b) => a - b);
  const which = ids.length === 1 ? `operator ${ids[0]} with its input` : `operators ${ids.join(', ')} with their inputs`;
  const shown = shownShares(report);
  const own = `the ${statementWord(report.statementKind)} itself (${which}) accounts for ${shown.main}`;
  const costText = total !== undefined ? `${formatCost(total)} timerons` : 'an unknown number of timerons';
  if (report.pieces.length === 0) return `No hidden work in this plan: of the estimated cost of ${costText}, ${own}.`;
  const parts = report.pieces.map((p, i) => `${shown.pieces[i]} ${i === 0 ? 'of the estimated cost ' : ''}is ${p.description}`);
  const joined = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join('; ')}; and ${parts[parts.length - 1]}`;
  const first = joined.charAt(0).toUpperCase() + joined.slice(1);
  return `${first}. In all, hidden work is ${shown.hidden} of the estimated ${costText}; ${own}.`;
}
