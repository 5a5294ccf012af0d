// Pathological files through the real CLI (`insertlint check`, in process): huge files, a 5 MB line,
// 100,000 nested parentheses, unterminated strings/comments/blocks, NUL bytes, invalid UTF-8, UTF-16
// with a BOM, CRLF/CR/mixed line endings. Each gets a clear message or correct findings, never a crash
// (exit 3), a hang or output that grows with the line length. Inputs are generated here at run time.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, existsSync, readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { constants as bufferConstants } from 'node:buffer';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../server/src/cli/main';
import fc from 'fast-check';
import { decodeSource } from '../../server/src/cli/files';
import { LineIndex } from '../../server/src/engine/lines';
import { fixture, repoRoot } from './support';
import { TD_AT_ROUTINE_SCRIPT } from '../helpers/scripts';

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

async function check(cwd: string, args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(['check', ...args], {
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
    stdin: async () => '',
    cwd,
    isTTY: false,
  });
  return { code, stdout, stderr };
}

interface JsonDiagnostic {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  rule: string;
  severity: string;
  message: string;
}

async function checkJson(cwd: string, args: string[]): Promise<{ code: number; stderr: string; summary: Record<string, number>; diagnostics: JsonDiagnostic[] }> {
  const r = await check(cwd, ['--format', 'json', ...args]);
  assert.ok(r.code === 0 || r.code === 1, `exit ${r.code}: ${r.stderr.slice(0, 2000)}`);
  return { code: r.code, stderr: r.stderr, ...JSON.parse(r.stdout) };
}

const positions = (ds: JsonDiagnostic[]) => ds.map((d) => `${d.rule} ${d.line}:${d.column}-${d.endLine}:${d.endColumn}`);

