// Enforced foreign keys on a table that receives bulk inserts: a parent lookup per row and key.
import type { Rule, RuleContext } from '../server/src/engine/types';
import { statementsOf } from '../server/src/engine/statements';
import type { Span, Statement } from '../server/src/sql/ast';
import { displayKey, type ForeignKeyInfo, type InsertTargetInfo, type SchemaModel, type TableInfo } from '../server/src/schema/schema';
import { extraForCount, knownVolume } from './support/known-volume';
import type { MovedDdl } from '../server/src/engine/types';
import { FK_SECONDS, secsOf } from './support/measurements';
import { bulkTargetFor, bulkWhy, laterLoad, listNames, loadInOtherFile, moveAfterLoadReport, statementAt, statementsAt, tableName, type LaterLoad } from './support/targets';

const EnforcedForeignKeyRule: Rule = {
  meta: {
    id: 'enforced-foreign-key',
    description: 'Enforced foreign key on a table that receives bulk inserts',
    defaultSeverity: 'warning',
    reads: { statements: ['createTable', 'alterTable'] },
    evidence: ['Db2 INSERT tips, test 11', 'Db2 INSERT tips, test 14', 'Db2 INSERT tips, test 15', 'Db2 INSERT tips, test 16', 'Db2 INSERT tips, test 17'],
    fixable: true,
    messages: {
      enforced:
        'Foreign key {fk} on bulk target {table} ({why}) checks {parent} for every inserted row{count}. Db2 looks up the parent through its primary-key index{nullKey}. Measured on 100,000 inserts (Db2 INSERT tips, tests 14 and 15): 55.4 s with one enforced foreign key, 72.7 s with two, against 31.5 s without (test 11){afterLoad}.{volume} {advice}',
      enforcedMany:
        '{n} enforced foreign keys on bulk target {table} ({why}) each check a parent per inserted row{count}. They are {fks} (parents: {parents}). Db2 looks up each parent through its primary-key index{nullKey}. Measured on 100,000 inserts (Db2 INSERT tips, tests 14 and 15): 55.4 s with one enforced foreign key, 72.7 s with two, against 31.5 s without (test 11){afterLoad}.{volume} {advice}',
      // Its part of one finding with index-count's, when both say to move DDL after the same load (MoveAfterLoad).
      enforcedPart:
        '{keysPart}: each inserted row looks up its parent through the primary-key index{nullKeyPart}. 100,000 inserts took {partFigure} (Db2 INSERT tips, {partTests}).{volume}',
    },
  },
  check(context) {
    const { file, schema, report } = context;
    // One finding per table: its enforced keys that this file adds and its inserts pay for (an upgrade step adds
    // four to each of three tables; twelve findings said the same thing twelve times).
    const byTable = new Map<TableInfo, { target: InsertTargetInfo; keys: { fk: ForeignKeyInfo; stmt: Statement }[] }>();
    for (const stmt of statementsOf(file, 'createTable', 'alterTable')) {
      if (stmt.kind !== 'createTable' && stmt.kind !== 'alterTable') continue;
      const table = schema.table(stmt.table, stmt);
      if (!table) continue;
      const own = table.foreignKeys.filter((fk) => fk.stmt === stmt && fk.enforced);
      if (own.length === 0) continue;
      const target = bulkTargetFor(schema, table, { file: file.source.path, stmt });
      if (!target) continue;
      for (const fk of own) {
        if (keyNeverInserted(schema, table, target, fk)) continue;
        const group = byTable.get(table);
        if (group) group.keys.push({ fk, stmt });
        else byTable.set(table, { target, keys: [{ fk, stmt }] });
      }
    }
    for (const [table, { target, keys }] of byTable) {
      const enforcedCount = table.foreignKeys.filter((fk) => fk.enforced).length;
      const [first] = keys;
      const many = keys.length > 1;
      const what = advice(context, target, keys, many);
      const volume = knownVolume(schema, target, ...extraSeconds(enforcedCount));
      const fks = listNames(keys.map((k) => keyName(k.fk)), 4);
      const parents = listNames([...new Set(keys.map((k) => displayKey(k.fk.parentKey)))], 4);
      const nullable = keys.some((k) => k.fk.constraint.columns.some((c) => !table.columns.find((column) => column.name === c)?.notNull));
      report({
        messageId: many ? 'enforcedMany' : 'enforced',
        data: {
          fk: keyName(first.fk),
          fks,
          parent: displayKey(first.fk.parentKey),
          parents,
          keysPart: many ? `Foreign keys ${fks} (parents: ${parents})` : `Foreign key ${fks} (parent: ${parents})`,
          table: tableName(table),
          why: bulkWhy(target),
          n: keys.length,
          count: !many ? (enforcedCount > 1 ? `; it has ${enforcedCount} enforced foreign keys, each checked per row` : '') : enforcedCount > keys.length ? `; the table has ${enforcedCount} in all` : '',
          advice: what.advice,
          volume: volume.sentence,
          // The figures of keys added after the inserts only where that can be done (not for a routine's rows).
          afterLoad: what.noLoad ? '' : '; adding the same keys after the inserts brought the totals to 32.8 s and 38.9 s (tests 16 and 17)',
          // Said only where a key column may hold NULL (seBankDemoDDL's keys are NOT NULL: every row is checked).
          nullKey: nullable ? '; a row whose key is NULL is not checked' : '',
          nullKeyPart: nullable ? ' (a NULL key is not checked)' : '',
          // The figure of as many keys as the table has (one, or two for two or more), not always two's.
          partFigure: enforcedCount === 1 ? `${secsOf(FK_SECONDS[0])} with one enforced foreign key and 31.5 s with none, 32.8 s in all with the key added after them` : `${secsOf(FK_SECONDS[1])} with two enforced foreign keys and 31.5 s with none, 38.9 s in all with the two added after them`,
          partTests: enforcedCount === 1 ? 'tests 14, 11 and 16' : 'tests 15, 11 and 17',
        },
        stmt: first.stmt,
        span: spanIn(first.stmt, first.fk),
        fix: what.notEnforced ? notEnforcedFix(keys) : undefined,
        // Nothing to change (no load to wait for, NOT ENFORCED no option): a hint; else as the known volume allows.
        ...(what.onlyKnow ? { maxSeverity: 'hint' as const } : volume.maxSeverity ? { maxSeverity: volume.maxSeverity } : {}),
        ...(what.move
          ? {
              moveAfterLoad: moveAfterLoadReport(context, table, what.move, {
                cost: `${enforcedCount} enforced foreign key${enforcedCount > 1 ? 's' : ''}`,
                partMessageId: 'enforcedPart',
                kind: 'enforced foreign keys',
                perRow: 'looks up a parent for each foreign key',
                figure: enforcedCount === 1 ? ONE_KEY_FIGURE : FIGURE,
                particular: volume.sentence !== '',
              }),
            }
          : {}),
      });
    }
  },
};

