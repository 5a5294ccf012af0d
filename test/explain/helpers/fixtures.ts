import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repository root, found from the bundled test's location (out/test/explain/…). */
export function repoRoot(): string {
  let dir = __dirname;
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'test', 'fixtures'))) return dir;
    dir = dirname(dir);
  }
  return process.cwd();
}

export function fixture(name: string): string {
  return readFileSync(join(repoRoot(), 'test', 'fixtures', 'exfmt', name), 'utf8');
}

/** The Database and Package Context of insert-fk-trigger-mqt.exfmt.txt (and its .v121 copy), as the head reads them. */
export const INSERT_FK_TRIGGER_MQT_CONTEXT = {
  Parallelism: 'None',
  'CPU Speed': '3.83e-07',
  'Comm Speed': '100',
  'Buffer Pool size': '6250',
  'SQL Type': 'Dynamic',
  'Optimization Level': '5',
  Blocking: 'Block All Cursors',
  'Isolation Level': 'Cursor Stability',
};
