// IDENTITY columns and SEQUENCEs with NO CACHE or a small cache, on tables that receive inserts.
import type { Rule, RuleContext } from '../server/src/engine/types';
import { statementsOf } from '../server/src/engine/statements';
import type { AlterTableStatement, CreateTableStatement, Span, Statement } from '../server/src/sql/ast';
import { DB2_DEFAULT_CACHE, displayKey, type IdentityInfo, type InsertTargetInfo, type Located, type SchemaModel, type TableInfo } from '../server/src/schema/schema';
import { BASELINE_SECONDS, identityMeasurement, secsOf } from './support/measurements';
import { knownVolume } from './support/known-volume';
import { countText } from '../server/src/engine/count-text';
import { bulkTargetFor, insertTargetFor } from './support/targets';

const IdentityCacheRule: Rule = {
  meta: {
    id: 'identity-cache',
    description: 'IDENTITY column or SEQUENCE with NO CACHE or a small cache feeding inserts',
    defaultSeverity: 'warning',
    reads: { statements: ['createTable', 'alterTable', 'createSequence', 'alterSequence'] },
    evidence: ['Db2 INSERT tips, test 41', 'Db2 INSERT tips, test 42', 'Db2 INSERT tips, test 43', 'Db2 INSERT tips, test 44', 'Db2 INSERT tips, test 45', 'Db2 INSERT tips, test 46', 'Db2 INSERT tips, tests 47-51'],
    defaultOptions: { threshold: 100, suggestedCache: 1000 },
    fixable: true,
    messages: {
      identity:
        '{what} {name} hands out values {how}. Db2 must write a log record each time {every} to keep generated values recoverable. Measured on 100,000 inserts (Db2 INSERT tips, test {test}): {seconds} with {measuredAs}, against {best} with CACHE {bestCache} (test {bestTest}) and 31.5 s with no generated key (test 41).{volume} Use CACHE {suggested}.{range}',
    },
  },
  check(context) {
    const { file, schema } = context;
    for (const stmt of statementsOf(file, 'createTable', 'alterTable', 'createSequence', 'alterSequence')) {
      if (stmt.kind === 'createTable' || stmt.kind === 'alterTable') {
        const table = schema.table(stmt.table, stmt);
        const identity = table?.identity;
        // Report on the statement that set the cache in effect, so the finding sits where the fix goes.
        if (!table || !identity || identity.stmt !== stmt) continue;
        const target = fedBy(schema, table, identity.cache, { file: file.source.path, stmt });
        if (!target) continue;
        const where = identityClause(stmt, identity);
        flag(context, stmt, 'IDENTITY column', `${displayKey(table.key)}.${identity.column.name}`, identity.cache, identity.explicit, where.cacheSpan, where.anchor, false, where.prefix, rangeNote(identity.column.type.name, identity.column.identity?.start), target);
      } else if (stmt.kind === 'createSequence' || stmt.kind === 'alterSequence') {
        const sequence = schema.sequence(stmt.sequence, stmt);
        if (!sequence || sequence.stmt !== stmt || !schema.isSequenceUsedByInserts(sequence.key)) continue;
        // As for identities (feedsEnough): the default cache matters only to bulk inserts drawing from it.
        if (sequence.cache >= DB2_DEFAULT_CACHE && !schema.isSequenceUsedByBulkInserts(sequence.key)) continue;
        flag(context, stmt, 'Sequence', displayKey(sequence.key), sequence.cache, sequence.explicit, stmt.cacheSpan, stmt.cacheSpan ?? stmt.sequence.span, true, '');
      }
    }
  },
};

/**
 * The table's inserts, when they make the cache worth reporting. NO CACHE or a cache below the default costs every
 * insert that runs (CACHE 5: twice the default's time, NO CACHE nine times, tests 42-44); the default CACHE 20
 * (and up to the threshold) costs 0.6 ms a row more than CACHE 1000 (tests 44, 46): noticeable in a bulk load,
 * not for a row per request or per run.
 */
function fedBy(schema: SchemaModel, table: TableInfo, cache: number, ddl: Located): InsertTargetInfo | undefined {
  return (cache < DB2_DEFAULT_CACHE ? insertTargetFor : bulkTargetFor)(schema, table, ddl);
}

