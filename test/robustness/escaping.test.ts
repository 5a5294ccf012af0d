// Probe of issue 17, item 7: output that other programs read cannot be steered by file names or file
// contents. A name holding a newline must not start a GitHub workflow command (the runner reads them on
// stdout and stderr), `##[` must not either (the runner's older syntax, matched anywhere in a line), escape
// sequences must not reach the terminal, Markdown must not gain links or HTML, SARIF messages no links.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../ci/repo';
import { renderChecklist, type ChecklistInput } from '../../server/src/output/checklist';
import { toSarif } from '../../server/src/output/sarif';
import { RULES } from '../../server/src/engine/registry';

const check = (cwd: string, args: string[]) => runCli(['check', ...args], cwd);

const FINDING_SQL = 'CREATE TABLE APP.T (ID INT GENERATED ALWAYS AS IDENTITY (NO CACHE), A INT);\nINSERT INTO APP.T (A) VALUES (?);\n';
/** Lines a GitHub runner would take for workflow commands: `::cmd` at the start (after blanks) or `##[` anywhere. */
const commands = (text: string) => text.split(/\r?\n/).filter((l) => /^\s*::/.test(l) || l.includes('##['));

describe('robustness: file names and contents cannot steer what reads our output (issue 17)', function () {
  this.timeout(30_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'insertlint-escape-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('--format github: only our own annotations are workflow commands, whatever the file names', async function () {
    if (process.platform === 'win32') this.skip(); // no newline in Windows file names
    // Skipped files are named on stderr; files with findings in the annotations and in the text output.
    writeFileSync(join(dir, 'x\n::error file=ci.yml,line=1::injected\n.sql'), Buffer.from([0, 1, 2, 0]));
    writeFileSync(join(dir, 'y ##[add-mask]secret.sql'), Buffer.from([0, 1, 2, 0]));
    writeFileSync(join(dir, 'z\n::warning::also injected\n.sql'), FINDING_SQL);
    writeFileSync(join(dir, '::stop-commands::token.sql'), FINDING_SQL);
    // insert-target-cost (off by default) puts a finding on the INSERT line, whose text the test injects into.
    const r = await check(dir, ['.', '--format', 'github', '--rule', 'insert-target-cost=information']);
    assert.equal(r.code, 1, r.stderr);
    const ours = /^::(error|warning|notice) file=[^\n]*::[^\n]*$/;
    for (const line of commands(r.stdout)) assert.match(line, ours);
    // The names stay inside their (escaped) file= property: no line of the attacker's own.
    assert.ok(!commands(r.stdout).some((l) => /^\s*::(error file=ci\.yml|warning::also)/.test(l)), r.stdout);
    assert.match(r.stdout, /file=z%0A%3A%3Awarning%3A%3Aalso injected%0A\.sql,line=2/);
    assert.deepEqual(commands(r.stderr), [], r.stderr);
    assert.match(r.stderr, /skipped x\\n::error file=ci\.yml,line=1::injected\\n\.sql: it looks binary/);
    assert.match(r.stderr, /skipped y ##\\\[add-mask\]secret\.sql/);
    const text = await check(dir, ['.', '--rule', 'insert-target-cost=information']);
    assert.deepEqual(commands(text.stdout), [], text.stdout);
    assert.deepEqual(commands(text.stderr), []);
    assert.match(text.stdout, /^\.\/::stop-commands::token\.sql:\d+:\d+ /m);
  });

  it('text output: control characters in names and in the flagged line reach the terminal as escapes', async function () {
    if (process.platform === 'win32') this.skip();
    const name = 'title\u001b]0;pwned\u0007.sql';
    writeFileSync(join(dir, name), FINDING_SQL.replace('INSERT INTO', 'INSERT /* \u001b[2J\u001b[31m \u202e */ INTO'));
    const r = await check(dir, ['.', '--rule', 'insert-target-cost=information']);
    assert.equal(r.code, 1, r.stderr);
    assert.doesNotMatch(r.stdout + r.stderr, /[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
    assert.match(r.stdout, /title\\e\]0;pwned\\x07\.sql:\d+:\d+ /);
    assert.match(r.stdout, /\/\* \\e\[2J\\e\[31m \\u202e \*\//);
    // The caret still points at the flagged text.
    const frame = r.stdout.split('\n').filter((l) => /^\s+\d* \| /.test(l));
    const source = frame.find((l) => /INSERT/.test(l))!;
    const caret = frame[frame.indexOf(source) + 1];
    assert.equal(source.indexOf('APP.T'), caret.indexOf('^'));
  });

  it('Markdown checklist: names cannot end the paragraph, add HTML, links or a code span of their own', () => {
    const evil = 'db/x`\n\n<img src=x onerror=alert(1)>\n[click](https://evil.example)\u001b[2J.sql';
    const finding = { displayPath: evil, line: 2, column: 1, rule: 'identity-cache', severity: 'warning' as const, message: 'Bad [link](https://evil.example) <b>x</b>\n# heading', blocking: true };
    const input: ChecklistInput = {
      base: 'main',
      baseCommit: '0123456789abcdef',
      mergeBase: false,
      changedFileCount: 2,
      files: [{ displayPath: evil, status: 'renamed', oldDisplayPath: evil, onChangedLines: [finding], elsewhere: Array.from({ length: 12 }, () => ({ ...finding, blocking: false })), suppressed: 0 }],
      notLinted: [{ displayPath: evil, reason: 'it is <b>odd</b>\n\n# reason' }],
      tables: [],
    };
    const md = renderChecklist(input);
    // Inside code spans nothing is rendered; outside them, nothing unescaped may be markup.
    const prose = md.replace(/``[^]*?``|`[^`\n]*`/g, 'CODE');
    assert.doesNotMatch(prose, /(?<!\\)<(img|b)|(?<!\\)\]\(https:\/\/evil|`/, prose);
    assert.doesNotMatch(md, /\u001b/);
    // No line starts anything of the attacker's: a heading, an HTML block, a link.
    for (const line of md.split('\n')) assert.ok(!/^(<|\[click|# |\.sql)/.test(line), line);
    // The "run insertlint check …" hint stays one code span with the path quoted for a shell.
    assert.match(md, /run `+ ?insertlint check 'db\/x` <img src=x onerror=alert\(1\)> \[click\]\(https:\/\/evil\.example\)\\e\[2J\.sql' ?`+ to see them/);
  });

  it('SARIF: names and messages cannot become embedded links', () => {
    const sarif = toSarif({
      findings: [{ file: 'x', rule: 'identity-cache', severity: 'warning', message: 'see [here](https://evil.example)', span: { start: 0, end: 1 }, displayPath: 'a b/[c](d).sql', line: 1, column: 1, endLine: 1, endColumn: 2, fingerprint: 'f' }],
      rules: RULES,
      cwd: dir,
      version: '0.0.0',
      notifications: [{ level: 'note', message: 'skipped [x](https://evil.example).sql: binary' }],
    }) as { runs: { results: { message: { text: string }; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[]; invocations: { toolExecutionNotifications: { message: { text: string } }[] }[] }[] };
    const run = sarif.runs[0];
    assert.equal(run.results[0].message.text, 'see \\[here\\](https://evil.example)');
    assert.equal(run.results[0].locations[0].physicalLocation.artifactLocation.uri, 'a%20b/%5Bc%5D(d).sql');
    assert.equal(run.invocations[0].toolExecutionNotifications[0].message.text, 'skipped \\[x\\](https://evil.example).sql: binary');
  });
});
