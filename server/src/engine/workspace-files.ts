// WorkspaceFiles, the base of Workspace (workspace.ts): the file store. The linted files and the schema files,
// each read once into a FileEntry (a script re-read from the previous model after an edit, within the time
// budget), the members COPY and EXEC SQL INCLUDE bring in, what a change makes stale (the generation, the
// schema), the dialect a file that shows none takes from its folders, and reading one file (buildFileModel).
import { parseSql, scriptTerminator } from '../sql/parser';
import { scanTerminator } from '../sql/terminator';
import type { TextChange } from '../sql/incremental';
import { noteTerminator, readScript, scriptModel, type ScriptState } from './script-read';
import type { SchemaModel } from '../schema/schema';
import { schemaFileView } from '../schema/schema-findings';
import { dialectFor, languageOf, terminatorFor, type ResolvedConfig } from './config';
import { inferDialect } from '../sql/dialect';
import { MemberIndex } from './members';
import { LineIndex } from './lines';
import type { Diagnostic, Dialect, FileLanguage, FileModel, FrontEnd, FrontEndOptions, SourceFile } from './types';
import type { DjangoProject, HibernateBatching } from '../code-model/types';
import { DEFAULT_FILE_BUDGET_MS, DeadlineExceeded, withDeadline } from './deadline';
import type { PieceCache } from './segments';
import { nowMs } from './clock';

export interface RuleFailure {
  file: string;
  rule: string;
  error: unknown;
}

export interface FileEntry extends ScriptState {
  model: FileModel;
  /** The configured terminator the model was parsed with (undefined: inferred from the file). */
  terminator?: string;
  /** The configured dialect the model was read with (undefined: inferred). */
  dialect?: string;
  lines: LineIndex;
  /** Time spent reading the file (parse, code analysis) and, last time, running the rules on it. */
  readMs: number;
  rulesMs?: number;
  diagnostics?: Diagnostic[];
  /** The workspace generation `diagnostics` were computed in; stale when it differs. */
  generation?: number;
  /** What the file adds to the findings of schema files (see schemaContribution), computed once. */
  contribution?: string;
  /**
   * Why the file's findings are left out: the last run of its rules went past the time budget (rulesStoppedMessage);
   * with the configuration and budget of that run. Its rules are not run again on this text (this entry) until one of
   * those changes: in an editor, every edit of another file would otherwise spend the budget on it again.
   */
  rulesStopped?: { reason: string; config: ResolvedConfig; budgetMs: number };
}

const NO_READ_STATE: ScriptState = {};

export abstract class WorkspaceFiles {
  protected readonly files = new Map<string, FileEntry>();
  /** DDL read for the schema model only (config "schema"): never reported on; see schema/schema-findings.ts. */
  protected readonly schemaFiles = new Map<string, FileEntry>();
  /** Bumped when the configuration or a schema file changes. */
  protected schemaVersion = 0;
  /** The schema folded from all files (Workspace.schema); undefined when a change made it stale (invalidate). */
  protected schemaCache?: SchemaModel;
  /** Findings of rules about runs (Rule.endsRun), per script and rule, kept per piece (engine/segments.ts). */
  protected readonly pieces = new Map<string, Map<string, PieceCache>>();
  /** Bumped by every change; diagnostics of an older generation are stale (see invalidate()). */
  protected generation = 0;
  protected budgetMs = DEFAULT_FILE_BUDGET_MS;
  /** Rules that threw, disabled for that file; callers log these. */
  readonly ruleFailures: RuleFailure[] = [];
  /** byFileFolder: nearestDialect's answer by the folder of a file (null: none), filled as files ask. */
  private dialectCache?: { generation: number; byFolder: Map<string, Dialect | 'both'>; byFileFolder: Map<string, Dialect | null> };
  /** Files by member name, for COPY / EXEC SQL INCLUDE; files whose includes changed are read again on next use. */
  protected readonly members = new MemberIndex();
  /**
   * Keep what makes the next analysis of an edited file cheaper: what reading a script leaves for reading it
   * again (ScriptState: the terminator scan's checkpoints, where the dialect words are) and the index of a
   * model's statements by kind that its rules build (engine/statements.ts). For an editor. A one-pass run (the
   * CLI) sets it false: every model is held until the end, and the garbage collector copies what is held with it.
   */
  keepForEdits = true;

