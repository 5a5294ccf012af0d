// Workspace-scale growth: the schema model and the rules that read it must stay linear in the number of
// columns of one table (the editor folds the schema on every keystroke) and in files × tables (a rule that
// walked every table for every file made 20,000 one-table files take 94 s). Parsing is done outside the
// timed part, so that what is timed is the stage that went quadratic.
import { strict as assert } from 'node:assert';
import { parseSql } from '../../server/src/sql/parser';
import { SchemaModel } from '../../server/src/schema/schema';
import { RULES } from '../../server/src/engine/registry';
import { buildFileModel } from '../../server/src/engine/workspace-files';
import { reportedFix } from '../../server/src/engine/findings';
import { resolveConfig } from '../../server/src/engine/config';
import type { FileModel } from '../../server/src/engine/types';
import { growthRatio, lineOfFile } from './support';

function fileModel(path: string, text: string): FileModel {
  const parsed = parseSql(text);
  return { source: { path, text, language: 'sql' }, statements: parsed.statements, comments: parsed.comments };
}

function wideTable(columns: number): FileModel {
  const cols = Array.from({ length: columns }, (_, i) => `C${i} INTEGER`).join(',\n  ');
  return fileModel('wide.sql', `CREATE TABLE APP.WIDE (ID BIGINT GENERATED ALWAYS AS IDENTITY (NO CACHE),\n  ${cols});\nINSERT INTO APP.WIDE (C0) SELECT C0 FROM APP.SRC;\n`);
}

/** One file per table: the table, three indexes and an INSERT … SELECT (a bulk target with DDL in every file). */
function oneTableFiles(count: number): FileModel[] {
  return Array.from({ length: count }, (_, i) =>
    fileModel(
      `f${i}.sql`,
      `CREATE TABLE APP.T${i} (ID INT NOT NULL PRIMARY KEY, V VARCHAR(20));\nCREATE INDEX APP.T${i}_A ON APP.T${i} (V);\nCREATE UNIQUE INDEX APP.T${i}_B ON APP.T${i} (V, ID);\nCREATE INDEX APP.T${i}_C ON APP.T${i} (ID, V);\nINSERT INTO APP.T${i} SELECT * FROM APP.SRC;\n`,
    ),
  );
}

/**
 * A table of n seed rows (literal INSERTs) and n routines that each loop over it, inserting a row per pass: the
 * schema's settle pass (settle.ts settleLoopsOverKnownRows) counts each loop's rows from the table's known rows.
 */
function loopsOverSeedRows(count: number): FileModel[] {
  const seed = Array.from({ length: count }, (_, i) => `INSERT INTO APP.T (A) VALUES (${i});`).join('\n');
  const routines = Array.from({ length: count }, (_, i) => `CREATE PROCEDURE APP.P${i}() BEGIN FOR r AS SELECT A FROM APP.T DO INSERT INTO APP.U${i % 7} (A) VALUES (r.A); END FOR; END@`).join('\n');
  return [
    buildFileModel({ path: 'seed.sql', text: `CREATE TABLE APP.T (A INT);\n${seed}\n`, language: 'sql' }),
    buildFileModel({ path: 'routines.sql', text: `${routines}\nCALL APP.P0()@\n`, language: 'sql' }, [], '@'),
  ];
}

/** A run of n literal single-row INSERTs into one table, then n comment lines (after the run, so the fix is offered). */
function commentedRun(count: number): FileModel {
  const rows = Array.from({ length: count }, (_, i) => `INSERT INTO APP.T (ID, V) VALUES (${i}, 'v${i}');`);
  const comments = Array.from({ length: count }, (_, i) => `-- note ${i}`);
  return fileModel('run.sql', [...rows, ...comments, ''].join('\n'));
}

