// Spring Data save() in a loop inside a transaction the code opens itself (TransactionTemplate.execute /
// executeWithoutResult, a PlatformTransactionManager's getTransaction … commit, JTA's UserTransaction begin … commit):
// the saves join one transaction, read as the same loop in a @Transactional method is (java-jpa.ts, heldAroundLoop).
// A transaction opened and committed on every pass, or a commit on every pass, is still one transaction per save.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { lintPaths } from '../../server/src/cli/lint-run';
import { brief, INSERT_RULES, JPA_ORDER_ENTITY, lintCode, posOf, projectOnDisk } from './helpers';

const ENTITY = JPA_ORDER_ENTITY;

const HEAD = `package app;

import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.DefaultTransactionDefinition;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionCallbackWithoutResult;
import org.springframework.transaction.support.TransactionTemplate;
import jakarta.persistence.*;
import jakarta.transaction.UserTransaction;
import java.util.List;

${ENTITY}
interface OrderRepository extends JpaRepository<Order, Long> {}
`;

/** A service whose load() holds `body` (the loop of repo.save calls, and what opens its transaction). */
const service = (body: string, annotation = '') => `${HEAD}
@Service
class Loader {
    private final OrderRepository repo;
    private final TransactionTemplate tx;
    private final PlatformTransactionManager txManager;
    private UserTransaction utx;

    ${annotation}void load(List<String> items) throws Exception {
${body}
    }
}
`;

const LOOP = `        for (String item : items) {
            repo.save(new Order(item));
        }`;

/** The loop inside each form of transaction the code opens itself around it. */
const HELD: Record<string, string> = {
  'TransactionTemplate.execute(lambda)': `        tx.execute(status -> {
${LOOP}
            return null;
        });`,
  'TransactionTemplate.executeWithoutResult(lambda)': `        tx.executeWithoutResult(status -> {
${LOOP}
        });`,
  'execute(anonymous TransactionCallbackWithoutResult)': `        tx.execute(new TransactionCallbackWithoutResult() {
            @Override
            protected void doInTransactionWithoutResult(TransactionStatus status) {
${LOOP}
            }
        });`,
  'execute(anonymous TransactionCallback), the template got from a getter': `        getTemplate().execute(new TransactionCallback<Void>() {
            public Void doInTransaction(TransactionStatus status) {
${LOOP}
                return null;
            }
        });`,
  'PlatformTransactionManager getTransaction … commit': `        TransactionStatus status = txManager.getTransaction(new DefaultTransactionDefinition());
        try {
${LOOP}
            txManager.commit(status);
        } catch (RuntimeException e) {
            txManager.rollback(status);
            throw e;
        }`,
  'PlatformTransactionManager, committed every 1000 under a counter': `        TransactionStatus status = txManager.getTransaction(new DefaultTransactionDefinition());
        int n = 0;
        for (String item : items) {
            repo.save(new Order(item));
            if (++n % 1000 == 0) {
                txManager.commit(status);
                status = txManager.getTransaction(new DefaultTransactionDefinition());
            }
        }
        txManager.commit(status);`,
  'UserTransaction begin … commit': `        utx.begin();
${LOOP}
        utx.commit();`,
};

/** The same loop, with a transaction (or a commit) on every pass: one transaction per save, as without any. */
const PER_PASS: Record<string, string> = {
  'TransactionTemplate.execute on every pass': `        for (String item : items) {
            tx.execute(status -> repo.save(new Order(item)));
        }`,
  'executeWithoutResult on every pass': `        for (String item : items) {
            tx.executeWithoutResult(status -> {
                repo.save(new Order(item));
            });
        }`,
  'getTransaction … commit on every pass': `        for (String item : items) {
            TransactionStatus status = txManager.getTransaction(new DefaultTransactionDefinition());
            repo.save(new Order(item));
            txManager.commit(status);
        }`,
  'UserTransaction begun before the loop, committed (and begun again) on every pass': `        utx.begin();
        for (String item : items) {
            repo.save(new Order(item));
            utx.commit();
            utx.begin();
        }
        utx.commit();`,
};

