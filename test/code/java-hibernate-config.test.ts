// Hibernate's batch size read from a Java project's configuration (persistence.xml, hibernate.cfg.xml, Spring Boot's
// application*.properties / *.yml: cli/project-evidence.ts, code/hibernate-config.ts): an ORM loop flushed once after
// it is one INSERT per entity when the configuration is found and sets no hibernate.jdbc.batch_size.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lintPaths } from '../../server/src/cli/lint-run';
import { hibernateBatchingFolders } from '../../server/src/cli/evidence-java';
import { hibernateBatchSizeIn, hibernateFlushModeOffIn } from '../../server/src/code/hibernate-config';
import { runCli } from '../ci/repo';
import { JPA_LOADER, JPA_ORDER_ENTITY, projectOnDisk } from './helpers';

const project = (files: Record<string, string>): string => projectOnDisk(files, 'insertlint-hibernate-');

const POM = '<project><modelVersion>4.0.0</modelVersion></project>\n';
const LOADER_PATH = 'src/main/java/demo/Loader.java';
/** A loader persisting in a loop with one commit after it (and a flush + clear every 1000 entities). */
const LOADER = JPA_LOADER;

const persistenceXml = (properties: string) => `<?xml version="1.0" encoding="UTF-8"?>
<persistence xmlns="https://jakarta.ee/xml/ns/persistence" version="3.0">
  <persistence-unit name="app">
    <provider>org.hibernate.jpa.HibernatePersistenceProvider</provider>
    <properties>
      <property name="jakarta.persistence.jdbc.url" value="jdbc:db2://host:50000/SAMPLE"/>
${properties}    </properties>
  </persistence-unit>
</persistence>
`;

async function findingsOf(files: Record<string, string>): Promise<{ rule: string; message: string }[]> {
  const dir = project({ 'pom.xml': POM, [LOADER_PATH]: LOADER, ...files });
  const run = await lintPaths({ paths: ['.'], cwd: dir });
  return run.diagnostics.filter((d) => d.file === join(dir, LOADER_PATH) && d.rule === 'single-row-insert').map((d) => ({ rule: d.rule, message: d.message }));
}

