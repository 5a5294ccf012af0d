// Issue 15: an edit re-parses only the statements it touched (sql/incremental.ts) and keeps the workspace's
// schema when no DDL, SET SCHEMA or insert shape changed (SchemaModel.withFileReplaced). The findings of the
// edited file and of the others must be exactly those of a workspace that read the same texts afresh:
// suppression comments, parse errors and merged findings included.
import { strict as assert } from 'node:assert';
import { shapeOf } from '../../server/src/schema/edit-shape';
import { parseSql } from '../../server/src/sql/parser';
import fc from 'fast-check';
import { Workspace } from '../../server/src/engine/workspace';
import { resolveConfig } from '../../server/src/engine/config';
import { allRules } from '../../server/src/engine/registry';
import { firstSentence } from '../../server/src/engine/merge';
import { applyEdit, scriptEdits } from '../helpers/script-edit';

const config = () => resolveConfig(allRules(), { extends: 'insertlint:all' });

const PIECES = [
  'CREATE TABLE S.T (ID INT NOT NULL GENERATED ALWAYS AS IDENTITY, NOTE VARCHAR(20), PRIMARY KEY (ID));\n',
  "INSERT INTO S.T (NOTE) VALUES ('a');\n",
  "INSERT INTO S.T (NOTE) VALUES ('b');\n",
  "INSERT INTO S.T (NOTE) VALUES ('c'), ('d');\n",
  'INSERT INTO S.T (NOTE)\n  VALUES (?);\n',
  "INSERT INTO T (NOTE) VALUES ('unqualified');\n",
  '-- insertlint-disable-next-line single-row-insert\n',
  '-- insertlint-disable no-autocommit\n',
  '/* block comment */\n',
  'SET SCHEMA S;\n',
  'COMMIT;\n',
  'CREATE INDEX S.I ON S.T (NOTE) CLUSTER;\n',
  'INSERT INTO S.T (NOTE) VALUES (NEXT VALUE FOR S.Q);\n',
  'CREATE SEQUENCE S.Q CACHE 5;\n',
  'INSERT INTO S.T (NOTE) SELECT NOTE FROM S.U;\n',
  'ALTER TABLE S.T APPEND ON;\n',
  'INSERT INTO S.T NOTE VALUES (;\n',
  'LOCK TABLE S.T IN EXCLUSIVE MODE;\n',
  'CONNECT TO DB1;\n',
  // Names a column S.T lacks: it fills another version of the table, and drops out of S.T's inserts.
  'INSERT INTO S.T (NOTE, GONE) SELECT NOTE, 1 FROM S.U;\n',
];
const INSERTS = ['x', ' ', '\n', ';', "'", '--', '/*', '*/', '(', ')', ',', '?', "'z'", 'INSERT INTO S.T (NOTE) VALUES (1);\n', 'SET SCHEMA R;\n', 'CACHE 20 ', 'GONE, '];

// Another linted file, and a schema file whose findings are placed on the inserts into its tables. R.T beside
// S.T: an unqualified T is resolved through the SET SCHEMA in force.
const OTHER = "SET SCHEMA S;\nINSERT INTO T (NOTE) VALUES ('other');\nINSERT INTO T (NOTE) VALUES ('other 2');\nCREATE TABLE S.U (NOTE VARCHAR(20));\nCREATE TABLE R.T (NOTE VARCHAR(20), X INT NOT NULL GENERATED ALWAYS AS IDENTITY (NO CACHE));\n";
const SCHEMA_FILE = 'CREATE INDEX S.X1 ON S.T (NOTE) CLUSTER;\nCREATE INDEX S.X2 ON S.T (ID);\nCREATE INDEX R.X3 ON R.T (NOTE);\nCREATE SEQUENCE S.Q NO CACHE;\nALTER TABLE R.T LOCKSIZE TABLE;\n';

