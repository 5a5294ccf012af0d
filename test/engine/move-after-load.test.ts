// One remedy, one finding (engine/merge.ts mergeMovesAfterLoad): an upgrade step that creates a table's indexes and
// adds its foreign keys, then fills it with one INSERT … SELECT (Flowable's 6001-to-6002 step), gets one finding
// that names both costs with their figures and every statement to move, not one per rule with the same advice.
import * as assert from 'node:assert/strict';
import { lint, lintWorkspace } from '../helpers/rule-tester';
import { Repo, runCli, onlyRules } from '../ci/repo';
import { sarifValidator } from '../helpers/sarif';
import { UPGRADE_STEP as STEP } from '../helpers/upgrade-step';

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
