// ORM inserts of an entity class another file declares (engine/orm-entities.ts): Loader.java persists `new Order(…)`
// and Order.java is the @Entity with its @Table and id; loader.py adds `Order(…)` after `from models import Order`
// and models.py maps the class's __tablename__. The engine names the entity's table in the INSERT (not `<Order>`),
// and for Java an IDENTITY id (its own or a @MappedSuperclass's) makes each persist one row per call.
import * as assert from 'node:assert/strict';
import { brief, INSERT_RULES, JPA_IMPORTED_LOADER, lintCode, posOf, projectOnDisk } from './helpers';
import { entityIndex, withOrmEntities } from '../../server/src/engine/orm-entities';
import type { FileModel } from '../../server/src/engine/types';
import type { SqlExecution } from '../../server/src/code-model/types';
import { changedNames, dependentFiles, fileNames, ormClassKey, schemaFacts } from '../../server/src/lsp/model-queries';
import { growthRatio } from '../robustness/support';
import { lintPaths } from '../../server/src/cli/lint-run';
import { summarize } from '../../server/src/cli/check-command';

const entity = (pkg: string, table: string, strategy = 'IDENTITY') => `package ${pkg};

import jakarta.persistence.*;

@Entity
@Table(name = "${table}", schema = "APP")
public class Order {
    @Id @GeneratedValue(strategy = GenerationType.${strategy}) Long id;
    String item;
    public Order(String item) { this.item = item; }
}
`;

const LOADER = JPA_IMPORTED_LOADER;

/** `SCHEMA.TABLE` of each INSERT of a file's executions as the rules see them, `<spliced>` when named at run time. */
function targets(findings: { message: string }[]): string[] {
  return findings.map((f) => /INSERT INTO (\S+) call/.exec(f.message)?.[1] ?? f.message);
}

