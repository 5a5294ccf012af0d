// A SQLAlchemy session the file does not make and does not name "session": FastAPI's `db: Session` parameter (the
// tutorial's crud.py), `db: Session = Depends(get_db)`, `Annotated[Session, Depends(get_db)]`, and `db =
// SessionLocal()` / `with SessionLocal() as db:` of a factory another module makes. Its adds, commits and queries are
// read as a session's (python-sqlalchemy-names.ts receivedSessionNames); other names called `db` are not.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { fastapiDatabase, posOf, projectOnDisk } from './helpers';
import { lintPaths } from '../../server/src/cli/lint-run';

const REQUIREMENTS = 'fastapi\nsqlalchemy>=2\nibm_db_sa\n';

const CRUD = `from typing import Annotated

from fastapi import Depends
from sqlalchemy.orm import Session

from . import models
from .database import SessionLocal, get_db


def create_items(db: Session, items):
    for item in items:
        db_item = models.Item(**item.dict())
        db.add(db_item)
        db.commit()
        db.refresh(db_item)


def import_rows(rows, db: Annotated[Session, Depends(get_db)]):
    for r in rows:
        existing = db.query(models.Item).filter(models.Item.ref == r.ref).first()
        if existing is None:
            db.add(models.Item(ref=r.ref))
    db.commit()


def nightly(rows):
    with SessionLocal() as db:
        for r in rows:
            db.add(models.Item(ref=r.ref))
            db.commit()


def batch(rows):
    db = SessionLocal()
    for r in rows:
        db.add(models.Item(ref=r.ref))
    db.commit()
`;

/** The findings of crud.py as `rule@line:column`. */
async function findings(files: Record<string, string>): Promise<string[]> {
  const dir = projectOnDisk(files, 'insertlint-received-session-');
  const run = await lintPaths({ paths: ['.'], cwd: dir });
  const path = join(dir, 'app/crud.py');
  return run.diagnostics.filter((d) => d.file === path).map((d) => {
    const at = run.workspace.lines(path)!.position(d.span.start);
    return `${d.rule}@${at.line + 1}:${at.column + 1}`;
  });
}

describe('code: Python (a SQLAlchemy session the file receives under another name)', () => {
  it('db: Session, Annotated[Session, Depends(get_db)], with SessionLocal() as db: adds, commits and autoflushing queries read as a session\'s', async () => {
    const got = await findings({ 'requirements.txt': REQUIREMENTS, 'app/__init__.py': '', 'app/database.py': fastapiDatabase(), 'app/crud.py': CRUD });
    assert.deepEqual(got, [
      `single-row-insert@${posOf(CRUD, 'db.add(db_item)')}`,
      `commit-per-row@${posOf(CRUD, 'db.commit()')}`,
      `single-row-insert@${posOf(CRUD, 'db.add(models.Item(ref=r.ref))')}`,
      `single-row-insert@${posOf(CRUD, 'db.add(models.Item(ref=r.ref))', 2)}`,
      `commit-per-row@${posOf(CRUD, 'db.commit()', 3)}`,
    ]);
    // With the project's factory turning autoflush off, the lookup loop goes together (its one finding was autoflush's).
    const off = await findings({ 'requirements.txt': REQUIREMENTS, 'app/__init__.py': '', 'app/database.py': fastapiDatabase(false), 'app/crud.py': CRUD });
    assert.deepEqual(off, got.filter((f) => f !== `single-row-insert@${posOf(CRUD, 'db.add(models.Item(ref=r.ref))')}`));
  });

  it('not a session: a db annotated otherwise or not at all, a factory of another kind, a db made by the file from no import', async () => {
    const other = `from sqlalchemy.orm import Session
from .clients import make_client


def load(db: dict, rows):
    for r in rows:
        db.add(r)
        db.commit()


def load2(db, rows):
    for r in rows:
        db.add(r)
        db.commit()


def load3(rows):
    db = make_client()
    for r in rows:
        db.add(r)
        db.commit()
`;
    assert.deepEqual(await findings({ 'requirements.txt': REQUIREMENTS, 'app/database.py': fastapiDatabase(), 'app/crud.py': other }), []);
  });

  it('a name received as a session in one function is not a session in another function that binds it otherwise', async () => {
    const mixed = `from sqlalchemy.orm import Session

from . import models
from .clients import Database, mongo_client, sqlite_connect

client = mongo_client()


def create_items(db: Session, items):
    for item in items:
        db.add(models.Item(**item))
        db.commit()


def archive(rows):
    db = client["orders"]
    for r in rows:
        existing = db.query(models.Item).filter_by(ref=r.ref).first()
        db.add(models.Item(ref=r.ref))
        db.commit()


def local_copy(rows):
    db = sqlite_connect("cache.db")
    for r in rows:
        db.add(models.Item(ref=r.ref))
        db.commit()


def legacy(db: Database, rows):
    for r in rows:
        db.add(models.Item(ref=r.ref))
        db.commit()


def unbound(rows):
    for r in rows:
        db.add(models.Item(ref=r.ref))
        db.commit()


def nested(db: Session, rows):
    def save(r):
        db.add(models.Item(ref=r.ref))
        db.commit()
    for r in rows:
        save(r)
`;
    const files = { 'requirements.txt': REQUIREMENTS, 'app/__init__.py': '', 'app/database.py': fastapiDatabase(), 'app/crud.py': mixed };
    // Only the functions whose db is the received session (and the def nested in one, which reads it) are reported.
    assert.deepEqual(await findings(files), [
      `single-row-insert@${posOf(mixed, 'db.add(models.Item(**item))')}`,
      `commit-per-row@${posOf(mixed, 'db.commit()')}`,
      `single-row-insert@${posOf(mixed, 'db.add(models.Item(ref=r.ref))', 5)}`,
    ]);
  });

  it('a session made at module level is one in every function that does not bind the name itself', async () => {
    const module = `from sqlalchemy import select

from . import models
from .database import SessionLocal

db = SessionLocal()


def load(rows):
    for r in rows:
        db.add(models.Item(ref=r.ref))
        db.commit()


def other(rows, db):
    for r in rows:
        db.add(models.Item(ref=r.ref))
        db.commit()


def rebinds(rows):
    global db
    db = SessionLocal()
    for r in rows:
        db.add(models.Item(ref=r.ref))
        db.commit()
`;
    const files = { 'requirements.txt': REQUIREMENTS, 'app/__init__.py': '', 'app/database.py': fastapiDatabase(), 'app/crud.py': module };
    assert.deepEqual(await findings(files), [
      `single-row-insert@${posOf(module, 'db.add(models.Item(ref=r.ref))')}`,
      `commit-per-row@${posOf(module, 'db.commit()')}`,
      `single-row-insert@${posOf(module, 'db.add(models.Item(ref=r.ref))', 3)}`,
      `commit-per-row@${posOf(module, 'db.commit()', 3)}`,
    ]);
  });
});