  constructor(
    protected config: ResolvedConfig,
    private readonly frontEnds: readonly FrontEnd[] = [],
  ) {}

  setConfig(config: ResolvedConfig): void {
    const reread = frontEndOptionsKey(config) !== frontEndOptionsKey(this.config);
    this.config = config;
    // A script whose configured terminator changed is read again; code files when the front-end settings
    // (driver modules) changed what they yield.
    for (const [path, entry] of this.files) {
      if (entry.model.source.language !== 'sql') {
        if (reread || dialectFor(path, config) !== entry.dialect) this.files.set(path, this.newEntry(entry.model.source, undefined));
        continue;
      }
      const terminator = terminatorFor(path, config);
      if (terminator !== entry.terminator || dialectFor(path, config) !== entry.dialect) this.files.set(path, this.newEntry(entry.model.source, terminator));
    }
    this.schemaVersion++;
    this.invalidate();
  }

  /** The language a path is linted as, or undefined when it is not linted. */
  languageOf(path: string): FileLanguage | undefined {
    return languageOf(path, this.config);
  }

  /**
   * Files being added together (addFiles), known before any of them is read: a program finds the copybooks
   * that come after it in the list on its first read, instead of being read again when they arrive.
   */
  private arriving?: Map<string, SourceFile>;

  /**
   * Adds many files in one go (a CLI run): `add` makes the setFile / adoptFile calls, in the order their
   * findings are listed, for files among `files`. A COBOL program listed before its copybooks (cbl/ before
   * cpy/) is read once, with them; added one by one it was read without them and then again.
   */
  addFiles(files: readonly { path: string; text: string }[], add: () => void): void {
    const arriving = new Map<string, SourceFile>();
    for (const { path, text } of files) {
      const language = this.languageOf(path);
      if (!language || this.files.get(path)?.model.source.text === text) continue;
      arriving.set(path, { path, text, language });
      // Files already held that include it are read again, as setFile would have them.
      this.members.changed(path, true);
    }
    this.arriving = arriving;
    try {
      add();
    } finally {
      this.arriving = undefined;
    }
  }

  /**
   * Adds or replaces a file; returns its model, or undefined when the file is not linted. `change`: where the
   * text differs from the one the workspace holds for the path, when the caller knows (an editor's change
   * events); otherwise the texts are compared.
   */
  setFile(path: string, text: string, language = this.languageOf(path), change?: TextChange): FileModel | undefined {
    if (!language) return undefined;
    const existing = this.files.get(path);
    const terminator = language === 'sql' ? terminatorFor(path, this.config) : undefined;
    if (existing && existing.model.source.text === text && existing.model.source.language === language && existing.terminator === terminator) return existing.model;
    const known = this.arriving?.get(path);
    // The arriving file's own source object: the members read with it (COBOL's copybook cache) are keyed on it.
    const source = known && known.text === text && known.language === language ? known : { path, text, language };
    const entry = this.newEntry(source, terminator, existing, change);
    this.files.set(path, entry);
    // Includers among the arriving files were read with it already.
    if (source !== known) this.members.changed(path, true);
    // An edit that changed no DDL, SET SCHEMA or insert shape keeps the schema (issue 15: typing in a VALUES
    // list must not fold the schema of a 2,000-file workspace again); other files' findings are recomputed
    // when asked, as after any change.
    const schema = existing && this.schemaCache ? this.schemaCache.withFileReplaced(existing.model, entry.model) : undefined;
    const dialectKept = this.dialectCache?.generation === this.generation && existing !== undefined && existing.model.dialect === entry.model.dialect && existing.model.source.language === language;
    this.invalidate();
    this.schemaCache = schema;
    // The same dialect as before: the folders' are the same (it looks at all 2,000 files' otherwise).
    if (dialectKept) this.dialectCache!.generation = this.generation;
    this.lastEditKeptSchema = schema !== undefined;
    return entry.model;
  }

  /** Whether the last setFile kept the schema model (the edit changed no DDL, SET SCHEMA or insert shape). */
  lastEditKeptSchema = false;

