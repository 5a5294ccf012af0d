// The language server's pure parts: the hovers, suppression edits, settings, model queries.
import { strict as assert } from 'node:assert';
import { sequenceHoverMarkdown, tableHoverMarkdown } from '../../server/src/lsp/insert-cost';
import { commentSyntax, disableForFileEdit, disableForLineEdit } from '../../server/src/lsp/suppress-edits';
import { readSettings } from '../../server/src/lsp/settings';
import { debounceFor, DocumentScheduler, isInstant, isKeystroke, INSTANT_ANALYSIS_MS, typicalAnalysisMs } from '../../server/src/lsp/scheduler';
import { changedNames, dependentFiles, fileNames, schemaFacts, statementText, nameAt, statementAt } from '../../server/src/lsp/model-queries';
import { buildFileModel } from '../../server/src/engine/workspace-files';
import { LineIndex } from '../../server/src/engine/lines';
import { SchemaModel } from '../../server/src/schema/schema';
import type { FileLanguage, FileModel } from '../../server/src/engine/types';
import { toLspDiagnostic } from '../../server/src/lsp/lsp-convert';
import { lintWorkspace } from '../helpers/rule-tester';
import { UnreadChanges } from '../../server/src/lsp/text-changes';
import { IndexStopNotice } from '../../server/src/lsp/index-stop';
import { DEFAULT_SETTINGS } from '../../server/src/lsp/settings';
import { TextDocument } from 'vscode-languageserver-textdocument';

function model(text: string, language: FileLanguage = 'sql', path = 'x.sql'): FileModel {
  return buildFileModel({ path, text, language });
}

describe('table and sequence hovers (Db2 INSERT tips, Appendix A, through the shared cost table)', () => {
  const ddl = `CREATE TABLE P (ID INT NOT NULL PRIMARY KEY);
CREATE TABLE T (ID INT GENERATED ALWAYS AS IDENTITY (CACHE 50), P INT, D CLOB(1K),
  FOREIGN KEY (P) REFERENCES P (ID), CHECK (P > 0));
CREATE INDEX T1 ON T (P) CLUSTER;
CREATE INDEX T2 ON T (ID);
CREATE TRIGGER TR AFTER INSERT ON T REFERENCING NEW AS N FOR EACH ROW INSERT INTO P VALUES (N.ID);
CREATE TABLE BARE (A INT);
CREATE SEQUENCE S NO CACHE;`;
  const schema = SchemaModel.build([model(ddl)]);

  it('lists what a table adds per row with the factor and the test it comes from', () => {
    const md = tableHoverMarkdown(schema.tableByKey('.T')!, schema);
    assert.match(md, /\*\*Table T\*\* — what one insert costs/);
    assert.match(md, /\| Indexes \| 2 \(T1, T2\) \| 2\.6x \| Db2 INSERT tips, test 33 vs 31: 2 indexes \|/);
    assert.match(md, /\| Clustering index \| T1 \| 2\.0x \| Db2 INSERT tips, test 38 vs 31/);
    assert.match(md, /\| Enforced foreign keys \| 1 \(parent P\) \| 1\.8x \| Db2 INSERT tips, test 14 vs 11/);
    assert.match(md, /\| Check constraints \| 1 \| 1\.1x \| Db2 INSERT tips, test 12 vs 11/);
    assert.match(md, /\| INSERT triggers \| 1 \(TR\) \| 2\.1x \| Db2 INSERT tips, test 18 vs 11/);
    assert.match(md, /\| LOB columns \| 1 \(D CLOB\) \| 9\.1x \| Db2 INSERT tips, test 91 vs 11/);
    assert.match(md, /\| Identity cache \| ID: CACHE 50 \| 2\.0x–3\.1x \| Db2 INSERT tips, tests 45 and 44 vs 41/);
    assert.doesNotMatch(md, /REFRESH IMMEDIATE/, 'kinds of work the table lacks are left out');
  });

  it('says a bare table adds nothing, and prices a sequence like an identity', () => {
    assert.match(tableHoverMarkdown(schema.tableByKey('.BARE')!, schema), /Nothing here adds work per inserted row/);
    const sequence = schema.sequence({ name: 'S', span: { start: 0, end: 0 } })!;
    assert.match(sequenceHoverMarkdown(sequence), /\*\*Sequence S\*\*, NO CACHE[\s\S]*28x \(Db2 INSERT tips, test 42 vs 41: identity NO CACHE; sequences measured alike in tests 47-51\)/);
  });
});

