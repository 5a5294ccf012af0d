// Every renderer says what a plan came from (Db2 version, database, explain time, package) and the settings that
// shape it (SQL type, optimization level, isolation, parallelism), as the db2exfmt head says, and only that.
import * as assert from 'node:assert/strict';
import { parseExfmt } from '../../server/src/explain/exfmt';
import { explainDocument } from '../../server/src/explain/report';
import { renderHtml, renderJson, renderMarkdown, renderText } from '../../server/src/explain/render';
import { db2VersionText, explainTimeText } from '../../server/src/explain/render-origin';
import { fixture, INSERT_FK_TRIGGER_MQT_CONTEXT } from './helpers/fixtures';

const V115 = 'Plan from Db2 11.5.8 on SHOPDB, explained 2026-11-20 10:15:42, package NULLID.SQLC2P31';
const V121 = 'Plan from Db2 12.1.8 on SHOPDB, explained 2026-11-20 10:15:42, package NULLID.SQLC2P31';
const SETTINGS = 'dynamic SQL, optimization level 5, isolation CS, parallelism none';

function report(text: string, name = 'plan.txt') {
  return explainDocument(parseExfmt(text), undefined, name);
}

/** The fixture with one line of its head replaced (a line that must be there once). */
function edited(name: string, from: RegExp, to: string): string {
  const text = fixture(name);
  assert.equal((text.match(new RegExp(from.source, 'gm')) ?? []).length, 1, `${name}: ${from}`);
  return text.replace(new RegExp(from.source, 'm'), to);
}

