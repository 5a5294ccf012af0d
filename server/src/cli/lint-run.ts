// One lint run over paths on disk: config, file discovery, reading, the engine. Shared by `check` and `checklist`.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { ConfigError, dialectFor, languageOf, resolveConfig, terminatorFor, validateConfig, type ConfigFile, type ResolvedConfig } from '../engine/config';
import { parseInWorkers, workerCount, type ParsedScript, type ParseTask } from './parse-pool';
import { allRules } from '../engine/registry';
import { Workspace } from '../engine/workspace';
import type { GrammarName } from '../code/wasm';
import type { Diagnostic, FileLanguage, FrontEnd } from '../engine/types';
import type { FileLocator } from '../output/text';
import { collectFiles, findConfigFile, readSourceFile, repositoryFinder, type SkippedFile, type SourceEncoding } from './files';
import { anchorSchemaEntries, loadSchemaFiles } from '../schema/schema-files';
import { noteCodePath } from '../engine/code-paths';
import { parseJsonText } from '../engine/json-text';
import { djangoDb2Folders, sqlalchemyEvidence } from './evidence-python';
import { hibernateBatchingFolders, mybatisMapperStatements } from './evidence-java';
import { sequelizeDb2Folders } from './evidence-javascript';
import { usesDjango } from '../code/languages/python-django-project';
import { usesSequelizeModels, usesSqlalchemy } from '../code/access';
import { nowMs } from '../engine/clock';

export interface LintRunOptions {
  paths: string[];
  cwd: string;
  /** --config FILE; otherwise the nearest .insertlintrc.json above cwd. */
  configPath?: string;
  /** Command-line overrides (e.g. --rule id=off). */
  overrides?: ConfigFile;
  /** --schema entries (relative to cwd): DDL read for the schema model, not linted. */
  schema?: string[];
  /** --encoding: how files without a BOM are decoded (UTF-8 by default). */
  encoding?: SourceEncoding;
  /** --file-time-budget in ms (the engine's default when absent). */
  fileBudgetMs?: number;
  /** --jobs: threads that read scripts (1 or absent: all on this thread; see parse-pool.ts). */
  jobs?: number;
  /** False when the output shows no quick fixes (see Workspace.fixes); default true. */
  fixes?: boolean;
}

/** The CLI bundle a worker thread starts from; set by the CLI's entry point (runFromProcess), so library and test callers stay on one thread. */
let workerScript: string | undefined;

export function setWorkerScript(script: string): void {
  workerScript = script;
}

export interface LintRun {
  cwd: string;
  config: ResolvedConfig;
  workspace: Workspace;
  /** Absolute paths of the linted files. */
  files: string[];
  skipped: SkippedFile[];
  missing: string[];
  diagnostics: Diagnostic[];
  /** Schema files read (absolute paths) and what went wrong finding or reading them. */
  schemaFiles: string[];
  schemaProblems: string[];
  /**
   * What loading the tree-sitter runtime and grammars cost this run (absent when no host-language file is
   * among the inputs, 0 ms when an earlier run of the process loaded them): a one-time cost of the process,
   * not of the first file that needs a grammar. `unavailable`: why grammars among them did not load (a damaged
   * install), once per cause.
   */
  codeLoad?: { ms: number; grammars: GrammarName[]; unavailable: string[] };
  /** --docs-url or INSERTLINT_DOCS_URL: where rule documentation links point (the repository when absent). */
  docsBaseUrl?: string;
}

export function loadConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`${path}: cannot read the configuration (${(error as Error).message})`);
  }
  let raw: unknown;
  try {
    raw = parseJsonText(text);
  } catch (error) {
    throw new ConfigError(`${path}: not valid JSON ${(error as Error).message}`);
  }
  return validateConfig(raw, allRules(), path);
}

/** The configuration of a run: the file (found or given) under the command-line layers. Throws ConfigError. */
export function runConfig(options: Omit<LintRunOptions, 'paths'>): { config: ResolvedConfig; configPath?: string } {
  const configPath = options.configPath ? resolve(options.cwd, options.configPath) : findConfigFile(options.cwd);
  const fileConfig = configPath ? loadConfigFile(configPath) : undefined;
  // Schema entries are relative to the file that names them: the configuration's folder, or cwd for --schema.
  if (fileConfig?.schema) fileConfig.schema = anchorSchemaEntries(fileConfig.schema, dirname(configPath!));
  const config = resolveConfig(allRules(), fileConfig, options.overrides, { schema: anchorSchemaEntries(options.schema, options.cwd) });
  config.source = configPath;
  config.root = options.cwd;
  config.repositoryOf = repositoryFinder();
  return { config, configPath };
}