  /**
   * Adds a script read elsewhere (a worker thread, cli/parse-pool.ts) with the configured terminator and
   * dialect, as setFile would have read it; `readMs` is the time the reading took there.
   */
  adoptFile(model: FileModel, readMs: number): void {
    const path = model.source.path;
    const terminator = model.source.language === 'sql' ? terminatorFor(path, this.config) : undefined;
    this.members.track(path, model.includes);
    this.files.set(path, { model, lines: new LineIndex(model.source.text), terminator, dialect: dialectFor(path, this.config), readMs });
    if (this.arriving?.get(path)?.text !== model.source.text) this.members.changed(path, true);
    this.invalidate();
  }

  /** Per-file times of the last read and rule run, for `--timings` and the benchmarks' slowest files. */
  timings(): { file: string; lines: number; readMs: number; rulesMs: number }[] {
    return [...this.files].map(([file, e]) => ({ file, lines: e.lines.lineCount, readMs: e.readMs, rulesMs: e.rulesMs ?? 0 }));
  }

  /**
   * Reads a file. `previous`: the entry it replaces (an edit); a script is then re-parsed from the previous
   * model where the edit is (sql/incremental.ts), and the previous model's statements are used up.
   */
  protected newEntry(source: SourceFile, terminator: string | undefined, previous?: FileEntry, hint?: TextChange): FileEntry {
    const started = nowMs();
    const dialect = dialectFor(source.path, this.config);
    let model: FileModel;
    let state: ScriptState = NO_READ_STATE;
    try {
      model = withDeadline(this.budgetMs, () => {
        if (source.language !== 'sql') return buildFileModel(source, this.frontEnds, terminator, this.frontEndOptions(), dialect);
        const read = readScript(source, terminator, dialect, previous, hint);
        state = read;
        return read.model;
      }, started);
    } catch (error) {
      if (!(error instanceof DeadlineExceeded)) throw error;
      model = timedOutModel(source, error.message);
    }
    this.members.track(source.path, model.includes);
    const { parsedWith, plain, dialectWords, terminatorScan } = this.keepForEdits ? state : NO_READ_STATE;
    return { model, lines: new LineIndex(source.text), terminator, dialect, parsedWith, plain, dialectWords, terminatorScan, readMs: nowMs() - started };
  }

  /** What the code front ends are handed, made once per configuration (not per file read). */
  private frontEndOptionsMade?: { config: ResolvedConfig; options: FrontEndOptions };

  private frontEndOptions(): FrontEndOptions {
    if (this.frontEndOptionsMade?.config !== this.config) {
      const member: FrontEndOptions['member'] = (name, from) => this.members.find(name, from, (p) => this.arriving?.get(p) ?? this.files.get(p)?.model.source);
      this.frontEndOptionsMade = { config: this.config, options: { ...frontEndOptions(this.config), member, calledFunctions: this.insertFunctions, sqlalchemyDb2Folders: this.sqlalchemyDb2, sqlalchemyAutoflushOff: this.sqlalchemyAutoflushOff, sequelizeDb2Folders: this.sequelizeDb2, hibernateBatching: this.hibernateBatching, djangoDb2Folders: this.djangoDb2 } };
    }
    return this.frontEndOptionsMade.options;
  }

  /** Reads again the files whose included members changed since they were read (see MemberIndex). */
  protected refreshIncluders(): void {
    const stale = this.members.takeStale();
    for (const path of stale) {
      const entry = this.files.get(path);
      if (entry) this.files.set(path, this.newEntry(entry.model.source, entry.terminator));
    }
    // What the programs run changed: the schema and every file's findings with it.
    if (stale.length > 0) this.invalidate();
  }

  removeFile(path: string): void {
    if (this.files.delete(path)) {
      this.pieces.delete(path);
      this.members.changed(path, false);
      this.forgetFailures(path);
      this.invalidate();
    }
  }

  /**
   * Adds or replaces a schema file: SQL whose DDL feeds the schema model (before the linted files, as a
   * database that exists before the application runs) and whose findings appear on the inserts they concern.
   * A path that is also linted counts as linted.
   */
  setSchemaFile(path: string, text: string): FileModel {
    const existing = this.schemaFiles.get(path);
    if (existing && existing.model.source.text === text) return existing.model;
    const started = nowMs();
    const model = schemaFileView(buildFileModel({ path, text, language: 'sql' }, [], terminatorFor(path, this.config)));
    this.schemaFiles.set(path, { model, lines: new LineIndex(text), readMs: nowMs() - started });
    this.schemaVersion++;
    this.invalidate();
    return model;
  }

