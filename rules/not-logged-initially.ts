// NOT LOGGED INITIALLY / ACTIVATE NOT LOGGED INITIALLY: unrecoverable on failure, and the commit must flush every page.
import type { FileModel, Rule } from '../server/src/engine/types';
import type { ColumnDef, Statement } from '../server/src/sql/ast';
import { forEachWithAutocommit, scriptUnits } from '../server/src/code-model/facts';
import { statementsOf } from '../server/src/engine/statements';
import type { SchemaModel } from '../server/src/schema/schema';
import { insertTargetFor, tableName } from './support/targets';
import { columnLoadRefuses, loadRefusalText } from './support/load-utility';

const NotLoggedInitiallyRule: Rule = {
  meta: {
    id: 'not-logged-initially',
    description: 'NOT LOGGED INITIALLY or ACTIVATE NOT LOGGED INITIALLY on a table that receives inserts',
    defaultSeverity: 'warning',
    reads: { statements: ['createTable', 'alterTable'] },
    dialects: ['luw'],
    evidence: ['Db2 INSERT tips, test 6', 'Db2 INSERT tips, test 7', 'Db2 INSERT tips, test 8', 'Db2 INSERT tips, test 9', 'Db2 INSERT tips, Appendix B 18'],
    messages: {
      activate:
        'ACTIVATE NOT LOGGED INITIALLY on {table} leaves the inserts of this unit of work unlogged. A failing statement then leaves {table} inaccessible (it must be dropped), and a restore cannot roll forward through them. The commit must also write every page the unit of work dirtied; {cleaning} {instead}',
      createAutocommitted:
        'CREATE TABLE {table} … NOT LOGGED INITIALLY does nothing here: the CLP\'s autocommit commits the CREATE on its own. The inserts after it are logged as usual (NLI covers only the unit of work that creates or activates it, and this script leaves autocommit on). {load} If you want NLI, run the CREATE and the inserts in one unit of work (UPDATE COMMAND OPTIONS USING C OFF, or db2 +c), with its risks: a failure leaves the table unusable.',
      create:
        'CREATE TABLE {table} … NOT LOGGED INITIALLY leaves the inserts of the unit of work that creates it unlogged. A failure there leaves {table} unusable and unrecoverable. The commit must also write every page the unit of work dirtied; {cleaning} {instead}',
      // A script that COMMITs itself may run under db2 +c, or under the CLP's autocommit, where NLI does nothing.
      createAssumedOff:
        'NOT LOGGED INITIALLY on {table} works only if this script runs with autocommit off (db2 +c). It COMMITs itself, which suggests so; under the CLP default the CREATE commits alone and the inserts are logged as usual. Run with +c, the inserts of the unit of work that creates {table} are unlogged: a failure there leaves it unusable and unrecoverable, and the commit must write every page the unit of work dirtied; {cleaning} {instead}',
    },
  },
  check({ file, schema, report }) {
    const rowCleaning = pageCleaningNote(schema);
    const { autocommitted, assumedOff } = createsUnderAutocommit(file);
    for (const stmt of statementsOf(file, 'createTable', 'alterTable')) {
      if (stmt.kind === 'createTable' && stmt.notLoggedInitially && !stmt.temporary) {
        const table = schema.table(stmt.table, stmt);
        if (!table || !insertTargetFor(schema, table, { file: file.source.path, stmt })) continue;
        const span = stmt.notLoggedInitiallySpan ?? stmt.table.span;
        // Under autocommit the claim of the `create` message (unlogged inserts) is not true: say what is.
        const refused = columnLoadRefuses(table);
        if (autocommitted.has(stmt)) {
          const load = refused ? `LOAD cannot fill ${tableName(table)} (${loadRefusalText(refused)}).` : `To load ${tableName(table)} fast, LOAD FROM a cursor (test 9: 12.9 s, recoverable with COPY YES).`;
          report({ messageId: 'createAutocommitted', data: { table: tableName(table), load }, stmt, span, maxSeverity: 'information' });
        } else {
          // Whether NLI does anything depends on how the script is run: not a warning.
          const assumed = assumedOff.has(stmt);
          // The seed's tests are on a row-organized table: said where the table is not one (load_data.sql's GEO_COUNTY).
          const cleaning = stmt.organizeBy === 'column' ? `${rowCleaning.slice(0, -1)}; those tests used a row-organized table, ${tableName(table)} is column-organized.` : rowCleaning;
          report({ messageId: assumed ? 'createAssumedOff' : 'create', data: { table: tableName(table), cleaning, instead: insteadOfNli(refused) }, stmt, span, ...(assumed ? { maxSeverity: 'information' as const } : {}) });
        }
      } else if (stmt.kind === 'alterTable') {
        // ACTIVATE is an operational step of a load script: it is reported wherever it is written.
        for (const action of stmt.actions) {
          if (action.kind !== 'activateNotLoggedInitially') continue;
          const table = schema.table(stmt.table, stmt);
          report({ messageId: 'activate', data: { table: table ? tableName(table) : stmt.table.name, cleaning: rowCleaning, instead: insteadOfNli(columnLoadRefuses(table), ', recoverable with COPY YES') }, stmt, span: action.span });
        }
      }
    }
  },
};

/**
 * The NOT LOGGED INITIALLY CREATE TABLEs of a CLP script run while its autocommit is on (the CLP's default until
 * UPDATE COMMAND OPTIONS USING C OFF; a here-document fed to `db2 +c` starts with it off). A script that COMMITs
 * itself is taken to be run with `db2 +c` (IBM's load_data.sql creates, fills and COMMITs each NLI table).
 */
function createsUnderAutocommit(file: FileModel): { autocommitted: Set<Statement>; assumedOff: Set<Statement> } {
  const autocommitted = new Set<Statement>();
  // Those of a script that COMMITs itself, taken to run with db2 +c: the message says it is an assumption.
  const assumedOff = new Set<Statement>();
  if (file.source.language !== 'sql' && file.source.language !== 'shell') return { autocommitted, assumedOff };
  for (const unit of scriptUnits(file)) {
    const into = unit.statements.some((stmt) => stmt.kind === 'commit') ? assumedOff : autocommitted;
    forEachWithAutocommit(unit, (stmt, autocommit) => {
      if (autocommit && stmt.kind === 'createTable' && stmt.notLoggedInitially) into.add(stmt);
    });
  }
  return { autocommitted, assumedOff };
}

/** The way out of NLI: LOAD FROM a cursor, unless a column keeps LOAD from filling the table. */
function insteadOfNli(refused: ColumnDef | undefined, recoverable = ''): string {
  if (refused) return `LOAD is no alternative here (${loadRefusalText(refused)}); if you keep NLI, back up afterwards.`;
  return `Prefer LOAD FROM a cursor (test 9: 12.9 s${recoverable}); if you keep NLI, back up afterwards.`;
}

/** Seed 000, tests 6-8: NLI only pays off when dirty pages are cleaned aggressively during the inserts. */
function pageCleaningNote(schema: SchemaModel): string {
  const thresh = schema.dbCfg.get('CHNGPGS_THRESH')?.numericValue;
  if (thresh !== undefined && thresh <= 20) {
    return `with CHNGPGS_THRESH ${thresh} set here, page cleaning keeps up, as in Db2 INSERT tips, test 8 (11.8 s vs 15.7 s logged, test 6).`;
  }
  return 'with default page cleaning that made NLI slower than logging in Db2 INSERT tips (test 7: 16.4 s vs 15.7 s logged, test 6, over half of it in the commit); only with CHNGPGS_THRESH 5 did it win (test 8: 11.8 s).';
}

export default NotLoggedInitiallyRule;