describe('code: ORM inserts of an entity class of another file (Java, Python)', () => {
  it('check counts the INSERT of an entity class of another file among the statements it read', async () => {
    const dir = projectOnDisk({ 'src/com/acme/model/Order.java': entity('com.acme.model', 'ORDERS'), 'src/com/acme/load/Loader.java': LOADER }, 'insertlint-orm-');
    const run = await lintPaths({ paths: ['.'], cwd: dir });
    assert.deepEqual(run.diagnostics.map((d) => d.rule), ['single-row-insert']);
    // (It said "0 statements" beside a finding on an INSERT INTO APP.ORDERS.)
    assert.equal(summarize(run).statements, 1);
  });

  it('Java: an IDENTITY entity of Order.java persisted in a loop of Loader.java, one commit after: single-row-insert into APP.ORDERS, IDENTITY advice', async () => {
    const files = { 'src/com/acme/model/Order.java': entity('com.acme.model', 'ORDERS'), 'src/com/acme/load/Loader.java': LOADER };
    const { findings, models } = await lintCode(files);
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(LOADER, 'em.persist')}`]);
    const message = findings[0].message;
    assert.match(message, /^One INSERT INTO APP\.ORDERS call per row in the for-each loop at line 10\./);
    assert.match(message, /Instead, generate the entity's id from a Db2 sequence .*with GenerationType\.IDENTITY Hibernate inserts each entity as soon as it is persisted.*never batches them/);
    // The front end's model: the class and where it comes from; the entity file left out, with its entity.
    const [exec] = models.get('src/com/acme/load/Loader.java')!.code!.executions;
    assert.deepEqual(exec.ormClass, { name: 'Order', from: ['com.acme.model.Order'] });
    assert.equal(exec.batched, true);
    const order = models.get('src/com/acme/model/Order.java')!;
    assert.match(order.leftOut!, /^no Db2 access found/);
    assert.deepEqual(order.code!.entities, [{ name: 'Order', package: 'com.acme.model', table: { name: 'ORDERS', schema: 'APP' }, identity: true }]);
    // The same entity with a sequence: the flush after the loop batches them (hibernate.jdbc.batch_size): silent.
    const sequence = await lintCode({ ...files, 'src/com/acme/model/Order.java': entity('com.acme.model', 'ORDERS', 'SEQUENCE') });
    assert.deepEqual(brief(sequence.findings, INSERT_RULES), []);
  });

  it('Java: an id inherited from a @MappedSuperclass of another file; the table named where the loop flushes per pass', async () => {
    const base = `package com.acme.model;\n\nimport jakarta.persistence.*;\n\n@MappedSuperclass\npublic abstract class BaseEntity {\n    @Id @GeneratedValue(strategy = GenerationType.IDENTITY) protected Long id;\n}\n`;
    const order = `package com.acme.model;\n\nimport jakarta.persistence.*;\n\n@Entity\n@Table(name = "ORDERS", schema = "APP")\npublic class Order extends BaseEntity {\n    String item;\n    public Order(String item) { this.item = item; }\n}\n`;
    const { findings } = await lintCode({ 'model/BaseEntity.java': base, 'model/Order.java': order, 'load/Loader.java': LOADER });
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(LOADER, 'em.persist')}`]);
    assert.match(findings[0].message, /^One INSERT INTO APP\.ORDERS call per row.*GenerationType\.IDENTITY Hibernate inserts each entity/);
    // A superclass whose id is a sequence's: silent.
    const sequence = await lintCode({ 'model/BaseEntity.java': base.replace('IDENTITY', 'SEQUENCE'), 'model/Order.java': order, 'load/Loader.java': LOADER });
    assert.deepEqual(brief(sequence.findings, INSERT_RULES), []);
    // Without IDENTITY, a flush per pass: one row per flush, into the other file's table (not <Order>).
    const flushing = LOADER.replace('em.persist(new Order(item));', 'em.persist(new Order(item));\n            em.flush();');
    const flush = await lintCode({ 'model/Order.java': entity('com.acme.model', 'ORDERS', 'SEQUENCE'), 'load/Loader.java': flushing });
    assert.deepEqual(brief(flush.findings, INSERT_RULES), [`single-row-insert@${posOf(flushing, 'em.persist')}`]);
    assert.deepEqual(targets(flush.findings), ['APP.ORDERS']);
  });

  it('Python: models.py maps __tablename__, loader.py adds and commits per pass after `from models import Order`: findings name APP.ORDERS', async () => {
    const models = `from sqlalchemy import Column, Integer\nfrom sqlalchemy.orm import declarative_base\nBase = declarative_base()\n\nclass Order(Base):\n    __tablename__ = "orders"\n    __table_args__ = {"schema": "APP"}\n    id = Column(Integer, primary_key=True)\n`;
    const loader = `from sqlalchemy import create_engine\nfrom sqlalchemy.orm import Session\nfrom models import Order\nengine = create_engine("db2+ibm_db://user:pw@host:50000/SAMPLE")\n\ndef load(rows):\n    with Session(engine) as session:\n        for r in rows:\n            session.add(Order(id=r))\n            session.commit()\n`;
    const { findings, models: read } = await lintCode({ 'models.py': models, 'loader.py': loader });
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(loader, 'session.add(')}`, `commit-per-row@${posOf(loader, 'session.commit')}`]);
    assert.match(findings[0].message, /^One INSERT INTO APP\.ORDERS call per row in the for loop at line 8\./);
    assert.match(findings[1].message, /^Commit on every pass of the for loop at line 8 that inserts into APP\.ORDERS\./);
    assert.deepEqual(read.get('loader.py')!.code!.executions[0].ormClass, { name: 'Order', from: ['models.Order'] });
    // models.py has no data access of its own: left out, with its mapped class.
    assert.match(read.get('models.py')!.leftOut!, /^no Db2 access found/);
    assert.deepEqual(read.get('models.py')!.code!.entities, [{ name: 'Order', table: { name: 'orders', schema: 'APP' } }]);
    // Flask-SQLAlchemy's table of a model without __tablename__ (OrderLine → order_line), a relative import, and
    // `import app.models as m; m.OrderLine(...)`.
    const flask = 'from app import db\n\nclass OrderLine(db.Model):\n    id = db.Column(db.Integer, primary_key=True)\n';
    const relative = loader.replace('from models import Order', 'from .models import OrderLine as Order');
    const f = await lintCode({ 'app/models.py': flask, 'app/loader.py': relative });
    assert.deepEqual(targets(f.findings.filter((x) => x.rule === 'single-row-insert')), ['ORDER_LINE']);
    const aliased = loader.replace('from models import Order', 'import app.models as m').replace('Order(id=r)', 'm.OrderLine(id=r)');
    const a = await lintCode({ 'app/models.py': flask, 'jobs/loader.py': aliased });
    assert.deepEqual(targets(a.findings.filter((x) => x.rule === 'single-row-insert')), ['ORDER_LINE']);
  });

  it('two classes named Order in different packages or modules: the one the file imports wins', async () => {
    const files = { 'model/Order.java': entity('com.acme.model', 'ORDERS'), 'archive/Order.java': entity('com.acme.archive', 'ORDERS_ARCHIVE') };
    const model = await lintCode({ ...files, 'load/Loader.java': LOADER });
    assert.deepEqual(targets(model.findings.filter((x) => x.rule === 'single-row-insert')), ['APP.ORDERS']);
    const archived = LOADER.replace('import com.acme.model.Order;', 'import com.acme.archive.Order;');
    const archive = await lintCode({ ...files, 'load/Loader.java': archived });
    assert.deepEqual(targets(archive.findings.filter((x) => x.rule === 'single-row-insert')), ['APP.ORDERS_ARCHIVE']);
    // The loader's own package, without an import: that package's Order; a wildcard import: that package's.
    const own = LOADER.replace('package com.acme.load;', 'package com.acme.archive;').replace('import com.acme.model.Order;\n', '');
    assert.deepEqual(targets((await lintCode({ ...files, 'load/Loader.java': own })).findings.filter((x) => x.rule === 'single-row-insert')), ['APP.ORDERS_ARCHIVE']);
    const wildcard = LOADER.replace('import com.acme.model.Order;', 'import com.acme.model.*;');
    assert.deepEqual(targets((await lintCode({ ...files, 'load/Loader.java': wildcard })).findings.filter((x) => x.rule === 'single-row-insert')), ['APP.ORDERS']);
    // Python: app/models.py and legacy/models.py both map an Order.
    const mapped = (table: string) => `from sqlalchemy.orm import declarative_base\nBase = declarative_base()\n\nclass Order(Base):\n    __tablename__ = "${table}"\n`;
    const loader = (module: string) => `from sqlalchemy.orm import Session\nfrom ${module} import Order\nimport ibm_db_sa\n\ndef load(session, rows):\n    for r in rows:\n        session.add(Order(id=r))\n        session.commit()\n`;
    const py = { 'app/models.py': mapped('orders'), 'legacy/models.py': mapped('old_orders') };
    const app = await lintCode({ ...py, 'jobs/load.py': loader('app.models') });
    assert.deepEqual(targets(app.findings.filter((x) => x.rule === 'single-row-insert')), ['ORDERS']);
    const legacy = await lintCode({ ...py, 'jobs/load.py': loader('legacy.models') });
    assert.deepEqual(targets(legacy.findings.filter((x) => x.rule === 'single-row-insert')), ['OLD_ORDERS']);
  });

  it('unresolvable: no such entity, an import of a class no file declares, or two the file does not choose between: <Order>', async () => {
    const persistEach = LOADER.replace('em.persist(new Order(item));', 'em.persist(new Order(item));\n            em.flush();');
    const alone = await lintCode({ 'load/Loader.java': persistEach });
    assert.deepEqual(targets(alone.findings.filter((x) => x.rule === 'single-row-insert')), ['<Order>']);
    // Loader imports com.acme.model.Order; the workspace's Order is another package's.
    const elsewhere = await lintCode({ 'other/Order.java': entity('com.other', 'ORDERS'), 'load/Loader.java': persistEach });
    assert.deepEqual(targets(elsewhere.findings.filter((x) => x.rule === 'single-row-insert')), ['<Order>']);
    // No package and no import: the file does not say; one Order settles it, two that disagree do not.
    const bare = persistEach.replace('package com.acme.load;\n', '').replace('import com.acme.model.Order;\n', '');
    const one = await lintCode({ 'model/Order.java': entity('com.acme.model', 'ORDERS'), 'Loader.java': bare });
    assert.deepEqual(targets(one.findings.filter((x) => x.rule === 'single-row-insert')), ['APP.ORDERS']);
    const two = await lintCode({ 'model/Order.java': entity('com.acme.model', 'ORDERS', 'SEQUENCE'), 'archive/Order.java': entity('com.acme.archive', 'ORDERS_ARCHIVE', 'SEQUENCE'), 'Loader.java': bare });
    assert.deepEqual(targets(two.findings.filter((x) => x.rule === 'single-row-insert')), ['<Order>']);
    // Python: imported from a module no file is.
    const py = `from sqlalchemy.orm import Session\nfrom shop.models import Order\nimport ibm_db_sa\n\ndef load(session, rows):\n    for r in rows:\n        session.add(Order(id=r))\n        session.commit()\n`;
    const models = `from sqlalchemy.orm import declarative_base\nBase = declarative_base()\n\nclass Order(Base):\n    __tablename__ = "orders"\n`;
    const p = await lintCode({ 'app/models.py': models, 'jobs/load.py': py });
    assert.deepEqual(targets(p.findings.filter((x) => x.rule === 'single-row-insert')), ['<Order>']);
  });

  it("the schema sees the other file's table as the insert's target (a bulk target's DDL finding)", async () => {
    const ddl = 'CREATE TABLE APP.ORDERS (ID BIGINT NOT NULL GENERATED ALWAYS AS IDENTITY (NO CACHE), ITEM VARCHAR(40));\n';
    const files = { 'ddl/orders.sql': ddl, 'model/Order.java': entity('com.acme.model', 'ORDERS'), 'load/Loader.java': LOADER };
    const { findings, models } = await lintCode(files);
    const view = findings.filter((f) => f.file === 'ddl/orders.sql').map((f) => f.rule);
    assert.ok(view.includes('identity-cache'), view.join(', '));
    // The loader's own model (the front end's) keeps the class spliced: the engine's view names the table.
    assert.deepEqual(models.get('load/Loader.java')!.statements, []);
  });

  it("editor: a change of an entity file's entity facts re-publishes the files inserting the class (and a DDL change of its table does)", async () => {
    const read = async (order: string) => (await lintCode({ 'model/Order.java': order, 'load/Loader.java': LOADER })).models;
    const before = await read(entity('com.acme.model', 'ORDERS', 'SEQUENCE'));
    const loaderNames = fileNames(before.get('load/Loader.java'));
    const facts = (models: Map<string, FileModel>) => schemaFacts(models.get('model/Order.java'));
    const changed = (order: string) => read(order).then((after) => changedNames(facts(before), facts(after)));
    const files = [{ key: 'load/Loader.java', names: loaderNames }, { key: 'model/Order.java', names: fileNames(before.get('model/Order.java')) }];
    // IDENTITY, another table: the loader; a comment: nothing.
    for (const edit of [entity('com.acme.model', 'ORDERS'), entity('com.acme.model', 'ORDERS2', 'SEQUENCE')]) {
      const names = await changed(edit);
      assert.deepEqual(dependentFiles(files, names), ['load/Loader.java'], [...names].join(','));
    }
    assert.deepEqual([...(await changed(entity('com.acme.model', 'ORDERS', 'SEQUENCE').replace('String item;', 'String item; // text')))], []);
    // The table's DDL changed (elsewhere): the entity's file leads to the loader.
    assert.deepEqual(dependentFiles(files, new Set(['ORDERS'])), ['load/Loader.java']);
    // The loader persists another class in its loop: the DDL file of the entity's table (its inserts changed).
    const ddl = 'CREATE TABLE APP.ORDERS (ID BIGINT NOT NULL, ITEM VARCHAR(40));\n';
    const withDdl = await lintCode({ 'ddl/orders.sql': ddl, 'model/Order.java': entity('com.acme.model', 'ORDERS', 'SEQUENCE'), 'load/Loader.java': LOADER });
    const other = LOADER.replace('new Order(item)', 'new Item(item)');
    const moved = changedNames(schemaFacts(withDdl.models.get('load/Loader.java')), schemaFacts((await lintCode({ 'load/Loader.java': other })).models.get('load/Loader.java')));
    assert.deepEqual([...moved].sort(), [ormClassKey('Item'), ormClassKey('Order')]);
    const all = ['ddl/orders.sql', 'model/Order.java'].map((key) => ({ key, names: fileNames(withDdl.models.get(key)) }));
    assert.deepEqual(dependentFiles(all, moved), ['ddl/orders.sql']);
  });

  it('grows linearly with the files and the inserts (an index by class name, no walk over the files per insert)', () => {
    // n entity files (Order0 … Order{n-1}, and n more all named Order in their own packages) and n loaders, each with
    // INSERTS executions of its own package's Order and of Order{i}.
    const INSERTS = 20;
    const statement = { kind: 'insert' } as unknown;
    const models = (count: number): FileModel[] => {
      const out: FileModel[] = [];
      for (let i = 0; i < count; i++) {
        const entities = [{ name: `Order${i}`, package: `p${i}`, table: { name: `T${i}` } }, { name: 'Order', package: `p${i}`, table: { name: `O${i}` }, identity: true }];
        out.push({ source: { path: `p${i}/Order.java`, text: '', language: 'java' }, statements: [], comments: [], code: { executions: [], commits: [], entities } } as unknown as FileModel);
        const executions = Array.from({ length: INSERTS }, (_, k): SqlExecution => ({
          callSpan: { start: k * 40, end: k * 40 + 30 }, api: 'jpa', action: 'executePrepared', statements: [statement as never], textKind: 'template', splicedValues: [], batched: true, construct: 'orm',
          ormClass: k % 2 === 0 ? { name: 'Order', from: [`p${i}.Order`] } : { name: `Order${i}`, from: [`p${i}.Order${i}`] },
        }));
        out.push({ source: { path: `p${i}/Loader.java`, text: '', language: 'java' }, statements: [], comments: [], code: { executions, commits: [] } } as unknown as FileModel);
      }
      return out;
    };
    const run = (count: string) => {
      const all = models(Number(count));
      const index = entityIndex(all);
      let named = 0;
      for (const model of all) {
        const view = withOrmEntities(model, index);
        if (view !== model) named += view.code!.executions.filter((e) => e.textKind === 'constant').length;
      }
      assert.equal(named, Number(count) * INSERTS);
    };
    const { ratio, smallMs, largeMs } = growthRatio(String, run, 100);
    assert.ok(ratio < 24, `8× the files took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(1)} ms → ${largeMs.toFixed(1)} ms): super-linear`);
  });

  it("Spring Data: a flush mode hint of COMMIT on the repository interface's query method in another file silences that method's AUTO flush only", async () => {
    const order = entity('com.acme.model', 'ORDERS', 'SEQUENCE');
    const repository = (hints: string) => `package com.acme.repo;

