// The contracts between the analysis stages: files → models → rules → diagnostics.
import type { Comment, Span, Statement, StatementKind } from '../sql/ast';
import type { SchemaModel } from '../schema/schema';
import type { CodeModel, DjangoProject, HibernateBatching } from '../code-model/types';

export type Severity = 'error' | 'warning' | 'information' | 'hint';
export type SeveritySetting = Severity | 'off';

export const SEVERITY_RANK: Record<Severity, number> = { error: 3, warning: 2, information: 1, hint: 0 };

/** A text edit in file offsets. */
export interface TextEdit {
  span: Span;
  newText: string;
}

export interface Fix {
  title: string;
  edits: TextEdit[];
  /**
   * The edit changes what the SQL does beyond speed (an integrity check dropped, rows committed earlier):
   * offered one finding at a time, where the user judges it, never by "Fix all".
   */
  changesMeaning?: boolean;
}

export interface Diagnostic {
  /** Path of the file as given to the engine. */
  file: string;
  /** File offsets. */
  span: Span;
  rule: string;
  severity: Severity;
  message: string;
  fix?: Fix;
  /** Set when a suppression comment matched; outputs that record suppressions (SARIF) keep them. */
  suppressed?: { kind: 'line' | 'file' | 'config'; justification?: string };
  /** Other places that explain the finding: the DDL line of a schema file the finding comes from. */
  related?: RelatedLocation[];
  /** The other rules shown as this one finding (engine/merge.ts): silencing the finding silences them too. */
  mergedRules?: string[];
  /**
   * Those of `mergedRules` whose own findings start on another line than this one (a merge of findings that give
   * one remedy, MoveAfterLoad): a directive for this line does not silence them.
   */
  mergedElsewhere?: string[];
  /**
   * Where the parts of a merged finding start (file offsets) and the rules shown there, when they start on more
   * than one line: a directive above each line silences the finding whole ("Disable … on every line of it").
   */
  mergedParts?: { start: number; rules: string[] }[];
  /** What the finding says to move after a load, for a merge with other rules' findings that say the same. */
  moveAfterLoad?: MoveAfterLoad;
  /**
   * A finding about a run of statements (rules/support/runs.ts): file offsets from the run's first statement
   * to the end of its last. `span` stays on the statement flagged; a change anywhere in the extent touches it.
   */
  extent?: Span;
  /**
   * The finding of another rule of its group this one is a part of (Report.partOf), in file offsets: merged with
   * the findings of the group on that line, and silenced by a suppression of that line too.
   */
  partOf?: Span;
}

/**
 * DDL that a finding says to move after the load that fills its table (an upgrade step creating indexes and foreign
 * keys, then copying rows in). Findings of several rules with the same key give one remedy and are shown as one
 * finding that names each part (engine/merge.ts mergeMovesAfterLoad); a finding alone keeps its own message.
 */
export interface MoveAfterLoad {
  /** The load and the table: the same key, the same change. */
  key: string;
  /** What the merged finding is about: "Bulk target ACT_RU_TIMER_JOB". */
  subject: string;
  /** What this finding counts, for the merged finding's first sentence: "5 indexes". */
  cost: string;
  /** This finding's part of a merged message: what it costs, with its measured figures (no remedy). */
  part: string;
  /** What to move: ["the CREATE INDEX statements at lines 63–66"]. */
  moves: readonly string[];
  /** Where to: "the INSERT at line 178". */
  load: string;
  /** The load statement, in file offsets. */
  loadSpan: Span;
  /** The table, as messages name it: "ACT_RU_TIMER_JOB". */
  table: string;
  /** What the load statement is ("INSERT", "MERGE"), for a finding about several tables: "the INSERTs that fill them". */
  loadWord: string;
  /** What this finding counts, in general: "indexes", "enforced foreign keys". */
  kind: string;
  /** What each inserted row pays for them: "adds an entry to each index". */
  perRow: string;
  /** The measured figure of the cost, the same for every table: "141.6 s with 4 indexes in force, … (tests 35 and 36)". */
  figure: string;
  /** The bare table's figure that `figure` compares with: "31.5 s for the bare table (tests 11 and 31)". */
  baseline: string;
  /** The statements to move, each kind with where its statements start, for a finding that adds up several tables'. */
  ddl: readonly MovedDdl[];
  /**
   * The finding says something of this table alone (a figure scaled to the rows it is known to receive, a redundant
   * index to drop): it is not folded into one finding with other tables'.
   */
  particular?: boolean;
}

