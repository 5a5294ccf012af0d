// Embedded SQL programs in C/C++ (.sqc/.sqC/.sqx) with `EXEC SQL … ;` blocks, read with the C/C++ adapter
// after the blocks are replaced by placeholder calls (esql.ts). COBOL (.sqb too) is languages/cobol.ts.
import { embeddedHooks, scanEmbeddedSql } from '../esql';
import { readWithAdapter, type HostLanguage } from '../host-language';
import { C_ADAPTERS } from './c';

export const embeddedSqlLanguage: HostLanguage = {
  languages: ['embedded-sql'],
  grammars: ['c', 'cpp'],
  read(source, env) {
    const ext = source.path.slice(source.path.lastIndexOf('.'));
    const scan = scanEmbeddedSql(source.text, { execSql: true });
    const adapter = ext === '.sqC' || ext === '.sqx' ? C_ADAPTERS.cpp : C_ADAPTERS.c;
    return readWithAdapter(source, env, adapter, { hostText: scan.hostText, hooks: embeddedHooks(source.text, scan) });
  },
};
