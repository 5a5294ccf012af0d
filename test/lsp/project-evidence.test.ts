// The project evidence that SQLAlchemy runs on Db2 (ibm_db_sa among the requirements, a Db2 URL in .env or config):
// the language server looks for it after indexing and when a watched requirements, configuration or Python file
// changes, and a SQLAlchemy module that names no driver is read, or left out again, as it appears or goes. The same
// look reads a Java project's Hibernate batch size (persistence.xml, application.properties …).
import { strict as assert } from 'node:assert';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempWorkspace, uriOf } from './harness';
import { DJANGO_DB2_SETTINGS, DJANGO_MODELS, FASTAPI_CRUD, fastapiDatabase, jdbcDataSourceLoader, JPA_LOADER, MYBATIS_XML_PROJECT, mybatisMapperXml, poolConfigClass } from '../code/helpers';

const LOADER = `from sqlalchemy.orm import Session
from models import Order, engine

def load(rows):
    with Session(engine) as session:
        for r in rows:
            session.add(Order(id=r))
            session.commit()
`;

describe('language server: project evidence for SQLAlchemy on Db2', function () {
  this.timeout(60000);
  const ws = tempWorkspace('insertlint-ws-sqlalchemy-');

  it('a loader that names no Db2 gets its findings when requirements.txt lists ibm_db_sa, and loses them when it no longer does', async () => {
    const requirements = join(ws.dir, 'requirements.txt');
    writeFileSync(requirements, 'SQLAlchemy>=2\n');
    writeFileSync(join(ws.dir, 'load.py'), LOADER);
    const s = await ws.start();
    await s.waitIdle();
    const load = uriOf(join(ws.dir, 'load.py'));
    assert.deepEqual(s.diagnostics.get(load) ?? [], []);
    writeFileSync(requirements, 'SQLAlchemy>=2\nibm_db_sa\n');
    s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(requirements), type: 2 }] });
    await s.waitFor('load.py findings', () => (s.diagnostics.get(load) ?? []).some((d) => d.code === 'commit-per-row'));
    writeFileSync(requirements, 'SQLAlchemy>=2\n');
    s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(requirements), type: 2 }] });
    await s.waitFor('load.py cleared', () => (s.diagnostics.get(load) ?? []).length === 0);
  });

  it('ibm_db_sa required when the index runs: read from the start', async () => {
    writeFileSync(join(ws.dir, 'requirements.txt'), 'ibm-db-sa==0.4.1\n');
    writeFileSync(join(ws.dir, 'load.py'), LOADER);
    const s = await ws.start();
    await s.waitIdle();
    const load = uriOf(join(ws.dir, 'load.py'));
    await s.waitFor('load.py findings', () => (s.diagnostics.get(load) ?? []).some((d) => d.code === 'commit-per-row'));
  });
});

describe('language server: SQLAlchemy autoflush as the project builds its sessions', function () {
  this.timeout(60000);
  const ws = tempWorkspace('insertlint-ws-autoflush-');

  it('a crud module that builds no session: silent while database.py builds SessionLocal with autoflush=False, reported when a save leaves it on, silent again when it turns it off', async () => {
    writeFileSync(join(ws.dir, 'requirements.txt'), 'fastapi\nsqlalchemy\nibm_db_sa\n');
    mkdirSync(join(ws.dir, 'app'), { recursive: true });
    const database = join(ws.dir, 'app', 'database.py');
    writeFileSync(database, fastapiDatabase(false));
    writeFileSync(join(ws.dir, 'app', 'crud.py'), FASTAPI_CRUD);
    const s = await ws.start();
    await s.waitIdle();
    const crud = uriOf(join(ws.dir, 'app', 'crud.py'));
    const autoflushed = () => (s.diagnostics.get(crud) ?? []).filter((d) => d.code === 'single-row-insert' && /SQLAlchemy's autoflush/.test(d.message)).length;
    assert.equal(autoflushed(), 0);
    writeFileSync(database, fastapiDatabase());
    s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(database), type: 2 }] });
    await s.waitFor('crud.py autoflush findings', () => autoflushed() === 3);
    writeFileSync(database, fastapiDatabase(false));
    s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(database), type: 2 }] });
    await s.waitFor('crud.py cleared', () => autoflushed() === 0);
  });
});

