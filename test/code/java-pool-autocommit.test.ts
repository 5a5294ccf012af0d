// A JDBC connection got from a pooled DataSource starts with the autocommit its pool is configured with: HikariCP's
// autoCommit (spring.datasource.hikari.auto-commit, hikari.properties, HikariConfig.setAutoCommit), Tomcat JDBC's and
// Commons DBCP2's defaultAutoCommit. When the project's configuration turns it off, no-autocommit has nothing to
// report for a loop on such a connection (cli/project-evidence.ts, code/hibernate-config.ts poolAutocommitOffIn,
// languages/java.ts getConnection); DriverManager's connections keep the driver's default (on).
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { lintPaths } from '../../server/src/cli/lint-run';
import { poolAutocommitOffIn } from '../../server/src/code/hibernate-config';
import { jdbcDataSourceLoader, projectOnDisk } from './helpers';

const POM = '<project><modelVersion>4.0.0</modelVersion></project>\n';
const LOADER_PATH = 'src/main/java/demo/Loader.java';

async function noAutocommit(files: Record<string, string>, loader = jdbcDataSourceLoader()): Promise<string[]> {
  const dir = projectOnDisk({ 'pom.xml': POM, [LOADER_PATH]: loader, ...files }, 'insertlint-pool-');
  const run = await lintPaths({ paths: ['.'], cwd: dir });
  return run.diagnostics.filter((d) => d.file === join(dir, LOADER_PATH) && d.rule === 'no-autocommit').map((d) => d.message);
}

const DB2_URL = 'spring.datasource.url=jdbc:db2://host:50000/SAMPLE\n';