/** Throws ConfigError for a bad configuration; everything else about input is reported, not thrown. */
export async function lintPaths(options: LintRunOptions): Promise<LintRun> {
  const { config, configPath } = runConfig(options);
  const list = collectFiles(options.paths, config, options.cwd, configPath ? dirname(configPath) : options.cwd);
  const read: { path: string; text: string }[] = [];
  const unread: SkippedFile[] = [];
  for (const path of list.files) {
    // Every file listed was a regular file when it was found (collectFiles).
    const got = readSourceFile(path, config.maxFileBytes, options.encoding, true);
    if ('skip' in got) unread.push({ path, reason: got.skip });
    else read.push({ path, text: got.text });
  }
  // The tree-sitter grammars cost a third of the start-up: load only those the inputs need (one per code file,
  // chosen with its text: a C++ header reads with the C++ grammar).
  const codeFiles: { path: string; language: FileLanguage; text: string }[] = [];
  for (const { path, text } of read) {
    const language = languageOf(path, config);
    if (language !== undefined && language !== 'sql') codeFiles.push({ path, language, text });
  }
  let codeLoad: LintRun['codeLoad'];
  const frontEnds: FrontEnd[] = [];
  if (codeFiles.length > 0) {
    // The code front end's module too: its host languages set up tables when it is imported (a SQL-only run need not).
    const { grammarsFor, loadCodeFrontEnd, tierUpPays } = await import('../code/frontend');
    const grammars = grammarsFor(codeFiles);
    const started = nowMs();
    const codeFrontEnd = await loadCodeFrontEnd(grammars, { warmUp: true, tierUp: tierUpPays(codeFiles) });
    frontEnds.push(codeFrontEnd);
    // Why grammars did not load, once per cause (a runtime that did not load is every grammar's cause).
    codeLoad = { ms: nowMs() - started, grammars, unavailable: [...new Set(codeFrontEnd.unavailable.values())] };
  }
  const workspace = new Workspace(config, frontEnds);
  // SQLAlchemy on Db2 shown by the project (a Db2 URL in its configuration, ibm_db_sa among its requirements): its
  // Python files that use SQLAlchemy are read, though they name no driver. Before any is read.
  if (codeFiles.some((f) => f.language === 'python')) {
    const evidence = sqlalchemyEvidence(codeFiles);
    if (evidence.db2.size > 0) workspace.setSqlalchemyDb2Folders(new Set(evidence.db2.keys()), usesSqlalchemy);
    // Whether the projects' session factories turn autoflush off: a session a module does not build is as they are.
    if (evidence.autoflush.size > 0) workspace.setSqlalchemyAutoflushOff(new Map([...evidence.autoflush].map(([top, a]) => [top, a.off])), usesSqlalchemy);
    // Django on Db2 (ibm_db_django as ENGINE in the project's settings): its files that use Django are read.
    const django = djangoDb2Folders(codeFiles);
    if (django.size > 0) workspace.setDjangoDb2Folders(django, usesDjango);
  }
  // Sequelize on Db2 shown by a JavaScript/TypeScript project (package.json, its Sequelize configuration, .env): its
  // files that use the models are read, though they name neither driver nor dialect. Before any is read.
  if (codeFiles.some((f) => f.language === 'javascript' || f.language === 'typescript')) {
    const evidence = sequelizeDb2Folders(codeFiles);
    if (evidence.size > 0) workspace.setSequelizeDb2Folders(new Set(evidence.keys()), usesSequelizeModels);
  }
  // Hibernate's batch size as a Java project's configuration sets it (persistence.xml, application.properties …):
  // an ORM loop flushed once is one INSERT per entity when it sets none. Before any Java file is read.
  if (codeFiles.some((f) => f.language === 'java')) {
    const batching = hibernateBatchingFolders(codeFiles);
    if (batching.size > 0) workspace.setHibernateBatching(batching, () => true);
    // MyBatis's mapper XML files (src/main/resources/**, beside the interfaces): their <insert> statements by id.
    const statements = mybatisMapperStatements(codeFiles);
    if (statements.size > 0) workspace.setMybatisStatements(statements);
  }
  // One pass: no file is read again after an edit, so nothing is kept for that (less for the GC to copy).
  workspace.keepForEdits = false;
  if (options.fileBudgetMs) workspace.fileBudgetMs = options.fileBudgetMs;
  if (options.fixes === false) workspace.fixes = false;
  // A schema file among the linted paths was read above (with the same encoding and size limit): not read again.
  const readText = config.schema.length > 0 ? new Map(read.map((f) => [f.path, f.text])) : undefined;
  const schema = loadSchemaFiles(workspace, config.schema, { ...config, encoding: options.encoding }, (path) => readText?.get(path));
  // A schema file inside the linted paths is still only schema: it is not linted, its findings go to the inserts.
  const schemaFiles = new Set(schema.files);
  const skipped = [...list.skipped, ...unread.filter((f) => !schemaFiles.has(f.path))];
  const linted = read.filter((f) => !schemaFiles.has(f.path));
  const files = linted.map((f) => f.path);
  const texts = linted.map((f) => f.text);
  noteTextRead(files, texts, config);
  const parsed = await parseScripts(files, texts, config, options.jobs ?? 1, workspace.fileBudgetMs);
  // In file order, as a single-threaded run adds them: the order of the findings, the schema and the timings.
  // All at once: a COBOL program finds copybooks listed after it on its first read (see addFiles).
  workspace.addFiles(files.map((path, i) => ({ path, text: texts[i] })), () => {
    files.forEach((file, i) => {
      const done = parsed.get(i);
      if (done) workspace.adoptFile(done.model, done.readMs);
      else workspace.setFile(file, texts[i]);
    });
  });
  const diagnostics = workspace.allDiagnostics();
  noteStatementKinds(workspace, files);
  return { cwd: options.cwd, config, workspace, files, skipped, missing: list.missing, diagnostics, schemaFiles: schema.files, schemaProblems: schema.problems, codeLoad };
}