const JAVA_LOADER = JPA_LOADER;

/** A Maven project in `dir`: pom.xml, an application.properties naming a Db2 URL, and src/main/java/Loader.java. */
function mavenProject(dir: string, loader: string): { properties: string; loaderPath: string } {
  writeFileSync(join(dir, 'pom.xml'), '<project/>\n');
  mkdirSync(join(dir, 'src', 'main', 'resources'), { recursive: true });
  mkdirSync(join(dir, 'src', 'main', 'java'), { recursive: true });
  const properties = join(dir, 'src', 'main', 'resources', 'application.properties');
  writeFileSync(properties, 'spring.datasource.url=jdbc:db2://host:50000/SAMPLE\n');
  const loaderPath = join(dir, 'src', 'main', 'java', 'Loader.java');
  writeFileSync(loaderPath, loader);
  return { properties, loaderPath };
}

describe('language server: Hibernate batch size in a Java project\'s configuration', function () {
  this.timeout(60000);
  const ws = tempWorkspace('insertlint-ws-hibernate-');

  it('a JPA loop flushed once is reported while application.properties sets no batch size, and cleared when it does', async () => {
    const { properties, loaderPath } = mavenProject(ws.dir, JAVA_LOADER);
    const s = await ws.start();
    await s.waitIdle();
    const loader = uriOf(loaderPath);
    await s.waitFor('Loader.java single-row-insert', () => (s.diagnostics.get(loader) ?? []).some((d) => d.code === 'single-row-insert' && /application\.properties sets no hibernate\.jdbc\.batch_size/.test(d.message)));
    writeFileSync(properties, 'spring.datasource.url=jdbc:db2://host:50000/SAMPLE\nspring.jpa.properties.hibernate.jdbc.batch_size=50\n');
    s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(properties), type: 2 }] });
    await s.waitFor('Loader.java cleared', () => !(s.diagnostics.get(loader) ?? []).some((d) => d.code === 'single-row-insert'));
  });
});

describe("language server: Hibernate's flush mode in a Java project's configuration", function () {
  this.timeout(60000);
  const ws = tempWorkspace('insertlint-ws-flush-mode-');

  it('a JPQL query on every pass is reported while application.properties leaves the flush mode AUTO, cleared when it sets org.hibernate.flushMode=COMMIT, reported again when that goes', async () => {
    const loop = JAVA_LOADER.replace('em.persist(new Order(item));', 'List<Order> same = em.createQuery("select o from Order o where o.item = :item", Order.class).setParameter("item", item).getResultList();\n            em.persist(new Order(item));');
    const { properties, loaderPath } = mavenProject(ws.dir, loop);
    const batched = 'spring.datasource.url=jdbc:db2://host:50000/SAMPLE\nspring.jpa.properties.hibernate.jdbc.batch_size=50\n';
    writeFileSync(properties, batched);
    const s = await ws.start();
    await s.waitIdle();
    const loader = uriOf(loaderPath);
    const reported = () => (s.diagnostics.get(loader) ?? []).some((d) => d.code === 'single-row-insert' && /getResultList\(\) runs on every pass, and with the default FlushMode AUTO/.test(d.message));
    await s.waitFor('Loader.java single-row-insert', reported);
    // (The batch size stays: only the flush mode changes.)
    writeFileSync(properties, `${batched}spring.jpa.properties.org.hibernate.flushMode=COMMIT\n`);
    s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(properties), type: 2 }] });
    await s.waitFor('Loader.java cleared', () => !(s.diagnostics.get(loader) ?? []).some((d) => d.code === 'single-row-insert'));
    writeFileSync(properties, batched);
    s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(properties), type: 2 }] });
    await s.waitFor('Loader.java reported again', reported);
  });
});

