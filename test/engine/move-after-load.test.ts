// One remedy, one finding (engine/merge.ts mergeMovesAfterLoad): an upgrade step that creates a table's indexes and
// adds its foreign keys, then fills it with one INSERT … SELECT (Flowable's 6001-to-6002 step), gets one finding
// that names both costs with their figures and every statement to move, not one per rule with the same advice.
import * as assert from 'node:assert/strict';
import { lint, lintWorkspace } from '../helpers/rule-tester';
import { Repo, runCli, onlyRules } from '../ci/repo';
import { sarifValidator } from '../helpers/sarif';
import { TWO_TABLES_STEP as TABLES, UPGRADE_STEP as STEP } from '../helpers/upgrade-step';
import { firstSentence, mergeMovesAfterLoad, statementsText } from '../../server/src/engine/merge';
import { LineIndex } from '../../server/src/engine/lines';
import type { Diagnostic } from '../../server/src/engine/types';

// STEP (test/helpers/upgrade-step.ts): 3-6 indexes, 7-8 foreign keys, 10 the load.
const FILE = 'upgrade/app.db2.upgradestep.6001.to.6002.engine.sql';
const PAIR = ['index-count', 'enforced-foreign-key'];

const ofPair = (files: Record<string, string>, config = {}) => lint(files, { config }).filter((f) => PAIR.includes(f.rule));

