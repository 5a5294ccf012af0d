// Embedded SQL programs: C/C++ (.sqc/.sqC/.sqx) with `EXEC SQL … ;` blocks, read with the C/C++ adapter
// after the blocks are replaced by placeholder calls (esql.ts), and COBOL (.sqb, END-EXEC), which has no
// grammar here: its blocks are read in order, without loop context.
import type { FrontEndResult } from '../../engine/types';
import type { Statement } from '../../sql/ast';
import { parseSql } from '../../sql/parser';
import type { CommitCall, SqlExecution } from '../types';
import { blockText, embeddedHooks, scanEmbeddedSql } from '../esql';
import { readWithAdapter, type HostLanguage } from '../host-language';
import { buildMappedSql } from '../sqltext';
import { C_ADAPTERS } from './c';

export const embeddedSqlLanguage: HostLanguage = {
  languages: ['embedded-sql'],
  grammars: ['c', 'cpp'],
  read(source, env) {
    const ext = source.path.slice(source.path.lastIndexOf('.'));
    if (ext === '.sqb') return readCobol(source.text);
    const scan = scanEmbeddedSql(source.text, { execSql: true });
    const adapter = ext === '.sqC' || ext === '.sqx' ? C_ADAPTERS.cpp : C_ADAPTERS.c;
    return readWithAdapter(source, env, adapter, { hostText: scan.hostText, hooks: embeddedHooks(source.text, scan) });
  },
};

function readCobol(text: string): FrontEndResult {
  const { blocks } = scanEmbeddedSql(text, { execSql: true, cobol: true });
  const statements: Statement[] = [];
  const executions: SqlExecution[] = [];
  const commits: CommitCall[] = [];
  for (const block of blocks) {
    const mapped = buildMappedSql(blockText(text, block));
    const body = mapped.text.trim().toUpperCase();
    if (/^COMMIT\b/.test(body)) {
      commits.push({ callSpan: block.span, api: 'esql', guarded: false });
      continue;
    }
    if (!/^(?:INSERT|UPDATE|DELETE|MERGE|SELECT|VALUES|WITH|CALL)\b/.test(body)) continue;
    const parsed = parseSql(mapped.text, { origin: mapped.origin });
    statements.push(...parsed.statements);
    executions.push({ callSpan: block.span, api: 'esql', action: 'executePrepared', statements: parsed.statements, textKind: 'constant', splicedValues: [], batched: false, connection: { autocommit: 'off' } });
  }
  return { statements, comments: [], code: { executions, commits } };
}