/**
 * What to do, and whether NOT ENFORCED is part of it. When the load is in this file after the keys (an upgrade
 * step that adds keys, then copies rows in), moving them after it is the whole fix. When the rows come from a
 * routine, each time it runs, there is no load to wait for. NOT ENFORCED, when the loader checks the parents, is
 * never offered for a key whose ON DELETE CASCADE or SET NULL Db2 would stop carrying out. `noLoad`: the rows come
 * from a routine (tests 16-17, keys added after the inserts, do not apply).
 */
function advice(
  context: RuleContext,
  target: InsertTargetInfo,
  keys: { fk: ForeignKeyInfo; stmt: Statement }[],
  many: boolean,
): { advice: string; notEnforced: boolean; onlyKnow?: boolean; noLoad?: boolean; move?: { load: LaterLoad; moves: string[]; ddl: MovedDdl[] } } {
  const it = many ? 'them' : 'it';
  const load = laterLoad(context, target, keys.map((k) => k.stmt));
  if (load) {
    const after = `after ${load.text}`;
    const altered = [...new Set(keys.filter((k) => k.stmt.kind === 'alterTable').map((k) => k.stmt))];
    const created = keys.filter((k) => k.stmt.kind === 'createTable');
    const alters = altered.length > 0 ? statementsAt('ALTER TABLE … ADD CONSTRAINT', altered, context.lineOf) : undefined;
    const where = created.length > 0
      ? `Add ${it} after the load instead: take ${it} out of the CREATE TABLE and add ${it} with ALTER TABLE … ADD CONSTRAINT ${after}.`
      : `Add ${it} after the load instead: move ${alters} ${after}.`;
    // For one finding with the indexes to move after the same load: what to move, each statement by its line.
    const tables = [...new Set(created.map((k) => k.stmt))];
    const fromCreate = created.length > 0 ? `the foreign key${created.length > 1 ? 's' : ''} of ${statementsAt('CREATE TABLE', tables, context.lineOf)} (as ALTER TABLE … ADD CONSTRAINT)` : undefined;
    const moves = [alters, fromCreate].filter((m): m is string => m !== undefined);
    // The same, as statements, for a finding about several tables (MoveAfterLoad.ddl).
    const ddl: MovedDdl[] = [
      ...(altered.length > 0 ? [{ words: 'ALTER TABLE … ADD CONSTRAINT', at: altered.map((s) => statementAt(context, s)) }] : []),
      ...(created.length > 0 ? [{ words: 'CREATE TABLE', keys: created.length, at: tables.map((s) => statementAt(context, s)) }] : []),
    ];
    return { advice: where, notEnforced: false, move: { load, moves, ddl } };
  }
  const acting = keys.filter((k) => k.fk.constraint.onDelete === 'CASCADE' || k.fk.constraint.onDelete === 'SET NULL');
  const bulkSites = target.sites.filter((s) => s.bulkReasons.length > 0);
  const fromRoutine = bulkSites.length > 0 && bulkSites.every((s) => s.nested);
  const where = fromRoutine
    ? `The rows come from a routine, each time it runs: there is no load to add ${it} after.`
    : `Add ${it} with ALTER TABLE … ADD CONSTRAINT after the load${elsewhere(context, target)}.`;
  if (acting.length > 0) {
    const rules = [...new Set(acting.map((k) => k.fk.constraint.onDelete))].join(' and ');
    // From a routine, with no load to wait for and no NOT ENFORCED: nothing to change, only a cost to know (a hint).
    return { advice: `${where} NOT ENFORCED is no option here: Db2 would no longer carry out the ON DELETE ${rules} of ${listNames(acting.map((k) => keyName(k.fk)))}.`, notEnforced: false, onlyKnow: fromRoutine, noLoad: fromRoutine };
  }
  const loader = fromRoutine ? 'the routine' : 'the loading job';
  return { advice: `${where} Or declare ${it} NOT ENFORCED if ${loader} already guarantees the parents exist.`, notEnforced: true, noLoad: fromRoutine };
}

