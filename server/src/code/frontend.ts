// The code front end the CLI and the language server hand to the engine: one tree-sitter Parser per grammar,
// each grammar loaded once, when a file that needs it is among the inputs, and the registered host languages
// (languages/index.ts) that read files with them.
// Only the types at start-up: the runtime module is loaded with the first grammar (see loadCodeFrontEnd).
import { readFileSync } from 'node:fs';
import type { Language as GrammarLanguage, Parser } from 'web-tree-sitter';
import type { FileLanguage, FrontEnd, FrontEndOptions, FrontEndResult, SourceFile } from '../engine/types';
import { emptyResult, type HostEnv, type HostLanguage } from './host-language';
import { HOST_LANGUAGES } from './languages';
import { GRAMMARS, BASELINE_ONLY_GRAMMARS, grammarWasmFile, runtimeWasmFile, type GrammarName } from './wasm';
import { DeadlineExceeded } from '../engine/deadline';
import { withLineFeeds as lineFeedsIn } from '../engine/lines';
import { withWasmTierUp } from './wasm-tiering';
import { WARM_UP_FILES } from './warm-up';

export { codeParserWasmFiles } from './wasm';

/** The engine's front-end contract, by the name the language server uses. */
export type CodeFrontEnd = FrontEnd;

export class TreeSitterCodeFrontEnd implements FrontEnd {
  readonly languages: readonly FileLanguage[];
  private readonly byLanguage = new Map<FileLanguage, HostLanguage>();

  constructor(
    private readonly parsers: Map<GrammarName, Parser>,
    hostLanguages: readonly HostLanguage[] = HOST_LANGUAGES,
    /** Grammars that failed to load, with why: their files are left out with that reason. */
    readonly unavailable: ReadonlyMap<GrammarName, string> = new Map(),
  ) {
    for (const host of hostLanguages) for (const language of host.languages) this.byLanguage.set(language, host);
    this.languages = [...this.byLanguage.keys()];
  }

  read(source: SourceFile, options: FrontEndOptions = { driverModules: [] }): FrontEndResult {
    const host = this.byLanguage.get(source.language);
    if (!host) return emptyResult();
    const member = options.member;
    const read = member ? { ...options, member: (name: string, from: string) => withLineFeeds(member(name, from)) } : options;
    const used = new Set<GrammarName>();
    const parser = (grammar: GrammarName) => {
      used.add(grammar);
      return this.parsers.get(grammar);
    };
    const env: HostEnv = { parser, unavailable: (grammar) => this.unavailable.get(grammar), options: read };
    try {
      return host.read(withLineFeeds(source)!, env);
    } catch (error) {
      if (error instanceof DeadlineExceeded) throw error;
      // A parser that failed inside its wasm ("memory access out of bounds") may be left damaged, and every later
      // file of its language read wrong: the next file gets a new one.
      for (const grammar of used) this.renewParser(grammar);
      // A grammar or extractor failure must not take the engine down, nor pass unseen: the file is left out, with why.
      return { ...emptyResult(), leftOut: `reading it failed (${firstLineOf(error)}); this is a fault of InsertLint, please report it` };
    }
  }

  /** Puts a new parser for `grammar`'s language in place of the one used so far (which is not deleted: it may be damaged). */
  renewParser(grammar: GrammarName): void {
    const old = this.parsers.get(grammar);
    const language = old?.language;
    if (!language) return;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { Parser: ParserClass } = require('web-tree-sitter') as typeof import('web-tree-sitter');
      const fresh = new ParserClass();
      fresh.setLanguage(language);
      this.parsers.set(grammar, fresh);
    } catch {
      // The runtime itself failed: the old parser stays, as good as anything.
    }
  }
}

/**
 * The file as the host languages read it: each lone CR as LF (engine/lines.ts withLineFeeds; files read from disk
 * come so already, an editor's or an API caller's text may not). Made once per text (a copybook is looked up by
 * every program).
 */
function withLineFeeds(source: SourceFile | undefined): SourceFile | undefined {
  if (!source || source.text.indexOf('\r') < 0) return source;
  let read = lineFed.get(source);
  if (!read) {
    const text = lineFeedsIn(source.text);
    lineFed.set(source, (read = text === source.text ? source : { ...source, text }));
  }
  return read;
}
const lineFed = new WeakMap<SourceFile, SourceFile>();

