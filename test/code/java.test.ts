import * as assert from 'node:assert/strict';
import { brief, INSERT_RULES, JPA_ORDER_ENTITY, lintCode, posOf } from './helpers';

const SCHEMA = [
  'CREATE TABLE APP.ORDERS (',
  '  ID BIGINT NOT NULL GENERATED ALWAYS AS IDENTITY (NO CACHE),',
  '  CUSTOMER INTEGER, AMOUNT DECIMAL(9,2));',
  'CREATE INDEX APP.ORDERS_CUST ON APP.ORDERS (CUSTOMER);',
  '',
].join('\n');

// The classic slow loader: concatenated values, one executeUpdate per row, autocommit left on.
const CONCAT_LOADER = `package demo;

import java.sql.*;
import java.util.List;

public class OrderLoader {
    public void load(List<Order> orders) throws SQLException {
        Connection conn = DriverManager.getConnection(URL, USER, PASSWORD);
        Statement stmt = conn.createStatement();
        for (Order o : orders) {
            String sql = "INSERT INTO APP.ORDERS (CUSTOMER, AMOUNT) "
                + "VALUES (" + o.customer() + ", "
                + o.amount() + ")";
            stmt.executeUpdate(sql);
        }
    }
}
`;

describe('code: Java (JDBC)', () => {
  it('finds spliced values, one execute per row and autocommit on in a for-each loop', async () => {
    const { findings } = await lintCode({ 'OrderLoader.java': CONCAT_LOADER });
    const j = CONCAT_LOADER;
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `no-autocommit@${posOf(j, 'stmt.executeUpdate')}`,
      `prefer-parameter-markers@${posOf(j, 'stmt.executeUpdate')}`,
      `single-row-insert@${posOf(j, 'stmt.executeUpdate')}`,
    ]);
    const markers = findings.find((f) => f.rule === 'prefer-parameter-markers')!;
    // Anchored on the call that executes, naming the table, the spliced expressions and the loop.
    assert.match(markers.message, /^Values spliced into INSERT INTO APP\.ORDERS through string concatenation: o\.customer\(\), o\.amount\(\)\. .*for-each loop at line 10.*SQL-injection.*Db2 INSERT tips, tests 1-2: .*180\.6 s.*92\.1 s/);
    assert.equal(`${markers.endLine}:${markers.endColumn}`, posOf(j, 'stmt.executeUpdate(sql)').replace(/:(\d+)$/, (_, c) => `:${Number(c) + 'stmt.executeUpdate(sql)'.length}`));
    const autocommit = findings.find((f) => f.rule === 'no-autocommit')!;
    assert.match(autocommit.message, /^Autocommit is on for 'conn' \(the driver default for a connection this file opens\) while the for-each loop at line 10 inserts into APP\.ORDERS one row per call\./);
  });

  it('points SQL-rule findings at the exact characters inside a multi-line host string', async () => {
    const { findings } = await lintCode({ 'schema.sql': SCHEMA, 'OrderLoader.java': CONCAT_LOADER }, { rules: { 'insert-target-cost': 'information' } });
    const cost = findings.find((f) => f.rule === 'insert-target-cost' && f.file === 'OrderLoader.java');
    assert.ok(cost, 'insert-target-cost summarises the target where the code inserts');
    assert.equal(`${cost.line}:${cost.column}`, posOf(CONCAT_LOADER, 'APP.ORDERS'));
    assert.equal(cost.endColumn - cost.column, 'APP.ORDERS'.length);
    // The loop makes APP.ORDERS a bulk insert target: the identity NO CACHE finding appears on the DDL.
    assert.ok(findings.some((f) => f.rule === 'identity-cache' && f.file === 'schema.sql' && f.line === 2));
  });

  it('reports a prepare inside the loop (try-with-resources) and a commit per row', async () => {
    const code = `class Loader {
    void load(Connection conn, List<Row> rows) throws SQLException {
        conn.setAutoCommit(false);
        for (int i = 0; i < rows.size(); i++) {
            try (PreparedStatement ps = conn.prepareStatement(
                    "INSERT INTO APP.ORDERS (CUSTOMER, AMOUNT) VALUES (?, ?)")) {
                ps.setInt(1, rows.get(i).customer);
                ps.setBigDecimal(2, rows.get(i).amount);
                ps.executeUpdate();
            }
            conn.commit();
        }
    }
}
`;
    const { findings } = await lintCode({ 'Loader.java': code });
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `prepare-in-loop@${posOf(code, 'conn.prepareStatement')}`,
      `single-row-insert@${posOf(code, 'ps.executeUpdate')}`,
      `commit-per-row@${posOf(code, 'conn.commit')}`,
    ]);
  });

  it('follows a static final SQL constant, String.format and a while loop with a StringBuilder', async () => {
    const code = `public class Feed {
    private static final String INSERT_EVENT = "INSERT INTO EVENTS (ID, KIND) VALUES (%d, '%s')";

    public void feed(Connection c, Iterator<Event> it) throws Exception {
        Statement st = c.createStatement();
        while (it.hasNext()) {
            Event e = it.next();
            st.execute(String.format(INSERT_EVENT, e.id, e.kind));
        }
        StringBuilder sb = new StringBuilder("INSERT INTO AUDIT (MSG) VALUES ('");
        sb.append(message);
        sb.append("')");
        st.executeUpdate(sb.toString());
    }
}
`;
    const { findings, models } = await lintCode({ 'Feed.java': code });
    const exec = models.get('Feed.java')!.code!.executions;
    assert.deepEqual(exec.map((e) => [e.action, e.textKind, e.loop?.kind ?? '-']), [
      ['executeDirect', 'format', 'while'],
      ['executeDirect', 'concatenation', '-'],
    ]);
    // The connection is a parameter: its autocommit is not known here, so no-autocommit says nothing.
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `prefer-parameter-markers@${posOf(code, 'st.execute(')}`,
      `single-row-insert@${posOf(code, 'st.execute(')}`,
      `prefer-parameter-markers@${posOf(code, 'st.executeUpdate')}`,
    ]);
    // '%s' inside the quotes of the format template: the spliced expression is still named.
    assert.match(findings[0].message, /^Values spliced into INSERT INTO EVENTS through a format template: e\.id, e\.kind\./);
    assert.match(findings[2].message, /^Values spliced into INSERT INTO AUDIT through string concatenation: message\./);
  });

  it('reads Java text blocks and maps findings inside them', async () => {
    const code = `class T {
    static final String SQL = """
        INSERT INTO APP.ORDERS
            (CUSTOMER, AMOUNT)
        VALUES (?, ?)
        """;
    void run(Connection conn) throws Exception {
        PreparedStatement ps = conn.prepareStatement(SQL);
        for (Row r : rows) { ps.setInt(1, r.c); ps.executeUpdate(); }
    }
}
`;
    const { findings } = await lintCode({ 'schema.sql': SCHEMA, 'T.java': code }, { rules: { 'insert-target-cost': 'information' } });
    const cost = findings.find((f) => f.rule === 'insert-target-cost' && f.file === 'T.java')!;
    assert.equal(`${cost.line}:${cost.column}`, posOf(code, 'APP.ORDERS'));
    assert.deepEqual(brief(findings.filter((f) => f.file === 'T.java'), INSERT_RULES), [`single-row-insert@${posOf(code, 'ps.executeUpdate')}`]);
  });

  it('treats Spring JdbcTemplate.update in a loop as one row per call and batchUpdate as batched', async () => {
    const code = `@Repository
class OrderDao {
    private final JdbcTemplate jdbc;
    void saveAll(List<Order> orders) {
        orders.forEach(o -> jdbc.update("INSERT INTO ORDERS (CUSTOMER, AMOUNT) VALUES (?, ?)", o.customer, o.amount));
    }
    void saveAllFast(List<Object[]> rows) {
        jdbc.batchUpdate("INSERT INTO ORDERS (CUSTOMER, AMOUNT) VALUES (?, ?)", rows);
    }
}
`;
    const { findings } = await lintCode({ 'OrderDao.java': code });
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(code, 'jdbc.update')}`]);
    assert.match(findings.find((f) => f.rule === 'single-row-insert')!.message, /forEach loop.*batchUpdate/);
  });

  it('lints SQLJ clauses as static SQL with host variables', async () => {
    const code = `public class SqljLoader {
    void load(List<Row> rows) throws SQLException {
        for (Row r : rows) {
            #sql [ctx] { INSERT INTO APP.ORDERS (CUSTOMER, AMOUNT) VALUES (:(r.customer), :(r.amount)) };
            #sql [ctx] { COMMIT };
        }
    }
}
`;
    const { findings, models } = await lintCode({ 'SqljLoader.sqlj': code });
    assert.equal(models.get('SqljLoader.sqlj')!.code!.executions[0].api, 'sqlj');
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `single-row-insert@${posOf(code, '#sql [ctx] { INSERT')}`,
      `commit-per-row@${posOf(code, '#sql [ctx] { COMMIT')}`,
    ]);
  });

  it('does not lint strings that only look like SQL (logging, constants never executed)', async () => {
    const code = `class Quiet {
    void run(Connection conn, List<Row> rows) throws Exception {
        for (Row r : rows) {
            log.info("INSERT INTO ORDERS VALUES (" + r.id + ")");
            System.out.printf("INSERT INTO ORDERS VALUES (%d)%n", r.id);
            String unused = "INSERT INTO ORDERS VALUES (" + r.id + ")";
            executor.execute(() -> work(r));
        }
    }
}
`;
    const { findings, models } = await lintCode({ 'Quiet.java': code });
    assert.deepEqual(brief(findings), []);
    assert.equal(models.get('Quiet.java')!.code!.executions.length, 0);
  });

  it('follows a helper method called once per row from a loop in the same file', async () => {
    const code = `class Importer {
    void importAll(Connection conn, List<Row> rows) throws SQLException {
        for (Row r : rows) {
            insertRow(conn, r);
        }
    }

    private void insertRow(Connection c, Row r) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO T (A, B) VALUES (?, ?)")) {
            ps.setInt(1, r.a);
            ps.setString(2, r.b);
            ps.executeUpdate();
        }
        c.commit();
    }
}
`;
    const { findings } = await lintCode({ 'Importer.java': code });
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `prepare-in-loop@${posOf(code, 'c.prepareStatement')}`,
      `single-row-insert@${posOf(code, 'ps.executeUpdate')}`,
      `commit-per-row@${posOf(code, 'c.commit')}`,
    ]);
    assert.match(findings.find((f) => f.rule === 'single-row-insert')!.message, /^One INSERT INTO T call per row in the for-each loop at line 3 \(through insertRow\(\)\)\./);
  });

  it('a column list and marker list built at run time are neither values nor a parse error', async () => {
    const code = `class Generic {
    void insert(Connection conn, String table, List<String> cols, List<Object[]> rows) throws SQLException {
        String marks = String.join(", ", Collections.nCopies(cols.size(), "?"));
        String sql = "INSERT INTO " + table + " (" + String.join(", ", cols) + ") VALUES (" + marks + ")";
        conn.setAutoCommit(false);
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            for (Object[] row : rows) { bind(ps, row); ps.addBatch(); }
            ps.executeBatch();
        }
        conn.commit();
    }
}
`;
    const { findings } = await lintCode({ 'Generic.java': code });
    assert.deepEqual(brief(findings), []);
  });

  it('honours insertlint-disable-next-line comments in host code', async () => {
    const code = CONCAT_LOADER.replace('            stmt.executeUpdate(sql);', '            // insertlint-disable-next-line single-row-insert, no-autocommit: 12 rows a day\n            stmt.executeUpdate(sql);');
    const { findings } = await lintCode({ 'OrderLoader.java': code });
    assert.deepEqual(brief(findings, INSERT_RULES), [`prefer-parameter-markers@${posOf(code, 'stmt.executeUpdate')}`]);
  });

  it('a flush helper called under a batch-size guard in the loop is not a per-row commit', async () => {
    const code = `class Buffered {
    private int pending;
    void load(Connection conn, List<Row> rows) throws SQLException {
        conn.setAutoCommit(false);
        PreparedStatement ps = conn.prepareStatement("INSERT INTO T (A) VALUES (?)");
        for (Row r : rows) {
            ps.setInt(1, r.a);
            ps.addBatch();
            if (++pending >= BATCH_SIZE) flush(conn, ps);
        }
        flush(conn, ps);
    }

    private void flush(Connection conn, PreparedStatement ps) throws SQLException {
        ps.executeBatch();
        conn.commit();
        pending = 0;
    }
}
`;
    const { findings } = await lintCode({ 'Buffered.java': code });
    assert.deepEqual(brief(findings, INSERT_RULES), []);
    // The same helpers called on every pass are a batch of one and a commit per row.
    const everyRow = code.replace('if (++pending >= BATCH_SIZE) flush(conn, ps);', 'flush(conn, ps);');
    const perRow = await lintCode({ 'Buffered.java': everyRow });
    assert.deepEqual(brief(perRow.findings, INSERT_RULES), [`single-row-insert@${posOf(everyRow, 'ps.executeBatch')}`]);
  });

  it('a commit helper called under a modulo guard, with one executeUpdate per row', async () => {
    const code = `class Periodic {
    void load(Connection conn, List<Row> rows) throws SQLException {
        conn.setAutoCommit(false);
        PreparedStatement ps = conn.prepareStatement("INSERT INTO T (A) VALUES (?)");
        int n = 0;
        for (Row r : rows) {
            ps.setInt(1, r.a);
            ps.executeUpdate();
            if (++n % 1000 == 0) commitNow(conn);
        }
    }
    private void commitNow(Connection conn) throws SQLException { conn.commit(); }
}
`;
    const { findings } = await lintCode({ 'Periodic.java': code });
    assert.deepEqual(brief(findings, ['commit-per-row']), []);
    const unguarded = code.replace('if (++n % 1000 == 0) commitNow(conn);', 'commitNow(conn);');
    const perRow = await lintCode({ 'Periodic.java': unguarded });
    assert.deepEqual(brief(perRow.findings, ['commit-per-row']), [`commit-per-row@${posOf(unguarded, 'conn.commit()')}`]);
  });
});

describe('code: Java ORMs (JPA, Hibernate, Spring Data inserts without SQL text)', () => {
  const ENTITY = JPA_ORDER_ENTITY;

  it('em.persist with a commit on every pass: single-row-insert and commit-per-row into the @Table name and schema', async () => {
    const code = `import jakarta.persistence.*;