  removeSchemaFile(path: string): void {
    if (this.schemaFiles.delete(path)) {
      this.schemaVersion++;
      this.forgetFailures(path);
      this.invalidate();
    }
  }

  schemaFilePaths(): string[] {
    return [...this.schemaFiles.keys()];
  }

  hasFile(path: string): boolean {
    return this.files.has(path);
  }

  paths(): string[] {
    return [...this.files.keys()];
  }

  /** The linted files of a language as read (the language server looks for project evidence in them). */
  sourcesOf(language: FileLanguage): SourceFile[] {
    const out: SourceFile[] = [];
    for (const entry of this.files.values()) if (entry.model.source.language === language) out.push(entry.model.source);
    return out;
  }

  /**
   * Functions of the C/C++ files that run a single-row INSERT per call (called-inserts.ts), handed to the front ends
   * (FrontEndOptions.calledFunctions): a file that calls one is read, though it names no driver. Only grows.
   */
  protected readonly insertFunctions = new Set<string>();

  /**
   * Folders whose project shows Db2 as SQLAlchemy's database (FrontEndOptions.sqlalchemyDb2Folders), as the CLI and the
   * language server find them on disk (cli/project-evidence.ts): a Python file under one that uses SQLAlchemy is read.
   */
  private sqlalchemyDb2: ReadonlySet<string> = new Set();

  /**
   * New project evidence for SQLAlchemy on Db2 (setSqlalchemyDb2Folders). When it changed, the Python files that may
   * read otherwise now are read again (`mayChange`: the front end's test of a text, code/access.ts usesSqlalchemy);
   * returns their paths (the editor publishes them again). The engine does not look at the disk itself.
   */
  setSqlalchemyDb2Folders(folders: ReadonlySet<string>, mayChange: (text: string) => boolean): string[] {
    const same = folders.size === this.sqlalchemyDb2.size && [...folders].every((f) => this.sqlalchemyDb2.has(f));
    if (same) return [];
    this.sqlalchemyDb2 = new Set(folders);
    return this.readAgainWithNewEvidence((language) => language === 'python', mayChange);
  }

  /**
   * Whether SQLAlchemy projects' sessions autoflush, by project top (FrontEndOptions.sqlalchemyAutoflushOff), as the CLI
   * and the language server find their session factories (cli/project-evidence.ts).
   */
  private sqlalchemyAutoflushOff: ReadonlyMap<string, boolean> = new Map();

  /**
   * New project evidence of SQLAlchemy's autoflush (setSqlalchemyAutoflushOff). When it changed, the Python files that
   * may read otherwise now (`mayChange`: code/access.ts usesSqlalchemy) are read again; returns their paths.
   */
  setSqlalchemyAutoflushOff(byTop: ReadonlyMap<string, boolean>, mayChange: (text: string) => boolean): string[] {
    const old = this.sqlalchemyAutoflushOff;
    const same = byTop.size === old.size && [...byTop].every(([top, off]) => old.get(top) === off);
    if (same) return [];
    this.sqlalchemyAutoflushOff = new Map(byTop);
    return this.readAgainWithNewEvidence((language) => language === 'python', mayChange);
  }

  /**
   * JavaScript/TypeScript projects' tops that show Db2 as Sequelize's database (FrontEndOptions.sequelizeDb2Folders), as
   * the CLI and the language server find them on disk (cli/project-evidence.ts): a file under one that uses models is read.
   */
  private sequelizeDb2: ReadonlySet<string> = new Set();

  /**
   * New project evidence for Sequelize on Db2 (setSequelizeDb2Folders). When it changed, the JavaScript/TypeScript
   * files that may read otherwise now (`mayChange`: code/access.ts usesSequelizeModels) are read again; returns their
   * paths (the editor publishes them again).
   */
  setSequelizeDb2Folders(folders: ReadonlySet<string>, mayChange: (text: string) => boolean): string[] {
    const same = folders.size === this.sequelizeDb2.size && [...folders].every((f) => this.sequelizeDb2.has(f));
    if (same) return [];
    this.sequelizeDb2 = new Set(folders);
    return this.readAgainWithNewEvidence((language) => language === 'javascript' || language === 'typescript', mayChange);
  }

  /**
   * Hibernate's batching as Java projects' configuration sets it (FrontEndOptions.hibernateBatching), as the CLI and
   * the language server find it on disk (cli/project-evidence.ts).
   */
  private hibernateBatching: ReadonlyMap<string, HibernateBatching> = new Map();

