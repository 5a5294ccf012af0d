// Which Db2 a script is written for: Db2 for z/OS and Db2 for Linux, UNIX and Windows (LUW) share most of
// their SQL but store tables differently (z/OS: databases, table spaces IN db, APPEND YES, FREEPAGE, MEMBER
// CLUSTER; LUW: MANAGED BY, APPEND ON, DB CFG). Rules that speak of one of them run only on its files
// (RuleMeta.dialects); a file that shows neither is left undecided and the LUW rules apply, as before.
import type { Statement } from './ast';
import type { Dialect } from '../engine/types';

/** z/OS-only words read from the text: SET CURRENT SQLID, APPEND YES|NO, CREATE DATABASE/STOGROUP, PADDED indexes. */
const ZOS_TEXT = /\bSET\s+CURRENT\s+SQLID\b|\bAPPEND\s+(?:YES|NO)\b|\bCREATE\s+(?:DATABASE|STOGROUP)\s+\S+\s+(?:STOGROUP|BUFFERPOOL|VOLUMES|CCSID|INDEXBP)\b|\bNOT\s+PADDED\b|\bUSING\s+STOGROUP\b/i;
/** LUW-only words: APPEND ON|OFF, ORGANIZE BY, DISTRIBUTE BY, automatic storage and buffer pools' page sizes. */
const LUW_TEXT = /\bAPPEND\s+(?:ON|OFF)\b|\bORGANIZE\s+BY\b|\bDISTRIBUTE\s+BY\b|\bMANAGED\s+BY\b/i;

/** The dialect a script's statements (and text) show, or undefined when they fit both. */
export function inferDialect(statements: readonly Statement[], text: string): Dialect | undefined {
  let zos = ZOS_TEXT.test(text);
  let luw = LUW_TEXT.test(text);
  for (const stmt of statements) {
    switch (stmt.kind) {
      case 'createTablespace':
        if (stmt.zos) zos = true;
        if (stmt.managedBy) luw = true;
        break;
      case 'createTable':
        if (stmt.tablespace.database) zos = true;
        break;
      case 'declareTable':
        zos = true;
        break;
      case 'load':
        if (stmt.utility) zos = true;
        else luw = true;
        break;
      case 'updateDbCfg':
      case 'import':
      case 'ingest':
        luw = true;
        break;
      default:
        break;
    }
  }
  if (zos && !luw) return 'zos';
  if (luw && !zos) return 'luw';
  return undefined;
}

/** "Db2 for z/OS", "Db2 for LUW": how docs and messages name a dialect. */
export function dialectName(dialect: Dialect): string {
  return dialect === 'zos' ? 'Db2 for z/OS' : 'Db2 for LUW';
}
