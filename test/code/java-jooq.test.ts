// jOOQ in a file that imports org.jooq: insertInto(…)…execute(), a new record's store() / insert(), executeInsert in a
// loop send one INSERT per pass (java-jooq.ts); batchInsert, batch(…).bind(…), multi-row values and the Loader API
// are batched.
import * as assert from 'node:assert/strict';
import { lintPaths } from '../../server/src/cli/lint-run';
import { brief, INSERT_RULES, lintCode, posOf, projectOnDisk } from './helpers';

const LOADER = (body: string, imports = 'import org.jooq.DSLContext;\nimport static com.acme.db.Tables.ORDERS;\n') => `package app;

import java.util.*;
${imports}
public class OrderLoader {
    private final DSLContext dsl;

    public void load(List<Order> orders) {
${body}
    }
}
`;

/** Each form that sends one INSERT per pass, and what names its table. */
const PER_ROW: Record<string, { body: string; at: string; table: string }> = {
  'insertInto(T).set(…).execute()': {
    body: `        for (Order o : orders) {
            dsl.insertInto(ORDERS).set(ORDERS.ITEM, o.item()).set(ORDERS.QTY, o.qty()).execute();
        }`,
    at: 'dsl.insertInto', table: '<ORDERS>',
  },
  'insertInto(T, cols).values(…).execute(), the table aliased': {
    body: `        for (Order o : orders) {
            dsl.insertInto(ORDERS.as("o"), ORDERS.ID, ORDERS.ITEM)
                .values(o.id(), o.item())
                .execute();
        }`,
    at: 'dsl.insertInto', table: '<ORDERS>',
  },
  'insertInto(Tables.ORDERS)…returning().fetchOne() in forEach': {
    body: `        orders.forEach(o -> dsl.insertInto(Tables.ORDERS).set(Tables.ORDERS.ITEM, o.item()).returning(Tables.ORDERS.ID).fetchOne());`,
    at: 'dsl.insertInto', table: '<Tables.ORDERS>',
  },
  'a query built into a variable, executed': {
    body: `        for (Order o : orders) {
            var q = dsl.insertInto(ORDERS).values(o.id(), o.item());
            q.execute();
        }`,
    at: 'q.execute', table: '<ORDERS>',
  },
  'newRecord(T) made in the loop, store()': {
    body: `        for (Order o : orders) {
            OrdersRecord r = dsl.newRecord(ORDERS);
            r.setItem(o.item());
            r.store();
        }`,
    at: 'r.store', table: '<ORDERS>',
  },
  'newRecord(T, pojo).insert()': {
    body: `        for (Order o : orders) {
            dsl.newRecord(ORDERS, o).insert();
        }`,
    at: 'dsl.newRecord', table: '<ORDERS>',
  },
  'executeInsert(new OrdersRecord(…))': {
    body: `        for (Order o : orders) {
            OrdersRecord r = new OrdersRecord(o.id(), o.item());
            dsl.executeInsert(r);
        }`,
    at: 'dsl.executeInsert', table: '<OrdersRecord>',
  },
};

/** Batched forms: nothing per row. */
const BATCHED: Record<string, string> = {
  'batchInsert(records)': `        List<OrdersRecord> records = new ArrayList<>();
        for (Order o : orders) {
            OrdersRecord r = dsl.newRecord(ORDERS);
            r.setItem(o.item());
            records.add(r);
        }
        dsl.batchInsert(records).execute();`,
  'batch(query).bind(…) per row, execute once': `        BatchBindStep batch = dsl.batch(dsl.insertInto(ORDERS, ORDERS.ID, ORDERS.ITEM).values((Long) null, null));
        for (Order o : orders) {
            batch.bind(o.id(), o.item());
        }
        batch.execute();`,
  'batch(…).execute() in a loop of chunks': `        for (List<Order> chunk : chunks(orders)) {
            dsl.batch(chunk.stream().map(o -> dsl.insertInto(ORDERS).set(ORDERS.ITEM, o.item())).toList()).execute();
        }`,
  'values(…).values(…) in a loop': `        for (Order[] pair : pairs(orders)) {
            dsl.insertInto(ORDERS, ORDERS.ID, ORDERS.ITEM).values(pair[0].id(), pair[0].item()).values(pair[1].id(), pair[1].item()).execute();
        }`,
  'valuesOfRows in a loop of chunks': `        for (List<Order> chunk : chunks(orders)) {
            dsl.insertInto(ORDERS, ORDERS.ID, ORDERS.ITEM).valuesOfRows(chunk.stream().map(o -> DSL.row(o.id(), o.item())).toList()).execute();
        }`,
  'the Loader API in a loop of files': `        for (String file : files) {
            dsl.loadInto(ORDERS).batchAll().bulkAll().loadCSV(new File(file), "UTF-8").fields(ORDERS.ID, ORDERS.ITEM).execute();
        }`,
  'a record made before the loop, stored on every pass (an UPDATE after the first)': `        OrdersRecord r = dsl.newRecord(ORDERS);
        for (Order o : orders) {
            r.setItem(o.item());
            r.store();
        }`,
  'a fetched record stored in the loop': `        for (Order o : orders) {
            OrdersRecord r = dsl.fetchOne(ORDERS, ORDERS.ID.eq(o.id()));
            r.setItem(o.item());
            r.store();
        }`,
};