describe('robustness: workspace scale', function () {
  this.timeout(180_000);
  const config = resolveConfig(RULES.map((r) => r.rule));

  it('folds a CREATE TABLE into the schema model in time linear in its columns', () => {
    const models = new Map<number, FileModel>();
    const { ratio, smallMs, largeMs } = growthRatio(
      (n) => String(models.set(n, wideTable(n)) && n),
      (n) => void SchemaModel.build([models.get(Number(n))!]),
      2000,
    );
    assert.ok(ratio < 24, `8× the columns took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
  });

  it("folds the schema of all files, its settle passes included, in time linear in the inserts (a routine's loop over seed rows)", () => {
    // Each routine's INSERT asked for the known rows of the table its loop reads, which goes through all of that
    // table's inserts: 16,000 routines over a table of 16,000 seed rows took 0.7 s of the fold, quadratic.
    const workspaces = new Map<number, FileModel[]>();
    const { ratio, smallMs, largeMs } = growthRatio((n) => String(workspaces.set(n, loopsOverSeedRows(n)) && n), (n) => void SchemaModel.build(workspaces.get(Number(n))!), 2000);
    // The called routine's loop writes as many rows as the table holds (its INSERT settled as known rows).
    const schema = SchemaModel.build(workspaces.get(16_000)!);
    assert.deepEqual(schema.insertTarget({ schema: 'APP', name: 'U0', span: { start: 0, end: 0 } })?.sites.map((s) => s.loopRows).filter((r) => r !== undefined), [16_000]);
    assert.ok(ratio < 24, `8× the routines and seed rows took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
  });

  it('runs every rule over a workspace of one-table files in time linear in the number of files', () => {
    const workspaces = new Map<number, { files: FileModel[]; schema: SchemaModel }>();
    const make = (n: number) => {
      const files = oneTableFiles(n);
      workspaces.set(n, { files, schema: SchemaModel.build(files) });
      return String(n);
    };
    let findings = 0;
    const run = (n: string) => {
      const { files, schema } = workspaces.get(Number(n))!;
      findings = 0;
      for (const file of files) {
        for (const { rule } of RULES) {
          const setting = config.rules.get(rule.meta.id);
          const options = setting && setting !== 'off' ? setting.options : {};
          rule.check({ file, schema, options, report: () => void (rule.meta.id === 'index-count' && findings++), lineOf: lineOfFile(file) });
        }
      }
    };
    const { ratio, smallMs, largeMs } = growthRatio(make, run, 250);
    assert.equal(findings, 2000, 'each file gets its own index-count finding');
    assert.ok(ratio < 24, `8× the files took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
  });

  it("offers single-row-insert's multi-row fix on a long run in time linear in the run and its comments", () => {
    const rule = RULES.find((r) => r.rule.meta.id === 'single-row-insert')!.rule;
    const files = new Map<number, { file: FileModel; schema: SchemaModel }>();
    const make = (n: number) => {
      const file = commentedRun(n);
      files.set(n, { file, schema: SchemaModel.build([file]) });
      return String(n);
    };
    let edits: number[] = [];
    const run = (n: string) => {
      const { file, schema } = files.get(Number(n))!;
      edits = [];
      rule.check({ file, schema, options: { minRun: 3 }, report: (r) => void edits.push(reportedFix(r)?.edits.length ?? 0), lineOf: lineOfFile(file) });
    };
    const { ratio, smallMs, largeMs } = growthRatio(make, run, 1000);
    assert.deepEqual(edits, [8000 - 1], "the run's one finding offers the fix, combining all its rows");
    assert.ok(ratio < 24, `8× the run took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
  });

  it('offers the multi-row fix on many short runs in time linear in the script', () => {
    const rule = RULES.find((r) => r.rule.meta.id === 'single-row-insert')!.rule;
    // Runs of 3 literal INSERTs, each ended by a multi-row INSERT (finding each run's place in the script's
    // statements was runs × statements).
    const runs = (n: number) =>
      Array.from({ length: n }, (_, i) => `INSERT INTO APP.T (ID) VALUES (${i});\n`.repeat(3) + `INSERT INTO APP.T (ID) VALUES (${i}), (${i + 1});\n`).join('');
    const files = new Map<number, { file: FileModel; schema: SchemaModel }>();
    const make = (n: number) => {
      const file = fileModel('runs.sql', runs(n));
      files.set(n, { file, schema: SchemaModel.build([file]) });
      return String(n);
    };
    let fixes = 0;
    const run = (n: string) => {
      const { file, schema } = files.get(Number(n))!;
      fixes = 0;
      rule.check({ file, schema, options: { minRun: 3 }, report: (r) => void (reportedFix(r) && fixes++), lineOf: lineOfFile(file) });
    };
    const { ratio, smallMs, largeMs } = growthRatio(make, run, 500);
    assert.equal(fixes, 4000, 'each run offers its fix');
    assert.ok(ratio < 24, `8× the runs took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
  });
});