describe('suppression comment edits', () => {
  it('uses each language\'s comment syntax', () => {
    assert.equal(commentSyntax('sql').open, '--');
    assert.equal(commentSyntax('java').open, '//');
    assert.equal(commentSyntax('python').open, '#');
    assert.equal(commentSyntax('shell').open, '#');
    assert.deepEqual(commentSyntax('embedded-sql'), { open: '/*', close: ' */' });
  });

  it('inserts a next-line directive with the line\'s indentation, or extends one that is there', () => {
    const text = 'CREATE TABLE T (\n    ID INT\n);\n';
    const m = model(text);
    const edit = disableForLineEdit(m, new LineIndex(text), 'rule-a', 1);
    assert.deepEqual(edit, { span: { start: 17, end: 17 }, newText: '    -- insertlint-disable-next-line rule-a\n' });
    const withDirective = 'CREATE TABLE T (\n  -- insertlint-disable-next-line rule-a\n  ID INT\n);\n';
    const m2 = model(withDirective);
    const extend = disableForLineEdit(m2, new LineIndex(withDirective), 'rule-b', 2);
    const applied = withDirective.slice(0, extend.span.start) + extend.newText + withDirective.slice(extend.span.end);
    assert.match(applied, /-- insertlint-disable-next-line rule-a, rule-b\n {2}ID INT/);
  });

  it('names every rule of a merged finding in one directive, and adds only the missing ones to a directive there', () => {
    const text = 'INSERT INTO T VALUES (1);\n';
    const edit = disableForLineEdit(model(text), new LineIndex(text), ['rule-a', 'rule-b', 'rule-c'], 0);
    assert.deepEqual(edit, { span: { start: 0, end: 0 }, newText: '-- insertlint-disable-next-line rule-a, rule-b, rule-c\n' });
    const withDirective = '-- insertlint-disable-next-line rule-b\nINSERT INTO T VALUES (1);\n';
    const extend = disableForLineEdit(model(withDirective), new LineIndex(withDirective), ['rule-a', 'rule-b', 'rule-c'], 1);
    const applied = withDirective.slice(0, extend.span.start) + extend.newText + withDirective.slice(extend.span.end);
    assert.equal(applied.split('\n')[0], '-- insertlint-disable-next-line rule-b, rule-a, rule-c');
    const file = disableForFileEdit(model(text), new LineIndex(text), ['rule-a', 'rule-b']);
    assert.equal(file.newText, '-- insertlint-disable-file rule-a, rule-b\n');
  });

  it('puts a file directive first, after a shebang, keeping CRLF line ends', () => {
    const text = '#!/bin/sh\r\ndb2 "INSERT INTO T VALUES (1)"\r\n';
    const m = model(text, 'shell', 'load.sh');
    const edit = disableForFileEdit(m, new LineIndex(text), 'single-row-insert');
    assert.deepEqual(edit, { span: { start: 11, end: 11 }, newText: '# insertlint-disable-file single-row-insert\r\n' });
  });
});

describe('language server settings', () => {
  it('falls back to defaults for bad values and says why', () => {
    const problems: string[] = [];
    const s = readSettings({ index: { maxFiles: -3, maxFileKilobytes: 10 }, diagnostics: { scope: 'openFiles' }, ignore: 'x' }, problems);
    assert.equal(s.index.maxFiles, 5000);
    assert.equal(s.index.maxFileBytes, 10 * 1024);
    assert.equal(s.diagnosticsScope, 'openFiles');
    assert.deepEqual(s.ignore, []);
    assert.equal(problems.length, 2);
    assert.deepEqual(readSettings(null).index, readSettings({}).index);
  });

  it('reads insertlint.fileTimeBudget in seconds, within 0.5 to 60 (the nearest bound otherwise, saying so)', () => {
    const budget = (value: unknown) => {
      const problems: string[] = [];
      return { ms: readSettings({ fileTimeBudget: value }, problems).fileBudgetMs, problems };
    };
    assert.deepEqual(budget(10), { ms: 10_000, problems: [] });
    assert.deepEqual(budget(1.5), { ms: 1500, problems: [] });
    assert.deepEqual(budget(undefined), { ms: undefined, problems: [] });
    assert.deepEqual(budget(0.01), { ms: 500, problems: ['insertlint.fileTimeBudget must be from 0.5 to 60 seconds; using 0.5'] });
    assert.deepEqual(budget(600), { ms: 60_000, problems: ['insertlint.fileTimeBudget must be from 0.5 to 60 seconds; using 60'] });
    assert.deepEqual(budget('10'), { ms: undefined, problems: ['insertlint.fileTimeBudget must be a number of seconds from 0.5 to 60; using the default'] });
  });
});