describe("language server: a DataSource's connections and the pool's autocommit in a Java project's configuration", function () {
  this.timeout(60000);
  const ws = tempWorkspace('insertlint-ws-pool-');

  it('a JDBC loop on dataSource.getConnection() is reported while application.properties leaves the pool\'s autocommit on, cleared when it sets spring.datasource.hikari.auto-commit=false, reported again when that goes', async () => {
    const { properties, loaderPath } = mavenProject(ws.dir, jdbcDataSourceLoader());
    const s = await ws.start();
    await s.waitIdle();
    const loader = uriOf(loaderPath);
    const reported = () => (s.diagnostics.get(loader) ?? []).some((d) => d.code === 'no-autocommit' && /the pool's and driver's default for a connection from a DataSource/.test(d.message));
    await s.waitFor('Loader.java no-autocommit', reported);
    writeFileSync(properties, 'spring.datasource.url=jdbc:db2://host:50000/SAMPLE\nspring.datasource.hikari.auto-commit=false\n');
    s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(properties), type: 2 }] });
    await s.waitFor('Loader.java cleared', () => !(s.diagnostics.get(loader) ?? []).some((d) => d.code === 'no-autocommit'));
    writeFileSync(properties, 'spring.datasource.url=jdbc:db2://host:50000/SAMPLE\n');
    s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(properties), type: 2 }] });
    await s.waitFor('Loader.java reported again', reported);
  });
});

describe("language server: a pool another Java file sets up with autocommit off (a @Configuration class's @Bean)", function () {
  this.timeout(60000);
  const ws = tempWorkspace('insertlint-ws-pool-bean-');

  it('a JDBC loop on dataSource.getConnection() is reported while the bean leaves autocommit on, cleared when a save sets HikariConfig.setAutoCommit(false), reported again when the file goes', async () => {
    const { loaderPath } = mavenProject(ws.dir, jdbcDataSourceLoader());
    mkdirSync(join(ws.dir, 'src', 'main', 'java', 'config'), { recursive: true });
    const bean = join(ws.dir, 'src', 'main', 'java', 'config', 'DataSourceConfig.java');
    const setUp = (autoCommit: string) => poolConfigClass(`HikariConfig config = new HikariConfig();\nconfig.setAutoCommit(${autoCommit});\nreturn new HikariDataSource(config);`);
    writeFileSync(bean, setUp('true'));
    const s = await ws.start();
    await s.waitIdle();
    const loader = uriOf(loaderPath);
    const reported = () => (s.diagnostics.get(loader) ?? []).some((d) => d.code === 'no-autocommit' && /the pool's and driver's default for a connection from a DataSource/.test(d.message));
    await s.waitFor('Loader.java no-autocommit', reported);
    writeFileSync(bean, setUp('false'));
    s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(bean), type: 2 }] });
    await s.waitFor('Loader.java cleared', () => !(s.diagnostics.get(loader) ?? []).some((d) => d.code === 'no-autocommit'));
    rmSync(bean);
    s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(bean), type: 3 }] });
    await s.waitFor('Loader.java reported again', reported);
  });
});

describe('language server: MyBatis mapper XML files and mybatis-config.xml', function () {
  this.timeout(60000);
  const ws = tempWorkspace('insertlint-ws-mybatis-xml-');

  it('a mapper call in a loop is reported by its XML statement; a BATCH mybatis-config.xml, then a <foreach> in the XML, clear it', async () => {
    // (With a Hibernate configuration that stays the same: MyBatis's executor alone changes.)
    for (const [path, text] of Object.entries(MYBATIS_XML_PROJECT({ 'src/main/resources/application.properties': 'spring.datasource.url=jdbc:db2://host:50000/SAMPLE\n' }))) {
      mkdirSync(dirname(join(ws.dir, path)), { recursive: true });
      writeFileSync(join(ws.dir, path), text);
    }
    const s = await ws.start();
    await s.waitIdle();
    const service = uriOf(join(ws.dir, 'src', 'main', 'java', 'com', 'acme', 'service', 'OrderService.java'));
    const reported = () => (s.diagnostics.get(service) ?? []).some((d) => d.code === 'single-row-insert' && /^One INSERT INTO APP\.ORDERS call per row/.test(d.message));
    await s.waitFor('OrderService.java single-row-insert', reported);
    const notify = (path: string, type: number) => s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(path), type }] });
    // mybatis-config.xml comes with the BATCH executor, then goes.
    const config = join(ws.dir, 'src', 'main', 'resources', 'mybatis-config.xml');
    writeFileSync(config, '<configuration><settings><setting name="defaultExecutorType" value="BATCH"/></settings></configuration>\n');
    notify(config, 1);
    await s.waitFor('OrderService.java cleared (BATCH)', () => !reported());
    rmSync(config);
    notify(config, 3);
    await s.waitFor('OrderService.java reported again', reported);
    // The mapper XML's statement becomes a <foreach> of rows.
    const xml = join(ws.dir, 'src', 'main', 'resources', 'com', 'acme', 'mapper', 'OrderMapper.xml');
    writeFileSync(xml, mybatisMapperXml('  <insert id="insertOrder">INSERT INTO APP.ORDERS (ID) VALUES <foreach collection="list" item="o" separator=",">(#{o.id})</foreach></insert>'));
    notify(xml, 2);
    await s.waitFor('OrderService.java cleared (<foreach>)', () => !reported());
  });
});

