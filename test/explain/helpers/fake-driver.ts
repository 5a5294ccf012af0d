// A Db2Driver that records every call and answers from a handler: live Explain tested up to the wire.
import type { Db2Driver, Row } from '../../../server/src/explain/driver';

export interface Call {
  method: 'open' | 'query' | 'exec' | 'beginTransaction' | 'commit' | 'rollback' | 'close';
  sql?: string;
  params?: unknown[];
}

export type Handler = (sql: string, params: unknown[]) => Row[] | Error;

export class FakeDriver implements Db2Driver {
  readonly calls: Call[] = [];
  openError?: unknown;

  constructor(private readonly handler: Handler) {}

  async open(connectionString: string): Promise<void> {
    this.calls.push({ method: 'open', sql: connectionString });
    if (this.openError) throw this.openError;
  }

  async query(sql: string, params: unknown[] = []): Promise<Row[]> {
    this.calls.push({ method: 'query', sql, params });
    const result = this.handler(sql, params);
    if (result instanceof Error) throw result;
    return result;
  }

  async exec(sql: string, params: unknown[] = []): Promise<void> {
    this.calls.push({ method: 'exec', sql, params });
    const result = this.handler(sql, params);
    if (result instanceof Error) throw result;
  }

  async beginTransaction(): Promise<void> {
    this.calls.push({ method: 'beginTransaction' });
  }

  async commit(): Promise<void> {
    this.calls.push({ method: 'commit' });
  }

  async rollback(): Promise<void> {
    this.calls.push({ method: 'rollback' });
  }

  async close(): Promise<void> {
    this.calls.push({ method: 'close' });
  }

  sqlSent(): string[] {
    return this.calls.filter((c) => c.sql !== undefined && c.method !== 'open').map((c) => c.sql!);
  }

  methods(): string[] {
    return this.calls.map((c) => c.method);
  }
}

/** An ibm_db-shaped error. */
export function db2Error(message: string, sqlcode: number, sqlstate: string): Error {
  return Object.assign(new Error(message), { sqlcode, sqlstate });
}

export const KEY_ROW = {
  EXPLAIN_REQUESTER: 'DB2INST1',
  EXPLAIN_TIME: '2026-11-20-10.15.42.123456',
  SOURCE_NAME: 'SYSSH200',
  SOURCE_SCHEMA: 'NULLID  ',
  SOURCE_VERSION: '',
  EXPLAIN_LEVEL: 'P',
  STMTNO: 1,
  SECTNO: 1,
};

const s = (id: number, st: string, sid: number, tt: string, tid: number, schema: string | null, name: string | null, count: number) => ({
  STREAM_ID: id, SOURCE_TYPE: st, SOURCE_ID: sid, TARGET_TYPE: tt, TARGET_ID: tid, OBJECT_SCHEMA: schema, OBJECT_NAME: name, STREAM_COUNT: count,
});

/** The seed 000 INSERT plan as EXPLAIN_* rows (streams listed out of order on purpose). */
export const SEED_ROWS = {
  operators: [
    { OPERATOR_ID: 1, OPERATOR_TYPE: 'RETURN', TOTAL_COST: 28.2956, IO_COST: 1, CPU_COST: 150000, FIRST_ROW_COST: 28.2 },
    { OPERATOR_ID: 2, OPERATOR_TYPE: 'TBSCAN', TOTAL_COST: 28.2956, IO_COST: 1, CPU_COST: 150000, FIRST_ROW_COST: 28.2 },
    { OPERATOR_ID: 3, OPERATOR_TYPE: 'FILTER', TOTAL_COST: 28.2266, IO_COST: 1, CPU_COST: 140000, FIRST_ROW_COST: 28.2 },
    { OPERATOR_ID: 4, OPERATOR_TYPE: 'NLJOIN', TOTAL_COST: 28.1268, IO_COST: 1, CPU_COST: 130000, FIRST_ROW_COST: 28.1 },
    { OPERATOR_ID: 5, OPERATOR_TYPE: 'INSERT', TOTAL_COST: '25.5248', IO_COST: 1, CPU_COST: 100000, FIRST_ROW_COST: 25.5 },
    { OPERATOR_ID: 6, OPERATOR_TYPE: 'TBSCAN', TOTAL_COST: 0.0048, IO_COST: 0, CPU_COST: 30, FIRST_ROW_COST: 0.0048 },
    { OPERATOR_ID: 7, OPERATOR_TYPE: 'IXSCAN', TOTAL_COST: 2.60196, IO_COST: 0, CPU_COST: 20000, FIRST_ROW_COST: 2.6 },
  ],
  streams: [
    s(1, 'D', -1, 'O', 6, 'SYSIBM  ', 'GENROW', 1),
    s(2, 'O', 6, 'O', 5, null, null, 1),
    s(3, 'O', 5, 'D', -1, 'WILKINS ', 'TEST1', 1),
    s(4, 'O', 5, 'O', 4, null, null, 1),
    s(6, 'O', 7, 'O', 4, null, null, 1),
    s(5, 'D', -1, 'O', 7, 'SYSIBM  ', 'SQL0401290925513', 120),
    s(7, 'O', 4, 'O', 3, null, null, 1),
    s(8, 'O', 3, 'O', 2, null, null, 0.04),
    s(9, 'D', -1, 'O', 2, 'SYSIBM  ', 'GENROW', 1),
    s(10, 'O', 2, 'O', 1, null, null, 0.333333),
  ],
  objects: [
    { OBJECT_SCHEMA: 'WILKINS ', OBJECT_NAME: 'TEST1', OBJECT_TYPE: 'TA', ROW_COUNT: 116 },
    { OBJECT_SCHEMA: 'SYSIBM  ', OBJECT_NAME: 'SQL0401290925513', OBJECT_TYPE: 'IX', ROW_COUNT: 120 },
    { OBJECT_SCHEMA: 'SYSIBM  ', OBJECT_NAME: 'GENROW', OBJECT_TYPE: 'TF', ROW_COUNT: 1 },
  ],
  arguments: [
    { OPERATOR_ID: 4, ARGUMENT_TYPE: 'EARLYOUT', ARGUMENT_VALUE: 'LEFT', LONG_ARGUMENT_VALUE: null },
    { OPERATOR_ID: 7, ARGUMENT_TYPE: 'SCANDIR ', ARGUMENT_VALUE: 'FORWARD', LONG_ARGUMENT_VALUE: null },
  ],
  predicates: [{ OPERATOR_ID: 7, PREDICATE_ID: 2, HOW_APPLIED: 'START', FILTER_FACTOR: 0.008, PREDICATE_TEXT: '(Q2.ID = Q1.PARENT_ID)' }],
};