describe('engine: findings that move DDL after the same load are one', () => {
  it('one finding names both costs with their measured figures and each statement to move, by line', () => {
    const found = ofPair({ [FILE]: STEP });
    assert.equal(found.length, 1, found.map((f) => `${f.line} ${f.rule}`).join('\n'));
    const [f] = found;
    assert.deepEqual([f.rule, f.line, f.severity], ['index-count', 5, 'warning']);
    // What is wrong, then the remedy, then each cost with its figures.
    assert.match(f.message, /^Bulk target T has 5 indexes and 2 enforced foreign keys, all created before the INSERT at line 10 that fills it\. One change removes both costs: move the CREATE INDEX statements at lines 3\u20136 and the ALTER TABLE … ADD CONSTRAINT statements at lines 7\u20138 after the INSERT at line 10\. /);
    assert.match(f.message, / Indexes: 5 in force during its inserts \(4 CREATE INDEX \+ 1 primary key\/unique constraint\), each given a new entry per row\. 100,000 inserts took 141\.6 s with 4 indexes in force and 31\.5 s with none, 73\.8 s in all with the 4 created after them \(Db2 INSERT tips, tests 35, 31 and 36\)\. /);
    assert.match(f.message, / Foreign keys T_P, T_P2 \(parents: P\): .*72\.7 s with two enforced foreign keys and 31\.5 s with none, 38\.9 s in all with the two added after them \(Db2 INSERT tips, tests 15, 11 and 17\)\.$/);
    // The remedy is said once.
    assert.equal(f.message.match(/the INSERT at line 10/g)?.length, 2, 'the lead and the remedy');
    // A change to the keys or the load touches it (--only-changed, the checklist).
    assert.deepEqual(f.extentLines, { line: 5, endLine: 10 });
  });

  it('quotes the one-key measurement for a table of one enforced key (tests 14 and 16), not the two-key one', () => {
    const oneKey = STEP.replace(/ALTER TABLE T ADD CONSTRAINT T_P2 [^\n]*\n/, '');
    const [f] = ofPair({ [FILE]: oneKey });
    assert.match(f.message, / Foreign key T_P \(parent: P\): [^.]*\. 100,000 inserts took 55\.4 s with one enforced foreign key and 31\.5 s with none, 32\.8 s in all with the key added after them \(Db2 INSERT tips, tests 14, 11 and 16\)\.$/);
    assert.doesNotMatch(f.message, /72\.7 s|two enforced/);
  });

  it('points at the other rule\'s finding and at the load, and names the merged rule', () => {
    const { workspace } = lintWorkspace({ [FILE]: STEP });
    const [d] = workspace.diagnostics(FILE).filter((x) => PAIR.includes(x.rule));
    const lines = workspace.lines(FILE)!;
    assert.deepEqual(d.mergedRules, ['enforced-foreign-key']);
    assert.deepEqual(d.mergedElsewhere, ['enforced-foreign-key'], 'its finding starts on line 7, not 5');
    assert.deepEqual(
      d.related!.map((r) => `${lines.line(r.span.start) + 1}: ${r.message.replace(/(: \d+ enforced foreign keys on bulk target T).*/, '$1')}`),
      ['7: also enforced-foreign-key: 2 enforced foreign keys on bulk target T', '10: what fills the table: move them after it'],
    );
    assert.equal(d.moveAfterLoad, undefined, 'the merged finding is not merged again');
  });

  it('each rule stays configurable: with one off, or one silenced on its line, the other keeps its own finding and message', () => {
    const indexesOnly = ofPair({ [FILE]: STEP }, { rules: { 'enforced-foreign-key': 'off' } });
    assert.deepEqual(indexesOnly.map((f) => `${f.line} ${f.rule}`), ['5 index-count']);
    assert.match(indexesOnly[0].message, /^Bulk insert target T \(INSERT … SELECT\) has 5 indexes, more than 3\..* Create them after the load instead: move the CREATE INDEX statements at lines 3\u20136 after the INSERT at line 10, or drop and recreate them around it\.$/);
    const keysOnly = ofPair({ [FILE]: STEP }, { rules: { 'index-count': 'off' } });
    assert.deepEqual(keysOnly.map((f) => `${f.line} ${f.rule}`), ['7 enforced-foreign-key']);
    assert.match(keysOnly[0].message, /^2 enforced foreign keys on bulk target T .* Add them after the load instead: move the ALTER TABLE … ADD CONSTRAINT statements at lines 7\u20138 after the INSERT at line 10\.$/);
    const silenced = STEP.replace('ALTER TABLE T ADD CONSTRAINT T_P ', '-- insertlint-disable-next-line enforced-foreign-key: the parents are checked by the copy\nALTER TABLE T ADD CONSTRAINT T_P ');
    const left = ofPair({ [FILE]: silenced });
    assert.deepEqual(left.map((f) => `${f.line} ${f.rule}`), ['5 index-count']);
    assert.match(left[0].message, /^Bulk insert target T \(INSERT … SELECT\)/);
    // Merging off (the rule tester's per-rule view): two findings, as before.
    assert.equal(lint({ [FILE]: STEP }, { unmerged: true }).filter((f) => PAIR.includes(f.rule)).length, 2);
  });

  it('not when they name different loads, nor different tables', () => {
    // The keys are added after a first copy: the indexes are moved after that one, the keys after the second.
    const twoLoads = STEP.replace('ALTER TABLE T ADD CONSTRAINT T_P ', 'INSERT INTO T (ID, A, B, C, D, P_ID) SELECT ID, A, B, C, D, P_ID FROM OLD_T1;\nALTER TABLE T ADD CONSTRAINT T_P ');
    const found = ofPair({ [FILE]: twoLoads });
    assert.deepEqual(found.map((f) => `${f.line} ${f.rule}`), ['5 index-count', '8 enforced-foreign-key']);
    assert.match(found[0].message, /after the INSERT at line 7, or drop/);
    assert.match(found[1].message, /after the INSERT at line 11\.$/);
  });

  it('keys taken out of a CREATE TABLE are named by its line', () => {
    const inTable = STEP.replace('P_ID INT);', 'P_ID INT, CONSTRAINT T_P FOREIGN KEY (P_ID) REFERENCES P (ID));').replace(/ALTER TABLE T ADD CONSTRAINT T_P FOREIGN KEY[^\n]*\n/, '');
    const found = ofPair({ [FILE]: inTable });
    // The key in the CREATE TABLE comes first in the file: its finding is the one shown, the indexes' part after.
    assert.deepEqual(found.map((f) => `${f.line} ${f.rule}`), ['2 enforced-foreign-key']);
    assert.match(found[0].message, /^Bulk target T has 2 enforced foreign keys and 5 indexes, all created before the INSERT at line 9 that fills it\. One change removes both costs: .* after the INSERT at line 9\. Foreign keys T_P, T_P2 .* Indexes: 5 in force/);
    assert.match(found[0].message, /move the ALTER TABLE … ADD CONSTRAINT statement at line 7, the foreign key of the CREATE TABLE statement at line 2 \(as ALTER TABLE … ADD CONSTRAINT\) and the CREATE INDEX statements at lines 3\u20136 after the INSERT at line 9\. /);
  });
});

