// SQLModel (FastAPI's ORM: SQLAlchemy's under other names) on Db2: its create_engine, Session and select, its
// Session.exec(select(…)) query, and its table models (`class Hero(SQLModel, table=True)`, table `hero`).
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { posOf, projectOnDisk } from './helpers';
import { lintPaths } from '../../server/src/cli/lint-run';

const HEROES = `from sqlmodel import Field, Session, SQLModel, create_engine, select


class Hero(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    name: str


engine = create_engine("db2+ibm_db://user:pw@host:50000/SAMPLE")


def load(names):
    with Session(engine) as session:
        for name in names:
            session.add(Hero(name=name))
            session.commit()


def load_new(names):
    with Session(engine) as session:
        for name in names:
            known = session.exec(select(Hero).where(Hero.name == name)).first()
            if known is None:
                session.add(Hero(name=name))
        session.commit()


def load_all(names):
    with Session(engine) as session:
        for name in names:
            session.add(Hero(name=name))
        session.commit()
`;

async function findings(text: string): Promise<{ at: string; message: string }[]> {
  const dir = projectOnDisk({ 'requirements.txt': 'fastapi\nsqlmodel\n', 'heroes.py': text }, 'insertlint-sqlmodel-');
  const run = await lintPaths({ paths: ['.'], cwd: dir });
  const path = join(dir, 'heroes.py');
  return run.diagnostics.filter((d) => d.file === path).map((d) => {
    const at = run.workspace.lines(path)!.position(d.span.start);
    return { at: `${d.rule}@${at.line + 1}:${at.column + 1}`, message: d.message };
  });
}

describe('code: Python (SQLModel)', () => {
  it('a commit per pass, and a session.exec(select(…)) lookup per pass that autoflushes the adds: reported on the table model\'s table', async () => {
    const got = await findings(HEROES);
    assert.deepEqual(got.map((f) => f.at), [
      `single-row-insert@${posOf(HEROES, 'session.add(')}`,
      `commit-per-row@${posOf(HEROES, 'session.commit()')}`,
      `single-row-insert@${posOf(HEROES, 'session.add(', 2)}`,
    ]);
    assert.match(got[0].message, /^One INSERT INTO HERO call per row in the for loop at line 14\./);
    assert.match(got[2].message, /session\.exec\(select\(Hero\)\.where\(Hero\.name == name\)\) runs on every pass, and a query first flushes what was added to its session \(SQLAlchemy's autoflush\)/);
  });

  it('silent: the lookups under no_autoflush, a session made with autoflush=False, a project not on Db2', async () => {
    const noAutoflush = HEROES.replace('            known = session.exec', '            with session.no_autoflush:\n                known = session.exec');
    const off = HEROES.replace(/Session\(engine\)/g, 'Session(engine, autoflush=False)');
    for (const text of [noAutoflush, off]) {
      assert.deepEqual((await findings(text)).map((f) => f.at).filter((a) => a.endsWith(posOf(text, 'session.add(', 2))), [], text);
    }
    const postgres = HEROES.replace('db2+ibm_db://user:pw@host:50000/SAMPLE', 'postgresql://user:pw@host/app');
    assert.deepEqual(await findings(postgres), []);
  });
});
