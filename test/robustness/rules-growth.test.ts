// Every rule's check must take time linear in the workload. Big scripts have more tables, sequences and
// inserts at once, so a rule that, say, scans all insert sites for every sequence is quadratic in the
// script. Each rule is timed alone on the models of a script and of one 8 times larger (same mix).
import { strict as assert } from 'node:assert';
import { parseSql } from '../../server/src/sql/parser';
import { SchemaModel } from '../../server/src/schema/schema';
import { RULES } from '../../server/src/engine/registry';
import { resolveConfig } from '../../server/src/engine/config';
import type { FileModel, Rule } from '../../server/src/engine/types';
import { growthRatio, lineOfFile } from './support';
import { Workspace } from '../../server/src/engine/workspace';
import { schemaContribution } from '../../server/src/schema/schema-findings';

/** A load script of `tables` tables, each with DDL, a sequence, an index and 40 inserts of several kinds. */
function script(tables: number): string {
  const out: string[] = ['SET SCHEMA APP;'];
  for (let t = 0; t < tables; t++) {
    out.push(
      `CREATE TABLE APP.T${t} (ID BIGINT NOT NULL GENERATED ALWAYS AS IDENTITY (START WITH 1 NO CACHE), K INT NOT NULL, V VARCHAR(40), DOC CLOB(1M), PRIMARY KEY (ID), FOREIGN KEY (K) REFERENCES APP.T0 (ID)) IN TS${t % 4};`,
      `CREATE INDEX APP.IX${t} ON APP.T${t} (K) CLUSTER;`,
      `CREATE SEQUENCE APP.S${t} AS BIGINT NO CACHE;`,
      `CREATE TRIGGER APP.TR${t} AFTER INSERT ON APP.T${t} FOR EACH ROW INSERT INTO APP.AUDIT VALUES (NEXT VALUE FOR APP.S${t});`,
    );
    for (let i = 0; i < 10; i++) {
      out.push(
        `INSERT INTO APP.T${t} (K, V) VALUES (${i}, 'v${i}');`,
        `INSERT INTO APP.T${t} (K, V) VALUES (?, ?), (?, ?), (NEXT VALUE FOR APP.S${t}, 'x');`,
        `INSERT INTO APP.T${t} (K, V) SELECT K, V FROM APP.T${(t + 1) % tables} WHERE K > ${i};`,
        i % 3 === 0 ? 'COMMIT;' : `INSERT INTO APP.T${t} (K) VALUES (:k);`,
      );
    }
  }
  return out.join('\n') + '\n';
}