/** Statements of one kind to move after a load: "CREATE INDEX" at lines 74–77, or the foreign keys of CREATE TABLE statements. */
export interface MovedDdl {
  /** "CREATE INDEX", "ALTER TABLE … ADD CONSTRAINT", "CREATE TABLE". */
  words: string;
  /** Set when only foreign keys of these statements move (as ALTER TABLE … ADD CONSTRAINT): how many. */
  keys?: number;
  at: readonly StatementAt[];
}

/** Where a statement starts: its line (1-based) and its place among the file's statements (adjacent ones make a range). */
export interface StatementAt {
  line: number;
  ordinal: number;
}

/** A place in another file (or the same one) that a finding refers to, in that file's offsets. */
export interface RelatedLocation {
  file: string;
  span: Span;
  message: string;
}

/** What a file is, for choosing the front end. */
export type FileLanguage =
  | 'sql'
  | 'java'
  | 'python'
  | 'javascript'
  | 'typescript'
  | 'c'
  | 'cpp'
  | 'embedded-sql'
  | 'shell'
  | 'cobol'
  | 'jcl';

/** Which Db2 a file is written for (sql/dialect.ts): Db2 for z/OS or Db2 for Linux, UNIX and Windows. */
export type Dialect = 'luw' | 'zos';

export interface SourceFile {
  path: string;
  text: string;
  language: FileLanguage;
}

/** Everything the engine read from one file. Rules never look at `source.text` directly. */
export interface FileModel {
  source: SourceFile;
  /** SQL statements: all of a script; for code, those of the SQL strings it executes. */
  statements: Statement[];
  /** Comments (SQL and host language) in file offsets, for suppressions. */
  comments: Comment[];
  /** Host-language facts (calls, loops, connections); absent for SQL scripts. */
  code?: CodeModel;
  /** Set when a front end left the file out, with why (e.g. "no Db2 access found"). */
  leftOut?: string;
  /** The Db2 the file is written for: configured, or inferred from its statements; undefined when it fits both. */
  dialect?: Dialect;
  /**
   * The Db2 for z/OS version a script's header comments say it is for ("DB2 OS/390 V8", "DB2 9 for z/OS"):
   * advice must exist there (APPEND YES came with DB2 9). Undefined when they name none.
   */
  statedZosVersion?: number;
  /** The statement terminator a script was read with when it was configured (--terminator, .insertlintrc.json), not inferred. */
  configuredTerminator?: string;
  /**
   * A comment of the script says it is run with the CLP's `-t` and no d<x> (`db2 -tvf x.sql`: ';' ends every
   * statement), and none names another terminator (sql/terminator.ts SemicolonComment): where, and the command
   * as written. Only when the terminator is inferred, not configured.
   */
  semicolonComment?: { span: Span; command: string };
  /** Application code: where its grammar first met text it could not parse (FrontEndResult.syntaxError). */
  syntaxError?: Span;
  /** Members the file includes (COPY, EXEC SQL INCLUDE), upper case. */
  includes?: string[];
  /** The file took longer than the time budget per file to read (engine/deadline.ts); `leftOut` says so. */
  timedOut?: boolean;
  /**
   * Where each kind of statement sits in `statements`. Read it through statementsOf() (engine/statements.ts),
   * which builds it on first use and again whenever `statements` was replaced or changed length.
   */
  statementIndex?: StatementIndex;
}

/** What a front end read from one file. */
export interface FrontEndResult {
  statements: Statement[];
  comments: Comment[];
  code?: CodeModel;
  /** Set when the file was not analysed, with why (summaries count these). */
  leftOut?: string;
  /** The Db2 the file is written for, when its kind says so (a z/OS COBOL batch program, JCL). */
  dialect?: Dialect;
  /** Members the file includes (COPY, EXEC SQL INCLUDE), upper case: the engine reads it again when one changes. */
  includes?: string[];
  /** Where the host language's grammar first met text it could not parse (what follows may be read only in part). */
  syntaxError?: Span;
}

