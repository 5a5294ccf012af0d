// A merged finding (issue 13: rules of one cause on one line shown as one diagnostic) through the real server
// over stdio: its quick fixes are those of any of its parts, and "Disable … for this line / file" silences
// every rule shown in it, not only the primary one (issue 14).
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LspSession, applyEdits, uriOf, type CodeAction, type LspDiagnostic } from './harness';
import { TWO_TABLES_STEP as TABLES, UPGRADE_STEP as STEP } from '../helpers/upgrade-step';

// samples/load.clp as it was, where the editor did not list the fix: a run of three literal INSERTs under the CLP's
// autocommit (with bulkRowThreshold 3 in the workspace's configuration, so that three rows are no seed rows). On
// the 3rd (line 12) no-autocommit, prefer-parameter-markers and single-row-insert are one finding.
const LOAD = [
  '-- Nightly load of the sample workload (run with: db2 -tvf load.clp).',
  '-- The CLP commits after every statement unless told otherwise (autocommit is on by default).',
  'CONNECT TO SALESDB;',
  '',
  'UPDATE DB CFG FOR SALESDB USING LOGBUFSZ 8 CHNGPGS_THRESH 60 MINCOMMIT 3;',
  '',
  'SET SCHEMA SALES;',
  '',
  '-- New customers arrive as literal single-row inserts, one commit each.',
  "INSERT INTO CUSTOMER VALUES (1001, 'Ada Lovelace', 'UK');",
  "INSERT INTO CUSTOMER VALUES (1002, 'Grace Hopper', 'US');",
  "INSERT INTO CUSTOMER VALUES (1003, 'Edsger Dijkstra', 'NL');",
  '',
  "-- Today's orders come from the staging table filled by the web shop.",
  'ALTER TABLE ORDERS ACTIVATE NOT LOGGED INITIALLY;',
  'INSERT INTO ORDERS (CUST_ID, ORDER_DATE, STATUS, NOTES)',
  "  SELECT CUST_ID, ORDER_DATE, 'N', NOTES FROM STAGE.WEB_ORDERS;",
  '',
  'INSERT INTO ORDER_LINE (ORDER_ID, LINE_NO, ITEM, QTY, PRICE)',
  '  SELECT O.ORDER_ID, W.LINE_NO, W.ITEM, W.QTY, W.PRICE',
  '  FROM STAGE.WEB_ORDER_LINES W JOIN ORDERS O ON O.CUST_ID = W.CUST_ID;',
  '',
  "IMPORT FROM '/data/returns.del' OF DEL INSERT INTO SALES.ORDER_LINE;",
  '',
  "-- The rest of the day's customers come from the shop's staging table.",
  'INSERT INTO CUSTOMER SELECT CUST_ID, NAME, COUNTRY FROM STAGE.WEB_CUSTOMERS;',
  '',
  'COMMIT;',
  'CONNECT RESET;',
  '',
].join('\n');
const LINE_12 = 11;
const MERGED = ['no-autocommit', 'prefer-parameter-markers', 'single-row-insert'];