function workspace(text: string, keepPieces = false): Workspace {
  const ws = new Workspace(config());
  ws.keepPieces = keepPieces;
  ws.setSchemaFile('/w/schema.ddl', SCHEMA_FILE);
  ws.setFile('/w/a.sql', text);
  ws.setFile('/w/b.sql', OTHER);
  return ws;
}

describe('engine: edits analysed incrementally', () => {
  it('give the findings of a fresh workspace, in the edited file and the others', () => {
    let kept = 0;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 20 }),
        scriptEdits(INSERTS, 10, 6),
        (pieces, edits) => {
          let text = pieces.join('');
          // As the language server keeps it: rules about runs re-check only the pieces an edit touched.
          const ws = workspace(text, true);
          ws.diagnostics('/w/a.sql');
          ws.diagnostics('/w/b.sql');
          for (const e of edits) {
            const edited = applyEdit(text, e);
            text = edited.text;
            const schemaBefore = ws.schema;
            // Half the edits say where they changed the text, as the language server does.
            ws.setFile('/w/a.sql', text, 'sql', e.told ? edited.change : undefined);
            const fresh = workspace(text);
            assert.deepEqual(ws.diagnostics('/w/a.sql'), fresh.diagnostics('/w/a.sql'), `edited file after ${JSON.stringify(e)}: ${JSON.stringify(text)}`);
            assert.deepEqual(ws.diagnostics('/w/b.sql'), fresh.diagnostics('/w/b.sql'), 'other file');
            if (ws.schema !== schemaBefore && Object.getPrototypeOf(ws.schema) === Object.getPrototypeOf(schemaBefore) && ws.schema.tables === schemaBefore.tables) kept++;
          }
        },
      ),
      { numRuns: 250 },
    );
    // The schema must often be kept, or this tests only the rebuild.
    assert.ok(kept > 100, `schema kept only ${kept} times`);
  });

  it('keeps the schema for a keystroke in VALUES and builds it again for a DDL edit', () => {
    const ws = new Workspace(config());
    const text = "CREATE TABLE S.T (ID INT, NOTE VARCHAR(20));\n" + Array.from({ length: 50 }, (_, i) => `INSERT INTO S.T (ID, NOTE) VALUES (${i}, 'n');\n`).join('');
    ws.setFile('/w/a.sql', text);
    const first = ws.schema;
    const typed = text.replace("(25, 'n')", "(25, 'nx')");
    ws.setFile('/w/a.sql', typed);
    assert.equal(ws.schema.tables, first.tables, 'schema kept');
    assert.notEqual(ws.schema, first, 'a new schema object (caches keyed by the model are stale)');
    // The edited statements are new objects: the schema knows the SET SCHEMA in force at them.
    const unqualified = 'SET SCHEMA S;\n' + typed.replace("INSERT INTO S.T (ID, NOTE) VALUES (30,", "INSERT INTO T (ID, NOTE) VALUES (30,");
    ws.setFile('/w/a.sql', unqualified);
    const edited = unqualified.replace('VALUES (30,', 'VALUES (31,');
    const kept = ws.schema;
    const model = ws.setFile('/w/a.sql', edited)!;
    assert.equal(ws.schema.tables, kept.tables, 'schema kept');
    const insert = model.statements.find((s) => s.kind === 'insert' && s.target.schema === undefined)!;
    assert.ok(insert.kind === 'insert');
    assert.equal(ws.schema.keyOf(insert.target, insert), 'S.T');
    assert.equal(ws.schema.insertTarget(insert.target, insert)?.sites.filter((site) => site.stmt === insert).length, 1, 'its insert site is the new statement');
    ws.setFile('/w/a.sql', typed.replace('NOTE VARCHAR(20)', 'NOTE VARCHAR(30)'));
    assert.notEqual(ws.schema.tables, first.tables, 'schema built again');
    ws.setFile('/w/a.sql', typed.replace('(25,', 'SET SCHEMA X;\n(25,'));
    assert.notEqual(ws.schema.tables, first.tables);
  });

  it('takes an INSERT … SELECT reading another table for another shape (a copy of seed rows or a load)', () => {
    const [a, b] = parseSql('INSERT INTO S.T SELECT A FROM S.SEED;\nINSERT INTO S.T SELECT A FROM S.STAGE;\n').statements;
    assert.notEqual(shapeOf(a), shapeOf(b));
    const [c] = parseSql('INSERT  INTO S.T SELECT A  FROM S.SEED;\n').statements;
    assert.equal(shapeOf(a), shapeOf(c));
  });

  it('takes an INSERT without a column list giving another number of values for another shape (another version)', () => {
    const [a, b, c, d] = parseSql('INSERT INTO S.T SELECT A FROM S.STAGE;\nINSERT INTO S.T SELECT A, B FROM S.STAGE;\nINSERT INTO S.T VALUES (?, ?);\nINSERT INTO S.T VALUES (?, ?, ?);\n').statements;
    assert.notEqual(shapeOf(a), shapeOf(b));
    assert.notEqual(shapeOf(c), shapeOf(d));
    const [e] = parseSql('INSERT INTO S.T SELECT X, Y FROM S.STAGE;\n').statements;
    assert.equal(shapeOf(b), shapeOf(e));
  });
});

