// Issue 15: a rule about runs of statements (Rule.endsRun) checks a script piece by piece and keeps a piece's
// findings while its statements are the same objects (engine/segments.ts). After any edit the findings must be
// exactly those of the whole script checked at once, in a workspace that read the text afresh.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { Workspace } from '../../server/src/engine/workspace';
import { resolveConfig } from '../../server/src/engine/config';
import { RULES } from '../../server/src/engine/registry';
import type { RegisteredRule } from '../../server/src/engine/types';
import { applyEdit, scriptEdits } from '../helpers/script-edit';

const config = () => resolveConfig(RULES.map((r) => r.rule), { extends: 'insertlint:all' });

/** The catalogue with every rule checked whole (no endsRun): what the pieces must add up to. */
const WHOLE: RegisteredRule[] = RULES.map((r) => (r.rule.endsRun ? { ...r, rule: { meta: r.rule.meta, check: r.rule.check } } : r));

/** The catalogue as shipped, counting the statements each piece-wise rule is handed. */
function counted(): { rules: RegisteredRule[]; checked: { statements: number } } {
  const checked = { statements: 0 };
  const rules = RULES.map((r) => {
    if (!r.rule.endsRun) return r;
    const { meta, check, endsRun } = r.rule;
    return { ...r, rule: { meta, endsRun, check: (context: Parameters<typeof check>[0]) => { checked.statements += context.file.statements.length; check(context); } } };
  });
  return { rules, checked };
}

const PIECES = [
  "INSERT INTO S.T (NOTE) VALUES ('a');\n",
  "INSERT INTO S.T (NOTE) VALUES ('b');\n",
  "INSERT INTO S.T (NOTE) VALUES ('c');\n",
  'INSERT INTO S.T (NOTE) VALUES (?);\n',
  "INSERT INTO R.T (NOTE) VALUES ('r');\n",
  "INSERT INTO T (NOTE) VALUES ('unqualified');\n",
  "INSERT INTO S.T (NOTE)\n  VALUES ('d'), ('e');\n",
  'COMMIT;\n',
  '\n',
  '-- a comment\n',
  '-- insertlint-disable-next-line single-row-insert\n',
  '/* block\n comment */\n',
  'SET SCHEMA S;\n',
  "INSERT INTO S.T NOTE VALUES (;\n",
  'CREATE TABLE S.T (ID INT NOT NULL GENERATED ALWAYS AS IDENTITY, NOTE VARCHAR(20));\n',
];
const INSERTS = ['x', ' ', '\n', ';', "'", '--', '/*', '*/', '(', ')', ',', "'z'", 'COMMIT;\n', "INSERT INTO S.T (NOTE) VALUES (1);\n", "INSERT INTO S.T (NOTE) VALUES (1), (2);\n"];

describe('engine: rules about runs checked piece by piece', () => {
  it('give the findings of the whole script checked at once, after any edit', () => {
    let statements = 0;
    let checked = 0;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 40 }),
        scriptEdits(INSERTS, 6, 8),
        (pieces, edits) => {
          let text = pieces.join('');
          const count = counted();
          const ws = new Workspace(config(), [], count.rules);
          ws.keepPieces = true;
          ws.setFile('/w/a.sql', text);
          ws.diagnostics('/w/a.sql');
          for (const e of edits) {
            const edited = applyEdit(text, e);
            const sameLines = !/\n/.test(e.insert + edited.removed);
            text = edited.text;
            const model = ws.setFile('/w/a.sql', text, 'sql', e.told ? edited.change : undefined);
            const before = count.checked.statements;
            const found = ws.diagnostics('/w/a.sql');
            // (An edit that changed the schema, or the lines of what follows it, which messages name, checks
            // everything again, or everything after it: counted are the other edits.)
            if (ws.lastEditKeptSchema && sameLines) {
              statements += model!.statements.length;
              checked += count.checked.statements - before;
            }
            const whole = new Workspace(config(), [], WHOLE);
            whole.setFile('/w/a.sql', text);
            assert.deepEqual(found, whole.diagnostics('/w/a.sql'), `after ${JSON.stringify(e)}: ${JSON.stringify(text)}`);
          }
        },
      ),
      { numRuns: 300 },
    );
    // Many pieces must be kept, or this tests only checking afresh (the pieces of these scripts are short, and
    // an edit re-parses the two statements before it: 60% were checked again when written). The edits counted
    // vary with fast-check's seed: 969 statements in one run, so the floor is 500.
    assert.ok(statements > 500 && checked < statements * 0.75, `${checked} of ${statements} statements checked again`);
  });

  it('checks again only the piece a keystroke is in', () => {
    const rows = Array.from({ length: 200 }, (_, i) => (i % 10 === 9 ? `INSERT INTO S.T (NOTE) VALUES ('${i}'), ('x');\n` : `INSERT INTO S.T (NOTE) VALUES ('${i}');\n`));
    let text = rows.join('');
    const count = counted();
    const ws = new Workspace(config(), [], count.rules);
    ws.keepPieces = true;
    ws.setFile('/w/a.sql', text);
    const runs = ws.diagnostics('/w/a.sql').filter((d) => d.rule === 'single-row-insert' || d.mergedRules?.includes('single-row-insert'));
    assert.equal(runs.length, 20);
    const at = text.indexOf("('105')") + 1;
    text = text.slice(0, at) + ' ' + text.slice(at);
    const before = count.checked.statements;
    ws.setFile('/w/a.sql', text, 'sql', { start: at, oldEnd: at, newEnd: at + 1 });
    const after = ws.diagnostics('/w/a.sql');
    assert.equal(count.checked.statements - before, 10, 'the ten statements of the edited piece');
    const whole = new Workspace(config(), [], WHOLE);
    whole.setFile('/w/a.sql', text);
    assert.deepEqual(after, whole.diagnostics('/w/a.sql'));
  });
});