describe('language server: a merged finding over stdio', function () {
  this.timeout(30000);
  let dir: string;
  let lsp: LspSession;
  let uri: string;

  const onLine = (line: number) => (lsp.diagnostics.get(uri) ?? []).filter((d) => d.range.start.line === line);
  const actionsAt = (d: LspDiagnostic) =>
    // As VS Code asks on "Quick Fix…": the cursor (an empty range) on the line, the diagnostics there in the context.
    lsp.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: LINE_12, character: 12 }, end: { line: LINE_12, character: 12 } },
      context: { diagnostics: [d], only: ['quickfix'], triggerKind: 1 },
    });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'insertlint-merged-'));
    writeFileSync(join(dir, 'load.clp'), LOAD);
    writeFileSync(join(dir, '.insertlintrc.json'), JSON.stringify({ bulkRowThreshold: 3 }));
    uri = uriOf(join(dir, 'load.clp'));
    lsp = await LspSession.start(dir, { debounceMs: 0 });
    lsp.open(uri, LOAD, 'db2sql');
    await lsp.waitFor('the merged finding on line 12', () => onLine(LINE_12).length > 0);
  });

  afterEach(async () => {
    await lsp.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is one diagnostic on line 12 naming the other rules in its related information', () => {
    const [d, ...more] = onLine(LINE_12);
    assert.equal(more.length, 0, JSON.stringify(onLine(LINE_12).map((x) => x.code)));
    assert.equal(d.code, 'no-autocommit');
    const related = (d as LspDiagnostic & { relatedInformation?: { message: string }[] }).relatedInformation ?? [];
    assert.deepEqual(related.map((r) => r.message.split(':')[0]).sort(), ['also prefer-parameter-markers', 'also single-row-insert']);
  });

  it('offers the multi-row VALUES fix of single-row-insert, and the fix writes one INSERT with three rows', async () => {
    const [d] = onLine(LINE_12);
    const actions = await actionsAt(d);
    const combine = actions.find((a) => /^Combine the 3 INSERTs into one multi-row VALUES list/.test(a.title));
    assert.ok(combine, actions.map((a) => a.title).join(' | '));
    assert.equal(combine.diagnostics?.[0].code, 'no-autocommit', 'the fix is tied to the diagnostic the editor shows');
    const fixed = applyEdits(LOAD, combine.edit!.changes[uri]);
    assert.match(fixed, /INSERT INTO CUSTOMER VALUES \(1001, 'Ada Lovelace', 'UK'\),\s*\(1002, 'Grace Hopper', 'US'\),\s*\(1003, 'Edsger Dijkstra', 'NL'\);/);
    assert.equal(fixed.match(/INSERT INTO CUSTOMER VALUES/g)?.length, 1);
  });

  it('"Disable … for this line" names every merged rule in one directive, and the finding goes', async () => {
    const [d] = onLine(LINE_12);
    const actions = await actionsAt(d);
    const disable = actions.find((a) => a.title === 'Disable no-autocommit, prefer-parameter-markers and single-row-insert for this line');
    assert.ok(disable, actions.map((a) => a.title).join(' | '));
    assert.equal(actions.filter((a) => /for this line$/.test(a.title)).length, 1, 'one way to silence the line, not one per rule');
    const edits = disable.edit!.changes[uri];
    assert.deepEqual(edits.map((e) => e.newText), [`-- insertlint-disable-next-line ${MERGED.join(', ')}\n`]);
    const fixed = applyEdits(LOAD, edits);
    const position = { line: LINE_12, character: 0 };
    const published = lsp.diagnostics.get(uri);
    lsp.change(uri, { start: position, end: position }, edits[0].newText);
    await lsp.waitFor('the findings of the edited text', () => lsp.diagnostics.get(uri) !== published);
    // The old line 12 is line 13 now: nothing on it, and the directive is not reported as unused.
    assert.deepEqual(onLine(LINE_12 + 1).map((x) => x.code), []);
    assert.deepEqual(onLine(LINE_12).map((x) => x.code), [], 'no unused-suppression on the directive');
    assert.match(fixed.split('\n')[LINE_12 + 1], /Edsger Dijkstra/);
  });

  it('"Disable … for this file" names every merged rule too', async () => {
    const [d] = onLine(LINE_12);
    const disable = (await actionsAt(d)).find((a) => a.title === 'Disable no-autocommit, prefer-parameter-markers and single-row-insert for this file');
    assert.ok(disable);
    assert.deepEqual(disable.edit!.changes[uri].map((e) => e.newText), [`-- insertlint-disable-file ${MERGED.join(', ')}\n`]);
  });
});

// An upgrade step's indexes (lines 3-6) and foreign keys (lines 7-8), created before the INSERT … SELECT that fills
// the table (line 10): index-count and enforced-foreign-key are one finding on line 5 (engine/merge.ts
// mergeMovesAfterLoad), whose parts start on different lines.
const LINE_5 = 4;