import com.acme.model.Order;
import jakarta.persistence.QueryHint;
import org.hibernate.jpa.HibernateHints;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.QueryHints;

public interface OrderRepository extends JpaRepository<Order, Long> {
    ${hints}
    boolean existsByItem(String item);

    long countByItem(String item);
}
`;
    const importer = `package com.acme.load;

import com.acme.model.Order;
import com.acme.repo.OrderRepository;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import java.util.List;

@Service
public class Importer {
    private final OrderRepository orders;
    public Importer(OrderRepository orders) { this.orders = orders; }
    @Transactional
    public void load(List<String> items) {
        for (String item : items) {
            if (orders.existsByItem(item)) continue;
            orders.save(new Order(item));
        }
    }
}
`;
    const lint = (hints: string, loop = importer) => lintCode({ 'src/com/acme/model/Order.java': order, 'src/com/acme/repo/OrderRepository.java': repository(hints), 'src/com/acme/load/Importer.java': loop });
    const saves = (models: Map<string, FileModel>) => models.get('src/com/acme/load/Importer.java')!.code!.executions.filter((e) => e.construct === 'orm');
    // No hint: FlushMode AUTO flushes each save before the next pass's existsByItem (as before).
    const plain = await lint('');
    assert.deepEqual(brief(plain.findings, INSERT_RULES), [`single-row-insert@${posOf(importer, 'orders.save(')}`]);
    assert.match(plain.findings[0].message, /orders\.existsByItem\(item\) runs on every pass, and with the default FlushMode AUTO Hibernate first flushes/);
    assert.deepEqual(saves(plain.models).map((e) => e.autoflushRepositoryQueries), [[{ query: 'orders.existsByItem(item)', type: 'OrderRepository', from: ['com.acme.repo.OrderRepository'], method: 'existsByItem' }]]);
    // The hint on existsByItem, written as Spring Data and Hibernate let it be: silent, the save batched at the flush.
    const hinted = [
      '@QueryHints(@QueryHint(name = "org.hibernate.flushMode", value = "COMMIT"))',
      '@QueryHints(value = { @QueryHint(name = "org.hibernate.flushMode", value = "MANUAL") }, forCounting = false)',
      '@QueryHints({ @QueryHint(name = HibernateHints.HINT_FLUSH_MODE, value = "COMMIT") })',
      '@QueryHints(@QueryHint(name = org.hibernate.jpa.QueryHints.HINT_FLUSH_MODE, value = "commit"))',
    ];
    for (const hint of hinted) {
      const { findings, models } = await lint(hint);
      assert.deepEqual(brief(findings, INSERT_RULES), [], hint);
      // (The engine's view of the loop's file: engine/orm-entities.ts.)
      const view = withOrmEntities(models.get('src/com/acme/load/Importer.java')!, entityIndex(models.values()));
      assert.deepEqual(saves(new Map([['src/com/acme/load/Importer.java', view]])).map((e) => [e.batched, e.autoflushedBy, e.autoflushRepositoryQueries]), [[true, undefined, undefined]], hint);
    }
    // The repository's other query method, not hinted, in the loop: it still flushes (and is the one named).
    const both = importer.replace('if (orders.existsByItem(item)) continue;', 'if (orders.existsByItem(item)) continue;\n            if (orders.countByItem(item) > 1) continue;');
    const other = await lint(hinted[0], both);
    assert.deepEqual(brief(other.findings, INSERT_RULES), [`single-row-insert@${posOf(both, 'orders.save(')}`]);
    assert.match(other.findings[0].message, /orders\.countByItem\(item\) runs on every pass/);
    // A hint of AUTO, a hint on another method, or on a like-named interface of a package the file does not import:
    // the finding stays.
    const auto = await lint('@QueryHints(@QueryHint(name = "org.hibernate.flushMode", value = "AUTO"))');
    assert.deepEqual(brief(auto.findings, INSERT_RULES), [`single-row-insert@${posOf(importer, 'orders.save(')}`]);
    const onCount = repository('').replace('    long countByItem', `    ${hinted[0]}\n    long countByItem`);
    const elsewhere = await lintCode({ 'src/com/acme/model/Order.java': order, 'src/com/acme/repo/OrderRepository.java': onCount, 'src/com/acme/load/Importer.java': importer });
    assert.deepEqual(brief(elsewhere.findings, INSERT_RULES), [`single-row-insert@${posOf(importer, 'orders.save(')}`]);
    const archive = await lintCode({ 'src/com/acme/model/Order.java': order, 'src/com/acme/archive/OrderRepository.java': repository(hinted[0]).replace('package com.acme.repo;', 'package com.acme.archive;'), 'src/com/acme/repo/OrderRepository.java': repository(''), 'src/com/acme/load/Importer.java': importer });
    assert.deepEqual(brief(archive.findings, INSERT_RULES), [`single-row-insert@${posOf(importer, 'orders.save(')}`]);
    // The interface's file records the hinted methods (CodeModel.entities), read though it accesses no database itself.
    const read = await lint(hinted[0]);
    assert.deepEqual(read.models.get('src/com/acme/repo/OrderRepository.java')!.code!.entities, [{ name: 'OrderRepository', package: 'com.acme.repo', queryFlushOff: ['existsByItem'] }]);
  });
});