describe('robustness: pathological files through insertlint check', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'insertlint-robust-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('skips a 50 MB file with a message naming the limit, and lints the files beside it', async () => {
    writeFileSync(join(dir, 'huge.sql'), Buffer.alloc(50 * 2 ** 20, 'INSERT INTO T VALUES (1);\n'));
    writeFileSync(join(dir, 'small.sql'), 'COMMIT;\n');
    const r = await checkJson(dir, ['.']);
    assert.match(r.stderr, /skipped huge\.sql: it is 50\.0 MB, over the 20\.0 MB limit \(maxFileBytes\)/);
    assert.equal(r.summary.files, 1);
    assert.equal(r.summary.skipped, 1);
  });

  it('honours a lower maxFileBytes from the configuration', async () => {
    writeFileSync(join(dir, '.insertlintrc.json'), JSON.stringify({ maxFileBytes: 1000 }));
    writeFileSync(join(dir, 'two-kb.sql'), 'COMMIT;\n'.repeat(256));
    // A readable file beside it: a run that lints nothing at all exits 2.
    writeFileSync(join(dir, 'ok.sql'), 'COMMIT;\n');
    const r = await checkJson(dir, ['.']);
    assert.match(r.stderr, /skipped two-kb\.sql: it is 2\.0 KB, over the 1000 bytes limit \(maxFileBytes\)/);
  });

  it('lints a 5 MB single line, with findings positioned on line 1 and a code frame that does not print the line', async () => {
    const rows = Array.from({ length: 330_000 }, (_, i) => `(${i}, 'v${i}')`).join(',');
    const text = `CREATE TABLE T (ID INT NOT NULL GENERATED ALWAYS AS IDENTITY (NO CACHE), A INT, B VARCHAR(20)); INSERT INTO T (A, B) VALUES ${rows}; INSERT INTO T (A, B) VALUES (1, 'x');`;
    assert.ok(text.length > 5_000_000);
    writeFileSync(join(dir, 'one-line.sql'), text);
    const json = await checkJson(dir, ['one-line.sql']);
    assert.equal(json.summary.statements, 3);
    assert.equal(json.summary.parseErrors, 0);
    assert.ok(json.diagnostics.length > 0);
    for (const d of json.diagnostics) assert.ok(d.line === 1 && d.column >= 1 && d.column <= text.length + 1, JSON.stringify(d));
    const textOut = await check(dir, ['one-line.sql']);
    assert.ok(textOut.stdout.length < 2_000 * json.diagnostics.length + 1_000, `text output of ${textOut.stdout.length} chars for ${json.diagnostics.length} findings`);
  });

  it('finds the same things at the same places in a script whose lines end in a lone CR as in one ending in LF', async () => {
    // Line ends of classic Mac OS: the terminator scan and CLP line commands end lines at LF only, so a script run
    // with -td@ was read as one line, its @ missed, and its routines' loops lost (bench/fuzz-cli.mjs --same cr).
    const script = TD_AT_ROUTINE_SCRIPT;
    writeFileSync(join(dir, 'lf.db2'), script);
    writeFileSync(join(dir, 'cr.db2'), script.replace(/\n/g, '\r'));
    const json = await checkJson(dir, ['lf.db2', 'cr.db2']);
    const where = (file: string) => positions(json.diagnostics.filter((d) => d.file.endsWith(file))).sort();
    assert.ok(where('lf.db2').some((w) => w.startsWith('single-row-insert 7:')), where('lf.db2').join(', '));
    assert.deepEqual(where('cr.db2'), where('lf.db2'));
  });

  it('reads 100,000 nested parentheses without a stack overflow', async () => {
    const deep = '('.repeat(100_000) + '1' + ')'.repeat(100_000);
    writeFileSync(join(dir, 'nested.sql'), `SELECT ${deep} FROM T;\nINSERT INTO T VALUES (${deep});\nINSERT INTO T VALUES ${'('.repeat(100_000)};\nCOMMIT;\n`);
    const r = await checkJson(dir, ['nested.sql']);
    assert.equal(r.summary.statements, 4);
  });

  for (const [name, text, expected] of [
    ['string', "INSERT INTO T VALUES ('abc;\nCOMMIT;\n", /Unterminated string literal at end of input/],
    ['comment', 'COMMIT;\n/* never closed\nINSERT INTO T VALUES (1);\n', /Unterminated comment at end of input/],
    ['delimited identifier', 'INSERT INTO "T VALUES (1);\n', /Unterminated delimited identifier/],
    ['BEGIN block', 'CREATE PROCEDURE P\nBEGIN\n  INSERT INTO T VALUES (1);\n  IF 1=1 THEN\n    COMMIT;\n', /BEGIN … END block is not closed/],
    ['BEGIN ATOMIC trigger', 'CREATE TRIGGER TR AFTER INSERT ON T FOR EACH ROW BEGIN ATOMIC INSERT INTO A VALUES (1);', /not closed/],
  ] as const) {
    it(`reports an unterminated ${name} as a parse-error finding that says so`, async () => {
      writeFileSync(join(dir, 'broken.sql'), text);
      const r = await checkJson(dir, ['broken.sql']);
      const errors = r.diagnostics.filter((d) => d.rule === 'parse-error');
      assert.equal(errors.length, 1, JSON.stringify(r.diagnostics));
      assert.match(errors[0].message, expected);
      assert.equal(r.summary.parseErrors, 1);
    });
  }

  it('skips a file with NUL bytes near its start as binary, and lints one with a NUL far into it', async () => {
    writeFileSync(join(dir, 'binary.sql'), Buffer.concat([Buffer.from('COMMIT;\n\0\0\0'), Buffer.alloc(1000, 7)]));
    writeFileSync(join(dir, 'late-nul.sql'), 'COMMIT;\n'.repeat(2000) + 'INSERT INTO T VALUES (1\0);\n');
    const r = await checkJson(dir, ['.']);
    assert.match(r.stderr, /skipped binary\.sql: it looks binary \(it contains NUL bytes\)/);
    assert.equal(r.summary.files, 1);
    assert.equal(r.summary.statements, 2001);
  });

  it('says so when a file is UTF-16 without a byte-order mark (not "binary")', async () => {
    const text = 'INSERT INTO T VALUES (1);\n'.repeat(20);
    writeFileSync(join(dir, 'le.sql'), Buffer.from(text, 'utf16le'));
    const be = Buffer.from(text, 'utf16le');
    for (let i = 0; i + 1 < be.length; i += 2) [be[i], be[i + 1]] = [be[i + 1], be[i]];
    writeFileSync(join(dir, 'be.sql'), be);
    // A readable file beside it: a run that lints nothing at all exits 2.
    writeFileSync(join(dir, 'ok.sql'), 'COMMIT;\n');
    const r = await checkJson(dir, ['.']);
    assert.match(r.stderr, /skipped be\.sql: it looks like UTF-16 BE without a byte-order mark \(save it as UTF-8/);
    assert.match(r.stderr, /skipped le\.sql: it looks like UTF-16 LE without a byte-order mark/);
  });

  it('skips invalid UTF-8 with a message that says how to convert it', async () => {
    writeFileSync(join(dir, 'latin1.sql'), Buffer.from("INSERT INTO T VALUES ('caf\xe9');\n", 'latin1'));
    // A readable file beside it: a run that lints nothing at all exits 2.
    writeFileSync(join(dir, 'ok.sql'), 'COMMIT;\n');
    const r = await checkJson(dir, ['.']);
    assert.match(r.stderr, /skipped latin1\.sql: it is not valid UTF-8 \(for Latin-1 or Windows-1252 text, pass --encoding latin1 or --encoding windows-1252; or convert it, e\.g\. with iconv\)/);
  });

  it('finds the same things at the same places in UTF-8, UTF-8 with BOM, UTF-16 LE/BE with BOM, CRLF, CR and mixed line endings', async () => {
    const lf = fixture('workload.sql');
    assert.ok(!lf.includes('\r'));
    mkdirSync(join(dir, 'lf'));
    writeFileSync(join(dir, 'lf/w.sql'), lf);
    const reference = await checkJson(join(dir, 'lf'), ['w.sql']);
    assert.ok(reference.diagnostics.length >= 3, 'the fixture has findings to compare');
    const utf16be = (s: string) => {
      const le = Buffer.from(s, 'utf16le');
      for (let i = 0; i + 1 < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1], le[i]];
      return le;
    };
    let n = 0;
    const variants: Record<string, Buffer> = {
      'UTF-8 with BOM': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lf)]),
      'UTF-16 LE with BOM': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(lf, 'utf16le')]),
      'UTF-16 BE with BOM': Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(lf)]),
      CRLF: Buffer.from(lf.replace(/\n/g, '\r\n')),
      'CR only': Buffer.from(lf.replace(/\n/g, '\r')),
      mixed: Buffer.from(lf.split('\n').map((line, i) => line + ['\n', '\r\n', '\r'][i % 3]).join('').slice(0, -1)),
    };
    for (const [name, bytes] of Object.entries(variants)) {
      const sub = join(dir, `v${n++}`);
      mkdirSync(sub);
      writeFileSync(join(sub, 'w.sql'), bytes);
      const r = await checkJson(sub, ['w.sql']);
      assert.equal(r.stderr, '', `${name}: ${r.stderr}`);
      assert.deepEqual(positions(r.diagnostics), positions(reference.diagnostics), name);
    }
  });

  it('shows one line in the code frame of a file with CR-only line endings', async () => {
    writeFileSync(join(dir, 'cr.sql'), "COMMIT;\rINSERT INTO T VALUES ('never closed\rCOMMIT;\rCOMMIT;\r");
    const r = await check(dir, ['cr.sql']);
    const frame = r.stdout.split('\n').filter((l) => /^\s+\d+ \| /.test(l));
    assert.equal(frame.length, 1, r.stdout);
    assert.ok(!frame[0].includes('\r'), `the frame line carries the following lines: ${JSON.stringify(frame[0])}`);
  });
});