function modelOf(text: string): { file: FileModel; schema: SchemaModel } {
  const parsed = parseSql(text);
  const file: FileModel = { source: { path: 'load.sql', text, language: 'sql' }, statements: parsed.statements, comments: parsed.comments };
  return { file, schema: SchemaModel.build([file]) };
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

describe('robustness: rules take time linear in the workload', function () {
  this.timeout(120_000);
  const config = resolveConfig(RULES.map((r) => r.rule));
  const SMALL_TABLES = 40;
  const FACTOR = 8;
  let small: ReturnType<typeof modelOf>;
  let large: ReturnType<typeof modelOf>;
  before(() => {
    small = modelOf(script(SMALL_TABLES));
    large = modelOf(script(SMALL_TABLES * FACTOR));
  });

  /**
   * The best of `runs` rounds of the rule's time per check, each round checking again until 20 ms have passed:
   * a rule that checks the small script in well under a millisecond is timed too (timing one check, clamped at
   * 1 ms, let a quadratic line count per finding through: 64× the work looked like 10× a millisecond).
   */
  function timeRule(rule: Rule, model: ReturnType<typeof modelOf>, runs: number): number {
    const setting = config.rules.get(rule.meta.id);
    const options = setting && setting !== 'off' ? setting.options : {};
    let best = Infinity;
    const lineOf = lineOfFile(model.file);
    for (let i = 0; i < runs; i++) {
      const t0 = cpuMs();
      let checks = 0;
      let elapsed = 0;
      do {
        rule.check({ file: model.file, schema: model.schema, options, report: () => undefined, lineOf });
        checks++;
        elapsed = cpuMs() - t0;
      } while (elapsed < 20);
      best = Math.min(best, elapsed / checks);
    }
    return best;
  }

  it('SchemaModel.build (the engine, before any rule)', () => {
    const build = (m: ReturnType<typeof modelOf>, runs: number) => {
      let best = Infinity;
      for (let i = 0; i < runs; i++) {
        const t0 = cpuMs();
        SchemaModel.build([m.file]);
        best = Math.min(best, cpuMs() - t0);
      }
      return best;
    };
    build(large, 1);
    // Best of several builds each: one garbage collection in a large build made a 2-3× swing (21-27× at times); and
    // measured again up to four times when over the bound, as the rules are (a CI run gave 34.5× once, 8-9× here).
    let ratio = Infinity;
    for (let attempt = 0; attempt < 4 && ratio >= 24; attempt++) ratio = Math.min(ratio, build(large, 8) / Math.max(build(small, 20), 1));
    assert.ok(ratio < 24, `8× the script took ${ratio.toFixed(1)}× the time to fold into the schema model`);
  });

  it('zos-cluster-without-append on a wide table with many keys (its key bound once per table)', () => {
    // Each clustering index bounded its table again, each key column looked up in the column list: 2,000 columns
    // with as many unique indexes took 13 s.
    const registered = RULES.filter((r) => r.rule.meta.id === 'zos-cluster-without-append');
    const make = (n: number) => {
      const m = n / 60;
      const columns = Array.from({ length: m }, (_, i) => `C${i} CHAR(1) NOT NULL`).join(', ');
      const indexes = Array.from({ length: m }, (_, i) => `CREATE UNIQUE INDEX IX${i} ON T (C${i}) CLUSTER;\n`).join('');
      return `CREATE TABLESPACE TS IN DB SEGSIZE 32;\nCREATE TABLE T (${columns}, PRIMARY KEY (C0)) IN DB.TS;\n${indexes}INSERT INTO T SELECT * FROM S;\n`;
    };
    const run = (text: string) => {
      const ws = new Workspace(resolveConfig(registered.map((r) => r.rule)), [], registered);
      ws.setFile('zos.sql', text);
      assert.equal(ws.allDiagnostics().length, text.split('CLUSTER;').length - 1, 'every clustering index is reported');
    };
    const { ratio, smallMs, largeMs } = growthRatio(make, run, 15_000);
    assert.ok(ratio < 24, `8× the columns and indexes took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
  });

  it('index-count on a table with very many indexes (redundant indexes looked up, not scanned; no spread of them all)', () => {
    // Each index was compared with every other (40,000 indexes on one table took 12 s), and the last DDL statement
    // was found with Math.max(...all of them): past about 125,000 the rule failed with a RangeError.
    const registered = RULES.filter((r) => r.rule.meta.id === 'index-count');
    const make = (n: number) => {
      const indexes = Array.from({ length: n }, (_, i) => `CREATE INDEX IX${i} ON T (A${i % 3 === 0 ? ', B' : ''});\n`).join('');
      return `CREATE TABLE T (A INT, B INT, C INT);\n${indexes}INSERT INTO T SELECT * FROM S;\n`;
    };
    const run = (text: string) => {
      const ws = new Workspace(resolveConfig(registered.map((r) => r.rule)), [], registered);
      ws.setFile('ix.sql', text);
      const [finding] = ws.allDiagnostics();
      assert.match(finding?.message ?? '', /is the leading part of IX0 \(A, B\)/);
    };
    const { ratio, smallMs, largeMs } = growthRatio(make, run, 2_000);
    assert.ok(ratio < 24, `8× the indexes took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
    const ws = new Workspace(resolveConfig(registered.map((r) => r.rule)), [], registered);
    ws.setFile('ix.sql', make(130_000));
    const [many] = ws.allDiagnostics();
    assert.deepEqual(ws.ruleFailures.map((f) => String(f.error)), []);
    assert.match(many?.message ?? '', /has 130,000 indexes, more than 3\. They are in force during its inserts \(130,000 CREATE INDEX\)/);
  });

  it('lob-column, insert-target-cost and schema contributions on a wide table whose inserts list every column', () => {
    // Each LOB column was looked up in each insert's column list (indexOf) and among its NULL items (includes), the
    // inserts gone through again for each column, and each column's place found by a pass over the table: 800 CLOB
    // columns and 60 inserts took 30-60× the time of 100 columns.
    const make = (m: number) => {
      const names = Array.from({ length: m }, (_, i) => `C${i}`);
      const list = `APP.DOCS (ID, ${names.join(', ')})`;
      const copy = `INSERT INTO ${list} SELECT ID, ${names.map(() => 'NULL').join(', ')} FROM APP.S UNION ALL SELECT ID, ${names.map(() => 'NULL').join(', ')} FROM APP.S2;`;
      const rows = `INSERT INTO ${list} VALUES (?, ${names.map(() => 'NULL').join(', ')}), (?, ${names.map(() => 'DEFAULT').join(', ')});`;
      return [
        'CREATE TABLE APP.P (ID INT NOT NULL PRIMARY KEY);',
        `CREATE TABLE APP.DOCS (ID INT NOT NULL, ${names.map((c) => `${c} CLOB(1M)`).join(', ')}, FOREIGN KEY (ID) REFERENCES APP.P (ID));`,
        ...Array.from({ length: 30 }, () => copy),
        ...Array.from({ length: 29 }, () => rows),
        // The last insert writes every LOB: each is looked for up to it.
        `INSERT INTO ${list} SELECT ID, ${names.join(', ')} FROM APP.S;`,
      ].join('\n') + '\n';
    };
    const small = modelOf(make(60));
    const large = modelOf(make(480));
    const contribution = (m: ReturnType<typeof modelOf>, runs: number) => {
      let best = Infinity;
      for (let i = 0; i < runs; i++) {
        const t0 = cpuMs();
        let n = 0;
        do {
          schemaContribution(m.file);
          n++;
        } while (cpuMs() - t0 < 20);
        best = Math.min(best, (cpuMs() - t0) / n);
      }
      return best;
    };
    const timed: [string, (m: ReturnType<typeof modelOf>, runs: number) => number][] = [
      ...['lob-column', 'insert-target-cost'].map((id): [string, (m: ReturnType<typeof modelOf>, runs: number) => number] => {
        const rule = RULES.find((r) => r.rule.meta.id === id)!.rule;
        return [id, (m, runs) => timeRule(rule, m, runs)];
      }),
      ['schemaContribution', contribution],
    ];
    for (const [name, time] of timed) {
      time(small, 1);
      time(large, 1);
      // Up to four attempts, as for each rule below: a quadratic check is ~64x here, and lob-column's is ~11x on a
      // quiet machine now that it makes nothing per insert, so a loaded machine's 25-30x in one attempt is noise.
      let ratio = Infinity;
      for (let attempt = 0; attempt < 4 && ratio >= 24; attempt++) ratio = Math.min(ratio, time(large, 3) / time(small, 5));
      assert.ok(ratio < 24, `${name}: 8× the columns took ${ratio.toFixed(1)}× the time: super-linear`);
    }
    const found: string[] = [];
    const rule = RULES.find((r) => r.rule.meta.id === 'lob-column')!.rule;
    rule.check({ file: large.file, schema: large.schema, options: {}, report: (f) => void found.push(f.messageId ?? ''), lineOf: lineOfFile(large.file) });
    assert.equal(found.length, 1, 'the LOB columns the last insert writes are reported');
  });

  for (const { rule } of RULES) {
    it(`${rule.meta.id}`, () => {
      timeRule(rule, small, 1);
      timeRule(rule, large, 1); // warm-up
      let ratio = Infinity;
      let detail = '';
      // Up to four attempts: on a loaded machine one attempt's best could still be 25x (0.1 ms -> 2.6 ms, a loaded
      // 2-core run); a super-linear rule fails all of them.
      for (let attempt = 0; attempt < 4 && ratio >= 24; attempt++) {
        const smallMs = timeRule(rule, small, 5);
        const largeMs = timeRule(rule, large, 3);
        if (largeMs / smallMs < ratio) {
          ratio = largeMs / smallMs;
          detail = `${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms`;
        }
      }
      assert.ok(ratio < 24, `${rule.meta.id}: a script with 8× the tables and inserts took ${ratio.toFixed(1)}× the time (${detail}): super-linear`);
    });
  }
});
