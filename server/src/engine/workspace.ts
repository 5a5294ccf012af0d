// The analysis engine shared by the CLI, the language server and CI: files in, diagnostics out.
// Each file is parsed once into a FileModel (cached by text); the schema model folds all of them;
// rules run per file over the models and the schema.
// Workspace is built in layers: workspace-files.ts (the file store), workspace-links.ts (links between files);
// this module folds the schema, runs the rules within the time budget and makes each file's diagnostics
// (findings.ts turns the rules' reports into them).
import type { FileEntry } from './workspace-files';
import { WorkspaceLinks } from './workspace-links';
import type { Statement } from '../sql/ast';
import { SchemaModel } from '../schema/schema';
import { placeSchemaFinding, schemaContribution } from '../schema/schema-findings';
import { isTestFile, type ResolvedConfig } from './config';
import { LineIndex } from './lines';
import { mergeMovesAfterLoad, mergeSameCause } from './merge';
import { suppressionJudge } from './suppression-scope';
import { RULES } from './registry';
import { applySuppressions, readSuppressions, UNUSED_SUPPRESSION_RULE } from './suppressions';
import type { Diagnostic, Dialect, FileModel, FrontEnd, RegisteredRule, Report, RuleContext } from './types';
import { checkDeadline, DeadlineExceeded, rulesStoppedMessage, tickDeadline, withDeadline } from './deadline';
import { checkByPieces, type PieceCache } from './segments';
import { heldKey, holdsWhatRuleReads } from './statements';
import { nowMs } from './clock';
import { asTestCodeFinding, compareRuleIds, inFileOrder, toDiagnostic } from './findings';

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

export class Workspace extends WorkspaceLinks {
  /** Findings of the schema files placed on the linted inserts they concern, by linted file. */
  private placedFindings?: { generation: number; byFile: Map<string, Diagnostic[]> };
  /**
   * The rules' findings on the schema files, kept while neither the configuration, the schema files nor what
   * the linted files contribute to them changed: typing in a loader must not re-run the rules over a
   * 4 MB db2look file on every keystroke (only the placement, which follows the edited offsets, is redone).
   */
  private schemaReports?: { key: string; reports: SchemaReport[] };
  /**
   * Bumped when the schema is folded anew; an edit that keeps it (setFile's withFileReplaced) keeps the epoch:
   * the schema answers the same about every statement it kept, so findings kept per piece stay true.
   */
  private schemaEpoch = 0;

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
  /** Rule ids a suppression comment may name. */
  private readonly ruleIds: ReadonlySet<string>;
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

  /** Front ends for everything but SQL scripts (application code...), handed in like the rules. */
  constructor(
    config: ResolvedConfig,
    frontEnds: readonly FrontEnd[] = [],
    private readonly rules: readonly RegisteredRule[] = RULES,
  ) {
    super(config, frontEnds);
    this.ruleIds = new Set(rules.map((r) => r.rule.meta.id));
    for (const { rule } of rules) if (rule.meta.group) this.groups.set(rule.meta.id, rule.meta.group);
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

/** A script as a rule about runs sees one piece of it (Rule.endsRun): the piece's statements, the rest as it is. */
function pieceModel(model: FileModel, statements: Statement[]): FileModel {
  const piece: FileModel = { ...model, statements };
  delete piece.statementIndex;
  return piece;
}

/** Whether a rule written for `dialects` runs on a file of `dialect` (see RuleMeta.dialects). */
export function appliesTo(dialects: readonly Dialect[] | undefined, dialect: Dialect | undefined): boolean {
  if (!dialects) return true;
  return dialect ? dialects.includes(dialect) : dialects.includes('luw');
}