const saveAt = (code: string) => `single-row-insert@${posOf(code, 'repo.save')}`;

describe('code: Spring Data save() in a transaction the code opens itself', () => {
  it('the loop in a @Transactional method is silent; a plain loop is one transaction per save (the baseline)', async () => {
    const transactional = service(LOOP, '@Transactional\n    ');
    assert.deepEqual(brief((await lintCode({ 'Loader.java': transactional })).findings, INSERT_RULES), []);
    const plain = service(LOOP);
    const { findings } = await lintCode({ 'Loader.java': plain });
    assert.deepEqual(brief(findings, INSERT_RULES), [saveAt(plain)]);
    assert.match(findings[0].message, /no @Transactional method or class, and no transaction the code opens itself .*is shown around the loop, and unless a caller holds a transaction open, each save\(\) is a transaction of its own, with its own commit/);
  });

  for (const [form, body] of Object.entries(HELD)) {
    it(`${form}: silent, as the loop in a @Transactional method; an IDENTITY id and saveAndFlush still reported`, async () => {
      const code = service(body);
      const { findings, models } = await lintCode({ 'Loader.java': code });
      assert.deepEqual(brief(findings, INSERT_RULES), []);
      const [save] = models.get('Loader.java')!.code!.executions;
      assert.deepEqual([save.api, save.ormPerCall, save.batched], ['spring-data', undefined, true]);
      // What the @Transactional loop reports, this one reports: an IDENTITY id goes one INSERT per save whatever
      // the transaction; saveAndFlush flushes every entity.
      const identity = code.replace('GenerationType.SEQUENCE', 'GenerationType.IDENTITY');
      const id = await lintCode({ 'Loader.java': identity });
      assert.deepEqual(brief(id.findings, INSERT_RULES), [saveAt(identity)]);
      assert.match(id.findings[0].message, /Instead, generate the entity's id from a Db2 sequence/);
      const flushed = code.replace('repo.save(', 'repo.saveAndFlush(');
      assert.deepEqual(brief((await lintCode({ 'Loader.java': flushed })).findings, INSERT_RULES), [`single-row-insert@${posOf(flushed, 'repo.saveAndFlush')}`]);
    });
  }

  for (const [form, body] of Object.entries(PER_PASS)) {
    it(`${form}: still one transaction per save, reported`, async () => {
      const code = service(body);
      const { findings } = await lintCode({ 'Loader.java': code });
      assert.deepEqual(brief(findings, ['single-row-insert']), [saveAt(code)]);
      assert.match(findings.find((f) => f.rule === 'single-row-insert')!.message, /each save\(\) is a transaction of its own/);
    });
  }

  it('a save in a helper method the loop calls: held when every loop that calls it is (tx.execute, a @Transactional caller); a caller loop outside a transaction reports it', async () => {
    const helper = (body: string, annotation = '') =>
      service(body, annotation).replace(/\n}\n$/, `
    private void saveOne(String item) {
        repo.save(new Order(item));
    }
}
`);
    const viaHelper = (body: string) => body.replace('repo.save(new Order(item));', 'saveOne(item);');
    for (const body of [HELD['TransactionTemplate.execute(lambda)'], HELD['PlatformTransactionManager getTransaction … commit'], HELD['UserTransaction begin … commit']]) {
      const code = helper(viaHelper(body));
      const { findings, models } = await lintCode({ 'Loader.java': code });
      assert.deepEqual(brief(findings, INSERT_RULES), [], code);
      assert.deepEqual(models.get('Loader.java')!.code!.executions.map((e) => [e.ormPerCall, e.batched]), [[undefined, true]]);
    }
    // this.saveOne(item) from a @Transactional method: the self-invocation runs in the caller's transaction.
    const annotated = helper(viaHelper(LOOP).replace('saveOne(item)', 'this.saveOne(item)'), '@Transactional\n    ');
    assert.deepEqual(brief((await lintCode({ 'Loader.java': annotated })).findings, INSERT_RULES), []);
    // Called from a plain loop, or from a held loop and a plain one: one transaction per save.
    const plain = helper(viaHelper(LOOP));
    const { findings } = await lintCode({ 'Loader.java': plain });
    assert.deepEqual(brief(findings, INSERT_RULES), [saveAt(plain)]);
    assert.match(findings[0].message, /\(through saveOne\(\)\).*each save\(\) is a transaction of its own/);
    const both = helper(viaHelper(HELD['TransactionTemplate.execute(lambda)'])).replace('    private void saveOne', `    void loadPlain(List<String> items) {
${viaHelper(LOOP)}
    }
    private void saveOne`);
    const fromBoth = (await lintCode({ 'Loader.java': both })).findings;
    assert.deepEqual(brief(fromBoth, INSERT_RULES), [saveAt(both)]);
    // The loop the finding names is the plain one, though the held one calls the helper first.
    const plainLoopLine = both.slice(0, both.indexOf('void loadPlain')).split('\n').length + 1;
    assert.match(fromBoth[0].message, new RegExp(`^One INSERT INTO APP\\.ORDERS call per row in the for-each loop at line ${plainLoopLine} \\(through saveOne\\(\\)\\)`));
    // A helper no loop calls is no loop's.
    const once = helper('        saveOne(items.get(0));');
    assert.deepEqual(brief((await lintCode({ 'Loader.java': once })).findings, INSERT_RULES), []);
  });

  it('must not be taken for a transaction: execute() of a Runnable, of a one-parameter lambda in a file that names no TransactionTemplate or on a JdbcTemplate, a begin() and commit() of no transaction API', async () => {
    // A lambda of no parameter (an executor's Runnable) is no TransactionCallback.
    const runnable = service(HELD['TransactionTemplate.execute(lambda)'].replace('tx.execute(status -> {', 'executor.execute(() -> {').replace('            return null;\n', ''));
    assert.deepEqual(brief((await lintCode({ 'Loader.java': runnable })).findings, INSERT_RULES), [saveAt(runnable)]);
    // The file names no TransactionTemplate (nor TransactionOperations): a one-parameter lambda given to execute() is
    // some other API's.
    const noTemplate = runnable
      .replace('import org.springframework.transaction.support.TransactionTemplate;\n', '')
      .replace('    private final TransactionTemplate tx;\n', '')
      .replace('executor.execute(() -> {', 'pool.execute(job -> {');
    assert.ok(!/TransactionTemplate|TransactionOperations/.test(noTemplate));
    assert.deepEqual(brief((await lintCode({ 'Loader.java': noTemplate })).findings, INSERT_RULES), [saveAt(noTemplate)]);
    // execute() of a receiver declared as another type in a file that names TransactionTemplate (a JdbcTemplate's
    // ConnectionCallback).
    const jdbc = service(HELD['TransactionTemplate.execute(lambda)'].replace('tx.execute(status -> {', 'jdbcTemplate.execute(con -> {')).replace('    private final TransactionTemplate tx;\n', '    private final TransactionTemplate tx;\n    private final JdbcTemplate jdbcTemplate;\n');
    assert.deepEqual(brief((await lintCode({ 'Loader.java': jdbc })).findings, INSERT_RULES), [saveAt(jdbc)]);
    // begin() / commit() of a receiver that is no UserTransaction (a batch writer of the application's own).
    const writer = service(HELD['UserTransaction begin … commit'].replace(/utx\./g, 'writer.')).replace('    private UserTransaction utx;\n', '    private BatchWriter writer;\n');
    assert.deepEqual(brief((await lintCode({ 'Loader.java': writer })).findings, ['single-row-insert']), [saveAt(writer)]);
    // getTransaction(def) of a transaction manager whose status is committed before the loop.
    const early = service(`        TransactionStatus status = txManager.getTransaction(new DefaultTransactionDefinition());
        txManager.commit(status);
${LOOP}`);
    assert.deepEqual(brief((await lintCode({ 'Loader.java': early })).findings, INSERT_RULES), [saveAt(early)]);
  });

  it('JPA and Hibernate transactions around a persist loop were already read as one (the flush at the commit sends them together)', async () => {
    const hibernate = `import org.hibernate.Session;
import org.hibernate.Transaction;
import jakarta.persistence.*;
${ENTITY}
class Loader {
    void load(Session session, List<String> items) {
        Transaction tx = session.beginTransaction();
        for (String item : items) {
            session.save(new Order(item));
        }
        tx.commit();
    }
}
`;
    assert.deepEqual(brief((await lintCode({ 'Loader.java': hibernate })).findings, INSERT_RULES), []);
    const perPass = hibernate.replace('        Transaction tx = session.beginTransaction();\n', '').replace('            session.save(new Order(item));\n', '            Transaction tx = session.beginTransaction();\n            session.save(new Order(item));\n            tx.commit();\n').replace('        tx.commit();\n    }\n}', '    }\n}');
    assert.deepEqual(brief((await lintCode({ 'Loader.java': perPass })).findings, INSERT_RULES), [`single-row-insert@${posOf(perPass, 'session.save')}`, `commit-per-row@${posOf(perPass, 'tx.commit')}`]);
  });

  it('the example project: load() in tx.execute is silent, load2() (a plain loop) reported; a configuration that batches nothing reports both', async () => {
    const loader = `package app;

import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import java.util.List;

@Service
public class Loader {
  private final OrderRepository repo;
  private final TransactionTemplate tx;

  public Loader(OrderRepository repo, TransactionTemplate tx) { this.repo = repo; this.tx = tx; }

  public void load(List<Row> rows) {
    tx.execute(status -> {
      for (Row r : rows) {
        repo.save(new Order(r.id(), r.amount()));
      }
      return null;
    });
  }

  public void load2(List<Row> rows) {
    for (Row r : rows) {
      repo.save(new Order(r.id(), r.amount()));
    }
  }
}
`;
    const order = `package app;
import jakarta.persistence.*;
@Entity
@Table(name = "ORDERS", schema = "APP")
public class Order {
  @Id @GeneratedValue(strategy = GenerationType.SEQUENCE) Long id;
  int amount;
  public Order(long id, int amount) { this.amount = amount; }
}
`;
    const files = { 'pom.xml': '<project/>\n', 'src/main/java/app/Loader.java': loader, 'src/main/java/app/Order.java': order };
    const lines = async (extra: Record<string, string>) => {
      const dir = projectOnDisk({ ...files, ...extra }, 'insertlint-java-tx-');
      const run = await lintPaths({ paths: ['.'], cwd: dir });
      return run.diagnostics.filter((d) => d.file === join(dir, 'src/main/java/app/Loader.java') && d.rule === 'single-row-insert').map((d) => ({ line: /loop at line (\d+)/.exec(d.message)?.[1], message: d.message }));
    };
    const plain = await lines({});
    assert.deepEqual(plain.map((d) => d.line), ['24']);
    assert.match(plain[0].message, /each save\(\) is a transaction of its own/);
    // With the project's configuration found and no batch size set, the @Transactional loop is reported (every
    // INSERT of the flush on its own): so is the one in tx.execute, for that reason, not for its transaction.
    const unbatched = await lines({ 'src/main/resources/application.properties': 'spring.datasource.url=jdbc:db2://host:50000/SAMPLE\n' });
    assert.deepEqual(unbatched.map((d) => d.line), ['16', '24']);
    assert.match(unbatched[0].message, /application\.properties sets no hibernate\.jdbc\.batch_size/);
    assert.doesNotMatch(unbatched[0].message, /transaction of its own/);
  });
});