/** Settings of the front ends, from the configuration (a change re-reads the files). */
export interface FrontEndOptions {
  /** Extra modules (JS/TS/Python) that give access to Db2, besides the known drivers. */
  driverModules: readonly string[];
  /**
   * The text of a member another file includes (COBOL COPY, EXEC SQL INCLUDE), looked up among the files the
   * engine holds; undefined when none is known by that name.
   */
  member?(name: string, from: string): SourceFile | undefined;
  /**
   * Functions other files of the run define that run a single-row INSERT per call (engine/called-inserts.ts): a
   * C/C++ file that calls one reaches Db2 through it and is read, though it names no driver itself.
   */
  calledFunctions?: ReadonlySet<string>;
  /**
   * Folders whose project shows Db2 as SQLAlchemy's database (a `db2+ibm_db://` URL in a configuration or Python file,
   * ibm_db_sa among its requirements; found by the CLI and the language server, cli/project-evidence.ts): a Python
   * file under one that uses SQLAlchemy or Flask-SQLAlchemy reaches Db2, though it names no driver itself.
   */
  sqlalchemyDb2Folders?: ReadonlySet<string>;
  /**
   * Whether the SQLAlchemy projects' sessions autoflush, by project top (cli/evidence-python.ts sqlalchemyEvidence):
   * true where every session factory and constructor the project builds (sessionmaker, Session, Flask-SQLAlchemy's
   * SQLAlchemy) sets autoflush off, false where one leaves it on; a project that builds none is absent. The nearest
   * top above a file decides for the sessions it does not build itself (a parameter, another module's SessionLocal()).
   */
  sqlalchemyAutoflushOff?: ReadonlyMap<string, boolean>;
  /**
   * Folders (JavaScript/TypeScript projects' tops, where their package.json lies) whose project shows Db2 as Sequelize's
   * database (@sequelize/db2 or ibm_db with sequelize in package.json, `dialect: 'db2'` / a `db2://` URL in its
   * configuration, DB_DIALECT=db2 in .env; cli/project-evidence.ts): a file under one that uses Sequelize models
   * (imports its models module, `sequelize.models.Order`) is read, though it names neither driver nor dialect.
   */
  sequelizeDb2Folders?: ReadonlySet<string>;
  /**
   * Hibernate's JDBC batching as Java projects' configuration sets it (hibernate.jdbc.batch_size in persistence.xml,
   * hibernate.cfg.xml, Spring Boot's application*.properties / *.yml; found on disk by the CLI and the language server,
   * cli/project-evidence.ts), by the project's top folder. A project absent: no configuration found (unknown).
   */
  hibernateBatching?: ReadonlyMap<string, HibernateBatching>;
  /**
   * Folders (Django projects' tops, where manage.py lies) whose settings name ibm_db_django as a database's ENGINE
   * (settings.py, a settings/ package's module, .env; found by the CLI and the language server,
   * cli/project-evidence.ts djangoDb2Folders), with whether they set ATOMIC_REQUESTS: a Python file under one that uses
   * Django is read for its model inserts (languages/python-django.ts).
   */
  djangoDb2Folders?: ReadonlyMap<string, DjangoProject>;
}

/**
 * A reader of one kind of file (application code, …) that the CLI and the language server hand to the
 * Workspace, as they hand it rules: the engine itself reads only SQL scripts.
 */
export interface FrontEnd {
  /** The file languages it reads. */
  readonly languages: readonly FileLanguage[];
  /** Never throws: a file it cannot read yields an empty result. */
  read(source: SourceFile, options: FrontEndOptions): FrontEndResult;
}

/** Positions in FileModel.statements by statement kind, in file order (see engine/statements.ts). */
export interface StatementIndex {
  /** The array the positions refer to. */
  statements: readonly Statement[];
  length: number;
  positions: Map<StatementKind, number[]>;
  /** Statements of a combination of kinds, by the kinds joined with ','; filled as rules ask. */
  lists: Map<string, readonly Statement[]>;
  /** What the positions index: `statements` and the statements nested in them (engine/statements.ts). */
  all: readonly Statement[];
  /** The kinds positions holds, sorted and joined with ',' (engine/statements.ts heldKey), once asked. */
  kindsKey: string | undefined;
}

