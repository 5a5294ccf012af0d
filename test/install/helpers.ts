// Shared by the install tests: the repository root, running commands, and the README's "Use it in CI" lines
// (the tests run what the README shows, so the two cannot drift apart).
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const ROOT = join(__dirname, '..', '..', '..');

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion; never throws on a non-zero exit (the caller asserts on `code`). */
export function run(cmd: string, args: string[], options: SpawnSyncOptions & { input?: string } = {}): Ran {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (r.error) throw r.error;
  return { code: r.status ?? 128, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
}

/** Environment for child processes: no git variables from an outer hook, a fixed git identity, quiet npm. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // `npm test` hands its own settings (prefix, lifecycle, package) to children as npm_* variables; the npm
  // runs under test must start as a user's would, keeping only where packages come from.
  const keep = /^npm_config_(registry|cache|proxy|https_proxy|noproxy|strict_ssl|cafile|ca)$/i;
  for (const name of Object.keys(env)) if ((/^(GIT_|npm_|PRE_COMMIT)/i.test(name) && !keep.test(name)) || name === 'INIT_CWD') delete env[name];
  return {
    ...env,
    GIT_AUTHOR_NAME: 'InsertLint Test',
    GIT_AUTHOR_EMAIL: 'test@example.invalid',
    GIT_COMMITTER_NAME: 'InsertLint Test',
    GIT_COMMITTER_EMAIL: 'test@example.invalid',
    GIT_CONFIG_NOSYSTEM: '1',
    // No user or system git config: a global core.hooksPath would make `pre-commit install` refuse.
    GIT_CONFIG_GLOBAL: '/dev/null',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

/** The fenced code blocks of the README's "Use it in CI" section, in order, with their info string. */
export function readmeCiBlocks(): { lang: string; text: string }[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Use it in CI\n');
  if (start < 0) throw new Error('README.md has no "## Use it in CI" section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], text: m[2] }));
}

/**
 * A copy of the files git tracks in this checkout, as they are on disk: what a clone at this commit holds
 * (plus uncommitted edits, so the tests see the work in progress). No node_modules, no out/.
 */
export function trackedCopy(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const files = run('git', ['ls-files', '-z'], { cwd: ROOT, env: childEnv() }).stdout.split('\0').filter(Boolean);
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    try {
      copyFileSync(join(ROOT, file), join(dir, file));
    } catch {
      // Deleted in the work tree but not yet in git: a clone of the work in progress would not have it.
    }
  }
  return dir;
}
