// Flask-SQLAlchemy (db = SQLAlchemy(app), db.session, db.Model, db.insert) and the project evidence that a SQLAlchemy
// application runs on Db2 (a Db2 URL in its configuration, ibm_db_sa among its requirements: cli/project-evidence.ts).
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brief, INSERT_RULES, lintCode, posOf, projectOnDisk } from './helpers';
import { lintPaths } from '../../server/src/cli/lint-run';
import { NO_DB2_ACCESS } from '../../server/src/code/access';
import { flaskTableName } from '../../server/src/code/languages/python-sqlalchemy-inserts';
import { runCli } from '../ci/repo';

const APP = `from flask import Flask
from flask_sqlalchemy import SQLAlchemy

app = Flask(__name__)
app.config["SQLALCHEMY_DATABASE_URI"] = "db2+ibm_db://user:pw@host:50000/SAMPLE"
db = SQLAlchemy(app)

class OrderLine(db.Model):
    __table_args__ = {"schema": "APP"}
    id = db.Column(db.Integer, primary_key=True)
    item = db.Column(db.String(40))
`;

describe('code: Python (Flask-SQLAlchemy)', () => {
  it('db.session.add(Model(...)) and db.session.commit() on every pass: both findings, ORM advice, the table Flask-SQLAlchemy names', async () => {
    const py = `${APP}
def load(rows):
    for r in rows:
        db.session.add(OrderLine(id=r[0], item=r[1]))
        db.session.commit()
`;
    const { findings, models } = await lintCode({ 'app.py': py });
    const [add] = models.get('app.py')!.code!.executions;
    assert.equal(add.api, 'sqlalchemy');
    assert.equal(add.construct, 'orm');
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(py, 'db.session.add')}`, `commit-per-row@${posOf(py, 'db.session.commit')}`]);
    // No __tablename__: Flask-SQLAlchemy's snake_case of the class name, in the schema of __table_args__.
    assert.match(findings.find((f) => f.rule === 'single-row-insert')!.message, /APP\.ORDER_LINE|APP\.order_line/);
    assert.match(findings.find((f) => f.rule === 'single-row-insert')!.message, /session\.add_all\(objs\)|session\.execute\(insert\(Model\), rows\)/);
    assert.match(findings.find((f) => f.rule === 'commit-per-row')!.message, /session/);
  });

  it('the advice names the session as the code writes it: db.session.add_all, db.session.execute, one db.session', async () => {
    const py = `${APP}
def load(rows):
    for r in rows:
        db.session.add(OrderLine(id=r[0], item=r[1]))
        db.session.commit()
`;
    const { findings } = await lintCode({ 'app.py': py });
    const single = findings.find((f) => f.rule === 'single-row-insert')!.message;
    assert.match(single, /\(or db\.session\.add_all\(objs\)\).*db\.session\.execute\(insert\(Model\), rows\)/);
    assert.match(findings.find((f) => f.rule === 'commit-per-row')!.message, /Keep one db\.session for the whole loop.*db\.session\.execute\(insert\(Model\), rows\)/);
  });

  it('db = SQLAlchemy() and db.init_app(app): db.session.add in the loop, one commit after it: silent', async () => {
    const py = `${APP.replace('db = SQLAlchemy(app)', 'db = SQLAlchemy()\ndb.init_app(app)')}
def load(rows):
    for r in rows:
        db.session.add(OrderLine(id=r[0], item=r[1]))
    db.session.commit()
`;
    const { findings, models } = await lintCode({ 'app.py': py });
    assert.deepEqual(models.get('app.py')!.code!.executions.map((e) => [e.construct, e.batched]), [['orm', true]]);
    assert.deepEqual(brief(findings, INSERT_RULES), []);
  });

  it('autoflush: Model.query…first() or db.session.query(…) on every pass, one commit after the loop: reported, the advice naming db.session.no_autoflush; inside it or with session_options autoflush off: silent', async () => {
    const customer = `
class Customer(db.Model):
    id = db.Column(db.Integer, primary_key=True)
    code = db.Column(db.String(10))
`;
    const py = `${APP}${customer}
def load_model_query(rows):
    for r in rows:
        customer = Customer.query.filter_by(code=r[2]).first()
        db.session.add(OrderLine(id=r[0], item=customer.code))
    db.session.commit()

def load_session_query(rows):
    for r in rows:
        n = db.session.query(Customer).filter(Customer.code == r[2]).count()
        db.session.add(OrderLine(id=r[0], item=str(n)))
    db.session.commit()

def load_quiet(rows):
    for r in rows:
        with db.session.no_autoflush:
            customer = Customer.query.filter_by(code=r[2]).first()
        db.session.add(OrderLine(id=r[0], item=customer.code))
    db.session.commit()
`;
    const { findings, models } = await lintCode({ 'app.py': py });
    assert.deepEqual(models.get('app.py')!.code!.executions.map((e) => [e.batched, e.autoflushedBy]), [
      [false, 'Customer.query.filter_by(code=r[2]).first()'],
      [false, 'db.session.query(Customer).filter(Customer.code == r[2]).count()'],
      [true, undefined],
    ]);
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(py, 'db.session.add')}`, `single-row-insert@${posOf(py, 'db.session.add', 2)}`]);
    const message = findings.find((f) => f.rule === 'single-row-insert')!.message;
    assert.match(message, /Customer\.query\.filter_by\(code=r\[2\]\)\.first\(\) runs on every pass, and a query first flushes what was added to its session \(SQLAlchemy's autoflush\)/);
    assert.match(message, /`with db\.session\.no_autoflush:`.*db\.session\.add_all\(objs\)/);
    // Flask-SQLAlchemy's sessions made with autoflush off: nothing is flushed before the queries.
    const off = py.replace('db = SQLAlchemy(app)', 'db = SQLAlchemy(app, session_options={"autoflush": False})');
    const { findings: quiet } = await lintCode({ 'app.py': off });
    assert.deepEqual(brief(quiet, INSERT_RULES), []);
  });

  it('db.session.execute(db.insert(Model), rows) is batched; db.session.execute(text(...)) per row is a single-row insert', async () => {
    const py = `${APP}from sqlalchemy import text

def bulk(rows):
    db.session.execute(db.insert(OrderLine), rows)
    db.session.commit()

def one_by_one(rows):
    for r in rows:
        db.session.execute(text("INSERT INTO APP.ORDER_LINE (ID, ITEM) VALUES (:id, :item)"), r)
    db.session.commit()
`;
    const { findings, models } = await lintCode({ 'app.py': py });
    assert.deepEqual(models.get('app.py')!.code!.executions.map((e) => [e.construct ?? 'text', e.batched]), [['core', true], ['text', false]]);
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(py, 'db.session.execute(text')}`]);
  });

  it("Flask-SQLAlchemy's default table names (flask_sqlalchemy/model.py camel_to_snake_case)", () => {
    assert.deepEqual(['Order', 'OrderLine', 'HTTPRequest', 'User2FA', 'ABC'].map(flaskTableName), ['order', 'order_line', 'http_request', 'user2_fa', 'abc']);
  });
});

const project = (files: Record<string, string>): string => projectOnDisk(files, 'insertlint-flask-');

/** A loader that names no Db2 driver and no SQL: it uses SQLAlchemy's ORM only. */
const LOADER = `from sqlalchemy.orm import Session
from models import Order, engine

def load(rows):
    with Session(engine) as session:
        for r in rows:
            session.add(Order(id=r))
            session.commit()
`;

describe('code: Python (project evidence that SQLAlchemy runs on Db2)', () => {
  async function leftOutOf(files: Record<string, string>, file = 'load.py'): Promise<{ leftOut?: string; rules: string[] }> {
    const dir = project(files);
    const run = await lintPaths({ paths: ['.'], cwd: dir });
    const model = run.workspace.model(join(dir, file))!;
    return { leftOut: model.leftOut, rules: run.diagnostics.filter((d) => d.file === join(dir, file)).map((d) => d.rule) };
  }

  it('ibm_db_sa in requirements.txt: a SQLAlchemy file that names no Db2 is read', async () => {
    const got = await leftOutOf({ 'requirements.txt': 'Flask==3.0.0\nSQLAlchemy>=2.0\nibm_db_sa==0.4.1\n', 'load.py': LOADER });
    assert.equal(got.leftOut, undefined);
    assert.ok(got.rules.includes('commit-per-row'), got.rules.join());
  });

  it('without evidence (requirements without ibm_db_sa), or with a postgresql:// URL: left out as before', async () => {
    assert.deepEqual(await leftOutOf({ 'requirements.txt': 'Flask==3.0.0\nSQLAlchemy>=2.0\n', 'load.py': LOADER }), { leftOut: NO_DB2_ACCESS, rules: [] });
    assert.deepEqual(await leftOutOf({ 'requirements.txt': 'SQLAlchemy>=2.0\npsycopg2-binary\n', '.env': 'DATABASE_URL=postgresql://u:p@db/app\n', 'load.py': LOADER }), { leftOut: NO_DB2_ACCESS, rules: [] });
    // The Postgres URL in the project's config.py: no Db2 evidence either.
    assert.deepEqual(await leftOutOf({ 'setup.py': 'setup(install_requires=["sqlalchemy"])\n', 'config.py': 'SQLALCHEMY_DATABASE_URI = "postgresql://u:p@db/app"\n', 'load.py': LOADER }), { leftOut: NO_DB2_ACCESS, rules: [] });
  });

  it('a Db2 URL in .env, in config.py or in pyproject.toml: read; a file of the project that names another database URL: left out for it', async () => {
    const env = await leftOutOf({ 'pyproject.toml': '[project]\nname = "app"\n', '.env': 'DATABASE_URL=db2+ibm_db://u:p@host:50000/SAMPLE\n', 'app/load.py': LOADER }, 'app/load.py');
    assert.equal(env.leftOut, undefined);
    // config.py beside another folder's loader (a file of the run, not on the loader's way up).
    const config = await leftOutOf({ 'requirements.txt': 'flask-sqlalchemy\n', 'instance/config.py': 'SQLALCHEMY_DATABASE_URI = "db2+ibm_db://u:p@host:50000/SAMPLE"\n', 'jobs/load.py': LOADER }, 'jobs/load.py');
    assert.equal(config.leftOut, undefined);
    const toml = await leftOutOf({ 'pyproject.toml': '[project]\ndependencies = ["sqlalchemy>=2", "ibm-db-sa>=0.4"]\n', 'load.py': LOADER });
    assert.equal(toml.leftOut, undefined);
    const sqlite = await leftOutOf({ 'requirements.txt': 'ibm_db_sa\n', 'load.py': LOADER.replace('from models import Order, engine', 'from sqlalchemy import create_engine\nfrom models import Order\nengine = create_engine("sqlite:///local.db")') });
    assert.equal(sqlite.leftOut, 'talks to another database (sqlite), not Db2');
  });

  it("models in another file (from app import db), ibm_db_sa required: the loader reads db.session; the table is the other module's __tablename__", async () => {
    const loader = `from app import db
from app.models import Order

def load(rows):
    for r in rows:
        db.session.add(Order(id=r))
        db.session.commit()
`;
    const files = {
      'requirements.txt': 'flask-sqlalchemy\nibm_db_sa\n',
      'app/models.py': 'from app import db\n\nclass Order(db.Model):\n    __tablename__ = "orders"\n    id = db.Column(db.Integer, primary_key=True)\n',
      'load.py': loader,
    };
    const dir = project(files);
    const run = await lintPaths({ paths: ['.'], cwd: dir });
    const path = join(dir, 'load.py');
    assert.deepEqual(run.workspace.model(path)!.code!.executions.map((e) => [e.api, e.construct]), [['sqlalchemy', 'orm']]);
    const mine = run.diagnostics.filter((d) => d.file === path);
    assert.deepEqual(mine.map((d) => d.rule).sort(), ['commit-per-row', 'single-row-insert']);
    // The __tablename__ of app/models.py (engine/orm-entities.ts), not the class as a table named at run time.
    assert.match(mine.find((d) => d.rule === 'single-row-insert')!.message, /^One INSERT INTO ORDERS call per row/);
    // Without ibm_db_sa the loader (read for its loop and its import of db) does not read db as Flask-SQLAlchemy's.
    writeFileSync(join(dir, 'requirements.txt'), 'flask-sqlalchemy\n');
    const before = await lintPaths({ paths: ['.'], cwd: dir });
    assert.deepEqual(before.workspace.model(path)!.code?.executions ?? [], []);
    assert.deepEqual(before.diagnostics.filter((d) => d.file === path), []);
  });

  it('insertlint check on a Flask project: the models/loader module is read under the requirements', async () => {
    const files = {
      'requirements.txt': 'Flask\nFlask-SQLAlchemy\nibm-db-sa\n',
      'app/__init__.py': 'from flask import Flask\nfrom flask_sqlalchemy import SQLAlchemy\n\ndb = SQLAlchemy()\n\ndef create_app():\n    app = Flask(__name__)\n    app.config.from_object("config")\n    db.init_app(app)\n    return app\n',
      'app/models.py': 'from app import db\n\nclass Order(db.Model):\n    __tablename__ = "orders"\n    id = db.Column(db.Integer, primary_key=True)\n\ndef save_orders(ids):\n    for i in ids:\n        db.session.add(Order(id=i))\n        db.session.commit()\n',
    };
    const dir = project(files);
    const result = await runCli(['check', '.', '--format', 'json'], dir);
    const report = JSON.parse(result.stdout) as { diagnostics: { rule: string; file: string; message: string }[]; summary: { leftOut: number } };
    assert.deepEqual(report.diagnostics.map((f) => `${f.rule} ${f.file.replace(/\\/g, '/')}`).sort(), ['commit-per-row app/models.py', 'single-row-insert app/models.py']);
    assert.match(report.diagnostics.find((f) => f.rule === 'single-row-insert')!.message, /^One INSERT INTO ORDERS call per row/);
    // Without ibm-db-sa: nothing.
    writeFileSync(join(dir, 'requirements.txt'), 'Flask\nFlask-SQLAlchemy\npsycopg2\n');
    const without = await runCli(['check', '.', '--format', 'json'], dir);
    const none = JSON.parse(without.stdout) as { diagnostics: unknown[]; leftOut: { file: string; reason: string }[] };
    assert.deepEqual(none.diagnostics, []);
    // models.py is still read for its loop and its import of db (a data-access name: access.ts), with no finding.
    assert.deepEqual(none.leftOut.map((f) => f.file.replace(/\\/g, '/')).sort(), ['app/__init__.py']);
  });
});
