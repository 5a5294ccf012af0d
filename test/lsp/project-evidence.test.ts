// The project evidence that SQLAlchemy runs on Db2 (ibm_db_sa among the requirements, a Db2 URL in .env or config):
// the language server looks for it after indexing and when a watched requirements, configuration or Python file
// changes, and a SQLAlchemy module that names no driver is read, or left out again, as it appears or goes.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempWorkspace, uriOf } from './harness';

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
