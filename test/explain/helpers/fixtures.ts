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
