// The language server's project-evidence look on a watched change (issue 15: the editor stays instant). DiskFiles keeps
// what the look read (cli/project-evidence.ts RememberedLook): a save of a source file whose use of SQLAlchemy or
// Sequelize did not change reads nothing on disk again but the file itself, and every change that can change the
// evidence (a file that starts or stops using SQLAlchemy, a requirement, a .env, persistence.xml, package.json, files
// and folders that come or go, a new project top) still gives what a look of everything afresh gives.
// DiskFiles runs in this process over the engine's Workspace (no front end: the look reads only the texts), the
// disk as the test leaves it, and a connection that only collects the log (which names the evidence found).
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Connection } from 'vscode-languageserver/node';
import { ServerState } from '../../server/src/lsp/server-state';
import { DiskFiles } from '../../server/src/lsp/disk-files';
import type { Diagnostics } from '../../server/src/lsp/diagnostics';
import type { Configuration } from '../../server/src/lsp/configuration';
import { Workspace } from '../../server/src/engine/workspace';
import { resolveConfig } from '../../server/src/engine/config';
import { RULES } from '../../server/src/engine/registry';
import { RememberedLook } from '../../server/src/cli/project-evidence';
import { sqlalchemyDb2Folders, sqlalchemyEvidence } from '../../server/src/cli/evidence-python';
import { hibernateBatchingFolders, mybatisMapperStatements } from '../../server/src/cli/evidence-java';
import { sequelizeDb2Folders } from '../../server/src/cli/evidence-javascript';
import { FASTAPI_CRUD, fastapiDatabase, MYBATIS_XML_PROJECT, mybatisMapperXml } from '../code/helpers';

// The module object itself (not an import's copy): the look's calls go through its properties.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fs: typeof import('node:fs') = require('node:fs');

const CREATED = 1;
const CHANGED = 2;
const DELETED = 3;

const USER = (n: number) => `from sqlalchemy.orm import Session\nfrom models import Order, engine\n\ndef load${n}(rows):\n    with Session(engine) as session:\n        for r in rows:\n            session.add(Order(id=r))\n            session.commit()\n`;
const NON_USER = (n: number) => `import ibm_db\n\ndef load${n}(conn, rows):\n    for r in rows:\n        ibm_db.exec_immediate(conn, "INSERT INTO T (A) VALUES (1)")\n`;
const MODELS_USER = (n: number) => `const { Order } = require('../models');\n\nasync function f${n}(rows) {\n  for (const r of rows) {\n    await Order.create(r);\n  }\n}\n`;
const JPA = `import jakarta.persistence.*;\nclass Loader {\n  EntityManager em;\n  void load(java.util.List<String> xs) { for (String x : xs) em.persist(new Order(x)); }\n}\n`;
const persistence = (size?: number) =>
  `<persistence version="3.0"><persistence-unit name="u"><properties>${size === undefined ? '' : `<property name="hibernate.jdbc.batch_size" value="${size}"/>`}</properties></persistence-unit></persistence>\n`;

