// A JDBC connection got from a pooled DataSource starts with the autocommit its pool is configured with: HikariCP's
// autoCommit (spring.datasource.hikari.auto-commit, hikari.properties, HikariConfig.setAutoCommit), Tomcat JDBC's and
// Commons DBCP2's defaultAutoCommit. When the project's configuration turns it off, no-autocommit has nothing to
// report for a loop on such a connection (cli/project-evidence.ts, code/hibernate-config.ts poolAutocommitOffIn,
// languages/java.ts getConnection); DriverManager's connections keep the driver's default (on). A pool set up with
// autocommit off by another Java file of the project (a @Configuration class's @Bean method) counts as the
// configuration does (cli/evidence-java.ts hibernatePart, hibernate-config.ts javaPoolSetUpOff).
import * as assert from 'node:assert/strict';
import { join, relative as relativeTo } from 'node:path';
import { lintPaths } from '../../server/src/cli/lint-run';
import { hibernateBatchingFolders } from '../../server/src/cli/evidence-java';
import { javaPoolSetUpOff, poolAutocommitOffIn } from '../../server/src/code/hibernate-config';
import { jdbcDataSourceLoader, poolConfigClass, projectOnDisk } from './helpers';

const POM = '<project><modelVersion>4.0.0</modelVersion></project>\n';
const LOADER_PATH = 'src/main/java/demo/Loader.java';
const CONFIG_PATH = 'src/main/java/demo/config/DataSourceConfig.java';

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
    // Nor is a commented-out set-up.
    const commented = '    static DataSource pool() {\n        HikariConfig cfg = new HikariConfig();\n        // cfg.setAutoCommit(false);\n        return new HikariDataSource(cfg);\n    }\n';
    assert.equal((await noAutocommit({}, jdbcDataSourceLoader('dataSource', '    private final DataSource dataSource;\n', commented))).length, 1);
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

  describe('a pool another Java file of the project sets up (a @Configuration class\'s @Bean DataSource)', () => {
    const DBCP2 = ['org.apache.commons.dbcp2.BasicDataSource'];
    const TOMCAT = ['org.apache.tomcat.jdbc.pool.PoolProperties'];
    const BOOT = ['com.zaxxer.hikari.HikariDataSource', 'org.springframework.boot.jdbc.DataSourceBuilder'];
    const quiet: [string, string, string[]?][] = [
      ['HikariConfig.setAutoCommit(false)', 'HikariConfig config = new HikariConfig();\nconfig.setJdbcUrl("jdbc:db2://host:50000/SAMPLE");\nconfig.setAutoCommit(false);\nreturn new HikariDataSource(config);'],
      ['HikariDataSource.setAutoCommit(false)', 'HikariDataSource ds = new HikariDataSource();\nds.setJdbcUrl("jdbc:db2://host:50000/SAMPLE");\nds.setAutoCommit(false);\nreturn ds;'],
      ['a HikariConfig field set in the method', 'this.hikari.setAutoCommit(false);\nreturn new HikariDataSource(hikari);\n}\nprivate final HikariConfig hikari = new HikariConfig();\nvoid unused() {'],
      ["DBCP2's BasicDataSource.setDefaultAutoCommit(false)", 'BasicDataSource ds = new BasicDataSource();\nds.setUrl("jdbc:db2://host:50000/SAMPLE");\nds.setDefaultAutoCommit(false);\nreturn ds;', DBCP2],
      ['setDefaultAutoCommit(Boolean.FALSE)', 'BasicDataSource ds = new BasicDataSource();\nds.setDefaultAutoCommit(Boolean.FALSE);\nreturn ds;', DBCP2],
      ["Tomcat JDBC's PoolProperties.setDefaultAutoCommit(false)", 'PoolProperties p = new PoolProperties();\np.setUrl("jdbc:db2://host:50000/SAMPLE");\np.setDefaultAutoCommit(false);\nreturn new org.apache.tomcat.jdbc.pool.DataSource(p);', TOMCAT],
      ["Tomcat JDBC's DataSource.setDefaultAutoCommit(false)", 'org.apache.tomcat.jdbc.pool.DataSource ds = new org.apache.tomcat.jdbc.pool.DataSource();\nds.setDefaultAutoCommit(false);\nreturn ds;', []],
      ['DataSourceBuilder ... build() cast to HikariDataSource', 'DataSource ds = DataSourceBuilder.create().url("jdbc:db2://host:50000/SAMPLE").build();\n((HikariDataSource) ds).setAutoCommit(false);\nreturn ds;', BOOT],
      ['DataSourceBuilder ... type(HikariDataSource.class).build() held by a var', 'var ds = DataSourceBuilder.create().type(HikariDataSource.class).build();\nds.setAutoCommit(false);\nreturn ds;', BOOT],
      ['unwrap(HikariDataSource.class)', 'DataSource ds = DataSourceBuilder.create().build();\nds.unwrap(HikariDataSource.class).setAutoCommit(false);\nreturn ds;', BOOT],
    ];
    for (const [what, body, imports] of quiet) {
      it(`${what} in the bean: no no-autocommit finding for the getConnection loop of another file`, async () => {
        assert.deepEqual(await noAutocommit({ [CONFIG_PATH]: poolConfigClass(body, imports) }), []);
      });
    }

    const stays: [string, Record<string, string>][] = [
      ['Connection.setAutoCommit(false) in another DAO', { 'src/main/java/demo/OtherDao.java': 'package demo;\n\nimport java.sql.Connection;\nimport javax.sql.DataSource;\n\npublic class OtherDao {\n    private DataSource dataSource;\n    void save() throws Exception {\n        Connection conn = dataSource.getConnection();\n        conn.setAutoCommit(false);\n        conn.commit();\n    }\n}\n' }],
      ['Connection.setAutoCommit(false) beside a HikariDataSource', { [CONFIG_PATH]: poolConfigClass('HikariDataSource ds = new HikariDataSource();\ntry (java.sql.Connection conn = ds.getConnection()) {\n    conn.setAutoCommit(false);\n}\nreturn ds;') }],
      ['HikariConfig.setAutoCommit(true)', { [CONFIG_PATH]: poolConfigClass('HikariConfig config = new HikariConfig();\nconfig.setAutoCommit(true);\nreturn new HikariDataSource(config);') }],
      ['HikariConfig.setAutoCommit(a variable)', { [CONFIG_PATH]: poolConfigClass('boolean autoCommit = Boolean.getBoolean("app.autocommit");\nHikariConfig config = new HikariConfig();\nconfig.setAutoCommit(autoCommit);\nreturn new HikariDataSource(config);') }],
      ['BasicDataSource.setDefaultAutoCommit(true)', { [CONFIG_PATH]: poolConfigClass('BasicDataSource ds = new BasicDataSource();\nds.setDefaultAutoCommit(true);\nreturn ds;', DBCP2) }],
      ['a commented-out setter', { [CONFIG_PATH]: poolConfigClass('HikariConfig config = new HikariConfig();\n// config.setAutoCommit(false);\nreturn new HikariDataSource(config);') }],
      ['a bean of another project (its own pom.xml)', { 'other/pom.xml': POM, [`other/${CONFIG_PATH}`]: poolConfigClass('HikariConfig config = new HikariConfig();\nconfig.setAutoCommit(false);\nreturn new HikariDataSource(config);') }],
    ];
    for (const [what, files] of stays) {
      it(`${what}: the finding stays, its message unchanged`, async () => {
        const found = await noAutocommit(files);
        assert.equal(found.length, 1);
        assert.match(found[0], /^Autocommit is on for 'c' \(the pool's and driver's default for a connection from a DataSource; no pool configuration was found that switches it off\) while the for-each loop at line 16 inserts into APP\.ORDERS one row per call\./);
      });
    }

    it('the project evidence names the Java file, and the configuration file first when both set it off', () => {
      const bean = poolConfigClass('HikariConfig config = new HikariConfig();\nconfig.setAutoCommit(false);\nreturn new HikariDataSource(config);');
      const dir = projectOnDisk({ 'pom.xml': POM, [LOADER_PATH]: jdbcDataSourceLoader(), [CONFIG_PATH]: bean }, 'insertlint-pool-');
      const files = [LOADER_PATH, CONFIG_PATH].map((p) => ({ path: join(dir, p), text: p === CONFIG_PATH ? bean : jdbcDataSourceLoader() }));
      assert.deepEqual(hibernateBatchingFolders(files).get(dir), { file: CONFIG_PATH, mybatisOnly: true, poolAutocommitOff: CONFIG_PATH });
      assert.deepEqual(hibernateBatchingFolders([...files].reverse()).get(dir), { file: CONFIG_PATH, mybatisOnly: true, poolAutocommitOff: CONFIG_PATH });
      const both = projectOnDisk({ 'pom.xml': POM, 'src/main/resources/application.properties': `${DB2_URL}spring.datasource.hikari.auto-commit=false\n` }, 'insertlint-pool-');
      const moved = files.map((f) => ({ path: join(both, relativeTo(dir, f.path)), text: f.text }));
      assert.equal(hibernateBatchingFolders(moved).get(both)?.poolAutocommitOff, 'src/main/resources/application.properties');
    });

    it('javaPoolSetUpOff: pool objects set off only', () => {
      assert.equal(javaPoolSetUpOff('HikariConfig c = new HikariConfig();\nc.setAutoCommit(false);\n'), true);
      assert.equal(javaPoolSetUpOff('com.zaxxer.hikari.HikariDataSource ds;\nvoid f() { ds . setAutoCommit( false ); }\n'), true);
      assert.equal(javaPoolSetUpOff('HikariDataSource pool;\nConnection c;\nvoid f() { c.setAutoCommit(false); }\n'), false);
      assert.equal(javaPoolSetUpOff('HikariConfig c = new HikariConfig();\nc.setAutoCommit(Boolean.TRUE);\n'), false);
      assert.equal(javaPoolSetUpOff('/*\n * HikariConfig c; c.setAutoCommit(false);\n */\n'), false);
      assert.equal(javaPoolSetUpOff('PoolConfiguration p = props();\np.setDefaultAutoCommit(java.lang.Boolean.FALSE);\n'), true);
      // (c3p0's autoCommitOnClose is what a connection does when closed, not how it starts.)
      assert.equal(javaPoolSetUpOff('ComboPooledDataSource c = new ComboPooledDataSource();\nc.setAutoCommitOnClose(false);\n'), false);
    });
  });
});
