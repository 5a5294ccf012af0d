// Probe of issue 17, item 4: db2exfmt formats "the latest explain", which on shared Explain tables can be
// someone else's. Live Explain keeps only the instance with this run's explain time and the statement with
// its QUERYNO, and falls back to the Explain tables (with a warning) when db2exfmt's output has neither.
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildConnection, type Row } from '../../server/src/explain/driver';
import { explainLive, type LiveExplainResult } from '../../server/src/explain/live';
import { FakeDriver, KEY_ROW, SEED_ROWS } from '../explain/helpers/fake-driver';
import { repoRoot } from './support';

const QUERY_NO = 4242;
const OTHER_TIME = '2026-11-20-10.15.43.000001';
const connection = buildConnection({ connection: 'DATABASE=SHOPDB;HOSTNAME=db.example;PORT=50000;UID=app' }, { INSERTLINT_DB2_PASSWORD: 'pw' });
const plan = () => readFileSync(join(repoRoot(), 'test', 'fixtures', 'exfmt', 'insert-fk-trigger-mqt.exfmt.txt'), 'utf8');
/** The fixture as db2exfmt would print a given explain: its explain time and QUERYNO. */
const planOf = (time: string, queryNo: number) => plan().replace(KEY_ROW.EXPLAIN_TIME, time).replace(/QUERYNO:( +)1\b/, `QUERYNO:$1${queryNo}`);

function db(): FakeDriver {
  return new FakeDriver((sql): Row[] => {
    if (sql.startsWith('SELECT TABSCHEMA FROM SYSCAT.TABLES')) return [{ TABSCHEMA: 'SYSTOOLS' }];
    if (sql.includes('EXPLAIN_STATEMENT') && sql.includes("EXPLAIN_LEVEL = 'P'")) return [{ ...KEY_ROW, QUERYNO: QUERY_NO, STATEMENT_TYPE: 'I ', TOTAL_COST: 28.2956, STATEMENT_TEXT: 'INSERT …' }];
    if (sql.includes('.EXPLAIN_OPERATOR')) return SEED_ROWS.operators;
    if (sql.includes('.EXPLAIN_STREAM')) return SEED_ROWS.streams;
    if (sql.includes('.EXPLAIN_OBJECT')) return SEED_ROWS.objects;
    return [];
  });
}

async function explainWith(db2exfmtOutput: string): Promise<{ result: LiveExplainResult; args: string[] }> {
  let args: string[] = [];
  const result = await explainLive({
    sql: 'INSERT INTO WILKINS.TEST1 VALUES (?)',
    connection,
    driver: db(),
    queryNo: QUERY_NO,
    db2exfmt: 'db2exfmt',
    readCatalog: false,
    runProcess: async (_file, a) => {
      args = a;
      writeFileSync(a[a.indexOf('-o') + 1], db2exfmtOutput);
      return { code: 0, stdout: '', stderr: '' };
    },
  });
  return { result, args };
}

describe('robustness: live Explain shows this statement\'s plan or says it cannot (issue 17)', () => {
  it('asks db2exfmt for this run\'s explain instance (-e schema, -w explain time)', async () => {
    const { result, args } = await explainWith(planOf(KEY_ROW.EXPLAIN_TIME, QUERY_NO));
    assert.deepEqual(args.slice(args.indexOf('-e')), ['-e', 'SYSTOOLS', '-w', KEY_ROW.EXPLAIN_TIME]);
    assert.equal(result.via, 'db2exfmt');
    assert.deepEqual(result.warnings, []);
    assert.equal(result.document.statements[0].queryNo, QUERY_NO);
  });

  it('falls back to the Explain tables, with a warning, when db2exfmt printed another explain time', async () => {
    const { result } = await explainWith(planOf(OTHER_TIME, QUERY_NO));
    assert.equal(result.via, 'db2exfmt'); // the db2exfmt path ran; its plan came from the tables
    assert.equal(result.document.statements[0].plan!.operators.length, SEED_ROWS.operators.length);
    const warning = result.warnings.find((w) => w.code === 'db2exfmt-mismatch');
    assert.ok(warning, JSON.stringify(result.warnings));
    assert.match(warning.message, new RegExp(`shows ${OTHER_TIME.replace(/\./g, '\\.')}`));
    assert.match(warning.message, /explained at 2026-11-20-10\.15\.42\.123456 as QUERYNO 4242/);
    assert.match(warning.message, /read from the Explain tables instead/);
  });

  it('falls back, with a warning, when the explain time matches but the QUERYNO does not', async () => {
    const { result } = await explainWith(planOf(KEY_ROW.EXPLAIN_TIME, 77));
    const warning = result.warnings.find((w) => w.code === 'db2exfmt-mismatch');
    assert.ok(warning);
    assert.match(warning.message, /holds QUERYNO 77, not ours/);
    assert.equal(result.document.statements[0].plan!.operators.length, SEED_ROWS.operators.length);
  });

  it('keeps only this run\'s instance when db2exfmt printed several', async () => {
    const other = planOf(OTHER_TIME, 9).replace(/Original Statement:/, 'Original Statement:\n------------------\nINSERT INTO SOMEONE.ELSE VALUES (1)\n');
    const { result } = await explainWith(`${other}\n${planOf(KEY_ROW.EXPLAIN_TIME, QUERY_NO).split('\n').slice(6).join('\n')}`);
    assert.deepEqual(result.warnings, []);
    assert.deepEqual(result.document.statements.map((s) => s.queryNo), [QUERY_NO]);
  });
});
