// SQLAlchemy's autoflush as a project's session factories set it (cli/project-evidence.ts sqlalchemyEvidence): the
// FastAPI layout builds SessionLocal = sessionmaker(autoflush=False, …) in database.py (db/session.py, core/db.py …)
// and its crud module's loops get the session as a parameter, by Depends(get_db) or from SessionLocal(): they do not
// autoflush when every factory of the project turns it off, and do when one leaves it on (SQLAlchemy's default).
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FASTAPI_CRUD, fastapiDatabase, posOf, projectOnDisk } from './helpers';
import { lintPaths } from '../../server/src/cli/lint-run';
import { sqlalchemyEvidence } from '../../server/src/cli/evidence-python';
import { sessionFactoriesIn } from '../../server/src/code/sqlalchemy-sessions';
import { runCli } from '../ci/repo';

const project = (files: Record<string, string>): string => projectOnDisk(files, 'insertlint-autoflush-');

const REQUIREMENTS = 'fastapi\nsqlalchemy>=2\nibm_db_sa\n';

/** The autoflush findings (single-row-insert naming SQLAlchemy's autoflush) of one file of a run, as `line:column`. */
async function autoflushFindings(dir: string, file: string, paths: string[] = ['.']): Promise<string[]> {
  const run = await lintPaths({ paths, cwd: dir });
  const path = join(dir, file);
  return run.diagnostics.filter((d) => d.file === path && d.rule === 'single-row-insert' && /SQLAlchemy's autoflush/.test(d.message))
    .map((d) => {
      const at = run.workspace.lines(path)!.position(d.span.start);
      return `${at.line + 1}:${at.column + 1}`;
    });
}

/** Where FASTAPI_CRUD's three loops add (the findings when the sessions autoflush). */
const CRUD_ADDS = [posOf(FASTAPI_CRUD, 'session.add('), posOf(FASTAPI_CRUD, 'db_session.add('), posOf(FASTAPI_CRUD, 'session.add(', 3)];

describe('code: Python (SQLAlchemy autoflush as the project builds its sessions)', () => {
  it('database.py builds SessionLocal with autoflush=False: the crud module\'s loops (a parameter, Depends(get_db), SessionLocal()) are not reported', async () => {
    const dir = project({ 'requirements.txt': REQUIREMENTS, 'app/__init__.py': '', 'app/database.py': fastapiDatabase(false), 'app/crud.py': FASTAPI_CRUD });
    assert.deepEqual(await autoflushFindings(dir, 'app/crud.py'), []);
    // The crud module linted alone: database.py read on disk (a session module beside it).
    assert.deepEqual(await autoflushFindings(dir, 'app/crud.py', ['app/crud.py']), []);
  });

  it('SessionLocal with autoflush left on (the keyword absent, or True): the loops stay reported', async () => {
    for (const autoflush of [undefined, true]) {
      const dir = project({ 'requirements.txt': REQUIREMENTS, 'app/database.py': fastapiDatabase(autoflush), 'app/crud.py': FASTAPI_CRUD });
      assert.deepEqual(await autoflushFindings(dir, 'app/crud.py'), CRUD_ADDS, String(autoflush));
      assert.deepEqual(await autoflushFindings(dir, 'app/crud.py', ['app/crud.py']), CRUD_ADDS, String(autoflush));
    }
  });

  it('no session factory found in the project: the loops stay reported (SQLAlchemy\'s default)', async () => {
    const dir = project({ 'requirements.txt': REQUIREMENTS, 'app/crud.py': FASTAPI_CRUD });
    assert.deepEqual(await autoflushFindings(dir, 'app/crud.py'), CRUD_ADDS);
  });

  it('a module that builds its own Session with autoflush on: its loop stays reported, and the project\'s sessions are taken to autoflush', async () => {
    const own = `from sqlalchemy.orm import Session
from app import models
from app.database import engine


def load(rows):
    with Session(engine) as session:
        for row in rows:
            customer = session.query(models.Customer).filter_by(code=row.code).first()
            session.add(models.Order(id=row.id, customer_id=customer.id))
        session.commit()
`;
    const dir = project({ 'requirements.txt': REQUIREMENTS, 'app/database.py': fastapiDatabase(false), 'app/crud.py': FASTAPI_CRUD, 'jobs/load.py': own });
    assert.deepEqual(await autoflushFindings(dir, 'jobs/load.py'), [posOf(own, 'session.add(')]);
    assert.deepEqual(await autoflushFindings(dir, 'app/crud.py'), CRUD_ADDS);
    // Session(engine, autoflush=False) there: every session of the project is built so, none is reported.
    writeFileSync(join(dir, 'jobs/load.py'), own.replace('Session(engine)', 'Session(engine, autoflush=False)'));
    assert.deepEqual(await autoflushFindings(dir, 'jobs/load.py'), []);
    assert.deepEqual(await autoflushFindings(dir, 'app/crud.py'), []);
  });

  it('the full-stack layout (app/db/session.py, app/crud/…) linted file by file, and a nested project that builds its own', async () => {
    const crud = FASTAPI_CRUD.replace('from . import models\nfrom .database import SessionLocal, get_db', 'from app import models\nfrom app.db.session import SessionLocal, get_db');
    const dir = project({
      'pyproject.toml': '[project]\nname = "app"\ndependencies = ["sqlalchemy", "ibm-db-sa"]\n',
      'app/db/session.py': fastapiDatabase(false),
      'app/crud/crud_order.py': crud,
      'tools/requirements.txt': REQUIREMENTS,
      'tools/export.py': crud.replace('from app.db.session import SessionLocal, get_db', 'from sqlalchemy.orm import sessionmaker\nSessionLocal = sessionmaker()\nget_db = None'),
    });
    assert.deepEqual(await autoflushFindings(dir, 'app/crud/crud_order.py', ['app/crud/crud_order.py']), []);
    const found = sqlalchemyEvidence([{ path: join(dir, 'app/crud/crud_order.py'), text: crud }, { path: join(dir, 'tools/export.py'), text: 'from sqlalchemy.orm import sessionmaker\nSessionLocal = sessionmaker()\n' }]);
    assert.deepEqual([...found.autoflush].map(([top, a]) => [top, a.off, a.why]).sort(), [
      [dir, true, `sessionmaker(autocommit=False, autoflush=False, bind=engine) (${join(dir, 'app', 'db', 'session.py')})`],
      [join(dir, 'tools'), false, `sessionmaker() (${join(dir, 'tools', 'export.py')})`],
    ]);
    // tools/ is a project of its own, whose factory leaves autoflush on.
    const tools = await autoflushFindings(dir, 'tools/export.py');
    assert.equal(tools.length, 3);
  });

  it('Flask-SQLAlchemy built in app/__init__.py with session_options={"autoflush": False}: a models module\'s Model.query in a loop is not reported', async () => {
    const models = `from app import db


class Customer(db.Model):
    __tablename__ = "customers"
    id = db.Column(db.Integer, primary_key=True)
    code = db.Column(db.String(10))


class Order(db.Model):
    __tablename__ = "orders"
    id = db.Column(db.Integer, primary_key=True)


def save_orders(rows):
    for r in rows:
        customer = Customer.query.filter_by(code=r.code).first()
        db.session.add(Order(id=r.id))
    db.session.commit()
`;
    const init = (options: string) => `from flask import Flask\nfrom flask_sqlalchemy import SQLAlchemy\n\ndb = SQLAlchemy(${options})\n\ndef create_app():\n    app = Flask(__name__)\n    db.init_app(app)\n    return app\n`;
    const dir = project({ 'requirements.txt': 'flask-sqlalchemy\nibm_db_sa\n', 'app/__init__.py': init('session_options={"autoflush": False}'), 'app/models.py': models });
    assert.deepEqual(await autoflushFindings(dir, 'app/models.py'), []);
    writeFileSync(join(dir, 'app/__init__.py'), init(''));
    assert.deepEqual(await autoflushFindings(dir, 'app/models.py'), [posOf(models, 'db.session.add(')]);
  });

  it('SessionLocal.configure(autoflush=False) in another module of the project counts as the factory\'s own; autoflush=True turns it back on', async () => {
    const main = (flag: string) => `from fastapi import FastAPI\n\nfrom .database import SessionLocal\n\nSessionLocal.configure(autoflush=${flag})\napp = FastAPI()\n`;
    // The factory leaves autoflush on in database.py; main.py configures it off: the crud module's loops go together.
    const dir = project({ 'requirements.txt': REQUIREMENTS, 'app/__init__.py': '', 'app/database.py': fastapiDatabase(), 'app/main.py': main('False'), 'app/crud.py': FASTAPI_CRUD });
    assert.deepEqual(await autoflushFindings(dir, 'app/crud.py'), []);
    // The crud module linted alone: main.py read on disk.
    assert.deepEqual(await autoflushFindings(dir, 'app/crud.py', ['app/crud.py']), []);
    const found = sqlalchemyEvidence([{ path: join(dir, 'app/crud.py'), text: FASTAPI_CRUD }]);
    assert.deepEqual([...found.autoflush].map(([top, a]) => [top, a.off, a.why]), [
      [dir, true, `sessionmaker(autocommit=False, bind=engine) with SessionLocal.configure(autoflush=False) in ${join(dir, 'app', 'main.py')} (${join(dir, 'app', 'database.py')})`],
    ]);
    // A factory made with autoflush=False, configured back on elsewhere: the loops stay reported.
    writeFileSync(join(dir, 'app/database.py'), fastapiDatabase(false));
    writeFileSync(join(dir, 'app/main.py'), main('True'));
    assert.deepEqual(await autoflushFindings(dir, 'app/crud.py'), CRUD_ADDS);
    assert.deepEqual(await autoflushFindings(dir, 'app/crud.py', ['app/crud.py']), CRUD_ADDS);
    // The same in the factory's own module: configure(autoflush=True) after sessionmaker(autoflush=False).
    writeFileSync(join(dir, 'app/main.py'), 'app = None\n');
    writeFileSync(join(dir, 'app/database.py'), `${fastapiDatabase(false)}\nSessionLocal.configure(autoflush=True)\n`);
    assert.deepEqual(await autoflushFindings(dir, 'app/crud.py'), CRUD_ADDS);
    // A configure of another name, or without autoflush, changes nothing.
    writeFileSync(join(dir, 'app/database.py'), fastapiDatabase());
    writeFileSync(join(dir, 'app/main.py'), main('False').replace('SessionLocal.configure', 'OtherSession.configure'));
    assert.deepEqual(await autoflushFindings(dir, 'app/crud.py'), CRUD_ADDS);
    writeFileSync(join(dir, 'app/main.py'), main('False').replace('autoflush=False', 'expire_on_commit=False'));
    assert.deepEqual(await autoflushFindings(dir, 'app/crud.py'), CRUD_ADDS);
  });

  it('insertlint check: the same findings as the run', async () => {
    const dir = project({ 'requirements.txt': REQUIREMENTS, 'app/database.py': fastapiDatabase(false), 'app/crud.py': FASTAPI_CRUD });
    const rules = async () => (JSON.parse((await runCli(['check', '.', '--format', 'json'], dir)).stdout) as { diagnostics: { rule: string }[] }).diagnostics.map((d) => d.rule);
    assert.deepEqual(await rules(), []);
    writeFileSync(join(dir, 'app/database.py'), fastapiDatabase());
    assert.deepEqual(await rules(), ['single-row-insert', 'single-row-insert', 'single-row-insert']);
  });

  it('the session factories a text builds (sessionFactoriesIn)', () => {
    const orm = 'from sqlalchemy.orm import Session, sessionmaker, scoped_session\n';
    assert.deepEqual(sessionFactoriesIn(`${orm}S = scoped_session(sessionmaker(bind=engine, autoflush=False))\n`), { off: 'sessionmaker(bind=engine, autoflush=False)', made: [{ name: 'S', off: true, written: 'sessionmaker(bind=engine, autoflush=False)' }] });
    assert.deepEqual(sessionFactoriesIn(`${orm}S = sessionmaker(bind=engine)\nT = sessionmaker(autoflush=False)\n`), {
      on: 'sessionmaker(bind=engine)',
      off: 'sessionmaker(autoflush=False)',
      made: [{ name: 'S', off: false, written: 'sessionmaker(bind=engine)' }, { name: 'T', off: true, written: 'sessionmaker(autoflush=False)' }],
    });
    // A commented-out factory, another library's Session, a Session annotation: none.
    assert.equal(sessionFactoriesIn(`${orm}# S = sessionmaker(bind=engine)\nhttp = requests.Session()\ndef f(db: Session = Depends(get_db)): pass\n`), undefined);
    // A Session imported from elsewhere is not SQLAlchemy's.
    assert.equal(sessionFactoriesIn('from sqlalchemy import select\nfrom requests import Session\ns = Session()\n'), undefined);
    // SessionLocal.configure(autoflush=False): the file's factories off.
    assert.deepEqual(sessionFactoriesIn(`${orm}SessionLocal = sessionmaker()\nSessionLocal.configure(bind=engine, autoflush=False)\n`), {
      off: 'sessionmaker() with .configure(bind=engine, autoflush=False',
      made: [{ name: 'SessionLocal', off: true, written: 'sessionmaker() with .configure(bind=engine, autoflush=False' }],
      configures: new Map([['SessionLocal', { off: true, written: 'SessionLocal.configure(bind=engine, autoflush=False)' }]]),
    });
    // A module that only configures a factory it imports: its configure calls (a commented-out one not).
    assert.deepEqual(sessionFactoriesIn('from app.database import SessionLocal\n# SessionLocal.configure(autoflush=True)\ndatabase.SessionLocal.configure(autoflush=False)\n'), {
      configures: new Map([['SessionLocal', { off: true, written: 'database.SessionLocal.configure(autoflush=False)' }]]),
    });
    assert.deepEqual(sessionFactoriesIn('from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker\nA = async_sessionmaker(engine, expire_on_commit=False)\n'), {
      on: 'async_sessionmaker(engine, expire_on_commit=False)',
      made: [{ name: 'A', off: false, written: 'async_sessionmaker(engine, expire_on_commit=False)' }],
    });
  });
});