describe('CLI: the merged finding in SARIF and in the review checklist', () => {
  let repo: Repo;
  beforeEach(() => {
    repo = new Repo();
    repo.write('.insertlintrc.json', onlyRules(PAIR)).write(FILE, STEP);
  });
  afterEach(() => repo.dispose());

  it('SARIF: one schema-valid result with the foreign keys and the load as related locations', async () => {
    const result = await runCli(['check', '.', '--format', 'sarif'], repo.dir);
    const log = JSON.parse(result.stdout) as { runs: { results: unknown[] }[] };
    assert.ok(sarifValidator()(log), 'schema-valid');
    const results = log.runs[0].results as { ruleId: string; message: { text: string }; locations: { physicalLocation: { region: { startLine: number } } }[]; relatedLocations: { physicalLocation: { region: { startLine: number } }; message: { text: string } }[] }[];
    assert.deepEqual(results.map((r) => `${r.ruleId}@${r.locations[0].physicalLocation.region.startLine}`), ['index-count@5']);
    assert.deepEqual(results[0].relatedLocations.map((r) => r.physicalLocation.region.startLine), [7, 10]);
    assert.match(results[0].message.text, /^Bulk target T has 5 indexes and 2 enforced foreign keys/);
  });

  it('checklist: a change to a foreign key only is a change to the merged finding, whose first sentence names both', async () => {
    const base = repo.commit('step');
    repo.write(FILE, STEP.replace('CONSTRAINT T_P2 ', 'CONSTRAINT T_P_A '));
    const md = (await runCli(['checklist', '--base', base, '--fail-on', 'warning'], repo.dir)).stdout;
    assert.match(md, /`index-count` \(warning \*\*blocking\*\*\): Bulk target T has 5 indexes and 2 enforced foreign keys, all created before the INSERT at line 10 that fills it\./);
    assert.doesNotMatch(md, /`enforced-foreign-key`/);
  });
});