${ENTITY}
class Loader {
    @PersistenceContext EntityManager em;
    void load(List<String> items) {
        for (String item : items) {
            em.getTransaction().begin();
            em.persist(new Order(item));
            em.getTransaction().commit();
        }
    }
}
`;
    const { findings, models } = await lintCode({ 'Loader.java': code });
    const [exec] = models.get('Loader.java')!.code!.executions;
    assert.deepEqual([exec.api, exec.construct, exec.batched, exec.splicedValues.length], ['jpa', 'orm', false, 0]);
    assert.deepEqual(exec.statements.map((st) => st.kind === 'insert' && `${st.target.schema}.${st.target.name}`), ['APP.ORDERS']);
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(code, 'em.persist')}`, `commit-per-row@${posOf(code, 'em.getTransaction().commit')}`]);
    const single = findings.find((f) => f.rule === 'single-row-insert')!.message;
    assert.match(single, /^One INSERT INTO APP\.ORDERS call per row in the for-each loop at line 13\./);
    assert.match(single, /flush or commit once after it.*only when hibernate\.jdbc\.batch_size is set .*if it is not already, and never for an entity whose id is @GeneratedValue\(strategy = GenerationType\.IDENTITY\)\.$/);
    const commit = findings.find((f) => f.rule === 'commit-per-row')!.message;
    assert.match(commit, /^Commit on every pass of the for-each loop at line 13 that inserts into APP\.ORDERS\..*Commit once after the loop, or every 1000 entities/);
    // A transaction variable, a Hibernate session's save with tx.commit(), em.flush() per pass: the same.
    const tx = code.replace('em.getTransaction().begin();', 'EntityTransaction tx = em.getTransaction(); tx.begin();').replace('em.getTransaction().commit();', 'tx.commit();');
    assert.deepEqual(brief((await lintCode({ 'Loader.java': tx })).findings, INSERT_RULES), [`single-row-insert@${posOf(tx, 'em.persist')}`, `commit-per-row@${posOf(tx, 'tx.commit')}`]);
    const hibernate = `import org.hibernate.Session;
import org.hibernate.Transaction;
${ENTITY}
class Loader {
    void load(Session session, List<String> items) {
        for (String item : items) {
            Transaction tx = session.beginTransaction();
            Order o = new Order(item);
            session.save(o);
            tx.commit();
        }
    }
}
`;
    const h = await lintCode({ 'Loader.java': hibernate });
    assert.deepEqual(brief(h.findings, INSERT_RULES), [`single-row-insert@${posOf(hibernate, 'session.save')}`, `commit-per-row@${posOf(hibernate, 'tx.commit')}`]);
    const flush = code.replace('em.getTransaction().begin();', '').replace('em.getTransaction().commit();', 'em.flush();');
    assert.deepEqual(brief((await lintCode({ 'Loader.java': flush })).findings, INSERT_RULES), [`single-row-insert@${posOf(flush, 'em.persist')}`]);
  });

  it('persist in a loop with one commit after it: silent unless the id is IDENTITY, which Hibernate never batches', async () => {
    const code = `import jakarta.persistence.*;
${ENTITY}
class Loader {
    @PersistenceContext EntityManager em;
    void load(List<String> items) {
        em.getTransaction().begin();
        for (String item : items) {
            em.persist(new Order(item));
            if (++n % 1000 == 0) { em.flush(); em.clear(); }
        }
        em.getTransaction().commit();
    }
}
`;
    const { findings, models } = await lintCode({ 'Loader.java': code });
    assert.equal(models.get('Loader.java')!.code!.executions[0].batched, true);
    assert.deepEqual(brief(findings, INSERT_RULES), []);
    const identity = code.replace('GenerationType.SEQUENCE', 'GenerationType.IDENTITY');
    const id = await lintCode({ 'Loader.java': identity });
    assert.deepEqual(brief(id.findings, INSERT_RULES), [`single-row-insert@${posOf(identity, 'em.persist')}`]);
    const message = id.findings[0].message;
    assert.match(message, /^One INSERT INTO APP\.ORDERS call per row in the for-each loop at line 14\./);
    assert.match(message, /Instead, generate the entity's id from a Db2 sequence .*with GenerationType\.IDENTITY Hibernate inserts each entity as soon as it is persisted.*never batches them, whatever hibernate\.jdbc\.batch_size says/);
  });

  it('a JPQL/HQL query of the persisted entity on every pass (FlushMode AUTO), one commit after the loop: reported; a query of another entity, FlushModeType.COMMIT, a guarded or iterated query: silent', async () => {
    const code = `import jakarta.persistence.*;
${ENTITY}
class Loader {
    @PersistenceContext EntityManager em;
    void load(List<String> items) {
        em.getTransaction().begin();
        for (String item : items) {
            List<Order> seen = em.createQuery("select o from Order o where o.item = :item", Order.class).setParameter("item", item).getResultList();
            if (seen.isEmpty()) em.persist(new Order(item));
        }
        em.getTransaction().commit();
    }
}
`;
    const { findings, models } = await lintCode({ 'Loader.java': code });
    const persist = models.get('Loader.java')!.code!.executions.find((e) => e.construct === 'orm')!;
    assert.deepEqual([persist.batched, persist.autoflushedBy], [false, 'em.createQuery(…).getResultList()']);
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(code, 'em.persist')}`]);
    const message = findings.find((f) => f.rule === 'single-row-insert')!.message;
    assert.match(message, /getResultList\(\) runs on every pass, and with the default FlushMode AUTO Hibernate first flushes the persisted entities the query reads/);
    assert.match(message, /Instead, look up what the loop needs before it .*setFlushMode\(FlushModeType\.COMMIT\).*hibernate\.jdbc\.batch_size/);
    // Hibernate's session, the query held in a variable: the same.
    const hibernate = `import org.hibernate.Session;
import org.hibernate.query.Query;
${ENTITY}
class Loader {
    void load(Session session, List<String> items) {
        for (String item : items) {
            Query<Order> q = session.createQuery("from Order where item = :item", Order.class);
            q.setParameter("item", item);
            if (q.uniqueResult() == null) session.save(new Order(item));
        }
        session.getTransaction().commit();
    }
}
`;
    assert.deepEqual(brief((await lintCode({ 'Loader.java': hibernate })).findings, INSERT_RULES), [`single-row-insert@${posOf(hibernate, 'session.save')}`]);
    // Not flushed: a query of another entity (Hibernate flushes only what the query reads), a flush mode of COMMIT, a
    // query under a counter guard, a query the loop iterates over.
    const customer = code.replace('"select o from Order o where o.item = :item", Order.class', '"select c.id from Customer c where c.code = :item", Long.class').replace('List<Order> seen', 'List<Long> seen');
    const commitMode = code.replace('em.getTransaction().begin();', 'em.setFlushMode(FlushModeType.COMMIT);\n        em.getTransaction().begin();');
    const guarded = code.replace('List<Order> seen = em', 'List<Order> seen = List.of();\n            if (++n % 1000 == 0) seen = em');
    const iterated = `import jakarta.persistence.*;
${ENTITY}
class Loader {
    @PersistenceContext EntityManager em;
    void copy() {
        for (Order o : em.createQuery("select o from Order o", Order.class).getResultList()) {
            em.persist(new Order(o.item));
        }
        em.flush();
    }
}
`;
    for (const silent of [customer, commitMode, guarded, iterated]) {
      const { findings: none, models: read } = await lintCode({ 'Loader.java': silent });
      assert.deepEqual(brief(none, INSERT_RULES), []);
      assert.deepEqual(read.get('Loader.java')!.code!.executions.filter((e) => e.construct === 'orm').map((e) => [e.batched, e.autoflushedBy]), [[true, undefined]]);
    }
  });

  it('Spring Data: repository.save(new ...) in a loop is one transaction per call (saveAll advice); saveAll and a @Transactional loop are silent', async () => {
    const code = `import org.springframework.stereotype.Service;
${ENTITY}
interface OrderRepository extends JpaRepository<Order, Long> {}
@Service
class Importer {
    private final OrderRepository orders;
    void load(List<String> items) {
        for (String item : items) {
            orders.save(new Order(item));
        }
    }
    void loadAll(List<String> items) {
        orders.saveAll(items.stream().map(Order::new).toList());
    }
}
`;
    const { findings } = await lintCode({ 'Importer.java': code });
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(code, 'orders.save(')}`]);
    assert.match(findings[0].message, /^One INSERT INTO APP\.ORDERS call per row in the for-each loop at line 15\..*Instead, gather the entities in a list and call saveAll\(list\) once .*unless a caller holds a transaction open, each save\(\) is a transaction of its own, with its own commit/);
    // Without Spring or JPA imported, an OrderRepository may be the workspace's own (over JDBC, read in its file).
    const own = code.replace('import org.springframework.stereotype.Service;\n', '');
    assert.deepEqual(brief((await lintCode({ 'Importer.java': own })).findings, INSERT_RULES), []);
    const tx = code.replace('    void load(', '    @Transactional\n    void load(');
    assert.deepEqual(brief((await lintCode({ 'Importer.java': tx })).findings, INSERT_RULES), []);
    // A repository named so, with saveAndFlush: a flush per entity even in a transaction.
    const flush = tx.replace('orders.save(', 'orderRepo.saveAndFlush(').replace('private final OrderRepository orders;', 'private final OrderRepository orderRepo;');
    assert.deepEqual(brief((await lintCode({ 'Importer.java': flush })).findings, INSERT_RULES), [`single-row-insert@${posOf(flush, 'orderRepo.saveAndFlush')}`]);
  });

  it('Spring Data: a query method of the saving repository on every pass of a @Transactional loop (FlushMode AUTO) is reported; findById, another repository, a guarded query, a COMMIT flush mode: silent', async () => {
    const code = `import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
${ENTITY}
interface OrderRepository extends JpaRepository<Order, Long> {}
@Service
class Importer {
    private final OrderRepository orders;
    private final CustomerRepository customers;
    @Transactional
    void load(List<String> items) {
        for (String item : items) {
            if (orders.existsByItem(item)) continue;
            orders.save(new Order(item));
        }
    }
}
`;
    const { findings, models } = await lintCode({ 'Importer.java': code });
    const save = models.get('Importer.java')!.code!.executions.find((e) => e.construct === 'orm')!;
    assert.deepEqual([save.batched, save.autoflushedBy], [false, 'orders.existsByItem(item)']);
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(code, 'orders.save(')}`]);
    const message = findings[0].message;
    assert.match(message, /orders\.existsByItem\(item\) runs on every pass, and with the default FlushMode AUTO Hibernate first flushes/);
    assert.match(message, /Instead, look up what the loop needs before it \(one repository query for all the rows' keys, such as a findAllBy…In\(keys\) method.*@QueryHints\(@QueryHint\(name = "org\.hibernate\.flushMode", value = "COMMIT"\)\).*saveAll\(list\) once after the loop/);
    // Find-or-create through Optional, the save in orElseGet's lambda: the same.
    const orElse = code.replace('if (orders.existsByItem(item)) continue;\n            orders.save(new Order(item));', 'Order o = orders.findFirstByItemOrderByIdDesc(item).orElseGet(() -> orders.save(new Order(item)));');
    assert.deepEqual(brief((await lintCode({ 'Importer.java': orElse })).findings, INSERT_RULES), [`single-row-insert@${posOf(orElse, 'orders.save(')}`]);
    // Not flushing the saves: findById (EntityManager.find looks in the session first), another repository's query
    // (other tables), a query under a counter guard, a flush mode of COMMIT in the file.
    const byId = code.replace('orders.existsByItem(item)', 'orders.findById(item.length()).isPresent()');
    const other = code.replace('orders.existsByItem(item)', 'customers.existsByCode(item)');
    const guarded = code.replace('if (orders.existsByItem(item)) continue;', 'if (++n % 1000 == 0 && orders.existsByItem(item)) continue;');
    const commitMode = code.replace('@Transactional\n    void load', '@QueryHints(@QueryHint(name = "org.hibernate.flushMode", value = "COMMIT"))\n    @Transactional\n    void load');
    for (const silent of [byId, other, guarded, commitMode]) {
      const { findings: none, models: read } = await lintCode({ 'Importer.java': silent });
      assert.deepEqual(brief(none, INSERT_RULES), [], silent);
      assert.deepEqual(read.get('Importer.java')!.code!.executions.filter((e) => e.construct === 'orm').map((e) => [e.batched, e.autoflushedBy]), [[true, undefined]]);
    }
  });

  it('must not report: list.add, map.merge, a loaded entity merged or saved again, a session that is no Hibernate one (only the persist beside them)', async () => {
    const code = `import jakarta.persistence.*;
${ENTITY}
class Loader {
    @PersistenceContext EntityManager em;
    OrderRepository repo;
    void load(List<String> items, Map<String, Integer> counts, List<Order> loaded, HttpSession session) {
        List<Order> out = new ArrayList<>();
        for (String item : items) {
            out.add(new Order(item));
            counts.merge(item, 1, Integer::sum);
            session.save(new Order(item));
            em.persist(new Order(item));
            em.getTransaction().commit();
        }
        for (Order o : loaded) {
            em.merge(o);
            repo.save(o);
            em.flush();
        }
    }
}
`;
    const { findings, models } = await lintCode({ 'Loader.java': code });
    // Only the persist of a new Order is an insert.
    assert.deepEqual(models.get('Loader.java')!.code!.executions.map((e) => e.callSpan.start), [code.indexOf('em.persist')]);
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(code, 'em.persist')}`, `commit-per-row@${posOf(code, 'em.getTransaction().commit')}`]);
  });

  it("an entity in another file: its table (engine/orm-entities.ts), else the class names it (<Order>); the file is read for its EntityManager, not for another database's", async () => {
    const code = `import jakarta.persistence.EntityManager;
class Loader {
    private final EntityManager entityManager;
    void load(List<String> items) {
        for (String item : items) {
            Order order = new Order(item);
            entityManager.persist(order);
            entityManager.flush();
        }
    }
}
`;
    const { findings, models } = await lintCode({ 'Loader.java': code, 'Order.java': `import jakarta.persistence.*;\n${ENTITY}` });
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(code, 'entityManager.persist')}`]);
    // Order.java's @Table names it (test/code/cross-file-orm.test.ts); without that file, the class does.
    assert.match(findings[0].message, /^One INSERT INTO APP\.ORDERS call per row in the for-each loop at line 5\./);
    const alone = await lintCode({ 'Loader.java': code });
    assert.match(alone.findings[0].message, /^One INSERT INTO <Order> call per row in the for-each loop at line 5\./);
    // persist() always inserts: a loop variable's declared class names the table too (from its declaration).
    const each = code.replace('for (String item : items) {\n            Order order = new Order(item);\n            entityManager.persist(order);', 'for (Order o : orders) {\n            entityManager.persist(o);');
    assert.notEqual(each, code);
    const e = await lintCode({ 'Loader.java': each });
    assert.deepEqual(brief(e.findings, INSERT_RULES), [`single-row-insert@${posOf(each, 'entityManager.persist')}`]);
    assert.match(e.findings[0].message, /^One INSERT INTO <Order> call per row/);
    // Order.java has no data access: left out, as before.
    assert.match(models.get('Order.java')!.leftOut!, /^no Db2 access found/);
    const other = code.replace('class Loader {', 'class Loader {\n    static final String URL = "jdbc:postgresql://db/app";');
    const pg = await lintCode({ 'Loader.java': other });
    assert.deepEqual(brief(pg.findings, INSERT_RULES), []);
    assert.equal(pg.models.get('Loader.java')!.leftOut, 'talks to another database (postgresql), not Db2');
  });
});
