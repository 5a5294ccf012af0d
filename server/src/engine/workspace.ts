// The analysis engine shared by the CLI, the language server and CI: files in, diagnostics out.
// Each file is parsed once into a FileModel (cached by text); the schema model folds all of them;
// rules run per file over the models and the schema.
import { parseSql, scriptTerminator } from '../sql/parser';
import { scanTerminator } from '../sql/terminator';
import type { TextChange } from '../sql/incremental';
import { noteTerminator, readScript, scriptModel, type ScriptState } from './script-read';
import { fileSpanOf, IDENTITY_ORIGIN, type Span, type Statement } from '../sql/ast';
import { SchemaModel } from '../schema/schema';
import { placeSchemaFinding, schemaContribution, schemaFileView } from '../schema/schema-findings';
import { callerIndex, withCallersLoops, type CallerIndex } from './cross-file';
import { functionIndex, insertFunctionNames, namesCalledIn, withCalledInserts, type FunctionIndex } from './called-inserts';
import { dialectFor, isTestFile, languageOf, terminatorFor, type ResolvedConfig } from './config';
import { inferDialect } from '../sql/dialect';
import { MemberIndex } from './members';
import { LineIndex } from './lines';
import { mergeMovesAfterLoad, mergeSameCause } from './merge';
import { countText } from './count-text';
import { suppressionJudge } from './suppression-scope';
import { RULES } from './registry';
import { applySuppressions, readSuppressions, UNUSED_SUPPRESSION_RULE } from './suppressions';
import { SEVERITY_RANK, type Diagnostic, type Dialect, type FileLanguage, type FileModel, type Fix, type FrontEnd, type FrontEndOptions, type Report, type ReportFix, type RegisteredRule, type RuleContext, type SourceFile } from './types';
import { checkDeadline, DEFAULT_FILE_BUDGET_MS, DeadlineExceeded, rulesStoppedMessage, tickDeadline, withDeadline } from './deadline';
import { checkByPieces, type PieceCache } from './segments';
import { heldKey, holdsWhatRuleReads } from './statements';
import { nowMs } from './clock';

export interface RuleFailure {
  file: string;
  rule: string;
  error: unknown;
}

interface FileEntry extends ScriptState {
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

/** A rule the configuration turns on, with its setting. */
interface EnabledRule {
  rule: RegisteredRule['rule'];
  setting: Exclude<NonNullable<ReturnType<ResolvedConfig['rules']['get']>>, 'off'>;
}

/** A rule's finding on a schema file, with the statement it was reported on (for placing it). */
interface SchemaReport {
  finding: Diagnostic;
  stmt?: Statement;
}

export class Workspace {
  private readonly files = new Map<string, FileEntry>();
  /** DDL read for the schema model only (config "schema"): never reported on; see schema/schema-findings.ts. */
  private readonly schemaFiles = new Map<string, FileEntry>();
  /** Findings of the schema files placed on the linted inserts they concern, by linted file. */
  private placedFindings?: { generation: number; byFile: Map<string, Diagnostic[]> };
  /**
   * The rules' findings on the schema files, kept while neither the configuration, the schema files nor what
   * the linted files contribute to them changed: typing in a loader must not re-run the rules over a
   * 4 MB db2look file on every keystroke (only the placement, which follows the edited offsets, is redone).
   */
  private schemaReports?: { key: string; reports: SchemaReport[] };
  /** Bumped when the configuration or a schema file changes. */
  private schemaVersion = 0;
  private schemaCache?: SchemaModel;
  /**
   * Bumped when the schema is folded anew; an edit that keeps it (setFile's withFileReplaced) keeps the epoch:
   * the schema answers the same about every statement it kept, so findings kept per piece stay true.
   */
  private schemaEpoch = 0;
  /** Findings of rules about runs (Rule.endsRun), per script and rule, kept per piece (engine/segments.ts). */
  private readonly pieces = new Map<string, Map<string, PieceCache>>();
  /** Bumped by every change; diagnostics of an older generation are stale (see invalidate()). */
  private generation = 0;
  private budgetMs = DEFAULT_FILE_BUDGET_MS;

  /**
   * Time a file may take to read (parse, code analysis) before it is given up with a message (`leftOut`); and,
   * counted apart, the time its rules may take (see rulesStoppedIn).
   */
  get fileBudgetMs(): number {
    return this.budgetMs;
  }

