// Backs the classifier's ExplainContext with the workspace SchemaModel (the DDL InsertLint analysed),
// or with facts read from the live catalog (see catalog.ts). Names are compared as SCHEMA.NAME, and a
// table whose schema the DDL did not say matches on its name alone.
import { displayKey, type SchemaModel, type TableInfo } from '../schema/schema';
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
  return {
    foreignKeysOf(table) {
      const t = find(table);
      if (!t) return [];
      return t.foreignKeys.map((fk) => ({
        name: fk.constraint.name,
        child: displayKey(t.key),
        parent: displayKey(fk.parentKey),
        columns: fk.constraint.columns,
        deleteRule: deleteRule(fk.constraint.onDelete),
        enforced: fk.enforced,
      }));
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
      return t.indexes.map((i) => ({ name: displayKey(model.keyOf(i.stmt.index, i.stmt)), table: displayKey(t.key), unique: i.unique }));
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
  foreignKeys?: ForeignKeyFact[];
  triggers?: TriggerFact[];
  /** MQT name → base tables. */
  mqts?: { name: string; baseTables: string[]; refresh?: 'immediate' | 'deferred' }[];
  indexes?: IndexFact[];
  checks?: Record<string, number>;
}

export function factsExplainContext(facts: ContextFacts): ExplainContext {
  return {
    foreignKeysOf: (table) => (facts.foreignKeys ?? []).filter((fk) => sameObject(fk.child, table)),
    triggersOn: (table) => (facts.triggers ?? []).filter((t) => sameObject(t.table, table)),
    mqtsOver: (table) => (facts.mqts ?? []).filter((m) => m.baseTables.some((b) => sameObject(b, table))).map((m) => ({ name: m.name, refresh: m.refresh })),
    isMqt: (table) => (facts.mqts ?? []).some((m) => sameObject(m.name, table)),
    indexesOf: (table) => (facts.indexes ?? []).filter((i) => sameObject(i.table, table)),
    tableOfIndex: (index) => (facts.indexes ?? []).find((i) => sameObject(i.name, index))?.table,
    checkConstraintsOn: (table) => Object.entries(facts.checks ?? {}).find(([t]) => sameObject(t, table))?.[1] ?? 0,
  };
}