describe('engine: a one-pass workspace (keepForEdits false, as the CLI runs)', () => {
  it('keeps no read state: an edited script is read afresh, with the findings of a fresh workspace', () => {
    const text = "CREATE TABLE S.T (ID INT, NOTE VARCHAR(20));\n" + Array.from({ length: 20 }, (_, i) => `INSERT INTO S.T (ID, NOTE) VALUES (${i}, 'n');\n`).join('');
    const typed = text.replace("(15, 'n')", "(15, 'nx')");
    const read = (keepForEdits: boolean) => {
      const ws = new Workspace(config());
      ws.keepForEdits = keepForEdits;
      const before = ws.setFile('/w/a.sql', text)!;
      const after = ws.setFile('/w/a.sql', typed)!;
      return { ws, reused: after.statements[0] === before.statements[0] };
    };
    const editor = read(true);
    const oneShot = read(false);
    assert.ok(editor.reused, 'the editor re-parses only the edited statement');
    assert.ok(!oneShot.reused, 'without read state the script is parsed again whole');
    const fresh = new Workspace(config());
    fresh.setFile('/w/a.sql', typed);
    assert.deepEqual(oneShot.ws.diagnostics('/w/a.sql'), fresh.diagnostics('/w/a.sql'));
    assert.deepEqual(editor.ws.diagnostics('/w/a.sql'), fresh.diagnostics('/w/a.sql'));
    // The rules' index of the statements by kind stays with the model for the editor's next analysis only.
    assert.ok(editor.ws.model('/w/a.sql')!.statementIndex, 'kept for the editor');
    assert.equal(oneShot.ws.model('/w/a.sql')!.statementIndex, undefined, 'dropped after the rules in one pass');
    assert.deepEqual(oneShot.ws.diagnostics('/w/a.sql'), fresh.diagnostics('/w/a.sql'), 'asked again: the same');
  });
});

describe('engine: firstSentence', () => {
  it('cuts where the regular expression it replaced did', () => {
    const byRegex = (m: string) => {
      const match = /^.*?[.!?](?=\s|$)/s.exec(m);
      return (match ? match[0] : m).trim();
    };
    const chars = fc.constantFrom('a', 'B', ' ', '.', '!', '?', '\n', '\t', '\u00a0', '\u2003', '1', 'e.g.', '180.6 s');
    fc.assert(fc.property(fc.array(chars, { maxLength: 30 }).map((a) => a.join('')), (m) => assert.equal(firstSentence(m), byRegex(m))), { numRuns: 2000 });
  });
});