  /**
   * New Hibernate configuration of Java projects (setHibernateBatching). When it changed, the Java files that may read
   * otherwise (`mayChange`: they use an ORM) are read again; returns their paths (the editor publishes them again).
   */
  setHibernateBatching(byFolder: ReadonlyMap<string, HibernateBatching>, mayChange: (text: string) => boolean): string[] {
    const old = this.hibernateBatching;
    // (MyBatis's executor, the pool's autocommit and Hibernate's flush mode too: they may change beside an unchanged
    // batch size.)
    const same = byFolder.size === old.size && [...byFolder].every(([folder, b]) => {
      const was = old.get(folder);
      return was?.file === b.file && was.batchSize === b.batchSize && was.mybatisBatch === b.mybatisBatch && was.mybatisOnly === b.mybatisOnly && was.poolAutocommitOff === b.poolAutocommitOff && was.flushModeOff === b.flushModeOff;
    });
    if (same) return [];
    this.hibernateBatching = new Map(byFolder);
    return this.readAgainWithNewEvidence((language) => language === 'java', mayChange);
  }

  /**
   * Django projects' tops whose settings name ibm_db_django as ENGINE (FrontEndOptions.djangoDb2Folders), as the CLI
   * and the language server find them on disk (cli/project-evidence.ts): a Python file under one that uses Django is read.
   */
  private djangoDb2: ReadonlyMap<string, DjangoProject> = new Map();

  /**
   * New project evidence for Django on Db2 (setDjangoDb2Folders). When it changed (a folder, or its ATOMIC_REQUESTS),
   * the Python files that may read otherwise now (`mayChange`: python-django-project.ts usesDjango) are read again;
   * returns their paths (the editor publishes them again).
   */
  setDjangoDb2Folders(byFolder: ReadonlyMap<string, DjangoProject>, mayChange: (text: string) => boolean): string[] {
    const old = this.djangoDb2;
    const same = byFolder.size === old.size && [...byFolder].every(([folder, p]) => old.has(folder) && !old.get(folder)!.atomicRequests === !p.atomicRequests);
    if (same) return [];
    this.djangoDb2 = new Map(byFolder);
    return this.readAgainWithNewEvidence((language) => language === 'python', mayChange);
  }

  /**
   * After new project evidence (setSqlalchemyDb2Folders, setSqlalchemyAutoflushOff, setSequelizeDb2Folders, setHibernateBatching): the front ends'
   * options made again, and the files of those languages whose reading it may change (`mayChange`) read again; their
   * paths (the editor publishes them again).
   */
  private readAgainWithNewEvidence(ofLanguage: (language: FileLanguage) => boolean, mayChange: (text: string) => boolean): string[] {
    this.frontEndOptionsMade = undefined;
    const reread: string[] = [];
    for (const [path, entry] of this.files) {
      const source = entry.model.source;
      if (!ofLanguage(source.language) || entry.model.timedOut || !mayChange(source.text)) continue;
      this.files.set(path, this.newEntry(source, undefined));
      reread.push(path);
    }
    if (reread.length > 0) this.invalidate();
    return reread;
  }

  /** Line index of a linted file or a schema file (related locations point into schema files). */
  lines(path: string): LineIndex | undefined {
    return (this.files.get(path) ?? this.schemaFiles.get(path))?.lines;
  }

  /** Schema files not shadowed by a linted file of the same path. */
  protected schemaEntries(): [string, FileEntry][] {
    return [...this.schemaFiles].filter(([path]) => !this.files.has(path));
  }

  protected invalidate(): void {
    // Any file's DDL can change any other file's findings (the schema is shared), so all are recomputed lazily.
    // A generation counter rather than a loop over the files: adding n files one by one stays linear
    // (the loop made indexing 20,000 files take 1.6 s in setFile alone).
    this.schemaCache = undefined;
    this.generation++;
  }