describe('robustness: text output scales with files × findings', function () {
  this.timeout(120_000);
  const cpuMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };

  it('prints the findings of 16× the files in well under 256× the time', async () => {
    // Each file has 10 unreadable statements (one parse-error finding each). Matching each finding back to
    // its file by scanning all files would make the text output files × findings.
    const makeDir = (files: number) => {
      const dir = mkdtempSync(join(tmpdir(), 'insertlint-many-'));
      for (let i = 0; i < files; i++) writeFileSync(join(dir, `f${i}.sql`), 'INSERT INTO T VALUES (;\n'.repeat(10));
      return dir;
    };
    const small = makeDir(50);
    const large = makeDir(800);
    try {
      const timeCheck = async (dir: string) => {
        const t0 = cpuMs();
        const r = await check(dir, ['.']);
        assert.ok(r.code === 0 || r.code === 1, r.stderr.slice(0, 500));
        return cpuMs() - t0;
      };
      await timeCheck(small); // warm-up
      const smallMs = Math.min(await timeCheck(small), await timeCheck(small));
      let largeMs = await timeCheck(large);
      // Linear ≈ 16×, quadratic ≈ 256×; the bound leaves 3× for noise and garbage collection.
      if (largeMs / smallMs >= 48) largeMs = Math.min(largeMs, await timeCheck(large));
      const ratio = largeMs / smallMs;
      assert.ok(ratio < 48, `16× the files (and findings) took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(0)} ms → ${largeMs.toFixed(0)} ms): super-linear`);
    } finally {
      rmSync(small, { recursive: true, force: true });
      rmSync(large, { recursive: true, force: true });
    }
  });
});

