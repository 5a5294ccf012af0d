// The CLI side of issue 14: --encoding reads Latin-1 and Windows-1252 files as the editor shows them (VS Code's
// files.encoding), --docs-url points documentation links where a team hosts the docs, and the summary's
// info count leaves hints out.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../server/src/cli/main';
import { decodeSource, sourceEncoding } from '../../server/src/cli/files';

async function run(cwd: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const code = await main(args, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), stdin: async () => '', cwd, isTTY: false });
    return { code, stdout, stderr };
  } finally {
    for (const key of Object.keys(env)) if (saved[key] === undefined) delete process.env[key];
  }
}

// A table name with È (0xC8 in both encodings) and a quote written as 0x92, which only Windows-1252 reads as ’.
const DDL = "CREATE TABLE APP.CLIENTÈLE (ID INTEGER GENERATED ALWAYS AS IDENTITY (NO CACHE), NOM VARCHAR(20));\n";
// Filled from a query (a bulk load: issue 13 leaves tables of literal reference rows alone), with a ’ in it.
const LOAD = "INSERT INTO APP.CLIENTÈLE (NOM) SELECT NOM FROM STAGE.CLIENTS WHERE NOM <> 'l\u2019an';\n";
const cp1252 = (text: string) => Buffer.from(text.replace('\u2019', '\x92'), 'latin1');

