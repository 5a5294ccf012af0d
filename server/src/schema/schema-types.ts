// The schema's model of what the analysed files define and fill: tables (with their versions), sequences, table
// spaces, insert targets and the sites that fill them. SchemaModel (schema.ts) builds it; rules read it.
import type { ColumnDef, CreateIndexStatement, CreateTableStatement, CreateTriggerStatement, SequenceStatement, Statement, TableConstraint } from '../sql/ast';

/** Db2's default cache for IDENTITY and SEQUENCE when none is written. */
export const DB2_DEFAULT_CACHE = 20;

export interface Located<S extends Statement = Statement> {
  file: string;
  stmt: S;
}

export interface IdentityInfo extends Located {
  column: ColumnDef;
  /** Effective cache: 0 for NO CACHE, 20 when not written. */
  cache: number;
  explicit: boolean;
}

export interface IndexInfo extends Located<CreateIndexStatement> {
  name: string;
  unique: boolean;
  cluster: boolean;
}

export type ForeignKey = Extract<TableConstraint, { kind: 'foreignKey' }>;

export interface ForeignKeyInfo extends Located {
  /** The constraint's name, or its columns and parent when unnamed: a key defined again replaces the first. */
  name: string;
  constraint: ForeignKey;
  /** After ALTER … NOT ENFORCED / ENFORCED. */
  enforced: boolean;
  parentKey: string;
}

export interface TriggerInfo extends Located<CreateTriggerStatement> {
  name: string;
}

export interface MqtInfo extends Located<CreateTableStatement> {
  key: string;
  refresh: 'immediate' | 'deferred';
}

export interface TableInfo {
  /** SCHEMA.NAME, or .NAME when the schema is not known (no SET SCHEMA, unqualified). */
  key: string;
  schema?: string;
  name: string;
  definition?: Located<CreateTableStatement>;
  columns: ColumnDef[];
  identity?: IdentityInfo;
  indexes: IndexInfo[];
  /** Primary key and unique constraints: each also maintains an index per row. */
  keyConstraints: (Located & { constraint: TableConstraint; name: string })[];
  foreignKeys: ForeignKeyInfo[];
  checks: number;
  triggers: TriggerInfo[];
  /** Materialized query tables defined over this table. */
  mqts: MqtInfo[];
  tablespace?: string;
  append: boolean;
  locksize?: 'row' | 'table' | 'blockinsert';
  pctfree?: number;
  notLoggedInitially: boolean;
  /** Set when this table is itself an MQT. */
  mqt?: CreateTableStatement['mqt'];
}

export interface SequenceInfo extends Located<SequenceStatement> {
  key: string;
  cache: number;
  explicit: boolean;
}

export interface InsertSite extends Located {
  /** The statement is in a host-language loop, or the script repeats it. */
  repeated: boolean;
  /**
   * Rows written out in the statement: an INSERT … VALUES of literals (no marker, host variable or spliced
   * value), outside loops and routines. Such rows are reference data until they add up to bulkRowThreshold.
   */
  literalRows?: number;
  /** Why this statement alone makes its table a bulk target (the target's bulkReasons gather them). */
  bulkReasons: readonly string[];
  /** Rows it writes out outside loops (the target's valuesRows adds them up). */
  valuesRows: number;
  /** The version of the table its own file created before it (a migration's CREATE TABLE, then its copy). */
  version?: TableInfo;
  /** In a routine, block or trigger body: it runs when called or fired, not where it stands in its script. */
  nested: boolean;
  /**
   * At most this many rows: an INSERT of written rows on each pass of a routine's FOR loop over one table whose rows
   * the scripts spell out (settleLoopsOverKnownRows). A bound, not a count: the query may pass over fewer.
   */
  loopRows?: number;
  /**
   * An INSERT … SELECT of a few rows of reference data, or of catalog or replication configuration rows
   * (settleCopiesOfReferenceData): reference data itself, as literal rows are.
   */
  copiesReferenceData?: true;
}

export interface InsertTargetInfo {
  key: string;
  sites: InsertSite[];
  /** Why the table counts as a bulk target (empty: it is inserted into, but not in bulk). */
  bulkReasons: string[];
  /** Rows of the INSERT … VALUES statements outside loops, summed over the analysed files. */
  valuesRows: number;
}

export interface SchemaOptions {
  /** Rows of INSERT … VALUES from which a table is a bulk target (config bulkRowThreshold). */
  bulkRowThreshold?: number;
  /**
   * Where the milliseconds of the schema's deferred work for all files (fillSchemaAt) are added up: the
   * workspace counts them with the folding, not in the rule time of the file whose lookup set it off.
   */
  work?: { ms: number };
}

/** The default of the bulkRowThreshold option (engine/config.ts documents it). */
export const BULK_ROW_THRESHOLD = 100;

export interface DbCfgSetting extends Located {
  name: string;
  value: string;
  numericValue?: number;
}

/** No bulk reason (one frozen array shared by the many inserts that give none). */
export const NO_REASONS: readonly string[] = Object.freeze([]);
/** The bulk reason of an INSERT … SELECT: rows from a query, as many as it returns. */
export const INSERT_SELECT = 'INSERT … SELECT';
/** The bulk reason of an insert run in a host-language loop (application code at work, not a load). */
export const IN_LOOP = 'inserted inside a loop';

/** The bulk reason of a target made one by the rows its inserts write out together. */
export function valuesRowsReason(rows: number): string {
  return `${rows} rows of INSERT … VALUES`;
}
