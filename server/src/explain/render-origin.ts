// What a plan came from, as its db2exfmt head says: the Db2 version, the database, when it was explained, the
// package, and the settings that shape an INSERT's plan (optimization level, isolation, parallelism). Only values
// the head holds are shown: exfmt-header.ts leaves out a value a wrap cut, and nothing here fills one in.
import type { ExfmtHeader } from './model';
import type { ExplainReport } from './report';

/** How the plan settings start when they stand alone on a line. */
export const SETTINGS_LABEL = 'Plan settings: ';

const ISOLATION: Record<string, string> = {
  'cursor stability': 'CS',
  'read stability': 'RS',
  'repeatable read': 'RR',
  'uncommitted read': 'UR',
};

/** "11.05.8" (DB2_VERSION) as "11.5.8"; any other shape as printed. */
export function db2VersionText(v: string): string {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(v);
  return m ? `${Number(m[1])}.${Number(m[2])}.${Number(m[3])}` : v;
}

/** "2024-05-01-10.22.33.123456" (EXPLAIN_TIME) as "2024-05-01 10:22:33"; any other shape as printed. */
export function explainTimeText(v: string): string {
  const m = /^(\d{4}-\d\d-\d\d)-(\d\d)\.(\d\d)\.(\d\d)(?:\.\d+)?$/.exec(v);
  return m ? `${m[1]} ${m[2]}:${m[3]}:${m[4]}` : v;
}

/** "intra-partition parallelism" without its last word: "intra-partition". */
function withoutWord(v: string, word: string): string {
  return v.endsWith(word) && v.length > word.length ? v.slice(0, -word.length).trimEnd() : v;
}

/** A field of the head, trimmed; undefined when absent or empty. */
function field(values: Record<string, string> | undefined, key: string): string | undefined {
  const v = values?.[key]?.trim();
  return v ? v : undefined;
}

/** SOURCE_SCHEMA.SOURCE_NAME (and its SOURCE_VERSION), or undefined without a SOURCE_NAME. */
export function packageName(header: ExfmtHeader): string | undefined {
  const name = field(header.fields, 'SOURCE_NAME');
  if (!name) return undefined;
  const schema = field(header.fields, 'SOURCE_SCHEMA');
  const version = field(header.fields, 'SOURCE_VERSION');
  return `${schema ? `${schema}.` : ''}${name}${version ? ` version ${version}` : ''}`;
}

/**
 * Where the plan came from and its settings, e.g. `Plan from Db2 11.5.8 on SHOPDB, explained 2026-11-20 10:15:42,
 * package NULLID.SQLC2P31` and `dynamic SQL, optimization level 5, isolation CS, parallelism none` (either may be
 * missing); undefined when the head holds none of it (a pasted graph, a live explain read from the EXPLAIN tables).
 */
export function originParts(header: ExfmtHeader | undefined): { origin?: string; settings?: string } | undefined {
  if (!header) return undefined;
  const f = header.fields;
  const c = header.context;
  const version = field(f, 'DB2_VERSION');
  const database = field(f, 'FORMATTED ON DB');
  const time = field(f, 'EXPLAIN_TIME');
  const pkg = packageName(header);
  const from = [version ? `Db2 ${db2VersionText(version)}` : '', database ? `${version ? 'on ' : 'database '}${database}` : ''].filter(Boolean).join(' ');
  const origin = [from ? `from ${from}` : '', time ? `explained ${explainTimeText(time)}` : '', pkg ? `package ${pkg}` : ''].filter(Boolean);
  const sqlType = field(c, 'SQL Type');
  const level = field(c, 'Optimization Level');
  const isolation = field(c, 'Isolation Level');
  const parallelism = field(c, 'Parallelism');
  const settings = [
    sqlType ? `${sqlType.toLowerCase()} SQL` : '',
    level ? `optimization level ${level}` : '',
    isolation ? `isolation ${ISOLATION[isolation.toLowerCase()] ?? isolation}` : '',
    parallelism ? `parallelism ${withoutWord(parallelism.toLowerCase(), ' parallelism')}` : '',
  ].filter(Boolean);
  if (origin.length === 0 && settings.length === 0) return undefined;
  return {
    origin: origin.length ? `Plan ${origin[0].startsWith('package') ? 'of ' : ''}${origin.join(', ')}` : undefined,
    settings: settings.length ? `${origin.length ? '' : SETTINGS_LABEL}${settings.join(', ')}` : undefined,
  };
}

export type OriginParts = NonNullable<ReturnType<typeof originParts>>;

/** The origin and settings as one line: `Plan from Db2 11.5.8, explained …; dynamic SQL, optimization level 5, …`. */
export function originLine(parts: OriginParts): string {
  return [parts.origin, parts.settings].filter(Boolean).join('; ');
}

/** The origin shown once above every statement: the head describes them all. */
export function reportOrigin(report: ExplainReport): OriginParts | undefined {
  return report.header?.statementsDescribed === undefined ? originParts(report.header) : undefined;
}

/** The origin shown under the index-th statement's heading: the head describes only the statements before a second EXPLAIN INSTANCE. */
export function statementOrigin(report: ExplainReport, index: number): OriginParts | undefined {
  const n = report.header?.statementsDescribed;
  return n !== undefined && index < n ? originParts(report.header) : undefined;
}