  /**
   * A new budget (the editor's setting changed): files whose reading ran past a smaller one are read again now, and
   * files whose rules did are run again when their findings are next asked for (stoppedBefore). Files read, and
   * findings made, within the old budget are kept: a smaller budget applies from their next change.
   */
  set fileBudgetMs(budgetMs: number) {
    if (budgetMs === this.budgetMs) return;
    const raised = budgetMs > this.budgetMs;
    this.budgetMs = budgetMs;
    let reread = false;
    for (const [path, entry] of this.files) {
      if (raised && entry.model.timedOut) {
        this.files.set(path, this.newEntry(entry.model.source, entry.terminator));
        this.members.changed(path, true);
        reread = true;
      } else if (entry.rulesStopped) entry.diagnostics = undefined;
    }
    // Schema files whose rules stopped: their findings, placed on the inserts, are made again.
    const schemaStopped = [...this.schemaFiles.values()].some((e) => e.rulesStopped);
    if (schemaStopped) this.schemaReports = undefined;
    // A file read now feeds the schema (its DDL, its inserts), a schema file's findings go to others' inserts: every
    // file's findings are made again.
    if (reread || schemaStopped) this.invalidate();
  }
  /** Rules that threw, disabled for that file; callers log these. */
  readonly ruleFailures: RuleFailure[] = [];
  /** Rule ids a suppression comment may name. */
  private readonly ruleIds: ReadonlySet<string>;
  /** byFileFolder: nearestDialect's answer by the folder of a file (null: none), filled as files ask. */
  private dialectCache?: { generation: number; byFolder: Map<string, Dialect | 'both'>; byFileFolder: Map<string, Dialect | null> };
  /** Files by member name, for COPY / EXEC SQL INCLUDE; files whose includes changed are read again on next use. */
  private readonly members = new MemberIndex();
  /** Rule id -> RuleMeta.group, for merging findings of one cause (merge.ts). */
  private readonly groups = new Map<string, string>();
  /** False: every rule's findings stay separate (tests that state each rule's findings on its own). */
  mergeFindings = true;
  /**
   * False: every enabled rule is called on every file, whatever it declares it reads (RuleMeta.reads), as
   * before rules declared it; for the test that shows skipping a rule changes no finding.
   */
  skipRulesWithNothingToRead = true;
  /**
   * Keep the findings of rules about runs per piece of each script for its next analysis (engine/segments.ts):
   * for an editor, whose scripts are analysed again after every edit; a one-pass run (the CLI) holds nothing.
   */
  keepPieces = false;
  /**
   * False: quick fixes are not worked out (Report.fix given as a function is not called). For a run whose output
   * shows none (the CLI's text, JSON and GitHub formats): a run of single-row INSERTs has an edit per INSERT.
   */
  fixes = true;
  /**
   * Keep what makes the next analysis of an edited file cheaper: what reading a script leaves for reading it
   * again (ScriptState: the terminator scan's checkpoints, where the dialect words are) and the index of a
   * model's statements by kind that its rules build (engine/statements.ts). For an editor. A one-pass run (the
   * CLI) sets it false: every model is held until the end, and the garbage collector copies what is held with it.
   */
  keepForEdits = true;