export interface RuleMeta {
  /** kebab-case, equal to the module's file name. */
  id: string;
  /** One line: what the rule finds. */
  description: string;
  defaultSeverity: Severity;
  /** The measurements the rule rests on, by the source's public name (SARIF properties), e.g. ['Db2 INSERT tips, test 42']. */
  evidence: string[];
  /** Default values of the rule's options (thresholds…), overridable in .insertlintrc.json. */
  defaultOptions?: Record<string, number | string | boolean>;
  /** Message templates by id; `{name}` placeholders are filled from report data. */
  messages: Record<string, string>;
  /** True when the rule offers a mechanical fix. */
  fixable?: boolean;
  /**
   * The Db2s the rule speaks of; absent: both. A rule for 'luw' also runs on files whose dialect is not known
   * (the default before z/OS files were read); one for 'zos' only on files known to be written for z/OS.
   */
  dialects?: readonly Dialect[];
  /**
   * What in a file the rule can find something in, as ESLint rules subscribe to node types: the engine calls
   * the rule on a file only when the file holds one of these (engine/statements.ts holdsWhatRuleReads);
   * absent: on every file. A thing left out loses findings without a word; test/engine/rule-reads.test.ts
   * runs every rule with and without this over mixed scripts, routines and code.
   */
  reads?: RuleReads;
  /**
   * False for rules off in the default preset (`insertlint:recommended`) and on only with
   * `"extends": "insertlint:all"` or when named in "rules": a small measured gain, or one bought with
   * concurrency. Undefined or true: on by default.
   */
  recommended?: boolean;
  /**
   * Rules that describe the same cause (one row per statement, per call, per commit) name one group:
   * their findings starting on the same line (or a finding's Report.partOf line) become one diagnostic, the
   * others as related information.
   */
  group?: string;
}

/** What a rule reads (RuleMeta.reads): it is called on a file that holds any of them. */
export interface RuleReads {
  /**
   * Statements of these kinds, as statementsOf() finds them: the script's, and those its routines, blocks and
   * dynamic SQL run (not the triggered actions of CREATE TRIGGER).
   */
  statements?: readonly StatementKind[];
  /** The facts of application code and SQL PL routines (`file.code`): executions, loops, commits. */
  code?: boolean;
}

export interface Report {
  messageId: string;
  data?: Record<string, string | number>;
  /** Where: a span in `stmt`'s SQL text (mapped through its origin), or a file span when `stmt` is absent. */
  span: Span;
  stmt?: Statement;
  /**
   * The quick fix, or a function that works it out: called only when fixes are wanted (the editor, SARIF;
   * Workspace.fixes), so a rule whose fix costs an object per statement (a run of 20,000 INSERTs) gives it so.
   */
  fix?: ReportFix | (() => ReportFix | undefined);
  /** Caps this finding's severity below the rule's configured one (a one-off gets at most a hint). */
  maxSeverity?: Severity;
  /**
   * The run the finding is about, first to last statement (each a span in its `stmt`, or a file span): becomes
   * Diagnostic.extent, and fills the message's `{runLines}` placeholder ("lines 2–20,001").
   */
  extent?: { first: ReportPlace; last: ReportPlace };
  /** Becomes Diagnostic.moveAfterLoad: its part told by a message of the rule's (by id, filled with `data`). */
  moveAfterLoad?: Omit<MoveAfterLoad, 'part' | 'loadSpan'> & { partMessageId: string; loadAt: ReportPlace };
  /**
   * Where the finding of another rule of the same group that this one is a side of is reported, when that is on
   * another line (a prepare redone each pass is part of the one-row-per-pass execute below it): the engine shows
   * the two as one diagnostic there. Alone (that rule off, suppressed, or not reporting there) it stays as it is.
   */
  partOf?: ReportPlace;
}

/** A quick fix as a rule reports it (edits in its statement's offsets). */
export type ReportFix = { title: string; edits: { span: Span; newText: string }[]; changesMeaning?: boolean };

/** A place as a report gives it: a span in `stmt`'s SQL text, or a file span when `stmt` is absent. */
export interface ReportPlace {
  span: Span;
  stmt?: Statement;
}

export interface RuleContext {
  file: FileModel;
  schema: SchemaModel;
  options: Record<string, number | string | boolean>;
  report(report: Report): void;
  /** The line (1-based) of an offset in the file's text, from the engine's line index of the file (made once). */
  lineOf(offset: number): number;
  /** The line (1-based) of an offset in another file of the workspace (a schema file's loader elsewhere); undefined when unknown. */
  lineIn?(file: string, offset: number): number | undefined;
}

export interface Rule {
  meta: RuleMeta;
  check(context: RuleContext): void;
  /**
   * For a rule whose findings on a SQL script are about runs of consecutive statements: true for a statement
   * that ends every run, after which the rule starts afresh (what it reports up to that statement does not
   * depend on the statements after it, nor the other way round). The engine then checks a script (a model
   * without `code`) piece by piece, each piece cut after such a statement and given as the model's
   * `statements`, and keeps a piece's findings while its statements are the same objects (engine/segments.ts):
   * a keystroke re-checks one piece. Reads the statement alone.
   */
  endsRun?(stmt: Statement): boolean;
}

export interface RegisteredRule {
  rule: Rule;
  /** The rule's Markdown doc (rules/<id>.md), embedded at build time. */
  doc: string;
}
