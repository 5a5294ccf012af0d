// What a save costs the language server's main thread in the project-evidence look (issue 15: the editor stays
// instant): DiskFiles.watchedFilesChanged for one saved Python file, one saved JavaScript file and one saved
// requirements.txt (its text unchanged: the look's answer stays the same), in a generated
// workspace of ~6,000 Python/JS files in 10 projects (requirements.txt, .env, package.json, config/config.json …),
// after the index's look. The workspace holds the files' texts as the index leaves them (no front end: the look
// reads only the texts); the saved files' SQLAlchemy / Sequelize use does not change. Wall time, median of many
// saves; compare builds by alternating runs (2 cores, noisy).
// Usage: node bench/bundle.mjs bench/evidence-save.ts bench/.work/evidence-save.cjs && node bench/.work/evidence-save.cjs [SAVES]
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Connection } from 'vscode-languageserver/node';
import { ServerState } from '../server/src/lsp/server-state';
import { DiskFiles } from '../server/src/lsp/disk-files';
import type { Diagnostics } from '../server/src/lsp/diagnostics';
import type { Configuration } from '../server/src/lsp/configuration';
import { Workspace } from '../server/src/engine/workspace';
import { resolveConfig } from '../server/src/engine/config';
import { RULES } from '../server/src/engine/registry';

const SAVES = Number(process.argv[2]) || 200;
const root = resolve(__dirname, 'evidence-ws');

const PY_USER = (i: number) => `from sqlalchemy.orm import Session\nfrom models import Order, engine\n\ndef load${i}(rows):\n    with Session(engine) as session:\n        for r in rows:\n            session.add(Order(id=r))\n            session.commit()\n`.repeat(8);
const PY_OTHER = (i: number) => `import ibm_db\n\ndef load${i}(conn, rows):\n    stmt = ibm_db.prepare(conn, "INSERT INTO T (A) VALUES (?)")\n    for r in rows:\n        ibm_db.execute(stmt, (r,))\n`.repeat(8);
const JS_USER = (i: number) => `const { Order } = require('../models');\n\nasync function f${i}(rows) {\n  for (const r of rows) {\n    await Order.create(r);\n  }\n}\n`.repeat(8);
const JS_OTHER = (i: number) => `const db = require('ibm_db');\n\nfunction g${i}(conn, rows) {\n  for (const r of rows) conn.querySync('INSERT INTO T (A) VALUES (?)', [r]);\n}\n`.repeat(8);

/** 10 projects × 30 folders × (10 .py + 10 .js): 6,000 files; a third of each use SQLAlchemy / Sequelize models. */
function generate(): string[] {
  const files: string[] = [];
  const write = (path: string, text: string) => {
    if (!existsSync(path)) writeFileSync(path, text);
  };
  for (let p = 0; p < 10; p++) {
    const top = join(root, `project${p}`);
    mkdirSync(join(top, 'config'), { recursive: true });
    write(join(top, 'requirements.txt'), p % 2 === 0 ? 'SQLAlchemy>=2\nibm_db_sa\n' : 'SQLAlchemy>=2\n');
    write(join(top, '.env'), p % 3 === 0 ? 'DATABASE_URL=db2+ibm_db://u:p@host:50000/SAMPLE\n' : 'DEBUG=1\n');
    write(join(top, 'package.json'), JSON.stringify({ name: `p${p}`, dependencies: { sequelize: '^6', ...(p % 2 ? { ibm_db: '^3' } : { pg: '^8' }) } }));
    write(join(top, 'config', 'config.json'), JSON.stringify({ development: { dialect: p % 2 ? 'db2' : 'postgres' } }));
    for (let d = 0; d < 30; d++) {
      const dir = join(top, 'src', `pkg${d % 5}`, `mod${d}`);
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 10; f++) {
        const i = (p * 30 + d) * 10 + f;
        const py = join(dir, `m${f}.py`);
        const js = join(dir, `s${f}.js`);
        write(py, f % 3 === 0 ? PY_USER(i) : PY_OTHER(i));
        write(js, f % 3 === 0 ? JS_USER(i) : JS_OTHER(i));
        files.push(py, js);
      }
    }
  }
  return files;
}

const files = generate();
const quiet = { info() {}, warn() {}, error() {}, log() {} };
const state = new ServerState({ console: quiet } as unknown as Connection, RULES);
state.folders = [root];
state.config = resolveConfig(RULES.map((r) => r.rule));
state.workspace = new Workspace(state.config, [], RULES);
let dirty = 0;
const diagnostics = { markDirty: (paths: string[]) => (dirty += paths.length), notices: { read() {}, forget() {} }, publishEmpty() {}, markDependentsDirty() {} } as unknown as Diagnostics;
const disk = new DiskFiles(state, diagnostics, {} as Configuration);
let started = performance.now();
for (const path of files) disk.readFromDisk(path);
const indexMs = performance.now() - started;
started = performance.now();
disk.refreshProjectEvidence();
const firstLookMs = performance.now() - started;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
const saved = { py: files[0], js: files[1], requirements: join(root, 'project0', 'requirements.txt') };
const times: Record<string, number[]> = { py: [], js: [], requirements: [], look: [] };
for (let i = 0; i < SAVES; i++) {
  for (const kind of ['py', 'js', 'requirements'] as const) {
    const t = performance.now();
    disk.watchedFilesChanged([{ uri: pathToFileURL(saved[kind]).toString(), type: 2 }]);
    times[kind].push(performance.now() - t);
  }
  const t = performance.now();
  disk.refreshProjectEvidence();
  times.look.push(performance.now() - t);
}
const show = (xs: number[]) => `median ${median(xs).toFixed(2)} ms, p95 ${p95(xs).toFixed(2)} ms`;
console.log(`${files.length} files in the workspace (${state.workspace.paths().length} held), read in ${indexMs.toFixed(0)} ms; the index's look ${firstLookMs.toFixed(1)} ms`);
console.log(`save of a .py file: ${show(times.py)}`);
console.log(`save of a .js file: ${show(times.js)}`);
console.log(`save of a requirements.txt: ${show(times.requirements)}`);
console.log(`refreshProjectEvidence alone: ${show(times.look)}`);