  /** Front ends for everything but SQL scripts (application code...), handed in like the rules. */
  constructor(
    private config: ResolvedConfig,
    private readonly frontEnds: readonly FrontEnd[] = [],
    private readonly rules: readonly RegisteredRule[] = RULES,
  ) {
    this.ruleIds = new Set(rules.map((r) => r.rule.meta.id));
    for (const { rule } of rules) if (rule.meta.group) this.groups.set(rule.meta.id, rule.meta.group);
  }

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
  private newEntry(source: SourceFile, terminator: string | undefined, previous?: FileEntry, hint?: TextChange): FileEntry {
    const started = nowMs();
    const dialect = dialectFor(source.path, this.config);
    let model: FileModel;
    let state: ScriptState = NO_READ_STATE;
    try {
      model = withDeadline(this.fileBudgetMs, () => {
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
      this.frontEndOptionsMade = { config: this.config, options: { ...frontEndOptions(this.config), member, calledFunctions: this.insertFunctions } };
    }
    return this.frontEndOptionsMade.options;
  }

  /** Reads again the files whose included members changed since they were read (see MemberIndex). */
  private refreshIncluders(): void {
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

  model(path: string): FileModel | undefined {
    this.refreshIncluders();
    this.refreshLinked();
    return this.files.get(path)?.model;
  }

  /**
   * Functions of the C/C++ files that run a single-row INSERT per call (called-inserts.ts), handed to the front ends
   * (FrontEndOptions.calledFunctions): a file that calls one is read, though it names no driver. Only grows.
   */
  private readonly insertFunctions = new Set<string>();
  private linkedGeneration = -1;

  /**
   * Reads again the C/C++ files left out that call a function another file defines that runs a single-row INSERT:
   * db2_fdw's db2ExecForeignInsert.c calls db2ExecuteInsert(), and once read, db2ExecForeignBatchInsert.c, which
   * calls db2ExecForeignInsert(), is read in the next round. A round per level of such calls, a few at most.
   */
  private refreshLinked(): void {
    if (this.linkedGeneration === this.generation) return;
    for (let round = 0; round < MAX_LINK_ROUNDS; round++) {
      const fresh = [...insertFunctionNames(this.calledIndex())].filter((name) => !this.insertFunctions.has(name));
      if (fresh.length === 0) break;
      for (const name of fresh) this.insertFunctions.add(name);
      const freshSet = new Set(fresh);
      let reread = false;
      for (const [path, entry] of this.files) {
        const model = entry.model;
        if (!model.leftOut || model.timedOut || (model.source.language !== 'c' && model.source.language !== 'cpp')) continue;
        const called = namesCalledIn(model);
        // Over the smaller of the two (many functions, or a long file calling many names).
        const calls = fresh.length <= called.size ? fresh.some((name) => called.has(name)) : [...called].some((name) => freshSet.has(name));
        if (!calls) continue;
        const read = this.newEntry(model.source, entry.terminator);
        if (read.model.leftOut) continue;
        this.files.set(path, read);
        reread = true;
      }
      if (!reread) break;
      this.invalidate();
    }
    this.linkedGeneration = this.generation;
  }

  /**
   * The C/C++ functions of all files (called-inserts.ts), looked at once per generation and made again only when a
   * file that defines functions changed: a keystroke in a script of a 2,000-file workspace with C sources in it
   * must not index every C function again.
   */
  private calledIndex(): FunctionIndex | undefined {
    const cached = this.calledCache;
    if (cached?.generation === this.generation) return cached.index;
    const defining: FileModel[] = [];
    for (const entry of this.files.values()) if (entry.model.code?.functions) defining.push(entry.model);
    const same = cached !== undefined && cached.defining.length === defining.length && cached.defining.every((m, i) => m === defining[i]);
    this.calledCache = { generation: this.generation, defining, index: same ? cached.index : functionIndex(defining) };
    return this.calledCache.index;
  }

  private calledCache?: { generation: number; defining: FileModel[]; index: FunctionIndex | undefined };

  /** The loops of all files that call methods on typed receivers (cross-file.ts), made once per generation. */
  private callers(): CallerIndex | undefined {
    if (this.callersCache?.generation !== this.generation) {
      this.callersCache = { generation: this.generation, index: callerIndex([...this.files.values()].map((f) => f.model)) };
    }
    return this.callersCache.index;
  }

  private callersCache?: { generation: number; index: CallerIndex | undefined };

  /** A model with the loops other files lend its methods, made once per model and caller index (schema, then rules). */
  private withLentLoops(model: FileModel): FileModel {
    const index = this.callers();
    const called = this.calledIndex();
    const known = this.lentViews.get(model);
    if (known && known.index === index && known.called === called) return known.view;
    // And the executions C/C++ functions of other files run per call of a loop here (called-inserts.ts).
    const view = withCalledInserts(withCallersLoops(model, index), called);
    if (view !== model) this.lentViews.set(model, { index, called, view });
    return view;
  }

  private readonly lentViews = new WeakMap<FileModel, { index: CallerIndex | undefined; called: FunctionIndex | undefined; view: FileModel }>();

  /** Line index of a linted file or a schema file (related locations point into schema files). */
  lines(path: string): LineIndex | undefined {
    return (this.files.get(path) ?? this.schemaFiles.get(path))?.lines;
  }

  get schema(): SchemaModel {
    this.refreshIncluders();
    this.refreshLinked();
    if (!this.schemaCache) {
      const started = nowMs();
      const before = this.schemaWork.ms;
      this.schemaEpoch++;
      // With the loops other files lend to methods (cross-file.ts): a table a DAO fills from a caller's loop is a bulk target.
      const linted = [...this.files.values()].map((f) => this.withLentLoops(f.model));
      this.schemaCache = SchemaModel.build([...this.schemaEntries().map(([, f]) => f.model), ...linted], { bulkRowThreshold: this.config.bulkRowThreshold, work: this.schemaWork });
      // The whole build, once: deferred work the build itself ran (SchemaModel's fillSchemaAt) already added its
      // time, and counting it twice made the next file's rule time negative in --timings.
      this.schemaWork.ms = before + (nowMs() - started);
    }
    return this.schemaCache;
  }

  /**
   * Time spent folding the schema of all files so far, and on its deferred work for all files (noting the
   * schema in force at every statement when a name without one is first resolved), in ms: the language server tells a DDL edit's rebuild,
   * work for the whole workspace, from the time the edited document's own analysis takes (lsp/scheduler.ts);
   * `--timings` shows it as a row of its own, not in the rule time of the file that first asked for it.
   */
  get schemaBuildMs(): number {
    return this.schemaWork.ms;
  }

  /** Folding and the schema's deferred work for all files (SchemaOptions.work), in ms. */
  private readonly schemaWork = { ms: 0 };

  /** Schema files not shadowed by a linted file of the same path. */
  private schemaEntries(): [string, FileEntry][] {
    return [...this.schemaFiles].filter(([path]) => !this.files.has(path));
  }

  /** Diagnostics of one file, suppressed ones included (marked). */
  diagnostics(path: string): Diagnostic[] {
    this.refreshIncluders();
    this.refreshLinked();
    const entry = this.files.get(path);
    if (!entry) return [];
    if (entry.diagnostics === undefined || entry.generation !== this.generation) {
      entry.diagnostics = this.runRules(entry);
      entry.generation = this.generation;
      // Made again if the rules run again (statementsOf); the same shape of model (no `delete`).
      if (!this.keepForEdits) entry.model.statementIndex = undefined;
    }
    return entry.diagnostics;
  }

  /**
   * Why a linted file's findings are not reported, or undefined: its reading left it out (no Db2 access found, past
   * the time budget: FileModel.leftOut) or its rules ran past the time budget (rulesStoppedIn). Works out its findings
   * first when they are stale.
   */
  leftOut(path: string): string | undefined {
    const model = this.model(path);
    if (!model) return undefined;
    if (model.leftOut) return model.leftOut;
    this.diagnostics(path);
    return this.files.get(path)?.rulesStopped?.reason;
  }

  /** Why a linted file's findings are not reported when it is for the time budget (reading or rules), or undefined. */
  timedOut(path: string): string | undefined {
    const model = this.model(path);
    if (!model) return undefined;
    if (model.leftOut) return model.timedOut ? model.leftOut : undefined;
    this.diagnostics(path);
    return this.files.get(path)?.rulesStopped?.reason;
  }

  /**
   * Why the findings of a linted or schema file are left out when its rules ran past the time budget the last time
   * they ran (`rules stopped after 10 s in rule ...`), or undefined. A file's rules get the budget afresh each run
   * (the schema of all files is folded before it starts); past it, the rule running is stopped, the rules after it
   * are not run, and none of the file's findings are reported (as for a file whose reading ran past it): a file's
   * findings are all there or none, never those of whichever rules happened to finish. They are not run again until
   * the file, the configuration or the budget changes (FileEntry.rulesStopped).
   */
  rulesStoppedIn(path: string): string | undefined {
    return (this.files.get(path) ?? this.schemaFiles.get(path))?.rulesStopped?.reason;
  }

  /** Whether the entry's rules ran past the budget with the configuration and budget in force: not run again. */
  private stoppedBefore(entry: FileEntry): boolean {
    const stopped = entry.rulesStopped;
    return stopped !== undefined && stopped.config === this.config && stopped.budgetMs === this.fileBudgetMs;
  }

  /** Notes the outcome of a run of the entry's rules: stopped at the budget with `reason`, or (undefined) not. */
  private noteRulesStopped(entry: FileEntry, reason: string | undefined): void {
    if (reason === undefined) delete entry.rulesStopped;
    else entry.rulesStopped = { reason, config: this.config, budgetMs: this.fileBudgetMs };
  }

  /** Diagnostics of all files, in the order files were added. */
  allDiagnostics(): Diagnostic[] {
    return this.paths().flatMap((p) => this.diagnostics(p));
  }

  private invalidate(): void {
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
  private nearestDialect(path: string): Dialect | undefined {
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
  private forgetFailures(path: string): void {
    // In place: callers may hold the array. Without this an editor re-linting on every keystroke would add
    // one record per keystroke for a rule that keeps failing.
    let kept = 0;
    for (const failure of this.ruleFailures) if (failure.file !== path) this.ruleFailures[kept++] = failure;
    this.ruleFailures.length = kept;
  }

  /**
   * The rules on and their settings, by dialect, for the configuration they were made from (see enabledRules);
   * `byHeld`: those of them to call on a file, by what the file holds (see rulesToRun).
   */
  private enabled?: { config: ResolvedConfig; byDialect: Map<Dialect | undefined, { rules: EnabledRule[]; byHeld: Map<string, EnabledRule[]> }> };

  /** The rules the configuration turns on that apply to `dialect`: worked out once per run, not per file. */
  private enabledRules(dialect: Dialect | undefined): { rules: EnabledRule[]; byHeld: Map<string, EnabledRule[]> } {
    if (this.enabled?.config !== this.config) this.enabled = { config: this.config, byDialect: new Map() };
    let known = this.enabled.byDialect.get(dialect);
    if (!known) {
      const rules: EnabledRule[] = [];
      for (const { rule } of this.rules) {
        const setting = this.config.rules.get(rule.meta.id);
        if (setting && setting !== 'off' && appliesTo(rule.meta.dialects, dialect)) rules.push({ rule, setting });
      }
      known = { rules, byHeld: new Map() };
      this.enabled.byDialect.set(dialect, known);
    }
    return known;
  }

  /**
   * The enabled rules to call on `model`: those that read something it holds (holdsWhatRuleReads), or all of
   * them when skipRulesWithNothingToRead is off. Whether a rule reads something in a file depends only on the
   * kinds of statement the file holds and whether it holds code facts (heldKey), so the list is worked out once
   * per such combination: a one-line script had each of the 32 rules asked in turn.
   */
  private rulesToRun(model: FileModel, dialect: Dialect | undefined): readonly EnabledRule[] {
    const { rules, byHeld } = this.enabledRules(dialect);
    if (!this.skipRulesWithNothingToRead) return rules;
    const key = heldKey(model);
    let list = byHeld.get(key);
    if (!list) {
      list = rules.filter(({ rule }) => holdsWhatRuleReads(model, rule.meta.reads));
      byHeld.set(key, list);
    }
    return list;
  }

  /**
   * Runs the enabled rules over one model; `stmts[i]` is the statement `found[i]` was reported on. `stopped`: why
   * there are no findings, when the rules ran past the time budget (rulesStoppedIn).
   */
  private checkRules(linted: FileModel, stmts?: (Statement | undefined)[]): { found: Diagnostic[]; stopped?: string } {
    const schema = this.schema;
    // The file as the rules see it: with the loops of other files that call its methods (cross-file.ts).
    const model = this.withLentLoops(linted);
    const out: Diagnostic[] = [];
    const dialect = model.dialect ?? this.nearestDialect(model.source.path);
    let lines: LineIndex | undefined;
    const linesOf = () => (lines ??= this.lines(model.source.path) ?? new LineIndex(model.source.text));
    const path = model.source.path;
    this.forgetFailures(path);
    // Rules about runs are checked piece by piece on a script of the linted files (not when the statement of
    // each finding is asked for: schema files, whose findings are kept otherwise).
    const byPieces = this.keepPieces && !model.code && !stmts && this.files.get(path)?.model === model;
    const kept = byPieces ? this.pieces.get(path) : undefined;
    const pieces = byPieces ? new Map<string, PieceCache>() : undefined;
    // One report function for the file, reporting for the rule running (rules run one after the other), into
    // the list being filled (a piece's, for a rule about runs).
    let running: EnabledRule;
    let into = out;
    const report = (report: Report) => {
      tickDeadline();
      into.push(toDiagnostic(path, running.rule.meta.id, running.setting.severity, running.rule.meta.messages, report, linesOf, this.fixes));
      stmts?.push(report.stmt);
    };
    // One context for the file's rules, its options set for the rule running (rules run one after the other and
    // keep nothing of it): an object per rule per file was a twentieth of what the rules of a run allocate.
    const lineOf = (offset: number) => {
      tickDeadline();
      return linesOf().line(offset) + 1;
    };
    const lineIn = (file: string, offset: number) => {
      tickDeadline();
      const lines = file === path ? linesOf() : this.lines(file);
      return lines ? lines.line(offset) + 1 : undefined;
    };
    const context: RuleContext = { file: model, schema, options: {}, report, lineOf, lineIn };
    const enabledRules = this.rulesToRun(model, dialect);
    // The file's rules get the time budget, counted from here: the schema of all files is folded above (the
    // workspace's work, not this file's). Past it, the rule running stops at its next check (between rules, in
    // report, lineOf and the helpers rules loop through: tickDeadline) and none of the file's findings are kept.
    const stoppedIn = withDeadline(this.fileBudgetMs, (): { rule: string; budgetMs: number } | undefined => {
      // An index loop: a file's rules mostly run before V8 optimises this, and for…of makes an object per step.
      for (let r = 0; r < enabledRules.length; r++) {
        const enabled = enabledRules[r];
        const { rule, setting } = enabled;
        running = enabled;
        context.options = setting.options;
        try {
          if (pieces && rule.endsRun) {
            const basis = [setting, this.schemaEpoch, dialect];
            const checkPiece = (piece: Statement[]) => {
              const found: Diagnostic[] = [];
              into = found;
              try {
                rule.check({ file: pieceModel(model, piece), schema, options: setting.options, report, lineOf, lineIn });
              } finally {
                into = out;
              }
              return found;
            };
            const { findings, cache } = checkByPieces(model.statements, rule.endsRun, linesOf(), checkPiece, basis, kept?.get(rule.meta.id));
            pieces.set(rule.meta.id, cache);
            for (const d of findings) out.push(d);
          } else rule.check(context);
          // The rule that ran past the budget is the one named, though it returned before a check inside it.
          checkDeadline();
        } catch (error) {
          if (error instanceof DeadlineExceeded) return { rule: rule.meta.id, budgetMs: error.budgetMs };
          this.ruleFailures.push({ file: path, rule: rule.meta.id, error });
          for (let i = out.length - 1; i >= 0 && out[i].rule === rule.meta.id; i--) {
            out.pop();
            stmts?.pop();
          }
        }
      }
      return undefined;
    });
    if (stoppedIn) {
      if (stmts) stmts.length = 0;
      return { found: [], stopped: rulesStoppedMessage(stoppedIn.budgetMs, stoppedIn.rule) };
    }
    if (pieces) this.pieces.set(path, pieces);
    return { found: out };
  }

  /** The schema files' findings placed on linted inserts, computed once per generation. */
  private placedSchemaFindings(path: string): Diagnostic[] {
    if (this.schemaFiles.size === 0) return [];
    if (this.placedFindings?.generation !== this.generation) {
      const byFile = new Map<string, Diagnostic[]>();
      const isLinted = (file: string) => this.files.has(file);
      for (const { finding, stmt } of this.schemaFileReports()) {
        for (const placed of placeSchemaFinding(this.schema, finding, stmt, isLinted)) {
          const list = byFile.get(placed.file);
          if (list) list.push(placed);
          else byFile.set(placed.file, [placed]);
        }
      }
      this.placedFindings = { generation: this.generation, byFile };
    }
    return this.placedFindings.byFile.get(path) ?? [];
  }

  private schemaFileReports(): SchemaReport[] {
    let key = String(this.schemaVersion);
    for (const [path, entry] of this.files) key += `\u0001${path}\u0000${(entry.contribution ??= schemaContribution(entry.model))}`;
    if (this.schemaReports?.key !== key) {
      const reports: SchemaReport[] = [];
      for (const [, entry] of this.schemaEntries()) {
        // Rules stopped at the budget on this text before: none of its findings, without spending the budget again.
        if (this.stoppedBefore(entry)) continue;
        const { model, lines } = entry;
        const stmts: (Statement | undefined)[] = [];
        const { found, stopped } = this.checkRules(model, stmts);
        this.noteRulesStopped(entry, stopped);
        // A suppression written in the schema file itself still silences the finding.
        applySuppressions(found, readSuppressions(model.comments, lines), lines, model.source.path, this.ruleIds);
        found.forEach((finding, i) => {
          if (!finding.suppressed && finding.rule !== UNUSED_SUPPRESSION_RULE) reports.push({ finding, stmt: stmts[i] });
        });
      }
      this.schemaReports = { key, reports };
    }
    return this.schemaReports.reports;
  }

  private runRules(entry: FileEntry): Diagnostic[] {
    const { model, lines } = entry;
    const started = nowMs();
    const schemaBuilt = this.schemaBuildMs;
    // Rules stopped at the budget on this text before: left out again, without spending the budget again.
    if (this.stoppedBefore(entry)) return [];
    const { found: out, stopped } = this.checkRules(model);
    this.noteRulesStopped(entry, stopped);
    if (stopped) {
      // Left out, as a file whose reading ran past the budget is (rulesStoppedIn): no finding of it is reported.
      entry.rulesMs = nowMs() - started - (this.schemaBuildMs - schemaBuilt);
      return [];
    }
    // Copies: suppression marks must not leak into the shared placed findings.
    for (const placed of this.placedSchemaFindings(model.source.path)) out.push({ ...placed });
    if (out.length > 1) out.sort((a, b) => a.span.start - b.span.start || compareRuleIds(a.rule, b.rule));
    // Most files hold no suppression comment: then there is nothing to apply and no unused-suppression finding.
    const suppressions = model.comments.length > 0 ? readSuppressions(model.comments, lines) : [];
    let reported = out;
    if (suppressions.length > 0) {
      const result = applySuppressions(out, suppressions, lines, model.source.path, this.ruleIds, suppressionJudge(model, lines, this.schema));
      const unused = this.config.rules.get(UNUSED_SUPPRESSION_RULE);
      reported = unused === 'off' ? result.filter((d) => d.rule !== UNUSED_SUPPRESSION_RULE) : result;
      if (unused && unused !== 'off') for (const d of reported) if (d.rule === UNUSED_SUPPRESSION_RULE) d.severity = unused.severity;
    }
    // After suppressions: a comment naming one rule of a merged finding still silences just that rule.
    // Then findings of different rules and lines that give one remedy (indexes and foreign keys to move after a load).
    const merged = this.mergeFindings ? mergeMovesAfterLoad(mergeSameCause(reported, lines, (rule) => this.groups.get(rule)), lines) : reported;
    // Last, so the CLI, CI outputs and the editor all see it: one finding, one note, whatever was merged.
    const final = merged.length > 0 && isTestFile(model.source.path, this.config) ? merged.map(asTestCodeFinding) : merged;
    // In the file's order, whatever came after the sort above (unused-suppression findings are appended): every
    // output lists a file's findings as they are handed out. Stable: findings at one position keep their order.
    if (!inFileOrder(final)) final.sort((a, b) => a.span.start - b.span.start);
    // Folding the schema of every file is the workspace's work, not this file's (--timings shows it apart).
    entry.rulesMs = nowMs() - started - (this.schemaBuildMs - schemaBuilt);
    return final;
  }
}

/** Whether findings are in the order of their start offsets. */
function inFileOrder(diagnostics: readonly Diagnostic[]): boolean {
  for (let i = 1; i < diagnostics.length; i++) if (diagnostics[i].span.start < diagnostics[i - 1].span.start) return false;
  return true;
}

/** Rounds of reading C/C++ files that reach Db2 through another file's function (Workspace.refreshLinked). */
const MAX_LINK_ROUNDS = 4;

/** Says why a finding in test code is at most information ("testFiles"). */
export const TEST_CODE_NOTE = ' This file is test code ("testFiles" in the configuration): information only.';

/**
 * A finding located in test code, capped at information. A copy: findings kept per piece (segments.ts) are
 * reused by the next analysis and must not gather a second note.
 */
function asTestCodeFinding(d: Diagnostic): Diagnostic {
  if (SEVERITY_RANK[d.severity] <= SEVERITY_RANK.information) return d;
  return { ...d, severity: 'information', message: d.message + TEST_CODE_NOTE };
}

/** A script as a rule about runs sees one piece of it (Rule.endsRun): the piece's statements, the rest as it is. */
function pieceModel(model: FileModel, statements: Statement[]): FileModel {
  const piece: FileModel = { ...model, statements };
  delete piece.statementIndex;
  return piece;
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

/**
 * The order of two rule ids (findings at one offset). Rule ids are lower-case words and digits joined by '-',
 * for which code-unit order is the order `localeCompare` gives (test/engine/without-icu.test.ts checks every
 * pair of rule ids); localeCompare loads ICU's collator on first use, ~8 ms of a CLI run.
 */
export function compareRuleIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether a rule written for `dialects` runs on a file of `dialect` (see RuleMeta.dialects). */
export function appliesTo(dialects: readonly Dialect[] | undefined, dialect: Dialect | undefined): boolean {
  if (!dialects) return true;
  return dialect ? dialects.includes(dialect) : dialects.includes('luw');
}

function frontEndOptions(config: ResolvedConfig): FrontEndOptions {
  return { driverModules: config.driverModules };
}

function frontEndOptionsKey(config: ResolvedConfig): string {
  return JSON.stringify(config.driverModules);
}

/** A reported span in file offsets, well formed (fileSpanOf). */
function mapSpan(stmt: Statement | undefined, span: { start: number; end: number }) {
  if (!stmt) return span;
  return fileSpanOf(stmt.origin, span);
}

/** Message templates split once at their `{name}` placeholders: literal text at even indexes, names at odd. */
const templateParts = new Map<string, string[]>();

export function formatMessage(template: string, data: Record<string, string | number> = {}): string {
  // Templates are the rules' fixed messages, so the cache stays small; the bound is only a safeguard.
  let parts = templateParts.get(template);
  if (!parts) {
    if (templateParts.size >= 1000) templateParts.clear();
    parts = template.split(/\{(\w+)\}/);
    templateParts.set(template, parts);
  }
  let out = parts[0];
  for (let i = 1; i < parts.length; i += 2) out += (parts[i] in data ? String(data[parts[i]]) : `{${parts[i]}}`) + parts[i + 1];
  return out;
}

/** The folder holding `path` ("src/db" for "src/db/t.sql", "" for "t.sql"), undefined above the top. */
function parentFolder(path: string): string | undefined {
  if (path === '') return undefined;
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return cut < 0 ? '' : path.slice(0, cut);
}

function toDiagnostic(file: string, rule: string, severity: Diagnostic['severity'], messages: Record<string, string>, report: Report, linesOf: () => LineIndex, withFix: boolean): Diagnostic {
  const template = messages[report.messageId];
  if (template === undefined) throw new Error(`rule ${rule} reported unknown messageId '${report.messageId}'`);
  const capped = report.maxSeverity && SEVERITY_RANK[report.maxSeverity] < SEVERITY_RANK[severity] ? report.maxSeverity : severity;
  const span = mapSpan(report.stmt, report.span);
  let data = report.data;
  let extent: Span | undefined;
  if (report.extent) {
    const first = mapSpan(report.extent.first.stmt, report.extent.first.span);
    const last = mapSpan(report.extent.last.stmt, report.extent.last.span);
    extent = { start: Math.min(first.start, span.start), end: Math.max(last.end, span.end) };
    data = { ...data, runLines: linesText(linesOf(), extent) };
  }
  const diagnostic: Diagnostic = { file, span, rule, severity: capped, message: formatMessage(template, data) };
  const fix = withFix ? reportedFix(report) : undefined;
  const mapped = fix && mappedFix(fix, report.stmt);
  if (mapped) diagnostic.fix = mapped;
  if (extent) diagnostic.extent = extent;
  if (report.moveAfterLoad) {
    const { partMessageId, loadAt, ...rest } = report.moveAfterLoad;
    const part = messages[partMessageId];
    if (part === undefined) throw new Error(`rule ${rule} reported unknown messageId '${partMessageId}'`);
    diagnostic.moveAfterLoad = { ...rest, part: formatMessage(part, data), loadSpan: mapSpan(loadAt.stmt, loadAt.span) };
  }
  if (report.partOf) diagnostic.partOf = mapSpan(report.partOf.stmt, report.partOf.span);
  return diagnostic;
}

/** The quick fix of a report, worked out when the rule gave a function for it. */
export function reportedFix(report: Report): ReportFix | undefined {
  return typeof report.fix === 'function' ? report.fix() : report.fix;
}

/** "lines 2–20,001" (1-based, as editors number them), or "line 7" for a span on one line. */
function linesText(lines: LineIndex, span: Span): string {
  const first = lines.line(span.start) + 1;
  const last = lines.line(Math.max(span.start, span.end - 1)) + 1;
  return first === last ? `line ${countText(first)}` : `lines ${countText(first)}\u2013${countText(last)}`;
}

/**
 * A fix in file offsets (a rule's edits are in the offsets of the statement's text); undefined when an edit's ends
 * map out of order (SQL text pieced together from strings in several places of host code: no edit of the file
 * replaces such a span).
 */
function mappedFix(fix: ReportFix, stmt: Statement | undefined): Fix | undefined {
  // A script's statements are in the file's offsets: their edits are kept as the rule made them (a fix of a run
  // of single-row INSERTs holds an edit per INSERT, and the copies lived as long as the findings).
  const inFileOffsets = !stmt || stmt.origin === IDENTITY_ORIGIN;
  // The edits' own characters, not fileSpanOf's well-formed span: a fix must change what its edit names.
  const edits = inFileOffsets ? fix.edits : fix.edits.map((e) => ({ span: { start: stmt.origin.toFile(e.span.start), end: stmt.origin.toFile(e.span.end) }, newText: e.newText }));
  if (edits.some((e) => e.span.end < e.span.start)) return undefined;
  const mapped: Fix = { title: fix.title, edits };
  if (fix.changesMeaning) mapped.changesMeaning = true;
  return mapped;
}