describe('code: Java ORM loops and the project\'s Hibernate batch size', () => {
  it('persistence.xml without hibernate.jdbc.batch_size: the loop flushed once is one INSERT per entity, named so', async () => {
    const found = await findingsOf({ 'src/main/resources/META-INF/persistence.xml': persistenceXml('      <property name="hibernate.show_sql" value="false"/>\n') });
    assert.equal(found.length, 1);
    assert.match(found[0].message, /^One INSERT INTO APP\.ORDERS call per row in the for-each loop at line 18\./);
    assert.match(found[0].message, /Instead, src\/main\/resources\/META-INF\/persistence\.xml sets no hibernate\.jdbc\.batch_size \(Hibernate's default is 0, no batching\), so Hibernate sends every entity's INSERT on its own.*: set hibernate\.jdbc\.batch_size \(50 to 1000\) and hibernate\.order_inserts=true in src\/main\/resources\/META-INF\/persistence\.xml, then flush once after the loop, or flush\(\) and clear\(\) every batch/);
  });

  it('persistence.xml with batch_size 50: silent; set to 1: reported, naming the size', async () => {
    assert.deepEqual(await findingsOf({ 'src/main/resources/META-INF/persistence.xml': persistenceXml('      <property name="hibernate.jdbc.batch_size" value="50"/>\n      <property name="hibernate.order_inserts" value="true"/>\n') }), []);
    const one = await findingsOf({ 'src/main/resources/META-INF/persistence.xml': persistenceXml('      <property name="hibernate.jdbc.batch_size" value="1"/>\n') });
    assert.equal(one.length, 1);
    assert.match(one[0].message, /persistence\.xml sets hibernate\.jdbc\.batch_size to 1, which batches nothing/);
    // Commented out: not set.
    const commented = await findingsOf({ 'src/main/resources/META-INF/persistence.xml': persistenceXml('      <!-- <property name="hibernate.jdbc.batch_size" value="50"/> -->\n') });
    assert.equal(commented.length, 1);
  });

  it('Spring Boot application.properties / application.yml: unset reported (spring.jpa.properties advice), set silent, YAML nesting read', async () => {
    const props = await findingsOf({ 'src/main/resources/application.properties': 'spring.datasource.url=jdbc:db2://host:50000/SAMPLE\nspring.jpa.hibernate.ddl-auto=none\n' });
    assert.equal(props.length, 1);
    assert.match(props[0].message, /src\/main\/resources\/application\.properties sets no hibernate\.jdbc\.batch_size .*set spring\.jpa\.properties\.hibernate\.jdbc\.batch_size \(50 to 1000\) and spring\.jpa\.properties\.hibernate\.order_inserts=true in src\/main\/resources\/application\.properties/);
    assert.deepEqual(await findingsOf({ 'src/main/resources/application.properties': 'spring.datasource.url=jdbc:db2://host:50000/SAMPLE\nspring.jpa.properties.hibernate.jdbc.batch_size=100\n' }), []);
    // A profile's file sets it: silent (it may be the one that runs).
    assert.deepEqual(await findingsOf({ 'src/main/resources/application.properties': 'spring.jpa.open-in-view=false\n', 'src/main/resources/application-prod.properties': 'spring.jpa.properties.hibernate.jdbc.batch_size: 200\n' }), []);
    const yml = 'spring:\n  datasource:\n    url: jdbc:db2://host:50000/SAMPLE\n  jpa:\n    properties:\n      hibernate:\n        show_sql: false\n';
    const unset = await findingsOf({ 'src/main/resources/application.yml': yml });
    assert.equal(unset.length, 1);
    assert.match(unset[0].message, /application\.yml sets no hibernate\.jdbc\.batch_size/);
    assert.deepEqual(await findingsOf({ 'src/main/resources/application.yml': `${yml}        jdbc:\n          batch_size: 50\n` }), []);
  });

  it('Spring Data saveAll of new entities: one INSERT per entity when application.yml sets no batch size; silent when it does, or unknown', async () => {
    const service = `package demo;

import org.springframework.stereotype.Service;
import org.springframework.data.jpa.repository.JpaRepository;
import jakarta.persistence.*;
import java.util.*;

@Entity
@Table(name = "ORDERS", schema = "APP")
class Order {
    @Id @GeneratedValue(strategy = GenerationType.SEQUENCE) Long id;
    String item;
    Order(String item) { this.item = item; }
}

interface OrderRepository extends JpaRepository<Order, Long> {}

@Service
class Importer {
    private final OrderRepository orders;
    void loadAll(List<String> items) {
        orders.saveAll(items.stream().map(Order::new).toList());
    }
    void loadList(List<String> items) {
        List<Order> batch = new ArrayList<>();
        for (String item : items) batch.add(new Order(item));
        orders.saveAll(batch);
    }
    void resave(List<Order> loaded) {
        orders.saveAll(loaded);
    }
}
`;
    const path = 'src/main/java/demo/Importer.java';
    const run = async (files: Record<string, string>) => {
      const dir = project({ 'pom.xml': POM, [path]: service, ...files });
      const linted = await lintPaths({ paths: ['.'], cwd: dir });
      return linted.diagnostics.filter((d) => d.file === join(dir, path) && d.rule === 'single-row-insert');
    };
    const yml = 'spring:\n  jpa:\n    open-in-view: false\n';
    const found = await run({ 'src/main/resources/application.yml': yml });
    // The stream of new entities and the list filled with them; not a list of loaded entities (their save may update).
    assert.deepEqual(found.map((d) => /loop at line (\d+)/.exec(d.message)?.[1]), ['22', '27']);
    assert.match(found[0].message, /^One INSERT INTO APP\.ORDERS call per row in the saveAll\(\) loop at line 22\..*Instead, src\/main\/resources\/application\.yml sets no hibernate\.jdbc\.batch_size .*set spring\.jpa\.properties\.hibernate\.jdbc\.batch_size \(50 to 1000\).*in src\/main\/resources\/application\.yml, then saveAll\(\) of a list/);
    assert.deepEqual(await run({ 'src/main/resources/application.yml': `${yml}    properties:\n      hibernate:\n        jdbc:\n          batch_size: 100\n` }), []);
    assert.deepEqual(await run({}), []);
  });

  it('no configuration found, or another provider\'s persistence.xml: silent (unknown)', async () => {
    assert.deepEqual(await findingsOf({}), []);
    assert.deepEqual(await findingsOf({ 'src/main/resources/META-INF/persistence.xml': persistenceXml('').replace('org.hibernate.jpa.HibernatePersistenceProvider', 'org.eclipse.persistence.jpa.PersistenceProvider') }), []);
    // An application.properties that configures neither JPA nor a data source says nothing of Hibernate.
    assert.deepEqual(await findingsOf({ 'src/main/resources/application.properties': 'server.port=8081\n' }), []);
  });

  it('the CLI on a temp project tree: the finding names the file it read; adding batch_size clears it', async () => {
    const dir = project({ 'pom.xml': POM, [LOADER_PATH]: LOADER, 'src/main/resources/hibernate.cfg.xml': '<hibernate-configuration><session-factory>\n  <property name="hibernate.connection.url">jdbc:db2://host:50000/SAMPLE</property>\n</session-factory></hibernate-configuration>\n' });
    const result = await runCli(['check', '.', '--format', 'json'], dir);
    const report = JSON.parse(result.stdout) as { diagnostics: { rule: string; file: string; message: string; severity: string }[] };
    const single = report.diagnostics.filter((d) => d.rule === 'single-row-insert');
    assert.deepEqual(single.map((d) => d.file.replace(/\\/g, '/')), [LOADER_PATH]);
    assert.match(single[0].message, /src\/main\/resources\/hibernate\.cfg\.xml sets no hibernate\.jdbc\.batch_size/);
    writeFileSync(join(dir, 'src/main/resources/hibernate.cfg.xml'), '<hibernate-configuration><session-factory>\n  <property name="hibernate.jdbc.batch_size">30</property>\n</session-factory></hibernate-configuration>\n');
    const after = JSON.parse((await runCli(['check', '.', '--format', 'json'], dir)).stdout) as { diagnostics: { rule: string }[] };
    assert.deepEqual(after.diagnostics.filter((d) => d.rule === 'single-row-insert'), []);
  });

  it('reads the configuration files: XML forms, properties, YAML nesting and dotted keys', () => {
    assert.deepEqual(hibernateBatchSizeIn('persistence.xml', persistenceXml('<property name="hibernate.jdbc.batch_size" value=" 25 "/>')), { batchSize: 25 });
    assert.deepEqual(hibernateBatchSizeIn('hibernate.cfg.xml', '<hibernate-configuration><property name="jdbc.batch_size">0</property></hibernate-configuration>'), { batchSize: 0 });
    assert.deepEqual(hibernateBatchSizeIn('hibernate.properties', 'hibernate.jdbc.batch_size = 40\n'), { batchSize: 40 });
    // Spelled with a hyphen (not Hibernate's name): taken as set all the same, so as not to report what may batch.
    assert.deepEqual(hibernateBatchSizeIn('application.properties', 'spring.jpa.properties.hibernate.jdbc.batch-size=30\n'), { batchSize: 30 });
    assert.deepEqual(hibernateBatchSizeIn('application.properties', 'spring.jpa.show-sql=true\n'), { batchSize: null });
    assert.deepEqual(hibernateBatchSizeIn('application.yml', 'spring:\n  jpa:\n    properties:\n      hibernate.jdbc.batch_size: 20\n'), { batchSize: 20 });
    assert.deepEqual(hibernateBatchSizeIn('application.yml', 'spring:\n  jpa:\n    properties:\n      "[hibernate.jdbc.batch_size]": 60\n'), { batchSize: 60 });
    // A sibling key at the same depth does not nest: batch_size under another parent is not Hibernate's.
    assert.deepEqual(hibernateBatchSizeIn('application.yaml', 'spring:\n  jpa:\n    show-sql: true\nother:\n  jdbc:\n    batch_size: 50\n'), { batchSize: null });
    // A placeholder may set it: taken as set (precision first).
    assert.ok((hibernateBatchSizeIn('application.properties', 'spring.jpa.properties.hibernate.jdbc.batch_size=${BATCH}\n')!.batchSize ?? 0) > 1);
    assert.equal(hibernateBatchSizeIn('application.yml', 'server:\n  port: 8081\n'), undefined);
  });

  it('finds the configuration per project: the nearest build file up is the top (a module of a multi-module build)', () => {
    const dir = project({ 'pom.xml': POM, 'a/pom.xml': POM, 'a/src/main/resources/application.properties': 'spring.jpa.show-sql=true\n', 'b/pom.xml': POM });
    const found = hibernateBatchingFolders([
      { path: join(dir, 'a/src/main/java/demo/Loader.java'), text: LOADER },
      { path: join(dir, 'b/src/main/java/demo/Loader.java'), text: LOADER },
      { path: join(dir, 'a/src/main/java/demo/Plain.java'), text: 'class Plain {}' },
    ]);
    assert.deepEqual([...found], [[join(dir, 'a'), { file: 'src/main/resources/application.properties' }]]);
  });

  it('org.hibernate.flushMode COMMIT or MANUAL in the configuration: a query on every pass flushes nothing (Spring Data and JPQL loops silent); AUTO, unset or commented out: reported', async () => {
    const service = `package demo;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.data.jpa.repository.JpaRepository;
import jakarta.persistence.*;
import java.util.List;

${JPA_ORDER_ENTITY}
interface OrderRepository extends JpaRepository<Order, Long> {}

@Service
class Importer {
    private final OrderRepository orders;
    @Transactional
    void load(List<String> items) {
        for (String item : items) {
            if (orders.existsByItem(item)) continue;
            orders.save(new Order(item));
        }
    }
}
`;
    const jpql = JPA_LOADER.replace('em.persist(new Order(item));', 'List<Order> same = em.createQuery("select o from Order o where o.item = :item", Order.class).setParameter("item", item).getResultList();\n            em.persist(new Order(item));');
    const servicePath = 'src/main/java/demo/Importer.java';
    /** The single-row-insert findings of both loops, by the query their message names. */
    const queries = async (files: Record<string, string>): Promise<string[]> => {
      const dir = project({ 'pom.xml': POM, [servicePath]: service, [LOADER_PATH]: jpql, ...files });
      const run = await lintPaths({ paths: ['.'], cwd: dir });
      return run.diagnostics.filter((d) => d.rule === 'single-row-insert').map((d) => /(orders\.existsByItem|getResultList)/.exec(d.message)?.[1] ?? d.message).sort();
    };
    const AUTO = ['getResultList', 'orders.existsByItem'];
    // (With a batch size set: else every entity goes on its own whatever the flush mode, and is reported as such.)
    const batch = 'spring.jpa.properties.hibernate.jdbc.batch_size=50\n';
    const resources = 'src/main/resources';
    assert.deepEqual(await queries({ [`${resources}/application.properties`]: batch }), AUTO);
    for (const files of [
      { [`${resources}/application.properties`]: `${batch}spring.jpa.properties.org.hibernate.flushMode=COMMIT\n` },
      { [`${resources}/application.properties`]: batch, [`${resources}/application-prod.properties`]: 'spring.jpa.properties.org.hibernate.flushMode = MANUAL\n' },
      { [`${resources}/application.yml`]: 'spring:\n  jpa:\n    properties:\n      hibernate.jdbc.batch_size: 50\n      org:\n        hibernate:\n          flushMode: COMMIT\n' },
      { [`${resources}/application.yml`]: 'spring:\n  jpa:\n    properties:\n      "[hibernate.jdbc.batch_size]": 50\n      "[org.hibernate.flushMode]": manual\n' },
      { [`${resources}/application.yaml`]: 'spring.jpa.properties.hibernate.jdbc.batch_size: 50\nspring.jpa.properties.org.hibernate.flushMode: "COMMIT"\n' },
      { [`${resources}/META-INF/persistence.xml`]: persistenceXml('      <property name="hibernate.jdbc.batch_size" value="50"/>\n      <property name="org.hibernate.flushMode" value="COMMIT"/>\n') },
      { [`${resources}/hibernate.cfg.xml`]: '<hibernate-configuration><session-factory>\n  <property name="hibernate.jdbc.batch_size">50</property>\n  <property name="org.hibernate.flushMode">MANUAL</property>\n</session-factory></hibernate-configuration>\n' },
    ] as Record<string, string>[]) {
      assert.deepEqual(await queries(files), [], JSON.stringify(files));
    }
    for (const files of [
      { [`${resources}/application.properties`]: `${batch}spring.jpa.properties.org.hibernate.flushMode=AUTO\n` },
      { [`${resources}/application.properties`]: `${batch}# spring.jpa.properties.org.hibernate.flushMode=COMMIT\n` },
      { [`${resources}/application.properties`]: `${batch}spring.jpa.properties.org.hibernate.flushMode=\${FLUSH_MODE}\n` },
      { [`${resources}/META-INF/persistence.xml`]: persistenceXml('      <property name="hibernate.jdbc.batch_size" value="50"/>\n      <!-- <property name="org.hibernate.flushMode" value="COMMIT"/> -->\n') },
    ] as Record<string, string>[]) {
      assert.deepEqual(await queries(files), AUTO, JSON.stringify(files));
    }
    // Read per file: the XML forms, properties and YAML (the key under another parent is not Hibernate's).
    assert.equal(hibernateFlushModeOffIn('hibernate.properties', 'org.hibernate.flushMode=commit\n'), true);
    assert.equal(hibernateFlushModeOffIn('application.yml', 'spring:\n  jpa:\n    show-sql: true\nother:\n  properties:\n    org.hibernate.flushMode: COMMIT\n'), false);
    assert.equal(hibernateFlushModeOffIn('application.properties', 'spring.jpa.properties.org.hibernate.flushMode=ALWAYS\n'), false);
  });
});