/** The measured figure of a finding about several tables (MoveAfterLoad.figure): two keys, enforced and added after. */
const FIGURE = `${secsOf(FK_SECONDS[1])} with two enforced foreign keys, 38.9 s in all with the two added after them (tests 15 and 17)`;
/** The same for tables of one enforced key each. */
const ONE_KEY_FIGURE = `${secsOf(FK_SECONDS[0])} with one enforced foreign key, 32.8 s in all with the key added after them (tests 14 and 16)`;

/**
 * The seed's extra seconds per 100,000 rows for the table's enforced keys, and the tests they come from: one key
 * (test 14) or two (test 15) against none (test 11); more than two, two's cost per key.
 */
function extraSeconds(keys: number): [number, string] {
  return [extraForCount(FK_SECONDS, keys), keys <= 1 ? 'tests 14 and 11' : keys === 2 ? 'tests 15 and 11' : `tests 15 and 11, for ${keys} keys`];
}

/** " (the INSERT at load.db2:80)": where the load is, when another file's script holds it. */
function elsewhere(context: RuleContext, target: InsertTargetInfo): string {
  const load = loadInOtherFile(context, target);
  return load ? ` (${load})` : '';
}

function keyName(fk: ForeignKeyInfo): string {
  return fk.constraint.name ?? `(${fk.constraint.columns.join(', ')})`;
}


/**
 * No insert into the table sets the key (SchemaModel.insertsWriting, as lob-column asks it): each leaves one of the
 * key's columns out of its column list, without a DEFAULT value, or writes NULL there in every row (its rows hold a
 * NULL in the key, and Db2 checks no parent for a key with a NULL in it); an INSERT without a column list, by the
 * value at each key column's place in the table's column order. Queries, LOAD and INGEST may set it. (Inserts
 * naming columns this definition lacks fill another version of the table: the schema drops them.)
 */
function keyNeverInserted(schema: SchemaModel, table: TableInfo, target: InsertTargetInfo, fk: ForeignKeyInfo): boolean {
  const key = fk.constraint.columns.map((name) => table.columns.find((c) => c.name === name) ?? name);
  return schema.insertsWriting(target, key, table, true) === undefined;
}

/** Where the foreign key is written in `stmt`: the constraint, or the ALTER … ENFORCED action. */
function spanIn(stmt: Statement, fk: ForeignKeyInfo): Span {
  if (stmt.kind === 'alterTable') {
    for (const action of stmt.actions) {
      if (action.kind === 'addConstraint' && action.constraint === fk.constraint) return action.constraint.span;
      if (action.kind === 'alterConstraintEnforcement' && action.name === fk.constraint.name) return action.span;
    }
  }
  return fk.constraint.span;
}

/**
 * NOT ENFORCED after each constraint (or in place of an ENFORCED written out). Only right when the loading
 * job guarantees the parents exist, so it changes meaning: offered per finding, never by "Fix all".
 * ALTER … ALTER FOREIGN KEY … ENFORCED gets no fix: the action's words vary too much to edit blindly; nor does a
 * finding with such a key among several, or with keys read from different texts (the edits share one origin).
 */
function notEnforcedFix(keys: { fk: ForeignKeyInfo; stmt: Statement }[]) {
  const edits: { span: Span; newText: string }[] = [];
  for (const { fk, stmt } of keys) {
    const c = fk.constraint;
    if (c.kind !== 'foreignKey' || stmt.origin !== keys[0].stmt.origin) return undefined;
    if (stmt.kind === 'alterTable' && !stmt.actions.some((a) => a.kind === 'addConstraint' && a.constraint === c)) return undefined;
    edits.push(c.enforcedSpan ? { span: c.enforcedSpan, newText: 'NOT ENFORCED' } : { span: { start: c.span.end, end: c.span.end }, newText: ' NOT ENFORCED' });
  }
  const what = keys.length > 1 ? `the ${keys.length} foreign keys` : (keys[0].fk.constraint.name ?? 'the foreign key');
  return { title: `Declare ${what} NOT ENFORCED (the loader guarantees the parents)`, edits, changesMeaning: true };
}

export default EnforcedForeignKeyRule;