describe('language server: indexes and foreign keys to move after one load, one finding', function () {
  this.timeout(30000);
  let dir: string;
  let lsp: LspSession;
  let uri: string;
  const shown = () => (lsp.diagnostics.get(uri) ?? []).filter((d) => d.code === 'index-count' || d.code === 'enforced-foreign-key');

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'insertlint-moves-'));
    writeFileSync(join(dir, 'step.sql'), STEP);
    uri = uriOf(join(dir, 'step.sql'));
    lsp = await LspSession.start(dir, { debounceMs: 0 });
    lsp.open(uri, STEP, 'db2sql');
    await lsp.waitFor('the merged finding on line 5', () => shown().length > 0);
  });

  afterEach(async () => {
    await lsp.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('links the foreign keys and the load, and "for this line" names only the rule whose finding starts there', async () => {
    const [d, ...more] = shown();
    assert.equal(more.length, 0);
    assert.deepEqual([d.code, d.range.start.line], ['index-count', LINE_5]);
    const related = ((d as { relatedInformation?: unknown }).relatedInformation ?? []) as { location: { range: { start: { line: number } } } }[];
    assert.deepEqual(related.map((r) => r.location.range.start.line), [6, 9], 'the keys and the load, no "last of the run"');
    const actions = await lsp.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: LINE_5, character: 14 }, end: { line: LINE_5, character: 14 } },
      context: { diagnostics: [d], only: ['quickfix'], triggerKind: 1 },
    });
    const titles = actions.map((a) => a.title);
    assert.ok(titles.includes('Disable index-count for this line'), titles.join(' | '));
    assert.ok(titles.includes('Disable index-count and enforced-foreign-key for this file'), titles.join(' | '));
    // Silencing the line leaves the keys' own finding, with its own message.
    const line = actions.find((a) => a.title === 'Disable index-count for this line')!;
    const published = lsp.diagnostics.get(uri);
    lsp.change(uri, { start: { line: LINE_5, character: 0 }, end: { line: LINE_5, character: 0 } }, line.edit!.changes[uri][0].newText);
    await lsp.waitFor('the findings of the edited text', () => lsp.diagnostics.get(uri) !== published);
    assert.deepEqual(shown().map((x) => `${x.code}@${x.range.start.line}`), ['enforced-foreign-key@7']);
    assert.match(shown()[0].message, /^2 enforced foreign keys on bulk target T /);
  });
});

// TABLES: two tables given the same advice, one finding whose parts start on lines 6, 10, 12 and 14.
describe('language server: several tables told to move their DDL after their loads, one finding', function () {
  this.timeout(30000);
  let dir: string;
  let lsp: LspSession;
  let uri: string;
  const shown = () => (lsp.diagnostics.get(uri) ?? []).filter((d) => ['index-count', 'enforced-foreign-key', 'unused-suppression'].includes(String(d.code)));

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'insertlint-tables-'));
    writeFileSync(join(dir, 'step.sql'), TABLES);
    uri = uriOf(join(dir, 'step.sql'));
    lsp = await LspSession.start(dir, { debounceMs: 0 });
    lsp.open(uri, TABLES, 'db2sql');
    await lsp.waitFor('the merged finding', () => shown().length > 0);
  });

  afterEach(async () => {
    await lsp.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('offers to silence it on every line of its parts, each directive naming the rules there, and it goes whole', async () => {
    const [d, ...more] = shown();
    assert.equal(more.length, 0, JSON.stringify(shown().map((x) => `${x.code}@${x.range.start.line}`)));
    const actions = await lsp.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: d.range,
      context: { diagnostics: [d], only: ['quickfix'], triggerKind: 1 },
    });
    const titles = actions.map((a) => a.title);
    // "For this line" silences T1's index-count only: T2's parts would be shown again as a finding of their own.
    assert.ok(titles.includes('Disable index-count for this line'), titles.join(' | '));
    const all = actions.find((a) => a.title === 'Disable index-count and enforced-foreign-key on every line of this finding (lines 6, 10, 12 and 14)');
    assert.ok(all, titles.join(' | '));
    const edits = all.edit!.changes[uri];
    assert.deepEqual(
      edits.map((e) => [e.range.start.line, e.newText]),
      [
        [5, '-- insertlint-disable-next-line index-count\n'],
        [9, '-- insertlint-disable-next-line index-count\n'],
        [11, '-- insertlint-disable-next-line enforced-foreign-key\n'],
        [13, '-- insertlint-disable-next-line enforced-foreign-key\n'],
      ],
    );
    const fixed = applyEdits(TABLES, edits);
    const lines = TABLES.split('\n');
    const published = lsp.diagnostics.get(uri);
    lsp.change(uri, { start: { line: 0, character: 0 }, end: { line: lines.length - 1, character: lines[lines.length - 1].length } }, fixed);
    await lsp.waitFor('the findings of the edited text', () => lsp.diagnostics.get(uri) !== published);
    // Nothing left of it, and no directive reported as unused.
    assert.deepEqual(shown().map((x) => `${x.code}@${x.range.start.line}`), []);
  });
});
