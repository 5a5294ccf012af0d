// Embedded SQL programs in C/C++ (.sqc/.sqC/.sqx) with `EXEC SQL … ;` blocks, read with the C/C++ adapter
// after the blocks are replaced by placeholder calls (esql.ts). COBOL (.sqb too) is languages/cobol.ts.
import { embeddedHooks, scanEmbeddedSql } from '../esql';
import { readWithAdapter, type HostLanguage } from '../host-language';
import { C_ADAPTERS } from './c';

export const embeddedSqlLanguage: HostLanguage = {
  languages: ['embedded-sql'],
  grammars: ['c', 'cpp'],
  grammarOf(path) {
    const ext = path.slice(path.lastIndexOf('.'));
    return ext === '.sqC' || ext === '.sqx' ? 'cpp' : 'c';
  },
  read(source, env) {
    const scan = scanEmbeddedSql(source.text, { execSql: true });
    const adapter = C_ADAPTERS[embeddedSqlLanguage.grammarOf!(source.path, source.language) as keyof typeof C_ADAPTERS];
    return readWithAdapter(source, env, adapter, { hostText: scan.hostText, hooks: embeddedHooks(source.text, scan) });
  },
};