// Flowable's 5.99-to-6.0.0 step creates three job tables, indexes them, adds their keys, then fills each with an
// INSERT … SELECT: one finding for the script, not one per table. Lines: 2-3 tables, 4-7 and 8-11 indexes (over 3
// with the primary key), 12 and 14 the keys (a blank line between), 16 and 17 the loads (T2's first): TABLES.
describe('engine: several tables of a script told to move their DDL after their loads are one finding', () => {
  it('names the tables and their loads, the statements to move by ranges, and each cost\'s figure once', () => {
    const found = ofPair({ [FILE]: TABLES });
    assert.deepEqual(found.map((f) => `${f.line} ${f.rule} ${f.severity}`), ['6 index-count warning']);
    const [f] = found;
    assert.equal(
      f.message,
      '2 bulk targets get indexes and enforced foreign keys before the INSERTs that fill them. ' +
        'They are T1 (filled at line 17) and T2 (line 16). ' +
        'One change for both: move the CREATE INDEX statements at lines 4\u201311 and the ALTER TABLE … ADD CONSTRAINT statements at lines 12\u201314 after those INSERTs. ' +
        'Every row they insert adds an entry to each index and looks up a parent for each foreign key. ' +
        '100,000 inserts took 31.5 s into the bare table (Db2 INSERT tips, tests 11 and 31); 141.6 s with 4 indexes in force, 73.8 s in all with the 4 created after them (tests 35 and 36); ' +
        '55.4 s with one enforced foreign key, 32.8 s in all with the key added after them (tests 14 and 16).',
    );
    assert.ok(firstSentence(f.message).length < 120);
    // A change to any table's DDL or load touches it.
    assert.deepEqual(f.extentLines, { line: 6, endLine: 17 });
  });

  it('each table\'s findings and load stay related information, in table order; the rules it shows are silenced with it', () => {
    const { workspace } = lintWorkspace({ [FILE]: TABLES });
    const [d] = workspace.diagnostics(FILE).filter((x) => PAIR.includes(x.rule));
    const lines = workspace.lines(FILE)!;
    assert.deepEqual(
      d.related!.map((r) => `${lines.line(r.span.start) + 1}: ${r.message.replace(/ \(INSERT … SELECT\).*/, '')}`),
      [
        '12: also enforced-foreign-key: Foreign key T1_P on bulk target T1',
        '17: what fills T1: move its indexes and enforced foreign keys after it',
        '10: also index-count: Bulk insert target T2',
        '14: also enforced-foreign-key: Foreign key T2_P on bulk target T2',
        '16: what fills T2: move its indexes and enforced foreign keys after it',
      ],
    );
    assert.deepEqual(d.mergedRules, ['enforced-foreign-key']);
    assert.deepEqual(d.mergedElsewhere, ['enforced-foreign-key']);
  });

  it('tables told something else stay apart: only indexes to move, or an index to drop', () => {
    // T2's key is gone: its advice is to move indexes only, T1's indexes and a key.
    const noKey = TABLES.replace(/ALTER TABLE T2 [^\n]*\n/, '');
    assert.deepEqual(ofPair({ [FILE]: noKey }).map((f) => `${f.line} ${f.rule} ${f.message.slice(0, 28)}`), ['6 index-count Bulk target T1 has 5 indexes', '10 index-count Bulk insert target T2 (INSER']);
    // T2_A (A) is the start of T2_D (A, D): T2's finding says to drop it, which T1's does not.
    const redundant = TABLES.replace('CREATE INDEX T2_D ON T2 (D);', 'CREATE INDEX T2_D ON T2 (A, D);');
    const found = ofPair({ [FILE]: redundant });
    assert.deepEqual(found.map((f) => `${f.line} ${f.rule}`), ['6 index-count', '10 index-count']);
    assert.match(found[0].message, /^Bulk target T1 has 5 indexes and 1 enforced foreign key, all created before the INSERT at line 17 that fills it\./);
    assert.match(found[1].message, /^Bulk target T2 has 5 indexes and 1 enforced foreign key, .* T2_A \(A\) is the leading part of T2_D/);
  });

  it('one rule off: the tables\' findings of the other are one, with its figure alone', () => {
    const [f, ...rest] = ofPair({ [FILE]: TABLES }, { rules: { 'enforced-foreign-key': 'off' } });
    assert.deepEqual(rest, []);
    assert.match(f.message, /^2 bulk targets get indexes before the INSERTs that fill them\. .* move the CREATE INDEX statements at lines 4\u201311 after those INSERTs\. Every row they insert adds an entry to each index\. 100,000 inserts took 31\.5 s into the bare table \(Db2 INSERT tips, tests 11 and 31\); 141\.6 s with 4 indexes in force, 73\.8 s in all with the 4 created after them \(tests 35 and 36\)\.$/);
  });

  it('statements next to each other are one range of lines, whatever lies between them', () => {
    assert.equal(statementsText('ALTER TABLE', [{ line: 102, ordinal: 9 }, { line: 107, ordinal: 10 }, { line: 122, ordinal: 12 }]), 'the ALTER TABLE statements at lines 102\u2013107 and 122');
    assert.equal(statementsText('CREATE INDEX', [{ line: 4, ordinal: 4 }]), 'the CREATE INDEX statement at line 4');
  });

  it('merges the advice of 150,000 tables without overflowing the stack (the extent over every part and load)', () => {
    // Math.min(...starts) over 2 spans a table: a 17.8 MB script of 70,000 such tables ended the CLI (internal error).
    const n = 150_000;
    const text = 'x\n'.repeat(2 * n);
    const part = (i: number): Diagnostic => ({
      file: 'up.sql',
      span: { start: 2 * i, end: 2 * i + 1 },
      rule: 'index-count',
      severity: 'warning',
      message: `Bulk target T${i} has 2 indexes.`,
      moveAfterLoad: {
        key: `T${i}`, subject: `Bulk target T${i}`, cost: '2 indexes', part: 'Indexes: 2.', moves: ['the CREATE INDEX statement'], load: 'the INSERT',
        loadSpan: { start: 2 * (n + i), end: 2 * (n + i) + 1 }, table: `T${i}`, loadWord: 'INSERT', kind: 'indexes', perRow: 'adds an entry to each index',
        figure: '141.6 s', baseline: '31.5 s', ddl: [{ words: 'CREATE INDEX', at: [{ line: i + 1, ordinal: i }] }],
      },
    });
    const merged = mergeMovesAfterLoad(Array.from({ length: n }, (_, i) => part(i)), new LineIndex(text));
    assert.equal(merged.length, 1);
    assert.match(merged[0].message, /^150,000 bulk targets get indexes before the INSERTs that fill them\. They are T0 \(filled at line 150,001\), T1 \(line 150,002\), T2 \(line 150,003\), T3 \(line 150,004\) and 149,996 more\./);
    assert.deepEqual(merged[0].extent, { start: 0, end: 4 * n - 1 });
  });
});