  /**
   * The dialect of a file that shows none (plain CREATE TABLE): the one the nearest scripts and jobs show, when
   * they show one only. Nearest: those of the file's own folder, else of its parent's tree, and so on up; so a
   * run over several repositories (a z/OS one beside LUW ones) reads each one's plain DDL as a run over that
   * repository alone would. COBOL's dialect comes from its file name, too weak to decide for the rest.
   */
  protected nearestDialect(path: string): Dialect | undefined {
    if (this.dialectCache?.generation !== this.generation) this.dialectCache = { generation: this.generation, byFolder: this.dialectsByFolder(), byFileFolder: new Map() };
    const { byFolder, byFileFolder } = this.dialectCache;
    if (byFolder.size === 0) return undefined;
    const start = parentFolder(path);
    if (start === undefined) return undefined;
    // Once per folder of files: the walk up went through every folder above a file whose own showed none (a
    // dozen in a deep checkout, each a slice and a lookup of a long path), for every such file.
    const known = byFileFolder.get(start);
    if (known !== undefined) return known ?? undefined;
    let found: Dialect | null = null;
    for (let folder: string | undefined = start; folder !== undefined; folder = parentFolder(folder)) {
      const seen = byFolder.get(folder);
      if (seen !== undefined) {
        found = seen === 'both' ? null : seen;
        break;
      }
    }
    byFileFolder.set(start, found);
    return found ?? undefined;
  }

  /** For each folder above a script or job that shows a dialect: the one its tree shows, or 'both'. */
  private dialectsByFolder(): Map<string, Dialect | 'both'> {
    const byFolder = new Map<string, Dialect | 'both'>();
    for (const { model } of this.files.values()) {
      const dialect = model.dialect;
      if (!dialect || (model.source.language !== 'sql' && model.source.language !== 'jcl')) continue;
      // Up to the first folder that already says 'both' or this dialect: its ancestors then say it too.
      for (let folder = parentFolder(model.source.path); folder !== undefined; folder = parentFolder(folder)) {
        const seen = byFolder.get(folder);
        if (seen === dialect || seen === 'both') break;
        byFolder.set(folder, seen === undefined ? dialect : 'both');
      }
    }
    return byFolder;
  }

  /** Drops the recorded failures of a file (before its rules run again, or when it goes away). */
  protected forgetFailures(path: string): void {
    // In place: callers may hold the array. Without this an editor re-linting on every keystroke would add
    // one record per keystroke for a rule that keeps failing.
    let kept = 0;
    for (const failure of this.ruleFailures) if (failure.file !== path) this.ruleFailures[kept++] = failure;
    this.ruleFailures.length = kept;
  }
}

/** The model of a file left out because reading it ran past its time budget (`reason` says so). */
export function timedOutModel(source: SourceFile, reason: string): FileModel {
  return { source, statements: [], comments: [], leftOut: reason, timedOut: true };
}

/**
 * Reads one file: SQL scripts with the SQL front end, other languages with the front end handed in for them.
 * `terminator`: the one configured for a script (undefined: inferred from the file).
 */
export function buildFileModel(source: SourceFile, frontEnds: readonly FrontEnd[] = [], terminator?: string, options: FrontEndOptions = { driverModules: [] }, dialect?: Dialect): FileModel {
  if (source.language === 'sql') {
    // As readScript reads it (a worker thread of `check --jobs` reads scripts here).
    const scan = terminator === undefined ? scanTerminator(source.text, { name: source.path }) : undefined;
    const model = scriptModel(source, parseSql(source.text, { terminator: scriptTerminator(source.text, terminator, scan) }), dialect);
    noteTerminator(model, terminator, scan?.semicolonComment);
    return model;
  }
  const frontEnd = frontEnds.find((f) => f.languages.includes(source.language));
  if (!frontEnd) return { source, statements: [], comments: [] };
  const read = frontEnd.read(source, options);
  const model: FileModel = { source, statements: read.statements, comments: read.comments };
  if (read.code) model.code = read.code;
  if (read.leftOut) model.leftOut = read.leftOut;
  if (read.includes) model.includes = read.includes;
  if (read.syntaxError) model.syntaxError = read.syntaxError;
  const chosen = dialect ?? read.dialect ?? inferDialect(read.statements, '');
  if (chosen) model.dialect = chosen;
  return model;
}

function frontEndOptions(config: ResolvedConfig): FrontEndOptions {
  return { driverModules: config.driverModules };
}

function frontEndOptionsKey(config: ResolvedConfig): string {
  return JSON.stringify(config.driverModules);
}

/** The folder holding `path` ("src/db" for "src/db/t.sql", "" for "t.sql"), undefined above the top. */
function parentFolder(path: string): string | undefined {
  if (path === '') return undefined;
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return cut < 0 ? '' : path.slice(0, cut);
}