/** The grammars these files parse with: one per file, by its host language (`grammarOf`), in first-use order. */
export function grammarsFor(files: Iterable<{ path: string; language: FileLanguage; text?: string }>, hostLanguages: readonly HostLanguage[] = HOST_LANGUAGES): GrammarName[] {
  const grammars = new Set<GrammarName>();
  for (const file of files) {
    const grammar = grammarOfFile(file, hostLanguages);
    if (grammar !== undefined) grammars.add(grammar);
  }
  return [...grammars];
}

/** The grammar a file parses with (none for COBOL, JCL and other languages read without one). */
function grammarOfFile({ path, language, text }: { path: string; language: FileLanguage; text?: string }, hostLanguages: readonly HostLanguage[]): GrammarName | undefined {
  const host = hostLanguages.find((h) => h.languages.includes(language));
  if (!host || host.grammars.length === 0) return undefined;
  // As `read` sees the text (see withLineFeeds): it must decide the same way.
  return host.grammarOf?.(path, language, text === undefined ? undefined : withLineFeeds({ path, language, text })!.text) ?? host.grammars[0];
}

/**
 * Below this much text for grammars that tier up, a run keeps the runtime and every grammar on V8's baseline
 * wasm compiler. TurboFan optimising the runtime costs ~100 ms of CPU on other threads, and Node waits for
 * those compiles before it exits: a check of one Python file took ~190 ms with them, ~145 without; 50 files
 * (270 KB of Python, Java, JS and TS) ~455 and ~370 ms. Optimised, a large file parses about a quarter
 * faster: a run of 3 MB or more gains by it overall, and between 0.5 and 3 MB it costs a run 2-5% while its
 * largest files read faster (../shared/corpus/code, 1 MB: bench/RESULTS.md).
 */
export const TIER_UP_MIN_CHARS = 2 ** 19;

/** Whether reading these files pays for optimising the parser's wasm (see TIER_UP_MIN_CHARS). */
export function tierUpPays(files: Iterable<{ path: string; language: FileLanguage; text: string }>, hostLanguages: readonly HostLanguage[] = HOST_LANGUAGES): boolean {
  let chars = 0;
  for (const file of files) {
    const grammar = grammarOfFile(file, hostLanguages);
    if (grammar !== undefined && !BASELINE_ONLY_GRAMMARS.has(grammar)) chars += file.text.length;
    if (chars >= TIER_UP_MIN_CHARS) return true;
  }
  return false;
}

/**
 * A wasm module compiled on this thread: V8 compiles its functions when they first run, so this takes 1-3 ms.
 * Loaded asynchronously (Language.load, the runtime's own init), the CLI carried on from a task of V8's inside
 * Node's DrainTasks, and its next turn of the event loop waited there for V8's worker threads to finish all
 * they had queued (optimising the code read so far: 35-90 ms). (The project's TypeScript libraries do not
 * declare WebAssembly.)
 */
function compileWasm(path: string): WasmModule {
  return new (wasmApi().Module)(readFileSync(path));
}

/** WebAssembly.Module, as web-tree-sitter's typings name it. */
type WasmModule = Parameters<typeof GrammarLanguage.loadSync>[0];

function wasmApi(): { Module: new (bytes: Uint8Array) => WasmModule; Instance: new (module: WasmModule, imports: unknown) => unknown } {
  return (globalThis as unknown as { WebAssembly: ReturnType<typeof wasmApi> }).WebAssembly;
}

/** emscripten's hook for instantiating the runtime: here, on this thread (see compileWasm). */
function instantiateHere(path: string) {
  return (imports: unknown, receive: (instance: unknown, module: WasmModule) => void): object => {
    const module = compileWasm(path);
    receive(new (wasmApi().Instance)(module, imports), module);
    return {};
  };
}

/** An error's first line, without emscripten's wrapping ("Aborted(…). Build with -sASSERTIONS for more info."). */
function firstLineOf(error: unknown): string {
  const line = (error instanceof Error ? error.message : String(error)).split('\n')[0];
  return /^Aborted\((.*)\)(?:\. Build with .*)?$/.exec(line)?.[1] ?? line;
}

