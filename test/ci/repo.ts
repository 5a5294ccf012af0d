// Real git repositories in a temp folder for the CI tests, and a way to run the CLI in them.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, renameSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { main } from '../../server/src/cli/main';
import type { CliIo } from '../../server/src/cli/args';
import { RULES } from '../../server/src/engine/registry';

// A test run from inside a git hook inherits these; they would point every git call at the outer repository.
for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_COMMON_DIR', 'GIT_PREFIX']) delete process.env[name];

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'InsertLint Test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'InsertLint Test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
};

export class Repo {
  readonly dir: string;

  constructor(dir?: string) {
    this.dir = dir ?? mkdtempSync(join(tmpdir(), 'insertlint-ci-'));
    if (!dir) this.git('init', '-q', '-b', 'main');
  }

  git(...args: string[]): string {
    return execFileSync('git', ['-c', 'commit.gpgsign=false', '-c', 'core.autocrlf=false', ...args], { cwd: this.dir, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  }

  write(path: string, text: string): this {
    const full = join(this.dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
    return this;
  }

  move(from: string, to: string): this {
    mkdirSync(dirname(join(this.dir, to)), { recursive: true });
    renameSync(join(this.dir, from), join(this.dir, to));
    return this;
  }

  remove(path: string): this {
    unlinkSync(join(this.dir, path));
    return this;
  }

  /** Stages everything and commits; returns the commit SHA. */
  commit(message: string): string {
    this.git('add', '-A');
    this.git('commit', '-q', '--allow-empty', '-m', message);
    return this.git('rev-parse', 'HEAD').trim();
  }

  /** A clone of this repository through file:// (so --depth is honoured). */
  clone(depth?: number): Repo {
    const target = mkdtempSync(join(tmpdir(), 'insertlint-clone-'));
    execFileSync('git', ['clone', '-q', ...(depth ? ['--depth', String(depth)] : []), `file://${this.dir}`, target], { env: GIT_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    return new Repo(target);
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(argv: string[], cwd: string): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (s) => {
      stdout += s;
    },
    stderr: (s) => {
      stderr += s;
    },
    stdin: async () => '',
    cwd,
    isTTY: false,
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

/** A table with an IDENTITY column (cache given) that the script inserts into: identity-cache flags NO CACHE. */
export function ordersDdl(cache: string): string {
  return [
    'CREATE TABLE app.orders (',
    `  id INTEGER GENERATED ALWAYS AS IDENTITY (START WITH 1 ${cache}),`,
    '  cust INTEGER NOT NULL,',
    '  PRIMARY KEY (id)',
    ');',
    '',
  ].join('\n');
}

/**
 * An .insertlintrc.json that turns every rule off except the given ones, at severity warning, so tests do not
 * move when rules are added or their default severities change. Its bulkRowThreshold of 1 makes the one
 * INSERT of the fixtures a bulk load, as the tests of the CI plumbing need findings to move around. The fixtures
 * bind the value (`VALUES (?)`): one literal row would be a known volume, and its findings information.
 */
export function onlyRules(keep: string[]): string {
  return JSON.stringify({ bulkRowThreshold: 1, rules: Object.fromEntries(RULES.map((r) => [r.rule.meta.id, keep.includes(r.rule.meta.id) ? 'warning' : 'off'])) }, null, 2) + '\n';
}
