// Backs the classifier's ExplainContext with the workspace SchemaModel (the DDL InsertLint analysed),
// or with facts read from the live catalog (see catalog.ts). Names are compared as SCHEMA.NAME, and a
// table whose schema the DDL did not say matches on its name alone.
import { displayKey, keysWithOwnIndex, type SchemaModel, type TableInfo } from '../schema/schema';
import { sameObject, type ExplainContext, type ForeignKeyFact, type IndexFact, type MqtFact, type TriggerFact } from './classify';

function deleteRule(action: string | undefined): ForeignKeyFact['deleteRule'] {
  switch (action) {
    case 'CASCADE':
      return 'cascade';
    case 'SET NULL':
      return 'set null';
    case 'RESTRICT':
      return 'restrict';
    default:
      return 'no action';
  }
}

export function schemaExplainContext(model: SchemaModel): ExplainContext {
  const find = (table: string): TableInfo | undefined => {
    const direct = model.tableByKey(table.includes('.') ? table : `.${table}`);
    if (direct) return direct;
    return [...model.tables.values()].find((t) => sameObject(t.key, table));
  };
  const foreignKeys = (t: TableInfo): ForeignKeyFact[] =>
    t.foreignKeys.map((fk) => ({
      name: fk.constraint.name,
      child: displayKey(t.key),
      parent: displayKey(fk.parentKey),
      columns: fk.constraint.columns,
      deleteRule: deleteRule(fk.constraint.onDelete),
      enforced: fk.enforced,
    }));
  return {
    hasTable: (table) => find(table) !== undefined,
    foreignKeysOf(table) {
      const t = find(table);
      return t ? foreignKeys(t) : [];
    },
    dependentsOf(table) {
      const parent = find(table);
      if (!parent) return [];
      return [...model.tables.values()].flatMap((t) => foreignKeys(t).filter((fk) => sameObject(fk.parent, parent.key)));
    },
    triggersOn(table) {
      const t = find(table);
      if (!t) return [];
      return t.triggers.map((tr): TriggerFact => {
        const writes: string[] = [];
        for (const inner of tr.stmt.body) {
          if (inner.kind === 'insert' || inner.kind === 'merge') writes.push(displayKey(model.keyOf(inner.target, inner)));
        }
        const schema = tr.stmt.trigger.schema;
        return {
          name: schema ? `${schema}.${tr.name}` : tr.name,
          table: displayKey(t.key),
          timing: tr.stmt.timing,
          events: tr.stmt.events,
          writes,
        };
      });
    },
    mqtsOver(table): MqtFact[] {
      const t = find(table);
      return (t?.mqts ?? []).map((m) => ({ name: displayKey(m.key), refresh: m.refresh }));
    },
    isMqt(table) {
      return find(table)?.mqt !== undefined;
    },
    indexesOf(table): IndexFact[] {
      const t = find(table);
      if (!t) return [];
      const indexes: IndexFact[] = t.indexes.map((i) => ({ name: displayKey(model.keyOf(i.stmt.index, i.stmt)), table: displayKey(t.key), unique: i.unique }));
      // Db2 backs every primary key and unique constraint with an index (a unique index on the same columns serves).
      for (const k of keysWithOwnIndex(t.keyConstraints, t.indexes)) {
        if (k.constraint.kind !== 'primaryKey' && k.constraint.kind !== 'unique') continue;
        const what = k.constraint.kind === 'primaryKey' ? 'primary key' : 'unique constraint';
        indexes.push({ name: `${k.constraint.name ? `${k.constraint.name}: ` : ''}${what} (${k.constraint.columns.join(', ')})`, table: displayKey(t.key), unique: true, constraint: true });
      }
      return indexes;
    },
    tableOfIndex(index) {
      for (const t of model.tables.values()) {
        if (t.indexes.some((i) => sameObject(model.keyOf(i.stmt.index, i.stmt), index))) return displayKey(t.key);
      }
      return undefined;
    },
    checkConstraintsOn(table) {
      return find(table)?.checks ?? 0;
    },
  };
}

/** A context from plain facts (the live catalog, tests, the editor's cache). */
export interface ContextFacts {
  /** Tables the facts cover; without it, the tables named by the other facts. */
  tables?: string[];
  foreignKeys?: ForeignKeyFact[];
  triggers?: TriggerFact[];
  /** MQT name → base tables. */
  mqts?: { name: string; baseTables: string[]; refresh?: 'immediate' | 'deferred' }[];
  indexes?: IndexFact[];
  checks?: Record<string, number>;
}

export function factsExplainContext(facts: ContextFacts): ExplainContext {
  const named = () => [
    ...(facts.foreignKeys ?? []).flatMap((fk) => [fk.child, fk.parent]),
    ...(facts.triggers ?? []).flatMap((t) => [t.table, ...t.writes]),
    ...(facts.mqts ?? []).flatMap((m) => [m.name, ...m.baseTables]),
    ...(facts.indexes ?? []).map((i) => i.table),
    ...Object.keys(facts.checks ?? {}),
  ];
  return {
    hasTable: (table) => (facts.tables ?? named()).some((t) => sameObject(t, table)),
    foreignKeysOf: (table) => (facts.foreignKeys ?? []).filter((fk) => sameObject(fk.child, table)),
    dependentsOf: (table) => (facts.foreignKeys ?? []).filter((fk) => sameObject(fk.parent, table)),
    triggersOn: (table) => (facts.triggers ?? []).filter((t) => sameObject(t.table, table)),
    mqtsOver: (table) => (facts.mqts ?? []).filter((m) => m.baseTables.some((b) => sameObject(b, table))).map((m) => ({ name: m.name, refresh: m.refresh })),
    isMqt: (table) => (facts.mqts ?? []).some((m) => sameObject(m.name, table)),
    // Without index facts the indexes are unknown, not absent.
    indexesOf: facts.indexes ? (table) => facts.indexes!.filter((i) => sameObject(i.table, table)) : undefined,
    tableOfIndex: (index) => (facts.indexes ?? []).find((i) => sameObject(i.name, index))?.table,
    checkConstraintsOn: (table) => Object.entries(facts.checks ?? {}).find(([t]) => sameObject(t, table))?.[1] ?? 0,
  };
}