describe('CLI: --encoding, --docs-url and the summary counts', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'insertlint-enc-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('skips a Windows-1252 file by default, saying which --encoding reads it, and lints it with --encoding windows-1252', async () => {
    writeFileSync(join(dir, 'clients.sql'), cp1252(DDL + LOAD));
    writeFileSync(join(dir, 'ok.sql'), 'COMMIT;\n');
    const plain = await run(dir, ['check', '.', '--format', 'json']);
    assert.match(plain.stderr, /skipped clients\.sql: it is not valid UTF-8 \(for Latin-1 or Windows-1252 text, pass --encoding latin1 or --encoding windows-1252/);
    assert.equal(JSON.parse(plain.stdout).diagnostics.length, 0);
    // The JSON names it too (a CI job reads stdout), and the summary counts it.
    const report = JSON.parse(plain.stdout) as { summary: { skipped: number }; skipped: { file: string; reason: string }[] };
    assert.equal(report.summary.skipped, 1);
    assert.deepEqual(report.skipped.map((s) => s.file), ['clients.sql']);
    assert.match(report.skipped[0].reason, /^it is not valid UTF-8 \(for Latin-1 or Windows-1252 text, pass --encoding/);

    const western = await run(dir, ['check', '.', '--format', 'json', '--encoding', 'windows-1252']);
    assert.equal(western.stderr, '');
    const findings = JSON.parse(western.stdout).diagnostics as { rule: string; message: string; line: number; column: number }[];
    const cache = findings.find((d) => d.rule === 'identity-cache');
    assert.ok(cache, JSON.stringify(findings));
    assert.match(cache.message, /APP\.CLIENTÈLE\.ID/);
    assert.equal(western.code, 1);
  });

  it('accepts the spellings users write (latin1, iso-8859-1, cp1252, utf8) and refuses others clearly', async () => {
    assert.equal(sourceEncoding('ISO-8859-1'), 'latin1');
    assert.equal(sourceEncoding('iso88591'), 'latin1');
    assert.equal(sourceEncoding('cp1252'), 'windows-1252');
    assert.equal(sourceEncoding('windows1252'), 'windows-1252');
    assert.equal(sourceEncoding('utf8bom'), 'utf-8');
    assert.equal(sourceEncoding('shiftjis'), undefined);
    writeFileSync(join(dir, 'a.sql'), 'COMMIT;\n');
    const bad = await run(dir, ['check', '.', '--encoding', 'ebcdic']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--encoding must be one of utf-8, latin1, windows-1252/);
  });

  it('decodes as VS Code does: 0x92 is ’ in Windows-1252 and a C1 control in Latin-1; a BOM wins over the option', () => {
    const bytes = cp1252(LOAD);
    assert.match((decodeSource(bytes, 'windows-1252') as { text: string }).text, /'l’an'/);
    assert.match((decodeSource(bytes, 'latin1') as { text: string }).text, /'l\u0092an'/);
    assert.ok('skip' in decodeSource(bytes));
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("VALUES 'é'", 'utf8')]);
    assert.deepEqual(decodeSource(bom, 'latin1'), { text: "VALUES 'é'" });
  });

  it('decodes UTF-8 as TextDecoder does (lone CR line ends as LF), ASCII copied as it is (the fast path) and anything else decoded or refused', () => {
    // Bytes without NUL (those are binary or UTF-16), mostly ASCII with a few high bytes and valid sequences.
    const part = fc.oneof(fc.string({ unit: fc.integer({ min: 1, max: 0x7f }).map((c) => String.fromCharCode(c)) }), fc.constantFrom('é', '’', '\u{1f600}', '\ufeff'), fc.constantFrom('\x80', '\xff', '\xc3'));
    fc.assert(
      fc.property(fc.array(part, { maxLength: 20 }), (parts) => {
        const bytes = Buffer.from(parts.map((p) => (/^[\x80-\xff]$/.test(p) && p !== 'é' ? Buffer.from([p.charCodeAt(0)]) : Buffer.from(p, 'utf8'))).reduce((a, b) => Buffer.concat([a, b]), Buffer.alloc(0)));
        let expected: { text: string } | undefined;
        try {
          const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
          expected = { text: (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r(?!\n)/g, '\n') };
        } catch {
          expected = undefined;
        }
        const read = decodeSource(bytes);
        if (expected) assert.deepEqual(read, expected);
        else assert.ok('skip' in read);
      }),
      { numRuns: 2000 },
    );
  });

  it('points documentation links at --docs-url (or INSERTLINT_DOCS_URL), in SARIF and GitHub annotations', async () => {
    writeFileSync(join(dir, 'schema.sql'), DDL);
    writeFileSync(join(dir, 'load.sql'), LOAD);
    const sarif = JSON.parse((await run(dir, ['check', '.', '--format', 'sarif', '--docs-url', 'https://docs.example.com/insertlint/'])).stdout);
    const rule = sarif.runs[0].tool.driver.rules.find((r: { id: string }) => r.id === 'identity-cache');
    assert.equal(rule.helpUri, 'https://docs.example.com/insertlint/identity-cache.md');
    const github = await run(dir, ['check', '.', '--format', 'github'], { INSERTLINT_DOCS_URL: 'https://wiki.example.com/lint/{id}.html' });
    assert.match(github.stdout, /Rule documentation: https:\/\/wiki\.example\.com\/lint\/identity-cache\.html/);
    const plain = JSON.parse((await run(dir, ['check', '.', '--format', 'sarif'])).stdout);
    assert.match(plain.runs[0].tool.driver.rules[0].helpUri, /^https:\/\/github\.com\/insertlint\/insertlint\/blob\/main\/rules\//);
    const bad = await run(dir, ['check', '.', '--docs-url', 'docs/rules']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--docs-url must be an http\(s\):\/\/ or file:\/\/ URL/);
  });

  it('counts hints apart from information in the summary line', async () => {
    writeFileSync(join(dir, 'schema.sql'), DDL);
    writeFileSync(join(dir, 'load.sql'), LOAD);
    const r = await run(dir, ['check', '.', '--rule', 'identity-cache=hint']);
    assert.match(r.stdout, /\d+ findings? \(0 errors, \d+ warnings?, (\d+) info, 1 hint\)/);
    const [, info] = /, (\d+) info, 1 hint/.exec(r.stdout)!;
    const text = r.stdout.split('\n').filter((l) => / information /.test(l)).length;
    assert.equal(Number(info), text, r.stdout);
  });
});
