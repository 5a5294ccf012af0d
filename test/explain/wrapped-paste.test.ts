// Plans pasted through a mail client or a terminal that wraps long lines (test/explain/helpers/wrap-paste.ts): every
// value the reader takes must be the one db2exfmt wrote, or be refused (missing, with a warning or an error that
// names the line); the reader never throws and stays fast.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseExfmt } from '../../server/src/explain/exfmt';
import { ownPlan } from '../../server/src/explain/live';
import type { ExfmtDocument } from '../../server/src/explain/model';
import { fixture } from './helpers/fixtures';
import { writeExfmt, type WObject, type WOperator, type WStatement } from './helpers/exfmt-writer';
import { deleteCascadePlan, insertFkFetchPlan, orderLinePlan } from './helpers/make-fixtures';
import { PASTE_FIXTURES, wrapPaste, WRAP_MODES, wrongDocumentValues, wrongValues, type WrapMode } from './helpers/wrap-paste';

const WIDTHS = [60, 72, 76, 80];

/** Every value right or missing: the header's, then each statement's; the problems found, for the assertion's message. */
const problems = wrongDocumentValues;

function check(text: string, width: number, mode: WrapMode): ExfmtDocument {
  const truth = parseExfmt(text);
  const wrapped = wrapPaste(text, width, mode);
  const started = Date.now();
  const got = parseExfmt(wrapped);
  const took = Date.now() - started;
  assert.deepEqual(got.errors.filter((e) => e.code === 'internal-error'), [], wrapped);
  assert.deepEqual(problems(truth, got), [], `wrapped at ${width} (${mode}):\n${wrapped}`);
  assert.ok(took < 2000, `${took} ms`);
  return got;
}