describe('explain: where the plan came from', () => {
  it('text: one line above the statements, in two when it is wider than the terminal', () => {
    const text = renderText(report(fixture('insert-fk-trigger-mqt.exfmt.txt')), { width: 200 });
    assert.equal(text.split('\n').slice(0, 3).join('\n'), `${V115}; ${SETTINGS}\n\nStatement 1 (section 201)`);
    const narrow = renderText(report(fixture('insert-fk-trigger-mqt.v121.exfmt.txt')));
    assert.equal(narrow.split('\n').slice(0, 4).join('\n'), `${V121}\nPlan settings: ${SETTINGS}\n\nStatement 1 (section 201)`);
    assert.equal((narrow.match(/Plan from/g) ?? []).length, 1);
  });

  it('markdown and html: the same facts, escaped', () => {
    const r = report(fixture('insert-fk-trigger-mqt.exfmt.txt'));
    assert.equal(renderMarkdown(r).split('\n').slice(0, 3).join('\n'), `${V115}; ${SETTINGS}\n\n### Explain`);
    assert.match(renderHtml(r), new RegExp(`<h1>[^<]*</h1>\\n<p class="origin muted">${V115}; ${SETTINGS}</p>\\n<ul class="legend"`));
    const odd = report(edited('insert-fk-trigger-mqt.exfmt.txt', /^SOURCE_NAME:.*$/, 'SOURCE_NAME:       MY_PKG<b>*'));
    assert.match(renderMarkdown(odd), /^Plan from .*, package NULLID\.MY\\_PKG&lt;b&gt;\\\*; dynamic SQL/m);
    const html = renderHtml(odd);
    assert.match(html, /<p class="origin muted">Plan from .*, package NULLID\.MY_PKG&lt;b&gt;\*; dynamic SQL/);
    assert.doesNotMatch(html, /MY_PKG<b>/);
  });

  it('json: the head as an object (facts, fields and context as printed), null without one', () => {
    const json = JSON.parse(renderJson(report(fixture('insert-fk-trigger-mqt.v121.exfmt.txt'))));
    assert.deepEqual(Object.keys(json), ['kind', 'errors', 'warnings', 'header', 'statements']);
    assert.deepEqual(json.header, {
      db2Version: '12.01.8',
      explainTime: '2026-11-20-10.15.42.123456',
      database: 'SHOPDB',
      package: { schema: 'NULLID', name: 'SQLC2P31', version: null },
      explainRequester: 'DB2INST1',
      banner: 'DB2 Universal Database Version 12.1, 5622-044 (c) Copyright IBM Corp. 1991, 2019',
      tool: 'IBM Db2 Explain Table Format Tool',
      fields: {
        DB2_VERSION: '12.01.8',
        'FORMATTED ON DB': 'SHOPDB',
        SOURCE_NAME: 'SQLC2P31',
        SOURCE_SCHEMA: 'NULLID',
        SOURCE_VERSION: '',
        EXPLAIN_TIME: '2026-11-20-10.15.42.123456',
        EXPLAIN_REQUESTER: 'DB2INST1',
      },
      context: INSERT_FK_TRIGGER_MQT_CONTEXT,
      statementsDescribed: null,
    });
    assert.equal(JSON.parse(renderJson(report(fixture('seed-fk-insert-graph.txt')))).header, null);
  });

  it('says nothing for a text without a head (a pasted graph)', () => {
    const r = report(fixture('seed-fk-insert-graph.txt'));
    assert.doesNotMatch(renderText(r), /Plan (from|of|settings)/);
    assert.doesNotMatch(renderMarkdown(r), /Plan (from|of|settings)/);
    assert.doesNotMatch(renderHtml(r), /class="origin/);
    assert.match(renderText(r), /^RETURN \(1\)/);
  });

  it('leaves out a value a wrap cut (refused by the head), and joins a cut explain time as the head does', () => {
    const cut = edited('insert-fk-trigger-mqt.exfmt.txt', /^\tIsolation Level:.*$/, '\tIsolation Level:    Cursor\nStability');
    const r = report(cut);
    assert.ok(r.warnings.some((w) => w.code === 'wrapped-value' && /Isolation Level/.test(w.message)), JSON.stringify(r.warnings));
    const text = renderText(r, { width: 200 });
    assert.match(text, /^Plan from Db2 11\.5\.8 .*; dynamic SQL, optimization level 5, parallelism none$/m);
    assert.doesNotMatch(text, /isolation/);
    assert.equal(JSON.parse(renderJson(r)).header.context['Isolation Level'], undefined);
    const time = report(edited('insert-fk-trigger-mqt.exfmt.txt', /^EXPLAIN_TIME:.*$/, 'EXPLAIN_TIME:      2026-11-20-10.15.4\n2.123456'));
    assert.match(renderText(time, { width: 200 }), /, explained 2026-11-20 10:15:42, /);
  });

  it('only the parts present: a head with the context alone, or the fields alone', () => {
    const noFields = fixture('insert-fk-trigger-mqt.exfmt.txt').replace(/^(DB2_VERSION|FORMATTED ON DB|SOURCE_\w+|EXPLAIN_\w+):.*\n/gm, '');
    assert.match(renderText(report(noFields)), new RegExp(`^Plan settings: ${SETTINGS}$`, 'm'));
    // An excerpt that starts at the context (a book's, without the EXPLAIN INSTANCE block), lines left out as "...".
    const contextOnly = fixture('insert-fk-trigger-mqt.exfmt.txt')
      .replace(/^[\s\S]*?(?=Database Context:)/, '')
      .replace(/(Isolation Level: +Cursor Stability\n)/, '$1...\n');
    const excerpt = report(contextOnly);
    assert.match(renderText(excerpt), new RegExp(`^Plan settings: ${SETTINGS}$`, 'm'));
    assert.deepEqual(excerpt.warnings.map((w) => w.code), []);
    const noContext = fixture('insert-fk-trigger-mqt.exfmt.txt').replace(/^(Package|Database) Context:[\s\S]*?\n\n/gm, '');
    const text = renderText(report(noContext), { width: 200 });
    assert.match(text, new RegExp(`^${V115}\\n\\nStatement 1`, 'm'));
  });

  it('two explains in one text: the head describes only the statements of the first, shown under their heading', () => {
    const r = report(`${fixture('insert-fk-trigger-mqt.exfmt.txt')}\n${fixture('insert-fk-trigger-mqt.v121.exfmt.txt')}`);
    assert.equal(r.statements.length, 2);
    const text = renderText(r, { width: 200 });
    assert.equal((text.match(/Plan from/g) ?? []).length, 1);
    assert.match(text, new RegExp(`^Statement 1 \\(section 201\\)\\n  ${V115}; ${SETTINGS}\\n`, 'm'));
    assert.doesNotMatch(text, /12\.1\.8/);
    assert.match(renderMarkdown(r), new RegExp(`^### Explain — statement 1\\n\\n${V115}; ${SETTINGS}\\n`, 'm'));
    assert.equal((renderHtml(r).match(/class="origin/g) ?? []).length, 1);
    assert.equal(JSON.parse(renderJson(r)).header.statementsDescribed, 1);
  });

  it('names the parallelism without repeating the word, and other isolation levels as Db2 abbreviates them', () => {
    const r = report(
      fixture('insert-fk-trigger-mqt.exfmt.txt')
        .replace(/^\tParallelism:.*$/m, '\tParallelism:          Intra-Partition Parallelism')
        .replace(/^\tIsolation Level:.*$/m, '\tIsolation Level:    Repeatable Read'),
    );
    assert.match(renderText(r), /^Plan settings: dynamic SQL, optimization level 5, isolation RR, parallelism intra-partition$/m);
  });

  it('reads DB2_VERSION and EXPLAIN_TIME readably, any other shape as printed', () => {
    assert.equal(db2VersionText('09.07.5'), '9.7.5');
    assert.equal(db2VersionText('12.01.8'), '12.1.8');
    assert.equal(db2VersionText('SQL11058'), 'SQL11058');
    assert.equal(explainTimeText('2012-03-28-17.56.34.357001'), '2012-03-28 17:56:34');
    assert.equal(explainTimeText('2012-03-28 17:56'), '2012-03-28 17:56');
  });
});