describe('code: Java (jOOQ)', () => {
  for (const [name, { body, at, table }] of Object.entries(PER_ROW)) {
    it(`one INSERT per pass: ${name}`, async () => {
      const code = LOADER(body);
      const { findings, models } = await lintCode({ 'OrderLoader.java': code });
      assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(code, at)}`]);
      const message = findings.find((f) => f.rule === 'single-row-insert')!.message;
      assert.ok(message.includes(`One INSERT INTO ${table} call per row`), message);
      assert.match(message, /dsl\.batchInsert\(records\)/);
      assert.equal(models.get('OrderLoader.java')!.code!.executions[0].api, 'jooq');
    });
  }

  for (const [name, body] of Object.entries(BATCHED)) {
    it(`batched, not reported: ${name}`, async () => {
      const { findings } = await lintCode({ 'OrderLoader.java': LOADER(body) });
      assert.deepEqual(brief(findings, INSERT_RULES), []);
    });
  }

  it('reads no jOOQ in a file that does not import org.jooq, and claims no autocommit or commit per row', async () => {
    const code = LOADER(PER_ROW['insertInto(T).set(…).execute()'].body, 'import com.acme.Dsl;\n');
    assert.deepEqual(brief((await lintCode({ 'OrderLoader.java': code })).findings, INSERT_RULES), []);
    const inTx = LOADER(`        dsl.transaction(cfg -> {
${PER_ROW['insertInto(T).set(…).execute()'].body}
        });`);
    const { findings } = await lintCode({ 'OrderLoader.java': inTx });
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(inTx, 'dsl.insertInto')}`]);
  });

  it('leaves out a jOOQ file that names another SQLDialect and no DB2 one', async () => {
    const body = PER_ROW['insertInto(T).set(…).execute()'].body;
    const postgres = LOADER(body).replace('    private final DSLContext dsl;', '    private final DSLContext dsl = DSL.using(ds, SQLDialect.POSTGRES);');
    assert.deepEqual(brief((await lintCode({ 'OrderLoader.java': postgres })).findings, INSERT_RULES), []);
    const db2 = LOADER(body).replace('    private final DSLContext dsl;', '    private final DSLContext dsl = DSL.using(ds, SQLDialect.DB2);');
    assert.deepEqual(brief((await lintCode({ 'OrderLoader.java': db2 })).findings, INSERT_RULES), [`single-row-insert@${posOf(db2, 'dsl.insertInto')}`]);
  });

  it('the CLI on a project tree reports the jOOQ and the SimpleJdbcInsert loops', async () => {
    const jooq = LOADER(PER_ROW['insertInto(T).set(…).execute()'].body);
    const spring = `package app;

import java.util.*;
import org.springframework.jdbc.core.simple.SimpleJdbcInsert;

public class LineDao {
    private final SimpleJdbcInsert insertLine;
    LineDao(javax.sql.DataSource ds) { insertLine = new SimpleJdbcInsert(ds).withTableName("ORDER_LINES"); }
    void load(List<Map<String, Object>> lines) {
        for (Map<String, Object> line : lines) insertLine.execute(line);
    }
}
`;
    const dir = projectOnDisk({ 'pom.xml': '<project/>\n', 'src/main/java/app/OrderLoader.java': jooq, 'src/main/java/app/LineDao.java': spring }, 'insertlint-jooq-');
    const run = await lintPaths({ paths: ['.'], cwd: dir });
    const found = run.diagnostics.filter((d) => d.rule === 'single-row-insert').map((d) => `${d.file.slice(dir.length + 1).replace(/\\/g, '/')}: ${/One INSERT INTO \S+ call per row in the [\w-]+ loop at line \d+/.exec(d.message)?.[0]}`).sort();
    assert.deepEqual(found, [
      'src/main/java/app/LineDao.java: One INSERT INTO ORDER_LINES call per row in the for-each loop at line 10',
      'src/main/java/app/OrderLoader.java: One INSERT INTO <ORDERS> call per row in the for-each loop at line 11',
    ]);
  });
});