/** DiskFiles over a folder on disk, its files read as the index reads them. */
function serverOn(dir: string) {
  const logs: string[] = [];
  const console = { info: (m: string) => logs.push(m), warn: (m: string) => logs.push(m), error: (m: string) => logs.push(m), log: () => undefined };
  const state = new ServerState({ console } as unknown as Connection, RULES);
  state.folders = [dir];
  state.config = resolveConfig(RULES.map((r) => r.rule));
  state.workspace = new Workspace(state.config, [], RULES);
  const diagnostics = { markDirty: () => undefined, markDependentsDirty: () => undefined, publishEmpty: () => undefined, notices: { read: () => undefined, forget: () => undefined } } as unknown as Diagnostics;
  const disk = new DiskFiles(state, diagnostics, {} as Configuration);
  const walk = (folder: string): void => {
    for (const e of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, e.name);
      if (e.isDirectory()) walk(path);
      else if (state.workspace.languageOf(path)) disk.readFromDisk(path);
    }
  };
  walk(dir);
  const isEvidence = (line: string) => /^(?:SQLAlchemy on Db2 in|Hibernate configuration of|Sequelize on Db2 in) /.test(line);
  /** The evidence a look logs (what it handed the engine, with why), in order. */
  const logged = (run: () => void): string[] => {
    logs.length = 0;
    run();
    return logs.filter(isEvidence);
  };
  return {
    state,
    disk,
    /** The index's look. */
    index: () => logged(() => disk.refreshProjectEvidence(true)),
    /** Watched changes as an editor reports them; the evidence the look after them found. */
    changed: (...changes: [string, number][]) => logged(() => disk.watchedFilesChanged(changes.map(([path, type]) => ({ uri: pathToFileURL(path).toString(), type })))),
    /** What a look of everything afresh finds in the same files (the CLI's look). */
    afresh: (): string[] => {
      const w = state.workspace;
      const js = [...w.sourcesOf('javascript'), ...w.sourcesOf('typescript')];
      return [
        ...[...sqlalchemyDb2Folders(w.sourcesOf('python'))].map(([folder, why]) => `SQLAlchemy on Db2 in ${folder}: ${why}`),
        ...[...hibernateBatchingFolders(w.sourcesOf('java'))].map(([folder, b]) => `Hibernate configuration of ${folder}: ${b.file}, hibernate.jdbc.batch_size ${b.batchSize ?? 'not set'}`),
        ...[...sequelizeDb2Folders(js)].map(([folder, why]) => `Sequelize on Db2 in ${folder}: ${why}`),
      ];
    },
  };
}

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'insertlint-evidence-refresh-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** The paths the file system functions the look uses were called with while `run` ran. */
function pathsTouched(run: () => void): string[] {
  const names = ['readdirSync', 'statSync', 'lstatSync', 'readFileSync', 'openSync', 'existsSync', 'accessSync'] as const;
  const touched: string[] = [];
  const saved = names.map((name) => fs[name]);
  names.forEach((name, i) => {
    const original = saved[i] as (...args: unknown[]) => unknown;
    (fs as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      if (typeof args[0] === 'string') touched.push(args[0]);
      return original.apply(fs, args);
    };
  });
  try {
    run();
  } finally {
    names.forEach((name, i) => ((fs as unknown as Record<string, unknown>)[name] = saved[i]));
  }
  return touched;
}