function flag(
  { options, report, schema }: RuleContext,
  stmt: Statement,
  what: string,
  name: string,
  cache: number,
  explicit: boolean,
  cacheSpan: Span | undefined,
  anchor: Span,
  isSequence: boolean,
  /** Text the replaced clause starts with: ALTER COLUMN … SET CACHE n keeps its SET. */
  prefix: string,
  range = '',
  /** The identity's table, whose known rows (if any) scale the cost; none for a sequence. */
  target?: InsertTargetInfo,
): void {
  const threshold = Number(options.threshold);
  // A SMALLINT's 32,767 values cannot spare a thousand per restart: the threshold itself is the cache to write.
  const suggested = range ? Math.min(Number(options.suggestedCache), threshold) : Number(options.suggestedCache);
  if (cache >= threshold) return;
  const measured = identityMeasurement(cache, isSequence);
  // The figure of the cache advised: CACHE 100 for a SMALLINT quotes test 45, not test 46's CACHE 1000.
  const best = identityMeasurement(suggested, isSequence);
  // The identity's own measurement against no generated key (test 41): NO CACHE costs 8.7 ms a row, CACHE 20 0.7 ms.
  const volume = target ? knownVolume(schema, target, measured.seconds - BASELINE_SECONDS, `tests ${measured.test} and 41`) : { sentence: '' };
  const how = cache === 0 ? 'with NO CACHE' : !explicit && cache === DB2_DEFAULT_CACHE ? `with the default CACHE ${DB2_DEFAULT_CACHE}` : `with CACHE ${cache}`;
  report({
    messageId: 'identity',
    data: {
      what,
      name,
      how,
      every: cache <= 1 ? 'a row takes a value' : `${cache} values are used up`,
      test: measured.test,
      seconds: secsOf(measured.seconds),
      best: secsOf(best.seconds),
      bestTest: best.test,
      bestCache: best.cache,
      measuredAs: measured.cache === 0 ? 'NO CACHE' : `CACHE ${measured.cache}`,
      suggested,
      range,
      volume: volume.sentence,
    },
    stmt,
    span: cacheSpan ?? anchor,
    maxSeverity: volume.maxSeverity,
    fix: cacheSpan ? { title: `Use CACHE ${suggested}`, edits: [{ span: cacheSpan, newText: `${prefix}CACHE ${suggested}` }] } : undefined,
  });
}

/**
 * For a SMALLINT identity (32,767 values at most): a deactivated database, or a restart, loses the values still
 * cached, so a large cache eats the range; the values left are counted from START WITH (tbselcreate.db2 starts
 * one at 2000: 30,768 left).
 */
function rangeNote(type: string, start: number | undefined): string {
  if (type !== 'SMALLINT') return '';
  const left = start !== undefined && start > 1 && start <= SMALLINT_MAX ? SMALLINT_MAX - start + 1 : undefined;
  const range = left === undefined ? 'at most 32,767 values' : `${countText(left)} values from START WITH ${start} to 32,767`;
  return ` The column is SMALLINT, ${range}: each stop of the database loses the values still cached, which is why CACHE 100 and not more; for CACHE 1000, make the column INTEGER or BIGINT.`;
}

const SMALLINT_MAX = 32767;

/** Where the identity's cache was written in `stmt` (CREATE TABLE column, ALTER … ADD COLUMN, ALTER COLUMN … SET CACHE). */
function identityClause(stmt: CreateTableStatement | AlterTableStatement, identity: IdentityInfo): { cacheSpan?: Span; anchor: Span; prefix: string } {
  if (stmt.kind === 'createTable') {
    return { cacheSpan: identity.column.identity?.cacheSpan, anchor: identity.column.nameSpan, prefix: '' };
  }
  for (const action of stmt.actions) {
    // The parser's span of an identity alteration covers `SET CACHE n` / `SET NO CACHE`.
    if (action.kind === 'alterColumnIdentity' && action.column === identity.column.name) return { cacheSpan: action.cacheSpan, anchor: action.span, prefix: 'SET ' };
    if (action.kind === 'addColumn' && action.column === identity.column) return { cacheSpan: action.column.identity?.cacheSpan, anchor: action.column.nameSpan, prefix: '' };
  }
  return { anchor: stmt.table.span, prefix: '' };
}

export default IdentityCacheRule;