/**
 * Notes for the code cache (code-paths.ts) what the run reads: per language, `read:<language>:1e<k>` for every k
 * up to log10 of the characters read. A run over ten times more text of a language than the run that wrote the
 * cache reaches more of its parser (statement kinds, rules' findings), so it writes the cache again.
 */
function noteTextRead(files: string[], texts: string[], config: ResolvedConfig): void {
  const chars = new Map<FileLanguage, number>();
  files.forEach((file, i) => {
    const language = languageOf(file, config);
    if (language) chars.set(language, (chars.get(language) ?? 0) + texts[i].length);
  });
  for (const [language, n] of chars) for (let k = 0; k <= Math.min(7, Math.log10(n + 1)); k++) noteCodePath(`read:${language}:1e${k}`);
}

/** Notes for the code cache the kinds of statement read (each kind has parser and rule code of its own). */
function noteStatementKinds(workspace: Workspace, files: string[]): void {
  const kinds = new Set<string>();
  for (const file of files) {
    const statements = workspace.model(file)?.statements ?? [];
    for (let i = 0; i < statements.length; i++) kinds.add(statements[i].kind);
  }
  for (const kind of kinds) noteCodePath(`statement:${kind}`);
}

/** The scripts among `files` read by worker threads, by index (none when the run is small or jobs is 1). */
async function parseScripts(files: string[], texts: string[], config: ResolvedConfig, jobs: number, budgetMs: number): Promise<Map<number, ParsedScript>> {
  const parsed = new Map<number, ParsedScript>();
  if (!workerScript || jobs <= 1) return parsed;
  const indexes: number[] = [];
  const tasks: ParseTask[] = [];
  files.forEach((file, i) => {
    if (languageOf(file, config) !== 'sql') return;
    indexes.push(i);
    tasks.push({ path: file, text: texts[i], terminator: terminatorFor(file, config), dialect: dialectFor(file, config) });
  });
  const workers = workerCount(jobs, tasks);
  if (workers === 0) return parsed;
  const results = await parseInWorkers(workerScript, tasks, workers, budgetMs);
  results.forEach((result, j) => {
    if (result) parsed.set(indexes[j], result);
  });
  return parsed;
}

/**
 * Display path and lines of any file of the run, schema files included (related locations). A linted file is
 * shown as its findings are (displayPath: absolute outside the current folder), so a related location in the
 * finding's own file names it the same way; a schema file outside the current folder is shown as
 * `../dba/prod.db2look`, as it was named, rather than absolute.
 */
export function runLocator(run: LintRun): FileLocator {
  let linted: Set<string> | undefined;
  return (file) => {
    const lines = run.workspace.lines(file);
    if (!lines) return undefined;
    linted ??= new Set(run.files);
    if (linted.has(file)) return { displayPath: displayPath(run.cwd, file), lines };
    const rel = relative(run.cwd, file);
    return { displayPath: isAbsolute(rel) ? file : rel.split(sep).join('/'), lines };
  };
}

/** Path as shown to users: relative to the current folder, with forward slashes. */
export function displayPath(cwd: string, file: string): string {
  const rel = relative(cwd, file);
  return (rel.startsWith('..') ? file : rel).split(sep).join('/');
}