describe('robustness: the CLI process', function () {
  this.timeout(60_000);
  it('ends quietly when its output is closed early (insertlint check … | head)', async function () {
    const bin = join(repoRoot(), 'bin/insertlint.js');
    if (!existsSync(join(repoRoot(), 'out/cli.js'))) this.skip(); // built by `npm test` before mocha runs
    const dir = mkdtempSync(join(tmpdir(), 'insertlint-pipe-'));
    try {
      // 50,000 unreadable statements: one finding each, megabytes of output, far more than a pipe buffer.
      writeFileSync(join(dir, 'many.sql'), 'INSERT INTO T VALUES (;\n'.repeat(50_000));
      const child = spawn(process.execPath, [bin, 'check', 'many.sql'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.stdout.once('data', () => child.stdout.destroy()); // like `| head -c 100`
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      assert.doesNotMatch(stderr, /Unhandled 'error' event|EPIPE|internal error/, stderr.slice(0, 1500));
      assert.ok(code === 0 || code === 1, `exit ${code}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('robustness: decodeSource', () => {
  it('decodes UTF-16 with a BOM of odd length without throwing', () => {
    const r = decodeSource(Buffer.from([0xff, 0xfe, 0x41, 0x00, 0x42]));
    assert.ok('text' in r);
  });

  it('drops a UTF-8 BOM and keeps everything else', () => {
    assert.deepEqual(decodeSource(Buffer.from([0xef, 0xbb, 0xbf, 0x41])), { text: 'A' });
  });

  it('treats an empty file as empty text', () => {
    assert.deepEqual(decodeSource(Buffer.alloc(0)), { text: '' });
  });

  it('says a file is too large, not "not valid UTF-8", when its text cannot fit in one string', function () {
    this.timeout(60_000);
    // Only reachable with maxFileBytes raised above ~512 MB; 537 MB of 'a' here, freed at once.
    let bytes: Buffer | undefined = Buffer.alloc(bufferConstants.MAX_STRING_LENGTH + 16, 0x61);
    const r = decodeSource(bytes);
    bytes = undefined;
    assert.ok('skip' in r && /more text than one JavaScript string holds/.test(r.skip), JSON.stringify(r).slice(0, 200));
  });

  it('reads lone CR line ends (classic Mac OS) as LF and leaves CRLF as it is, in every encoding', () => {
    assert.deepEqual(decodeSource(Buffer.from('A\rB\r\nC\r')), { text: 'A\nB\r\nC\n' });
    assert.deepEqual(decodeSource(Buffer.from('\u00e9\r\u00e9')), { text: '\u00e9\n\u00e9' });
    assert.deepEqual(decodeSource(Buffer.from([0xe9, 0x0d, 0x41]), 'latin1'), { text: '\u00e9\nA' });
    assert.deepEqual(decodeSource(Buffer.from([0xff, 0xfe, 0x41, 0x00, 0x0d, 0x00, 0x42, 0x00])), { text: 'A\nB' });
  });

  it('skips bytes that are not UTF-8 wherever they are', () => {
    const bytes = Buffer.concat([Buffer.from('COMMIT;\n'.repeat(5000)), Buffer.from([0xc3, 0x28])]);
    assert.ok('skip' in decodeSource(bytes));
  });
});

describe('robustness: LineIndex', () => {
  /** Line starts by the definition: after LF, after CRLF, after a CR not followed by LF. */
  function referenceStarts(text: string): number[] {
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
    }
    return starts;
  }

  it('maps every offset like the definition, for LF, CRLF, CR and mixed line endings', () => {
    const text = fc.array(fc.constantFrom('a', 'bc', '\n', '\r', '\r\n', '\n\n', ''), { maxLength: 60 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (t) => {
        const index = new LineIndex(t);
        const starts = referenceStarts(t);
        assert.equal(index.lineCount, starts.length);
        for (let offset = 0; offset <= t.length; offset++) {
          const { line, column } = index.position(offset);
          assert.equal(starts[line] + column, offset);
          assert.ok(line === starts.length - 1 || starts[line + 1] > offset);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('robustness: help and version, however they are asked for', () => {
  const run = async (argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await main(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), stdin: async () => '', cwd: tmpdir(), isTTY: false });
    return { code, stdout, stderr };
  };

  it('-h is --help for every command, `help CMD` is CMD --help, and -v prints the version', async () => {
    for (const [argv, usage] of [
      [['check', '-h'], /^insertlint check \[paths…\]/],
      [['rules', '--help'], /^Usage: insertlint rules \[RULE\]/],
      [['rules', '-h'], /^Usage: insertlint rules \[RULE\]/],
      [['help', 'explain'], /insertlint explain FILE\|-/],
    ] as const) {
      const r = await run([...argv]);
      assert.deepEqual([r.code, r.stderr], [0, ''], argv.join(' '));
      assert.match(r.stdout, usage, argv.join(' '));
    }
    const { version } = JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v', 'version']) assert.equal((await run([flag])).stdout, `${version}\n`, flag);
    assert.match((await run(['--help'])).stdout, /Each command prints its own options with --help/);
  });

  it('a JSON report names the build that wrote it: a saved report is compared with later ones', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'insertlint-json-tool-'));
    try {
      writeFileSync(join(dir, 'a.sql'), 'INSERT INTO T VALUES (1);\n');
      const out = join(dir, 'report.json');
      await main(['check', join(dir, 'a.sql'), '--format', 'json', '--output', out], { stdout: () => undefined, stderr: () => undefined, stdin: async () => '', cwd: dir, isTTY: false });
      const { version } = JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as { version: string };
      const report = JSON.parse(readFileSync(out, 'utf8')) as { tool: unknown };
      assert.deepEqual(report.tool, { name: 'insertlint', version });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('robustness: --output into a folder that does not exist', () => {
  it('names the folder, not the temporary file the report would have been written to first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'insertlint-output-'));
    try {
      writeFileSync(join(dir, 'a.sql'), 'INSERT INTO T VALUES (1);\n');
      const r = await check(dir, ['a.sql', '--output', join(dir, 'missing', 'report.txt')]);
      assert.equal(r.code, 2);
      assert.equal(r.stderr, `insertlint: cannot write ${join(dir, 'missing', 'report.txt')}: the folder ${join(dir, 'missing')} does not exist\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('robustness: the summary counts each statement once', () => {
  it('an unreadable statement is not also "kept as text"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'insertlint-summary-'));
    try {
      writeFileSync(join(dir, 'broken.sql'), 'CREATE INDEX ON T (A);\nGRANT SELECT ON T TO U;\n');
      const { summary } = await checkJson(dir, ['broken.sql']);
      assert.deepEqual([summary.statements, summary.parseErrors, summary.opaque], [2, 1, 1]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
