// The Rust linters measured beside InsertLint in the same run: squawk (PyPI squawk-cli, a PostgreSQL
// migration linter) and sqruff (PyPI sqruff, a sqlfluff rewrite). Both come as wheels with a native
// binary, installed once into bench/.work/venv. squawk reads PostgreSQL, so it gets a copy of the
// workload with PostgreSQL parameter markers ($1) and identity options; sqruff gets the Db2 text with
// `large_file_skip_byte_limit = 0` (otherwise it skips big files in no time and looks fast).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { basename, join } from 'node:path';
import { tmpdir } from 'node:os';

const SQRUFF_CONFIG = '[sqruff]\ndialect = db2\nlarge_file_skip_byte_limit = 0\n';

export const PEERS = {
  squawk: { pip: 'squawk-cli==2.70.0', bin: 'squawk' },
  sqruff: { pip: 'sqruff==0.44.0', bin: 'sqruff' },
};

/** Path of the peer's binary, installing it into the venv the first time; undefined when pip fails. */
export function peerBinary(work, name, log) {
  const venv = join(work, 'venv');
  const bin = join(venv, 'bin', PEERS[name].bin);
  if (existsSync(bin)) return bin;
  log(`installing ${PEERS[name].pip} into bench/.work/venv (once)…`);
  if (!existsSync(join(venv, 'bin/pip')) && spawnSync('python3', ['-m', 'venv', venv], { stdio: 'inherit' }).status !== 0) return undefined;
  const pip = spawnSync(join(venv, 'bin/pip'), ['install', '--quiet', PEERS[name].pip], { stdio: 'inherit' });
  return pip.status === 0 && existsSync(bin) ? bin : undefined;
}

/** A PostgreSQL-syntax copy of a Db2 workload for squawk (same statements and lines). */
export function postgresCopy(file) {
  const out = file.replace(/\.sql$/, '.pg.sql');
  if (!existsSync(out)) {
    // Only what squawk's parser needs to read the statements; line structure is kept.
    const text = readFileSync(file, 'utf8')
      .replace(/\?/g, '$1')
      .replace(/:\w+(?::\w+)?/g, '$1')
      .replace(/\bCURRENT (TIMESTAMP|DATE)\b/g, 'CURRENT_$1')
      .replace(/\bSET SCHEMA (\w+)/g, 'SET search_path TO $1')
      .replace(/\bWITH DEFAULT\b/g, 'DEFAULT')
      .replace(/\bNO CACHE\b/g, 'CACHE 1')
      .replace(/\bCLOB\(\d+[KMG]?\)( LOGGED)?( NOT COMPACT)?/g, 'TEXT')
      .replace(/\) IN \w+( INDEX IN \w+)?( ORGANIZE BY ROW)?;/g, ');')
      .replace(/ CLUSTER( PCTFREE \d+)?;/g, ';');
    writeFileSync(out, text);
  }
  return out;
}

/**
 * The workload cut into files of about `lines` lines, each ending at a line that ends a statement: sqruff
 * refuses a file of more than 100,000 parse nodes ("Maximum parse node count exceeded") and, with the
 * limit lifted, had not finished 200,000 lines after 8 minutes; real scripts are small files anyway.
 */
export function statementChunks(file, lines = 2000) {
  // Outside bench/.work: the CLI honours .gitignore when it walks a folder, and bench/.work is ignored.
  const dir = join(tmpdir(), `insertlint-bench-${basename(file, '.sql')}-chunks`);
  if (!existsSync(dir)) {
    mkdirSync(dir);
    writeFileSync(join(dir, '.sqruff'), SQRUFF_CONFIG);
    const all = readFileSync(file, 'utf8').split('\n');
    let part = 0;
    for (let start = 0; start < all.length; ) {
      let end = Math.min(all.length, start + lines);
      while (end < all.length && !/;\s*$/.test(all[end - 1])) end++;
      writeFileSync(join(dir, `part${String(part++).padStart(4, '0')}.sql`), all.slice(start, end).join('\n') + '\n');
      start = end;
    }
  }
  return dir;
}

/** Runs one peer on one file with the bench's `measure`; the version and the exit code come along. */
export function runPeer(name, bin, file, { work, measure }) {
  const version = spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim();
  let r;
  if (name === 'squawk') {
    r = measure(bin, ['--reporter', 'json', postgresCopy(file)], { stdoutFile: join(work, 'squawk.out.json') });
  } else {
    writeFileSync(join(work, '.sqruff'), SQRUFF_CONFIG);
    r = measure(bin, ['lint', '--format', 'json', statementChunks(file)], { cwd: work, stdoutFile: join(work, 'sqruff.out.json') });
  }
  return { name, version, seconds: r.seconds, rssMiB: r.rssMiB, code: r.code, error: r.error?.message };
}