const SEQUELIZE_LOADER = `const { Order } = require('../models');

async function importOrders(rows) {
  for (const row of rows) {
    await Order.create(row);
  }
}
module.exports = { importOrders };
`;

describe('language server: project evidence for Sequelize on Db2', function () {
  this.timeout(60000);
  const ws = tempWorkspace('insertlint-ws-sequelize-');

  it('a service that only imports its models gets its findings when package.json adds ibm_db, and loses them when the dependency goes', async () => {
    const pkg = join(ws.dir, 'package.json');
    writeFileSync(pkg, JSON.stringify({ name: 'app', dependencies: { sequelize: '^6.37.0' } }));
    mkdirSync(join(ws.dir, 'src', 'services'), { recursive: true });
    const loaderPath = join(ws.dir, 'src', 'services', 'import.js');
    writeFileSync(loaderPath, SEQUELIZE_LOADER);
    const s = await ws.start();
    await s.waitIdle();
    const loader = uriOf(loaderPath);
    assert.deepEqual(s.diagnostics.get(loader) ?? [], []);
    writeFileSync(pkg, JSON.stringify({ name: 'app', dependencies: { sequelize: '^6.37.0', ibm_db: '^3.2.0' } }));
    s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(pkg), type: 2 }] });
    await s.waitFor('import.js single-row-insert', () => (s.diagnostics.get(loader) ?? []).some((d) => d.code === 'single-row-insert'));
    writeFileSync(pkg, JSON.stringify({ name: 'app', dependencies: { sequelize: '^6.37.0', pg: '^8.0.0' } }));
    s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(pkg), type: 2 }] });
    await s.waitFor('import.js cleared', () => (s.diagnostics.get(loader) ?? []).length === 0);
  });
});

describe('language server: project evidence for Django on Db2', function () {
  this.timeout(60000);
  const ws = tempWorkspace('insertlint-ws-django-');

  it("a Django command gets its findings when settings.py names ibm_db_django, and loses them back on PostgreSQL", async () => {
    const postgres = DJANGO_DB2_SETTINGS.replace('ibm_db_django', 'django.db.backends.postgresql');
    writeFileSync(join(ws.dir, 'manage.py'), 'import sys\n');
    mkdirSync(join(ws.dir, 'mysite'), { recursive: true });
    mkdirSync(join(ws.dir, 'shop'), { recursive: true });
    const settings = join(ws.dir, 'mysite', 'settings.py');
    writeFileSync(settings, postgres);
    writeFileSync(join(ws.dir, 'shop', 'models.py'), DJANGO_MODELS);
    const loadPath = join(ws.dir, 'shop', 'load.py');
    writeFileSync(loadPath, 'from shop.models import Order\n\n\ndef load(rows):\n    for r in rows:\n        Order.objects.create(item=r, qty=1)\n');
    const s = await ws.start();
    await s.waitIdle();
    const load = uriOf(loadPath);
    assert.deepEqual(s.diagnostics.get(load) ?? [], []);
    writeFileSync(settings, DJANGO_DB2_SETTINGS);
    s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(settings), type: 2 }] });
    await s.waitFor('load.py no-autocommit', () => (s.diagnostics.get(load) ?? []).some((d) => d.code === 'no-autocommit' && /SHOP_ORDER/.test(d.message)));
    writeFileSync(settings, postgres);
    s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(settings), type: 2 }] });
    await s.waitFor('load.py cleared', () => (s.diagnostics.get(load) ?? []).length === 0);
  });
});
