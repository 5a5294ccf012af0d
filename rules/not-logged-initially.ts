// NOT LOGGED INITIALLY / ACTIVATE NOT LOGGED INITIALLY: unrecoverable on failure, and the commit must flush every page.
import type { Rule } from '../server/src/engine/types';
import { statementsOf } from '../server/src/engine/statements';
import type { SchemaModel } from '../server/src/schema/schema';
import { insertTargetFor, tableName } from './support/targets';

const NotLoggedInitiallyRule: Rule = {
  meta: {
    id: 'not-logged-initially',
    description: 'NOT LOGGED INITIALLY or ACTIVATE NOT LOGGED INITIALLY on a table that receives inserts',
    defaultSeverity: 'warning',
    reads: { statements: ['createTable', 'alterTable'] },
    dialects: ['luw'],
    evidence: ['000 test 6', '000 test 7', '000 test 8', '000 test 9', '000 appendix B 18'],
    messages: {
      activate:
        'ACTIVATE NOT LOGGED INITIALLY on {table}. The inserts of this unit of work are not logged, so a failing statement leaves {table} inaccessible (it must be dropped) and a restore cannot roll forward through them. The commit must also write every page the unit of work dirtied; {cleaning} Prefer LOAD FROM a cursor (test 9: 12.9 s, recoverable with COPY YES); if you keep NLI, back up afterwards.',
      create:
        'CREATE TABLE {table} … NOT LOGGED INITIALLY. Inserts in the unit of work that creates the table are not logged, so a failure there leaves {table} unusable and unrecoverable. The commit must also write every page the unit of work dirtied; {cleaning} Prefer LOAD FROM a cursor (test 9: 12.9 s); if you keep NLI, back up afterwards.',
    },
  },
  check({ file, schema, report }) {
    const cleaning = pageCleaningNote(schema);
    for (const stmt of statementsOf(file, 'createTable', 'alterTable')) {
      if (stmt.kind === 'createTable' && stmt.notLoggedInitially && !stmt.temporary) {
        const table = schema.table(stmt.table, stmt);
        if (!table || !insertTargetFor(schema, table, { file: file.source.path, stmt })) continue;
        report({ messageId: 'create', data: { table: tableName(table), cleaning }, stmt, span: stmt.notLoggedInitiallySpan ?? stmt.table.span });
      } else if (stmt.kind === 'alterTable') {
        // ACTIVATE is an operational step of a load script: it is reported wherever it is written.
        for (const action of stmt.actions) {
          if (action.kind !== 'activateNotLoggedInitially') continue;
          const table = schema.table(stmt.table, stmt);
          report({ messageId: 'activate', data: { table: table ? tableName(table) : stmt.table.name, cleaning }, stmt, span: action.span });
        }
      }
    }
  },
};

/** Seed 000, tests 6-8: NLI only pays off when dirty pages are cleaned aggressively during the inserts. */
function pageCleaningNote(schema: SchemaModel): string {
  const thresh = schema.dbCfg.get('CHNGPGS_THRESH')?.numericValue;
  if (thresh !== undefined && thresh <= 20) {
    return `with CHNGPGS_THRESH ${thresh} set here, page cleaning keeps up, as in seed 000 test 8 (11.8 s vs 15.7 s logged, test 6).`;
  }
  return 'with default page cleaning that made NLI slower than logging in seed 000 (test 7: 16.4 s vs 15.7 s logged, test 6, over half of it in the commit); only with CHNGPGS_THRESH 5 did it win (test 8: 11.8 s).';
}

export default NotLoggedInitiallyRule;