describe('explain: wrapped pastes', () => {
  it('reads every fixture wrapped at 60, 72, 76 and 80 columns (and 20 to 120) right or refuses, in every way of wrapping', () => {
    for (const name of PASTE_FIXTURES) {
      const text = fixture(name);
      for (const width of [...WIDTHS, 20, 24, 30, 36, 40, 44, 48, 52, 56, 64, 68, 84, 90, 100, 120]) {
        for (const mode of WRAP_MODES) check(text, width, mode);
      }
    }
  });

  it('joins a Plan Details number cut in two ("Cumulative Total Cost: 123" + "45")', () => {
    const text = writeExfmt([insertFkFetchPlan()]);
    const cut = text.replace(/(Cumulative Total Cost: \t\t)(\d+)(\.?\d*)\n/, (_, k: string, a: string, b: string) => `${k}${a}\n${b}\n`);
    assert.notEqual(cut, text);
    const plain = parseExfmt(text).statements[0];
    const st = parseExfmt(cut).statements[0];
    assert.deepEqual(wrongValues(plain, st), []);
    assert.deepEqual(
      st.plan!.operators.map((o) => o.totalCost),
      plain.plan!.operators.map((o) => o.totalCost),
    );
    // A number cut right after the colon, its whole value on the next line (a mail client's break at the blank).
    const moved = text.replace('\t\tCumulative Total Cost: \t\t', '\t\tCumulative Total Cost:\n');
    assert.deepEqual(parseExfmt(moved).statements[0].plan!.operators.map((o) => o.totalCost), plain.plan!.operators.map((o) => o.totalCost));
  });

  it('never takes the first half of a cut number: Total Cost, stream rows, filter factors, object rows', () => {
    const plan = orderLinePlan();
    plan.root.cost = 123456;
    const text = writeExfmt([plan]);
    const cases: [RegExp, string][] = [
      [/(\tTotal Cost: \t\t)(123)(456)/, 'Total Cost'],
      [/(Estimated number of rows: \t)(\d)(\d+)/, 'rows'],
      [/(Filter Factor: \t\t\t)(0.00)(02)/, 'filter factor'],
      [/(Number of rows: \t\t)(25)(000)/, 'object rows'],
    ];
    const plain = parseExfmt(text);
    for (const [re, what] of cases) {
      const cut = text.replace(re, (_, k: string, a: string, b: string) => `${k}${a}\n${b}`);
      assert.notEqual(cut, text, what);
      assert.deepEqual(problems(plain, parseExfmt(cut)), [], what);
      // The other half lost (a paste cut there): the first half is then read as the whole value, which it is not
      // certain to be; what matters here is the join above.
    }
    const broken = text.replace(/(Filter Factor: \t\t\t)(0.00)(02)/, '$1$2\n$3e');
    const st = parseExfmt(broken).statements[0];
    assert.equal(st.plan!.operators.find((o) => o.id === 8)!.predicates[0].filterFactor, undefined);
    assert.ok(st.warnings.some((w) => w.code === 'wrapped-value' && /filter factor/.test(w.message) && w.line !== undefined), JSON.stringify(st.warnings));
  });

  it('refuses a Plan Details block a wrap cut in a way that cannot be undone, naming the line', () => {
    const text = writeExfmt([insertFkFetchPlan()]);
    // "From Operator #4" cut inside the word "Operator": the stream cannot be read.
    const cut = text.replace(/(\t\t\t\d+\) From Oper)(ator #\d+)/, '$1\n$2');
    assert.notEqual(cut, text);
    const st = parseExfmt(cut).statements[0];
    const w = st.warnings.find((x) => x.code === 'wrapped-details');
    assert.ok(w, JSON.stringify(st.warnings));
    assert.match(w.message, /^Plan Details line \d+: "\d+\) From Oper" is no line of a stream; .* of operator [A-Z]+ \(\d+\) are not used\.$/);
    assert.equal(cut.split('\n')[w.line! - 1].trim().endsWith('From Oper'), true);
    assert.deepEqual(wrongValues(parseExfmt(text).statements[0], st), []);
  });

  it('refuses a statement text a wrap may have cut inside a name, and says so', () => {
    const plan = insertFkFetchPlan();
    const text = writeExfmt([plan]);
    const wrapped = wrapPaste(text, 30, 'cut-columns');
    const st = parseExfmt(wrapped).statements[0];
    assert.equal(st.originalText, undefined);
    const w = st.warnings.find((x) => x.code === 'wrapped-text');
    assert.ok(w, JSON.stringify(st.warnings));
    assert.match(w.message, /^The Original Statement is not used: line \d+ may end where the paste was wrapped and goes on on line \d+ /);
    // Unwrapped, the same text is read whole.
    assert.equal(parseExfmt(text).statements[0].originalText, 'INSERT INTO APP.ORDER_ITEM (ORDER_ID, LINE, PRODUCT_ID) VALUES (?, ?, ?)');
  });

  it('refuses a wrapped graph rather than pairing a value with the wrong box', () => {
    // The compact HSJOIN/IXAND graph cut at 40 columns used to read the correlation names as the index names.
    const got = check(fixture('compact-hsjoin-ixand-graph.txt'), 40, 'cut-chars');
    const st = got.statements[0];
    if (st.plan) assert.deepEqual(st.plan.operators.find((o) => o.id === 8)!.objectsRead, ['DB2INST1.T1_IDX3']);
  });

  it('reads generated plans, wrapped at any width in any way, right or refuses them, in bounded time', () => {
    const LABELS = ['TBSCAN', 'IXSCAN', 'FETCH', 'SORT', 'NLJOIN', '^NLJOIN', '>HSJOIN<', 'TEMP', 'FILTER', 'GRPBY', 'BTQ', 'INSERT', 'UPDATE'];
    interface Spec {
      label: number;
      rows: number;
      cost: number;
      kids: Spec[];
      name: string;
      pred?: string;
    }
    const spec: fc.Memo<Spec> = fc.memo((depth) =>
      fc.record({
        label: fc.nat(LABELS.length - 1),
        rows: fc.oneof(fc.double({ min: 1e-12, max: 1e9, noNaN: true }), fc.integer({ min: 0, max: 5_000_000 })),
        cost: fc.double({ min: 0, max: 1e10, noNaN: true }),
        kids: depth <= 1 ? fc.constant([]) : fc.array(spec(depth - 1), { maxLength: 2 }),
        name: fc.stringMatching(/^[A-Z][A-Z0-9_]{0,24}$/),
        pred: fc.option(fc.stringMatching(/^[A-Z][A-Z0-9_]{0,30}$/), { nil: undefined }),
      }),
    );
    const toTree = (s: Spec, next: { id: number }): WOperator => {
      const id = next.id++;
      const inputs: (WOperator | WObject)[] = s.kids.map((k) => toTree(k, next));
      // An INSERT or UPDATE reads rows from an operator and writes its table (Plan Details: an output stream).
      const dml = LABELS[s.label] === 'INSERT' || LABELS[s.label] === 'UPDATE';
      const label = dml && inputs.length === 0 ? 'TBSCAN' : LABELS[s.label];
      const wants = label.includes('JOIN') ? 2 : 1;
      while (inputs.length < wants) inputs.push({ type: inputs.length ? 'TABLE' : 'INDEX', schema: 'APP', name: `${s.name}_${id}_${inputs.length}`, q: `Q${id}`, rows: Math.round(s.rows) + 1000 });
      const op: WOperator = { id, label, rows: s.rows, cost: s.cost, io: Math.round(s.cost / 10), inputs };
      if (dml && label !== 'TBSCAN') op.writes = { type: 'TABLE', schema: 'APP', name: `${s.name}_T${id}`, rows: 500 };
      if (s.pred) {
        op.predicates = [{ how: 'Sargable', text: `(Q${id}.${s.pred} = Q${id}.${s.name})`, ff: s.rows / 1e10 }];
        op.args = [['MAXPAGES', 'Maximum pages for prefetch', String(Math.round(s.cost))], ['PREFETCH', 'Type of Prefetch', `SEQUENTIAL,READAHEAD ${s.pred}`]];
      }
      return op;
    };
    fc.assert(
      fc.property(spec(4), fc.integer({ min: 20, max: 130 }), fc.constantFrom(...WRAP_MODES), fc.boolean(), (s, width, mode, exp3) => {
        const child = toTree(s, { id: 2 });
        const root: WOperator = { id: 1, label: 'RETURN', rows: child.rows, cost: child.cost, io: child.io, inputs: [child] };
        const objects = new Map<string, WStatement['objects'][number]>();
        const walk = (op: WOperator) =>
          op.inputs.forEach((i) => {
            if ('label' in i) walk(i);
            else objects.set(i.name, { schema: i.schema, name: i.name, type: i.type === 'INDEX' ? 'Index' : 'Table', extra: [['Number of rows', String(i.rows)], ['Base Table Name', `${i.name}_BASE`]] });
          });
        walk(root);
        const plan: WStatement = {
          queryNo: 1,
          original: `INSERT INTO APP.${s.name} (C1, C2) SELECT ${s.pred ?? 'X'}, ${s.name} FROM APP.${s.name}_SOURCE WHERE ${s.name} > 12345.678`,
          optimized: `INSERT INTO APP.${s.name} AS Q1\nSELECT Q2.${s.pred ?? 'X'}, Q2.${s.name}\nFROM APP.${s.name}_SOURCE AS Q2`,
          root,
          objects: [...objects.values()],
        };
        const text = writeExfmt([plan], { threeDigitExponent: exp3, paddedHeaders: exp3 });
        check(text, width, mode);
      }),
      { numRuns: 400 },
    );
  });

  it('reads a 500-operator plan wrapped at 80 columns in bounded time', () => {
    const text = fixture('insert-500-operators.exfmt.txt');
    for (const mode of ['cut-columns', 'words'] as const) {
      const started = Date.now();
      const got = parseExfmt(wrapPaste(text, 80, mode));
      assert.ok(Date.now() - started < 10000);
      assert.deepEqual(problems(parseExfmt(text), got), []);
    }
  });

  it('still reads unwrapped plans whole: no value refused, no warning', () => {
    for (const plan of [orderLinePlan(), insertFkFetchPlan(), deleteCascadePlan()]) {
      const st = parseExfmt(writeExfmt([plan])).statements[0];
      assert.deepEqual(st.warnings.filter((w) => /^wrapped/.test(w.code)), []);
      assert.ok(st.originalText && st.optimizedText);
    }
    // A statement written on a line wider than any wrap, going on on the next: its own break, not a cut.
    const long = `INSERT INTO APP.ORDER_ITEM (ORDER_ID, LINE, PRODUCT_ID, QUANTITY, PRICE, DISCOUNT, NOTE) SELECT ORDER_ID, LINE, PRODUCT_ID, QUANTITY, PRICE, DISCOUNT, NOTE FROM STAGE.ORDER_ITEM\nWHERE LINE > 0`;
    const st = parseExfmt(writeExfmt([{ ...insertFkFetchPlan(), original: long }])).statements[0];
    assert.deepEqual(st.warnings.filter((w) => /^wrapped/.test(w.code)), []);
    assert.equal(st.originalText, long);
  });

  it("reads a statement line that goes on with a clause keyword as the statement's own break", () => {
    // As people write SQL: the longest line of the text ends in a name, the next starts a clause.
    for (const next of ['WHERE LINE > 0', 'where line > 0', '  AND LINE > 0', 'UNION ALL SELECT 1 FROM SYSIBM.SYSDUMMY1', 'ORDER BY 1']) {
      const original = `INSERT INTO APP.ORDER_ITEM (ORDER_ID, LINE, PRODUCT_ID, QUANTITY) SELECT ORDER_ID, LINE, PRODUCT_ID, QTY FROM STAGE\n${next}`;
      const st = parseExfmt(writeExfmt([{ ...insertFkFetchPlan(), original }])).statements[0];
      assert.deepEqual(st.warnings.filter((w) => /^wrapped/.test(w.code)), [], next);
      assert.equal(st.originalText, original);
    }
    // A word's cut-off end is no clause keyword (ORDERS, SETTINGS, ONE: a keyword only with a blank after it).
    for (const next of ['ORDERS WHERE LINE > 0', 'SETTINGS', 'ONE_MORE']) {
      const original = `INSERT INTO APP.ORDER_ITEM (ORDER_ID, LINE, PRODUCT_ID, QUANTITY) SELECT ORDER_ID, LINE, PRODUCT_ID, QTY FROM STAGE_\n${next}`;
      assert.equal(parseExfmt(writeExfmt([{ ...insertFkFetchPlan(), original }])).statements[0].originalText, undefined, next);
    }
  });

  it("never takes db2exfmt's own output (a live explain) for a wrapped paste", () => {
    // The statement's first line is the longest of the text and goes on inside a word: as a paste, it may be a cut.
    const original = 'INSERT INTO APP.ORDER_ITEM (ORDER_ID, LINE, PRODUCT_ID, QUANTITY) SELECT ORDER_ID, LINE, PRODUCT_ID, QTY FROM STAGE\n.ORDER_ITEM WHERE LINE > 0';
    const text = writeExfmt([{ ...insertFkFetchPlan(), original }]);
    const pasted = parseExfmt(text).statements[0];
    assert.equal(pasted.originalText, undefined);
    assert.deepEqual(pasted.warnings.map((w) => w.code), ['wrapped-text']);
    const own = parseExfmt(text, { fromDb2exfmt: true }).statements[0];
    assert.equal(own.originalText, original);
    assert.deepEqual(own.warnings, []);
    // The live explain reads db2exfmt's file so (ownPlan).
    const live = ownPlan(text, '2026-11-20-10.15.42.123456', 1);
    assert.ok('document' in live);
    assert.equal(live.document.statements[0].originalText, original);
  });
});