describe('language server: the project-evidence look on a watched change', function () {
  this.timeout(20000);

  it('a saved Python or JavaScript file whose use of SQLAlchemy / Sequelize did not change: nothing on disk is read again but the file and its folder', () => {
    const files: Record<string, string> = {
      'requirements.txt': 'SQLAlchemy>=2\nibm_db_sa\n',
      '.env': 'DEBUG=1\n',
      'package.json': JSON.stringify({ name: 'app', dependencies: { sequelize: '^6', ibm_db: '^3' } }),
      'config/config.json': JSON.stringify({ development: { dialect: 'db2' } }),
    };
    for (let i = 0; i < 6; i++) {
      files[`app/pkg${i % 2}/mod${i}/load.py`] = USER(i);
      files[`app/pkg${i % 2}/mod${i}/other.py`] = NON_USER(i);
      files[`web/src/part${i}/service.js`] = MODELS_USER(i);
    }
    const dir = project(files);
    const s = serverOn(dir);
    const evidence = s.index();
    assert.deepEqual(evidence, [`SQLAlchemy on Db2 in ${dir}: ibm_db_sa in requirements.txt (${join(dir, 'requirements.txt')})`, `Sequelize on Db2 in ${dir}: dialect":"db2" in config.json (${join(dir, 'config', 'config.json')})`]);
    for (const [saved, text] of [
      ['app/pkg1/mod3/load.py', `${USER(3)}\ndef more(rows):\n    return len(rows)\n`],
      ['app/pkg0/mod2/other.py', `${NON_USER(2)}\n# a comment\n`],
      ['web/src/part4/service.js', `${MODELS_USER(4)}\n// a comment\n`],
    ]) {
      const path = join(dir, saved);
      writeFileSync(path, text);
      let after: string[] = [];
      const touched = pathsTouched(() => (after = s.changed([path, CHANGED])));
      assert.deepEqual(after, evidence, saved);
      // The saved file is read (the index holds its new text), its folder's names may be listed again: nothing else.
      assert.deepEqual([...new Set(touched)].filter((p) => p !== path && p !== dirname(path)), [], `${saved}: the look read ${[...new Set(touched)].join(', ')}`);
    }
  });

  it('MyBatis mapper XML files: a saved Java file reads none of them again; a saved XML file only itself; the statements are a fresh look\'s', () => {
    const files = MYBATIS_XML_PROJECT();
    for (let i = 0; i < 30; i++) {
      files[`src/main/resources/mapper/m${i % 3}/Other${i}Mapper.xml`] = mybatisMapperXml(`  <insert id="insert${i}">INSERT INTO APP.T${i} (ID) VALUES (#{id})</insert>`, `com.acme.mapper.Other${i}Mapper`);
    }
    files['src/main/resources/logback.xml'] = '<configuration/>\n';
    const dir = project(files);
    const s = serverOn(dir);
    let handed: ReadonlyMap<string, readonly (string | null)[]> = new Map();
    const set = s.state.workspace.setMybatisStatements.bind(s.state.workspace);
    s.state.workspace.setMybatisStatements = (statements) => ((handed = statements), set(statements));
    s.index();
    const fresh = () => [...mybatisMapperStatements(s.state.workspace.sourcesOf('java'))].sort();
    assert.equal(handed.size, 32);
    assert.deepEqual([...handed].sort(), fresh());
    const service = join(dir, 'src', 'main', 'java', 'com', 'acme', 'service', 'OrderService.java');
    writeFileSync(service, `${MYBATIS_XML_PROJECT()['src/main/java/com/acme/service/OrderService.java']}// saved\n`);
    const touched = pathsTouched(() => s.changed([service, CHANGED]));
    assert.deepEqual([...new Set(touched)].filter((p) => p !== service && p !== dirname(service)), [], `the look read ${[...new Set(touched)].join(', ')}`);
    const xml = join(dir, 'src', 'main', 'resources', 'mapper', 'm1', 'Other4Mapper.xml');
    writeFileSync(xml, mybatisMapperXml('  <insert id="insert4">INSERT INTO APP.T4 (ID, B) VALUES (#{id}, #{b})</insert>', 'com.acme.mapper.Other4Mapper'));
    const touchedXml = pathsTouched(() => s.changed([xml, CHANGED]));
    assert.deepEqual([...new Set(touchedXml)].filter((p) => p !== xml && p !== dirname(xml)), [], `the look read ${[...new Set(touchedXml)].join(', ')}`);
    assert.deepEqual(handed.get('com.acme.mapper.Other4Mapper.insert4'), ['INSERT INTO APP.T4 (ID, B) VALUES (?, ?)']);
    assert.deepEqual([...handed].sort(), fresh());
  });

  it('a Python file that starts or stops using SQLAlchemy; a requirement of ibm_db_sa that comes and goes', () => {
    const dir = project({ 'requirements.txt': 'ibm_db_sa\n', 'app/load.py': NON_USER(1), 'lib/requirements.txt': 'SQLAlchemy>=2\n', 'lib/models.py': USER(2) });
    const s = serverOn(dir);
    assert.deepEqual(s.index(), []);
    writeFileSync(join(dir, 'app', 'load.py'), USER(1));
    assert.deepEqual(s.changed([join(dir, 'app', 'load.py'), CHANGED]), [`SQLAlchemy on Db2 in ${dir}: ibm_db_sa in requirements.txt (${join(dir, 'requirements.txt')})`]);
    writeFileSync(join(dir, 'lib', 'requirements.txt'), 'SQLAlchemy>=2\nibm-db-sa==0.4.1\n');
    const both = s.changed([join(dir, 'lib', 'requirements.txt'), CHANGED]);
    assert.deepEqual(both, s.afresh());
    assert.equal(both.length, 2);
    writeFileSync(join(dir, 'app', 'load.py'), NON_USER(1));
    assert.deepEqual(s.changed([join(dir, 'app', 'load.py'), CHANGED]), [`SQLAlchemy on Db2 in ${join(dir, 'lib')}: ibm_db_sa in requirements.txt (${join(dir, 'lib', 'requirements.txt')})`]);
    writeFileSync(join(dir, 'lib', 'requirements.txt'), 'SQLAlchemy>=2\n');
    assert.deepEqual(s.changed([join(dir, 'lib', 'requirements.txt'), CHANGED]), []);
  });

  it('a .env with a Db2 URL that is created and deleted; a Python file that is deleted and created again', () => {
    const dir = project({ 'requirements.txt': 'SQLAlchemy>=2\n', 'app/load.py': USER(1) });
    const s = serverOn(dir);
    assert.deepEqual(s.index(), []);
    const env = join(dir, 'app', '.env');
    writeFileSync(env, 'DATABASE_URL=db2+ibm_db://u:p@host:50000/SAMPLE\n');
    const found = s.changed([env, CREATED]);
    assert.deepEqual(found, [`SQLAlchemy on Db2 in ${dir}: a Db2 SQLAlchemy URL (db2+ibm_db://) in .env (${env})`]);
    rmSync(join(dir, 'app', 'load.py'));
    assert.deepEqual(s.changed([join(dir, 'app', 'load.py'), DELETED]), []);
    writeFileSync(join(dir, 'app', 'load.py'), USER(1));
    assert.deepEqual(s.changed([join(dir, 'app', 'load.py'), CREATED]), found);
    rmSync(env);
    assert.deepEqual(s.changed([env, DELETED]), []);
  });

  it('a folder that goes (one event for the folder), and a new project top (.git) between a file and its requirements', () => {
    const dir = project({ 'requirements.txt': 'ibm_db_sa\n', 'a/load.py': USER(1), 'b/sub/requirements.txt': 'ibm_db_sa\n', 'b/sub/load.py': USER(2) });
    const s = serverOn(dir);
    assert.deepEqual(s.index(), [`SQLAlchemy on Db2 in ${dir}: ibm_db_sa in requirements.txt (${join(dir, 'requirements.txt')})`, `SQLAlchemy on Db2 in ${join(dir, 'b', 'sub')}: ibm_db_sa in requirements.txt (${join(dir, 'b', 'sub', 'requirements.txt')})`]);
    // The folder goes; its file stays in the index (no event for it), as before: the look sees the folder gone.
    rmSync(join(dir, 'b'), { recursive: true });
    s.changed([join(dir, 'b'), DELETED]);
    writeFileSync(join(dir, 'a', 'load.py'), `${USER(1)}\n# saved\n`);
    const after = s.changed([join(dir, 'a', 'load.py'), CHANGED]);
    assert.deepEqual(after, s.afresh());
    assert.deepEqual(after, [`SQLAlchemy on Db2 in ${dir}: ibm_db_sa in requirements.txt (${join(dir, 'requirements.txt')})`]);
    // The file of the folder that went leaves the index; a/ becomes a project of its own: the requirements above are
    // no longer its.
    assert.deepEqual(s.changed([join(dir, 'b', 'sub', 'load.py'), DELETED]), after);
    mkdirSync(join(dir, 'a', '.git'));
    assert.deepEqual(s.changed([join(dir, 'a', '.git'), CREATED]), []);
    rmSync(join(dir, 'a', '.git'), { recursive: true });
    assert.deepEqual(s.changed([join(dir, 'a', '.git'), DELETED]), after);
  });

  it('a session module on disk (app/db/session.py, no file of the look): read once, read again when forgotten', () => {
    const dir = project({ 'requirements.txt': 'ibm_db_sa\n', 'app/db/session.py': fastapiDatabase(false), 'app/crud/crud.py': FASTAPI_CRUD });
    const session = join(dir, 'app', 'db', 'session.py');
    const files = [{ path: join(dir, 'app', 'crud', 'crud.py'), text: FASTAPI_CRUD }];
    const look = new RememberedLook();
    const offOf = (inputs?: RememberedLook) => [...sqlalchemyEvidence(files, inputs).autoflush].map(([top, a]) => [top, a.off, a.why]);
    const off = [[dir, true, `sessionmaker(autocommit=False, autoflush=False, bind=engine) (${session})`]];
    assert.deepEqual(offOf(look), off);
    writeFileSync(session, fastapiDatabase());
    // Unchanged as far as the look knows: nothing read again.
    assert.deepEqual(pathsTouched(() => assert.deepEqual(offOf(look), off)), []);
    look.forget(session);
    const on = [[dir, false, `sessionmaker(autocommit=False, bind=engine) (${session})`]];
    assert.deepEqual(offOf(look), on);
    assert.deepEqual(offOf(), on);
  });

  it('persistence.xml\'s batch size and package.json\'s @sequelize/db2', () => {
    const dir = project({
      'pom.xml': '<project/>\n',
      'src/main/resources/META-INF/persistence.xml': persistence(),
      'src/main/java/Loader.java': JPA,
      'web/package.json': JSON.stringify({ name: 'web', dependencies: { sequelize: '^6' } }),
      'web/src/services/import.js': MODELS_USER(1),
    });
    const s = serverOn(dir);
    assert.deepEqual(s.index(), [`Hibernate configuration of ${dir}: src/main/resources/META-INF/persistence.xml, hibernate.jdbc.batch_size not set`]);
    const xml = join(dir, 'src', 'main', 'resources', 'META-INF', 'persistence.xml');
    writeFileSync(xml, persistence(50));
    assert.deepEqual(s.changed([xml, CHANGED]), [`Hibernate configuration of ${dir}: src/main/resources/META-INF/persistence.xml, hibernate.jdbc.batch_size 50`]);
    const pkg = join(dir, 'web', 'package.json');
    writeFileSync(pkg, JSON.stringify({ name: 'web', dependencies: { '@sequelize/core': '^7', '@sequelize/db2': '^7' } }));
    const after = s.changed([pkg, CHANGED]);
    assert.deepEqual(after, s.afresh());
    assert.equal(after.filter((l) => l.startsWith(`Sequelize on Db2 in ${join(dir, 'web')}: `)).length, 1);
    rmSync(pkg);
    assert.deepEqual(s.changed([pkg, DELETED]), [`Hibernate configuration of ${dir}: src/main/resources/META-INF/persistence.xml, hibernate.jdbc.batch_size 50`]);
  });
});
