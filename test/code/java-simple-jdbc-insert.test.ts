// Spring's SimpleJdbcInsert: execute / executeAndReturnKey / executeAndReturnKeyHolder in a loop send one INSERT of one
// row per call, into the table withTableName / withSchemaName name (java-spring-jdbc.ts); executeBatch is batched.
import * as assert from 'node:assert/strict';
import { brief, INSERT_RULES, lintCode, posOf } from './helpers';

const SCHEMA = 'CREATE TABLE APP.ORDERS (ID BIGINT NOT NULL GENERATED ALWAYS AS IDENTITY, ITEM VARCHAR(40));\n';

const DAO = (body: string, config = '.withSchemaName("APP").withTableName("ORDERS")') => `package app;

import java.util.*;
import javax.sql.DataSource;
import org.springframework.jdbc.core.simple.SimpleJdbcInsert;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;

public class OrderDao {
    private final SimpleJdbcInsert insertOrder;

    public OrderDao(DataSource dataSource) {
        this.insertOrder = new SimpleJdbcInsert(dataSource)${config};
    }

    public void load(List<String> items) {
${body}
    }
}
`;

const LOOP = `        for (String item : items) {
            insertOrder.execute(Map.of("ITEM", item));
        }`;

describe('code: Java (Spring SimpleJdbcInsert)', () => {
  it('reports execute(map) in a loop as one INSERT per row into the table withSchemaName / withTableName name', async () => {
    const code = DAO(LOOP);
    const { findings, models } = await lintCode({ 'schema.sql': SCHEMA, 'OrderDao.java': code });
    assert.deepEqual(brief(findings.filter((f) => f.file === 'OrderDao.java'), INSERT_RULES), [`single-row-insert@${posOf(code, 'insertOrder.execute')}`]);
    const finding = findings.find((f) => f.rule === 'single-row-insert')!;
    assert.match(finding.message, /INSERT INTO APP\.ORDERS call per row in the for-each loop/);
    assert.match(finding.message, /insertOrder\.executeBatch\(rows\)/);
    assert.doesNotMatch(finding.message, /generated keys/);
    assert.equal(models.get('OrderDao.java')!.code!.executions[0].api, 'spring-simple-insert');
  });

  it('a lower-case name is Db2\'s upper-case one (Spring reads the metadata upper-cased); no schema, no schema in the name', async () => {
    const code = DAO(LOOP, '.withTableName("orders")');
    const { findings } = await lintCode({ 'OrderDao.java': code });
    assert.match(findings.find((f) => f.rule === 'single-row-insert')!.message, /INSERT INTO ORDERS call per row/);
  });

  it('executeAndReturnKey with usingGeneratedKeyColumns: the advice says executeBatch returns no keys', async () => {
    const code = DAO(`        for (String item : items) {
            SqlParameterSource p = new MapSqlParameterSource("ITEM", item);
            Number id = insertOrder.executeAndReturnKey(p);
        }`, '.withTableName("ORDERS").usingGeneratedKeyColumns("ID")');
    const { findings } = await lintCode({ 'OrderDao.java': code });
    const finding = findings.find((f) => f.rule === 'single-row-insert')!;
    assert.equal(`${finding.line}:${finding.column}`, posOf(code, 'insertOrder.executeAndReturnKey'));
    assert.match(finding.message, /executeBatch returns the update counts only, no generated keys/);
  });

  it('a local SimpleJdbcInsert, configured in a later statement, run with executeAndReturnKeyHolder in forEach', async () => {
    const code = DAO(`        SimpleJdbcInsert ins = new SimpleJdbcInsert(ds);
        ins.withSchemaName("APP").withTableName("ORDERS").usingColumns("ITEM");
        items.forEach(item -> ins.executeAndReturnKeyHolder(Map.of("ITEM", item)));`);
    const { findings } = await lintCode({ 'OrderDao.java': code });
    const finding = findings.find((f) => f.rule === 'single-row-insert')!;
    assert.equal(`${finding.line}:${finding.column}`, posOf(code, 'ins.executeAndReturnKeyHolder'));
    assert.match(finding.message, /INSERT INTO APP\.ORDERS call per row in the forEach loop/);
  });

  it('is silent for executeBatch, for a call outside a loop, and claims no autocommit or commit per row', async () => {
    const batched = DAO(`        List<Map<String, Object>> rows = new ArrayList<>();
        for (String item : items) rows.add(Map.of("ITEM", item));
        insertOrder.executeBatch(rows.toArray(new Map[0]));`);
    const once = DAO(`        insertOrder.execute(Map.of("ITEM", items.get(0)));`);
    for (const code of [batched, once]) {
      const { findings } = await lintCode({ 'OrderDao.java': code });
      assert.deepEqual(brief(findings, INSERT_RULES), []);
    }
    const { findings } = await lintCode({ 'OrderDao.java': DAO(LOOP) });
    assert.deepEqual(findings.filter((f) => f.rule === 'no-autocommit' || f.rule === 'commit-per-row'), []);
  });

  it('an execute() of something else in a file naming SimpleJdbcInsert is not an insert; a table set twice is not named', async () => {
    const other = DAO(`        for (String item : items) {
            executor.execute(() -> work(item));
        }`);
    assert.deepEqual(brief((await lintCode({ 'OrderDao.java': other })).findings, INSERT_RULES), []);
    const twice = DAO(LOOP).replace('    public void load(', `    public OrderDao(DataSource ds, int x) {
        this.insertOrder = new SimpleJdbcInsert(ds).withTableName("LINES");
    }

    public void load(`);
    const finding = (await lintCode({ 'OrderDao.java': twice })).findings.find((f) => f.rule === 'single-row-insert')!;
    assert.match(finding.message, /INSERT INTO <insertOrder> call per row/);
  });
});
