// The host languages the code front end reads. Adding one (COBOL, …) is a module exporting a HostLanguage
// (see ../host-language.ts) and one line here; its file extensions go in engine/config.ts DEFAULT_LANGUAGES.
import type { HostLanguage } from '../host-language';
import { cLanguage } from './c';
import { cobolLanguage } from './cobol';
import { embeddedSqlLanguage } from './embedded-sql';
import { javaLanguage } from './java';
import { jclLanguage } from './jcl';
import { javascriptLanguage } from './javascript';
import { pythonLanguage } from './python';
import { shellLanguage } from './shell';

export const HOST_LANGUAGES: readonly HostLanguage[] = [javaLanguage, pythonLanguage, javascriptLanguage, cLanguage, embeddedSqlLanguage, shellLanguage, cobolLanguage, jclLanguage];