describe('model queries', () => {
  it('sees a DDL change as a change of that table, and an edit inside VALUES as none', () => {
    const a = schemaFacts(model("CREATE TABLE T (ID INT);\nINSERT INTO T VALUES (1, 'a');"));
    const b = schemaFacts(model("CREATE TABLE T (ID INT);\nINSERT INTO T VALUES (2, 'bb');"));
    const c = schemaFacts(model("CREATE TABLE T (ID INT, X INT);\nINSERT INTO T VALUES (2, 'bb');"));
    assert.deepEqual([...changedNames(a, b)], []);
    assert.deepEqual([...changedNames(b, c)], ['T']);
  });

  it('sees a change of what the schema folds from an INSERT or MERGE as a change of its table, and a value typed as none', () => {
    const facts = (sql: string) => schemaFacts(model(sql));
    const changed = (a: string, b: string) => [...changedNames(facts(a), facts(b))].sort();
    // A value typed or changed: the schema is kept (SchemaModel.withFileReplaced), no other file is re-published.
    assert.deepEqual(changed("INSERT INTO T (A) VALUES ('x');", "INSERT INTO T (A) VALUES ('xy');"), []);
    assert.deepEqual(changed('INSERT INTO T (A) VALUES (?);', 'INSERT INTO T (A) VALUES (:a);'), []);
    // Literal rows become rows at run time (reference data no more), and back.
    assert.deepEqual(changed("INSERT INTO T (A) VALUES ('x');", 'INSERT INTO T (A) VALUES (?);'), ['T']);
    // The table a copy reads: its target's findings too (a copy of reference data is no load).
    assert.deepEqual(changed('INSERT INTO T (A) SELECT A FROM S;', 'INSERT INTO T (A) SELECT A FROM R;'), ['R', 'S', 'T']);
    // A MERGE's source: rows given, or a query.
    assert.deepEqual(changed('MERGE INTO T D USING (VALUES (?)) S (A) ON D.A = S.A WHEN NOT MATCHED THEN INSERT (A) VALUES (S.A);', 'MERGE INTO T D USING (SELECT A FROM R) S ON D.A = S.A WHEN NOT MATCHED THEN INSERT (A) VALUES (S.A);'), ['T']);
    // LOCK TABLE's mode (the schema reads it).
    assert.deepEqual(changed('LOCK TABLE T IN SHARE MODE;', 'LOCK TABLE T IN EXCLUSIVE MODE;'), ['T']);
  });

  it('re-publishes the files that mention a changed table, or a table copied into from one', () => {
    const files = [
      { key: 'ddl', names: fileNames(model('CREATE TABLE T (A INT);\nCREATE INDEX TX ON T (A) CLUSTER;')) },
      { key: 'copy', names: fileNames(model('INSERT INTO T (A) SELECT A FROM CODES;')) },
      { key: 'codes', names: fileNames(model("CREATE TABLE CODES (A INT);\nINSERT INTO CODES VALUES (1);")) },
      { key: 'other', names: fileNames(model('INSERT INTO U VALUES (1);')) },
    ];
    // The rows of CODES changed: T's copy of them may be a load now, and T's DDL findings with it.
    assert.deepEqual(dependentFiles(files, new Set(['CODES'])), ['ddl', 'copy', 'codes']);
    assert.deepEqual(dependentFiles(files, new Set(['U'])), ['other']);
    assert.deepEqual(dependentFiles(files, new Set(['*'])), ['ddl', 'copy', 'codes', 'other']);
    assert.deepEqual(dependentFiles(files, new Set(['V'])), []);
  });

  it('sees a change of the methods a Java file calls in loops as a change for any file (cross-file loops)', () => {
    const java = (call: string) => model(`public class P {\n  TradeServices ts;\n  void run(int n) throws Exception {\n    for (int i = 0; i < n; i++) ts.${call}(i);\n  }\n}\n`, 'java', 'P.java');
    const code = (m: FileModel) => ({ ...m, code: { executions: [], commits: [], loopCalls: [{ name: m.source.text.includes('createQuote') ? 'createQuote' : 'register', type: 'TradeServices', loop: { span: { start: 0, end: 0 }, kind: 'for' }, guarded: false }] } });
    const a = schemaFacts(code(java('createQuote')));
    assert.deepEqual([...changedNames(a, schemaFacts(code(java('createQuote'))))], []);
    assert.deepEqual([...changedNames(a, schemaFacts(code(java('register'))))], ['*']);
  });

  it('finds the table name at an offset', () => {
    const text = 'INSERT INTO S.ORDERS VALUES (1);';
    const m = model(text);
    assert.equal(nameAt(m, text.indexOf('ORDERS') + 2)?.name.name, 'ORDERS');
    assert.equal(nameAt(m, text.indexOf('VALUES') + 2), undefined);
    assert.equal(statementText(m, m.statements[0]), 'INSERT INTO S.ORDERS VALUES (1)');
  });
});