const parsers = new Map<GrammarName, Parser>();
const unavailable = new Map<GrammarName, string>();
let frontEnd: TreeSitterCodeFrontEnd | undefined;
let loading: Promise<unknown> = Promise.resolve();

/**
 * The code front end with the parsers of `grammars` loaded (every grammar when omitted, as the language
 * server asks). Each grammar is loaded once per process, when first asked for: the runtime and eight
 * grammars take ~50 ms and ~30 MiB, which SQL-only runs and runs over one language do not need. Every call
 * returns the same front end; a grammar loaded by a later call serves it too.
 */
export function loadCodeFrontEnd(grammars: Iterable<GrammarName> = Object.keys(GRAMMARS) as GrammarName[], options: LoadOptions = {}): Promise<TreeSitterCodeFrontEnd> {
  const wanted = [...grammars];
  // One load at a time: two callers must not load the same grammar twice.
  const next = loading.then(() => loadGrammars(wanted, options));
  loading = next.catch(() => undefined);
  return next;
}

export interface LoadOptions {
  /**
   * Read a small loader with each grammar loaded (warm-up.ts), so that V8 compiles the front end's code for
   * that language inside the load rather than in the first file's time: for a run over files that all need
   * reading (the CLI), not for the language server, which loads every grammar at start-up.
   */
  warmUp?: boolean;
  /**
   * False: the runtime and the grammars this call loads stay on V8's baseline compiler (a run too small for
   * the optimised parse to pay, tierUpPays). The runtime is compiled once per process, by the first call.
   */
  tierUp?: boolean;
}

let runtimeReady = false;

async function loadGrammars(wanted: GrammarName[], options: LoadOptions): Promise<TreeSitterCodeFrontEnd> {
  frontEnd ??= new TreeSitterCodeFrontEnd(parsers, HOST_LANGUAGES, unavailable);
  const missing = wanted.filter((name) => !parsers.has(name));
  // COBOL and JCL need no grammar: a run over them does not load the runtime (~20 ms).
  if (missing.length === 0) return frontEnd;
  // require, not import(): import() resolves the package's ES module build, a second copy whose
  // Language objects the CommonJS copy that walk.ts queries with does not accept.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Language, Parser } = require('web-tree-sitter') as typeof import('web-tree-sitter');
  // A grammar or the runtime that does not load (a package missing or damaged) leaves its files out, with
  // why, and the rest of the run goes on.
  const damaged = (what: string, error: unknown) => `${what} did not load; reinstall InsertLint (${firstLineOf(error)})`;
  if (!runtimeReady) {
    try {
      const runtime = runtimeWasmFile();
      // Its own messages (emscripten's "Aborted(…)") are left unprinted: the reason goes with the files left out.
      await withWasmTierUp(options.tierUp !== false, () => Parser.init({ instantiateWasm: instantiateHere(runtime), printErr: () => undefined }));
      runtimeReady = true;
    } catch (error) {
      for (const name of missing) unavailable.set(name, damaged('the tree-sitter runtime', error));
      return frontEnd;
    }
  }
  for (const name of missing) {
    if (parsers.has(name)) continue;
    let language: GrammarLanguage;
    try {
      language = await withWasmTierUp(options.tierUp !== false && !BASELINE_ONLY_GRAMMARS.has(name), async () => Language.loadSync(compileWasm(grammarWasmFile(name))));
    } catch (error) {
      unavailable.set(name, damaged(`the ${name} parser`, error));
      continue;
    }
    unavailable.delete(name);
    const parser = new Parser();
    parser.setLanguage(language);
    // V8 compiles wasm functions when they first run: one parse of a line compiles the grammar's lexer and
    // the runtime's parse loop now, as part of loading, rather than inside the first file's time (5-25 ms).
    parser.parse('\n')?.delete();
    parsers.set(name, parser);
    // The first file of each language ran the front end's JavaScript cold (15-25 ms for a 30-line file):
    // a run over files on disk reads a small loader now, inside the load (warm-up.ts).
    if (options.warmUp) frontEnd.read(WARM_UP_FILES[name]);
    // A turn of the event loop between grammars: the language server answers messages while it loads them all.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return frontEnd;
}