describe("code: a DataSource's connection and the pool's configured autocommit", () => {
  it('application.properties with spring.datasource.hikari.auto-commit=false: no no-autocommit finding for the getConnection loop', async () => {
    assert.deepEqual(await noAutocommit({ 'src/main/resources/application.properties': `${DB2_URL}spring.datasource.hikari.auto-commit=false\n` }), []);
    // Relaxed names, and Tomcat JDBC's / DBCP2's defaultAutoCommit.
    assert.deepEqual(await noAutocommit({ 'src/main/resources/application.properties': `${DB2_URL}spring.datasource.hikari.autoCommit = false\n` }), []);
    assert.deepEqual(await noAutocommit({ 'src/main/resources/application.properties': `${DB2_URL}spring.datasource.tomcat.default-auto-commit=false\n` }), []);
    assert.deepEqual(await noAutocommit({ 'config/application-prod.properties': `${DB2_URL}spring.datasource.dbcp2.default-auto-commit: false\n` }), []);
  });

  it('application.yml with spring: datasource: hikari: auto-commit: false, and hikari.properties autoCommit=false: silent', async () => {
    const yml = 'spring:\n  datasource:\n    url: jdbc:db2://host:50000/SAMPLE\n    hikari:\n      maximum-pool-size: 10\n      auto-commit: false # the code commits\n';
    assert.deepEqual(await noAutocommit({ 'src/main/resources/application.yml': yml }), []);
    assert.deepEqual(await noAutocommit({ 'src/main/resources/application.yaml': 'spring.datasource.hikari:\n  autoCommit: "false"\n' }), []);
    assert.deepEqual(await noAutocommit({ 'src/main/resources/hikari.properties': 'jdbcUrl=jdbc:db2://host:50000/SAMPLE\nautoCommit=false\n' }), []);
  });

  it('no pool configuration, or auto-commit true: the finding stays, saying it is the pool\'s and driver\'s default', async () => {
    for (const files of [{}, { 'src/main/resources/application.properties': `${DB2_URL}spring.datasource.hikari.auto-commit=true\n` }, { 'src/main/resources/application.yml': 'spring:\n  datasource:\n    hikari:\n      auto-commit: true\n' }, { 'src/main/resources/application.properties': `${DB2_URL}# spring.datasource.hikari.auto-commit=false\n` }] as Record<string, string>[]) {
      const found = await noAutocommit(files);
      assert.equal(found.length, 1, JSON.stringify(files));
      assert.match(found[0], /^Autocommit is on for 'c' \(the pool's and driver's default for a connection from a DataSource; no pool configuration was found that switches it off\) while the for-each loop at line 16 inserts into APP\.ORDERS one row per call\./);
      assert.match(found[0], /Switch autocommit off \(conn\.setAutoCommit\(false\), or in the pool's configuration: spring\.datasource\.hikari\.auto-commit=false/);
    }
  });

  it("a DriverManager connection keeps the driver's default with the pool configured off", async () => {
    const loader = jdbcDataSourceLoader('DriverManager', '    private final DataSource dataSource;\n').replace('DriverManager.getConnection()', 'DriverManager.getConnection("jdbc:db2://host:50000/SAMPLE")');
    const found = await noAutocommit({ 'src/main/resources/application.properties': `${DB2_URL}spring.datasource.hikari.auto-commit=false\n` }, loader);
    assert.equal(found.length, 1);
    assert.match(found[0], /^Autocommit is on for 'c' \(the driver default for a connection this file opens\)/);
  });

  it('a DataSource by its declared type (HikariDataSource pool), and a name like ds: silent when the configuration turns autocommit off', async () => {
    const props = { 'src/main/resources/application.properties': `${DB2_URL}spring.datasource.hikari.auto-commit=false\n` };
    assert.deepEqual(await noAutocommit(props, jdbcDataSourceLoader('pool', '    private final DataSource dataSource;\n    private com.zaxxer.hikari.HikariDataSource pool;\n')), []);
    assert.deepEqual(await noAutocommit(props, jdbcDataSourceLoader('ds', '    private final DataSource dataSource;\n    private final DataSource ds = null;\n')), []);
    // (DayTrader's `@Resource private DataSource datasource;`.)
    assert.deepEqual(await noAutocommit(props, jdbcDataSourceLoader('datasource', '    private final DataSource dataSource;\n    private final javax.sql.DataSource datasource = null;\n')), []);
    // Another receiver (a connection helper of the application's own): not a DataSource, the driver's default.
    assert.equal((await noAutocommit(props, jdbcDataSourceLoader('connections', '    private final DataSource dataSource;\n    private final ConnectionHelper connections = null;\n'))).length, 1);
  });

  it('a pool this file sets up with autocommit off (HikariConfig.setAutoCommit(false), BasicDataSource.setDefaultAutoCommit(false)): silent without configuration', async () => {
    const hikari = '    static DataSource pool() {\n        HikariConfig cfg = new HikariConfig();\n        cfg.setJdbcUrl("jdbc:db2://host:50000/SAMPLE");\n        cfg.setAutoCommit(false);\n        return new HikariDataSource(cfg);\n    }\n';
    assert.deepEqual(await noAutocommit({}, jdbcDataSourceLoader('dataSource', '    private final DataSource dataSource;\n', hikari)), []);
    const dbcp = '    static DataSource pool() {\n        BasicDataSource b = new BasicDataSource();\n        b.setDefaultAutoCommit(false);\n        return b;\n    }\n';
    assert.deepEqual(await noAutocommit({}, jdbcDataSourceLoader('dataSource', '    private final DataSource dataSource;\n', dbcp)), []);
    // setAutoCommit(false) on something else than a Hikari pool (a connection of another method) is no pool set-up.
    const other = '    static void other(java.sql.Connection x) throws Exception {\n        x.setAutoCommit(false);\n    }\n';
    assert.equal((await noAutocommit({}, jdbcDataSourceLoader('dataSource', '    private final DataSource dataSource;\n', other))).length, 1);
  });

  it('poolAutocommitOffIn reads the keys of the pools, off only', () => {
    assert.equal(poolAutocommitOffIn('application.properties', 'spring.datasource.hikari.auto-commit=false\n'), true);
    assert.equal(poolAutocommitOffIn('application.properties', 'spring.datasource.hikari.auto-commit=${AUTO_COMMIT}\n'), false);
    assert.equal(poolAutocommitOffIn('application.properties', 'spring.datasource.hikari.auto-commit=true\n'), false);
    assert.equal(poolAutocommitOffIn('application.properties', 'spring.jpa.properties.hibernate.connection.autocommit=false\n'), false);
    assert.equal(poolAutocommitOffIn('application-dev.yml', 'spring:\n  datasource:\n    dbcp2:\n      default-auto-commit: false\n'), true);
    assert.equal(poolAutocommitOffIn('application.yml', 'other:\n  hikari:\n    auto-commit: false\n'), false);
    assert.equal(poolAutocommitOffIn('hikari.properties', 'autoCommit=false\n'), true);
    assert.equal(poolAutocommitOffIn('hibernate.properties', 'autoCommit=false\n'), false);
  });
});