describe('the workspace index stopped by a cap (index-stop.ts)', () => {
  it('says so once per outcome: again after a pass that read everything, or under another cap; a raised cap indexes again', () => {
    const shown: string[] = [];
    const notice = new IndexStopNotice((m) => shown.push(m));
    const stop = { setting: 'maxFiles' as const, limit: 3, indexed: 3, total: 5 };
    notice.passEnded(stop);
    notice.passEnded({ ...stop, total: 6 });
    assert.equal(shown.length, 1, 'the same cap in force: nothing new to do');
    notice.passEnded(undefined);
    notice.passEnded(stop);
    assert.equal(shown.length, 2, 'stopped again after a pass that read everything');
    notice.passEnded({ setting: 'maxTotalMegabytes', limit: 1048576, indexed: 2, total: 5 });
    assert.equal(shown.length, 3);
    assert.match(shown[2], /^InsertLint indexed 2 of the workspace's 5 files and stopped: it read 1 MB of source text, insertlint\.index\.maxTotalMegabytes\. .* the other 3 files /);
    const settings = (index: Partial<typeof DEFAULT_SETTINGS.index>) => ({ ...DEFAULT_SETTINGS, index: { ...DEFAULT_SETTINGS.index, ...index } });
    assert.equal(notice.raised(settings({ maxTotalBytes: 1048576, maxFiles: 100 })), false, 'another cap raised');
    assert.equal(notice.raised(settings({ maxTotalBytes: 2 * 1048576 })), true);
    assert.equal(notice.raised(settings({ maxTotalBytes: 2 * 1048576, enabled: false })), false, 'the index off');
    notice.passEnded(undefined);
    assert.equal(notice.raised(settings({ maxTotalBytes: 2 * 1048576 })), false, 'nothing left out');
  });
});

describe('adaptive debounce (issue 15)', () => {
  it('none for a keystroke in a quickly analysed document; the analysis time, up to the setting, in a slow one; the setting for a paste', () => {
    const at = (line: number, character: number) => ({ line, character });
    const typed = [{ range: { start: at(3, 4), end: at(3, 4) }, text: 'x' }];
    const deleted = [{ range: { start: at(3, 4), end: at(3, 5) }, text: '' }];
    const pasted = [{ range: { start: at(3, 4), end: at(3, 4) }, text: 'INSERT INTO T VALUES (1);' }];
    const joined = [{ range: { start: at(3, 4), end: at(4, 0) }, text: '' }];
    assert.equal(isKeystroke(typed), true);
    assert.equal(isKeystroke(deleted), true);
    assert.equal(isKeystroke(pasted), false);
    assert.equal(isKeystroke(joined), false);
    assert.equal(isKeystroke([...typed, ...typed]), false, 'multi-cursor');
    assert.equal(isKeystroke([{ text: 'whole document' }]), false);
    assert.equal(debounceFor({ keystroke: true }, undefined, 150), 0);
    assert.equal(debounceFor({ keystroke: true }, INSTANT_ANALYSIS_MS - 1, 150), 0);
    assert.equal(debounceFor({ keystroke: true }, INSTANT_ANALYSIS_MS + 20, 150), INSTANT_ANALYSIS_MS + 20);
    assert.equal(isInstant({ keystroke: true }, INSTANT_ANALYSIS_MS - 1), true);
    assert.equal(isInstant({ keystroke: true }, INSTANT_ANALYSIS_MS), false);
    assert.equal(isInstant({ keystroke: false }, 1), false, 'a paste is never instant');
    assert.equal(debounceFor({ keystroke: true }, 900, 150), 150);
    assert.equal(debounceFor({ keystroke: false }, 1, 150), 150);
    assert.equal(debounceFor(undefined, 1, 150), 150);
    assert.equal(debounceFor({ keystroke: true }, 900, 0), 0, 'debounceMs 0 still means none');
  });

  it('keeps runs an analysis apart, but for an instant keystroke', () => {
    const scheduler = new DocumentScheduler(() => {
      const until = performance.now() + 60;
      while (performance.now() < until) {
        // busy: an analysis of 60 ms
      }
    });
    scheduler.schedule('u', 1, 0);
    scheduler.flush('u');
    assert.equal(scheduler.schedule('u', 2, 0), 0, 'one analysis is no pace yet (the first runs cold)');
    scheduler.flush('u');
    assert.ok(scheduler.schedule('u', 3, 0) >= 50, 'the next run waits until an analysis after the last');
    assert.equal(scheduler.schedule('u', 4, 0, false), 0, 'an instant keystroke does not');
    assert.equal(scheduler.schedule('u', 5, 20, false), 20, 'its debounce still counts');
    scheduler.cancelAll();
  });

  it('takes a document to be as slow as the shorter of its last two analyses (one slow analysis is an event)', () => {
    assert.equal(typicalAnalysisMs(300, 8), 8);
    assert.equal(typicalAnalysisMs(120, 300), 120);
    const durations = [2, INSTANT_ANALYSIS_MS * 3, 2, INSTANT_ANALYSIS_MS * 2, INSTANT_ANALYSIS_MS * 2];
    let run = 0;
    const scheduler = new DocumentScheduler(() => {
      const until = performance.now() + durations[run++];
      while (performance.now() < until) {
        // busy: an analysis
      }
    });
    const seen: number[] = [];
    for (let v = 1; v <= durations.length; v++) {
      scheduler.schedule('u', v, 0);
      scheduler.flush('u');
      seen.push(scheduler.lastAnalysisMs('u')!);
    }
    scheduler.cancelAll();
    assert.equal(seen[0], undefined, 'one analysis is no pace yet');
    assert.ok(seen[1] < INSTANT_ANALYSIS_MS, `after a quick and a slow analysis: ${seen[1]} ms (keystrokes stay instant)`);
    assert.ok(seen[2] < INSTANT_ANALYSIS_MS, `${seen[2]}`);
    assert.ok(seen[4] >= INSTANT_ANALYSIS_MS * 2, `after two slow analyses: ${seen[4]} ms`);
    // Time a run says it spent on the workspace (a schema rebuild) is not the document's.
    const rebuilding = new DocumentScheduler(() => {
      const until = performance.now() + INSTANT_ANALYSIS_MS * 2;
      while (performance.now() < until) {
        // busy: rebuilding the schema
      }
      return INSTANT_ANALYSIS_MS * 2;
    });
    for (let v = 1; v <= 2; v++) {
      rebuilding.schedule('u', v, 0);
      rebuilding.flush('u');
    }
    assert.ok(rebuilding.lastAnalysisMs('u')! < INSTANT_ANALYSIS_MS, `${rebuilding.lastAnalysisMs('u')} ms`);
  });

  it('does not take the analysis of a document just opened for its pace', () => {
    const durations = [INSTANT_ANALYSIS_MS * 2, 2, 2];
    let run = 0;
    const scheduler = new DocumentScheduler(() => {
      const until = performance.now() + durations[run++];
      while (performance.now() < until) {
        // busy: an analysis
      }
    });
    scheduler.schedule('u', 1, 0, true, false);
    scheduler.flush('u');
    assert.equal(scheduler.lastAnalysisMs('u'), undefined, 'no pace yet');
    assert.equal(debounceFor({ keystroke: true }, scheduler.lastAnalysisMs('u'), 150), 0, 'the first keystroke is analysed at once');
    assert.equal(scheduler.schedule('u', 2, 0, false), 0);
    scheduler.flush('u');
    assert.equal(scheduler.schedule('u', 3, 0, false), 0);
    scheduler.flush('u');
    assert.ok(scheduler.lastAnalysisMs('u')! < INSTANT_ANALYSIS_MS, `${scheduler.lastAnalysisMs('u')} ms`);
    scheduler.cancelAll();
  });
});

describe('pace per kind of edit (issue 15)', () => {
  const busy = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until) {
      // busy: an analysis
    }
  };

  it('times analyses per kind of statement edited: two slow CREATE TABLE edits leave a keystroke in an INSERT instant', () => {
    const durations = [2, 2, INSTANT_ANALYSIS_MS * 2, INSTANT_ANALYSIS_MS * 2, 2];
    let run = 0;
    const scheduler = new DocumentScheduler(() => busy(durations[run++]));
    const kinds = ['insert', 'insert', 'createTable', 'createTable'];
    kinds.forEach((kind, i) => {
      scheduler.schedule('u', i + 1, 0, true, true, kind);
      scheduler.flush('u');
    });
    assert.ok(scheduler.lastAnalysisMs('u', 'createTable')! >= INSTANT_ANALYSIS_MS * 2, `${scheduler.lastAnalysisMs('u', 'createTable')}`);
    const insertMs = scheduler.lastAnalysisMs('u', 'insert');
    assert.ok(insertMs! < INSTANT_ANALYSIS_MS, `${insertMs}`);
    assert.ok(isInstant({ keystroke: true, statementKind: 'insert' }, insertMs), 'the keystroke after the DDL edits is analysed at once');
    assert.ok(scheduler.schedule('u', 5, 0, true, true, 'insert') < INSTANT_ANALYSIS_MS, 'nor kept a DDL analysis apart');
    scheduler.cancelAll();
  });

  it('a run for edits of two kinds sets neither pace', () => {
    const scheduler = new DocumentScheduler(() => busy(INSTANT_ANALYSIS_MS * 2));
    scheduler.schedule('u', 1, 1000, true, true, 'createTable');
    scheduler.schedule('u', 2, 0, true, true, 'insert');
    scheduler.flush('u');
    assert.equal(scheduler.lastAnalysisMs('u', 'insert'), undefined);
    assert.equal(scheduler.lastAnalysisMs('u', 'createTable'), undefined);
    scheduler.cancelAll();
  });

  it('finds the statement an offset falls in, and where unread edits begin', () => {
    const text = 'CREATE TABLE T (A INT);\n\nINSERT INTO T VALUES (1);\n';
    const script = buildFileModel({ path: 'a.sql', text, language: 'sql' });
    assert.equal(statementAt(script, 0)?.kind, 'createTable');
    assert.equal(statementAt(script, text.indexOf('A INT'))?.kind, 'createTable');
    assert.equal(statementAt(script, text.indexOf('\n\n') + 1), undefined, 'between statements');
    assert.equal(statementAt(script, text.indexOf('(1)'))?.kind, 'insert');
    assert.equal(statementAt(buildFileModel({ path: 'b.sql', text: '', language: 'sql' }), 3), undefined);
    const changes = new UnreadChanges();
    let doc = TextDocument.create('file:///a.sql', 'sql', 1, text);
    assert.equal(changes.startOf(doc.uri), undefined);
    const at = doc.positionAt(text.indexOf('(1)') + 1);
    doc = changes.update(doc, [{ range: { start: at, end: at }, text: '2' }], 2);
    assert.equal(changes.startOf(doc.uri), text.indexOf('(1)') + 1);
    changes.update(doc, [{ text: 'whole' }], 3);
    assert.equal(changes.startOf(doc.uri), undefined, 'a whole-text change says nothing of where');
  });
});

describe('run findings in the editor', () => {
  it("point to the run's last statement as related information", () => {
    const text = Array.from({ length: 6 }, (_, i) => `INSERT INTO APP.T (A) VALUES (${i});`).join('\n') + '\n';
    const { workspace } = lintWorkspace({ 'load.sql': text }, { config: { bulkRowThreshold: 1 } });
    const lines = workspace.lines('load.sql')!;
    const [d] = workspace.diagnostics('load.sql');
    const lsp = toLspDiagnostic(d, lines, (file) => ({ uri: `file:///${file}`, lines: workspace.lines(file)! }));
    assert.equal(lsp.range.start.line, 2, 'on the 3rd INSERT');
    const last = lsp.relatedInformation!.find((r) => r.message === 'last of the run')!;
    assert.ok(last, JSON.stringify(lsp.relatedInformation));
    assert.deepEqual([last.location.uri, last.location.range.start.line, last.location.range.start.character], ['file:///load.sql', 5, 0]);
  });
});
