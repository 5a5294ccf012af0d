// The code front end the CLI and the language server hand to the engine: one tree-sitter Parser per grammar,
// loaded once, and the registered host languages (languages/index.ts) that read files with them.
// Only the types at start-up: the runtime module is loaded with the grammars (see loadCodeFrontEnd).
import type { Parser } from 'web-tree-sitter';
import type { FileLanguage, FrontEnd, FrontEndOptions, FrontEndResult, SourceFile } from '../engine/types';
import { emptyResult, type HostEnv, type HostLanguage } from './host-language';
import { HOST_LANGUAGES } from './languages';
import { codeParserWasmFiles, type GrammarName } from './wasm';
import { DeadlineExceeded } from '../engine/deadline';

export { codeParserWasmFiles } from './wasm';

/** The engine's front-end contract, by the name the language server uses. */
export type CodeFrontEnd = FrontEnd;

export class TreeSitterCodeFrontEnd implements FrontEnd {
  readonly languages: readonly FileLanguage[];
  private readonly byLanguage = new Map<FileLanguage, HostLanguage>();

  constructor(
    private readonly parsers: Map<GrammarName, Parser>,
    hostLanguages: readonly HostLanguage[] = HOST_LANGUAGES,
  ) {
    for (const host of hostLanguages) for (const language of host.languages) this.byLanguage.set(language, host);
    this.languages = [...this.byLanguage.keys()];
  }

  read(source: SourceFile, options: FrontEndOptions = { driverModules: [] }): FrontEndResult {
    const host = this.byLanguage.get(source.language);
    if (!host) return emptyResult();
    const env: HostEnv = { parser: (grammar) => this.parsers.get(grammar), options };
    try {
      return host.read(source, env);
    } catch (error) {
      if (error instanceof DeadlineExceeded) throw error;
      // A grammar or extractor failure must not take the engine down: the file just yields nothing.
      return emptyResult();
    }
  }
}

let loading: Promise<TreeSitterCodeFrontEnd> | undefined;

/**
 * Loads the host-language parsers once (web-tree-sitter initialises asynchronously). Callers ask for it
 * only when a host-language file is to be read: the runtime and eight grammars take ~50 ms and ~30 MiB,
 * a third of the CLI's start-up, which SQL-only runs do not need.
 */
export function loadCodeFrontEnd(): Promise<TreeSitterCodeFrontEnd> {
  loading ??= (async () => {
    // require, not import(): import() resolves the package's ES module build, a second copy whose
    // Language objects the CommonJS copy that walk.ts queries with does not accept.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Language, Parser } = require('web-tree-sitter') as typeof import('web-tree-sitter');
    const wasm = codeParserWasmFiles();
    await Parser.init({ locateFile: () => wasm.runtime });
    const parsers = new Map<GrammarName, Parser>();
    const grammars = new Set(HOST_LANGUAGES.flatMap((h) => h.grammars));
    for (const name of grammars) {
      const parser = new Parser();
      parser.setLanguage(await Language.load(wasm.grammars[name]));
      parsers.set(name, parser);
    }
    return new TreeSitterCodeFrontEnd(parsers);
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
