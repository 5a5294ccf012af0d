// Diagnostics: when an open document is analysed (scheduler.ts), and which files' findings are sent.
// An edit re-publishes its document at once (with its version); files that depend on the schema facts
// it changed are marked dirty and re-published in the background, open files first, in short slices.
import { debounceFor, DocumentScheduler, isInstant } from './scheduler';
import { changedNames, dependentFiles, fileNames, sameWrites, schemaFacts } from './model-queries';
import { LspDiagnosticCache, toLspDiagnostic } from './lsp-convert';
import { STATUS_NOTIFICATION, type StatusParams } from './protocol';
import { describe, yieldToEvents, type ServerState } from './server-state';
import { ResponseError, ErrorCodes, DiagnosticSeverity, type Diagnostic as LspDiagnostic } from 'vscode-languageserver/node';
import { severityShown } from './settings';
import { prepareShifts } from '../sql/incremental';
import type { FileModel } from '../engine/types';
import { withLineFeeds } from '../engine/lines';
import { DocumentLineFeeds } from './line-feeds';
import { bytesOverLimit, editorBudgetReason, FILE_SKIPPED_CODE, notice, overLimitReason, SkipNotices, TIME_BUDGET_CODE } from './skip-notices';

export { editorBudgetReason } from './skip-notices';

export class Diagnostics {
  /** Pending analyses of open documents: one per document, for its newest version. */
  readonly scheduler: DocumentScheduler;
  /** Paths whose diagnostics must be re-published, drained in the background. */
  private readonly dirty = new Set<string>();
  private draining = false;
  /**
   * What was last sent per file: the diagnostics, and their JSON text once a comparison needed it (an edited
   * document is answered every time, so its text is not made per keystroke: 25 MB for 40,000 findings).
   */
  private readonly published = new Map<string, { lsp?: unknown[]; key?: string; length: number; count: number }>();
  /** Converted diagnostics of documents edited in the editor, reused while a finding is the same (lsp-convert.ts). */
  private readonly converted = new Map<string, LspDiagnosticCache>();
  private readonly loggedFailures = new Set<string>();
  /** Files whose rules ran past the time budget, with why, as last logged: said once, again when it changes. */
  private readonly loggedStops = new Map<string, string>();
  /** The schema facts of each analysed model (model-queries.ts), for comparing with the next edit's. */
  private readonly facts = new WeakMap<object, Map<string, string[]>>();
  /** The version of each open document the engine holds. */
  private readonly analysed = new Map<string, number>();
  /** What the engine was handed for each open document's text (lone CRs as LF). */
  private readonly lineFeeds = new DocumentLineFeeds();
  /** Open documents not linted for their size (file-skipped), by URI: looked at again when the settings change. */
  private readonly tooLarge = new Set<string>();
  /** Why files that are not open have no findings: workspace files skipped when read, schema files past the budget. */
  readonly notices: SkipNotices;
  /** Indexing state for the status notification (set by indexer.ts). */
  indexing = false;
  indexProgress = { indexed: 0, total: 0 };

  /** `inputPending`: see DocumentScheduler. `guard` turns a failed analysis into a log line. */
  constructor(
    private readonly state: ServerState,
    guard: (what: string, run: () => void) => void,
    inputPending?: () => boolean,
  ) {
    this.notices = new SkipNotices(state, this);
    // The run tells the scheduler how much of it was the workspace's schema rebuilt (not the document's pace).
    this.scheduler = new DocumentScheduler((uri, version) => {
      const built = this.state.workspace?.schemaBuildMs ?? 0;
      guard('analyse', () => this.analyse(uri, version));
      return (this.state.workspace?.schemaBuildMs ?? 0) - built;
    }, inputPending);
  }

  /**
   * An open document changed: analyse its newest version after the debounce delay (insertlint.run onType),
   * adaptive: none for a keystroke in a document analysed quickly (scheduler.ts debounceFor).
   */
  changed(uri: string, version: number): void {
    // TextDocuments also fires this right after didOpen, for the same version: keep the open's quick run.
    if (this.scheduler.pendingVersion(uri) === version) return;
    if (this.state.settings.run === 'onSave' && this.analysed.has(uri)) return;
    const edit = this.state.lastEdit.get(uri);
    this.state.lastEdit.delete(uri);
    const kind = edit?.statementKind ?? '';
    const analysisMs = this.scheduler.lastAnalysisMs(uri, kind);
    this.scheduler.schedule(uri, version, debounceFor(edit, analysisMs, this.state.settings.debounceMs), !isInstant(edit, analysisMs), true, kind);
  }

  /** A document was saved: with insertlint.run onSave, this is when it is analysed. */
  saved(uri: string, version: number): void {
    if (this.state.settings.run === 'onSave' && this.analysed.get(uri) !== version) this.scheduler.schedule(uri, version, 0);
  }

  closed(uri: string): void {
    this.scheduler.forget(uri);
    this.state.changes.forget(uri);
    this.state.lastEdit.delete(uri);
    this.analysed.delete(uri);
    this.tooLarge.delete(uri);
    this.lineFeeds.forget(uri);
    this.converted.delete(this.state.pathOf(uri));
  }

  /** Whether the engine holds the text the editor shows (with insertlint.run onSave, not while edits are unsaved). */
  isCurrent(uri: string): boolean {
    const doc = this.state.documents.get(uri);
    return !doc || this.analysed.get(uri) === doc.version;
  }

  /**
   * Settings changed: open documents with unanalysed edits are analysed now if the mode allows it; so are those whose
   * size is now on the other side of the limit per file (their file-skipped notice comes or goes), and those skipped
   * (whether it is shown follows insertlint.enable and languages).
   */
  settingsChanged(): void {
    const onType = this.state.settings.run === 'onType';
    const limit = this.state.config.maxFileBytes;
    for (const doc of this.state.documents.all()) {
      const version = this.analysed.get(doc.uri);
      if (version === undefined) continue;
      if (version !== doc.version) {
        if (onType) this.scheduler.schedule(doc.uri, doc.version, 0);
      } else if (this.tooLarge.has(doc.uri) || bytesOverLimit(doc.getText(), limit) !== undefined) this.scheduler.schedule(doc.uri, doc.version, 0);
    }
  }

  opened(uri: string, version: number): void {
    // An indexed file skipped when read from disk: the editor's text is analysed now, and its publish replaces the notice.
    this.notices.read(this.state.pathOf(uri));
    // Reading a document whole is not the pace of its keystrokes (scheduler.ts).
    this.scheduler.schedule(uri, version, 0, true, false);
  }

  /** Model, line index and path of an open (or indexed) document, analysed up to its current text. */
  current(uri: string) {
    if (typeof uri !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, 'textDocument.uri must be a string');
    this.scheduler.flush(uri);
    const { workspace } = this.state;
    const path = this.state.pathOf(uri);
    const model = workspace.model(path);
    const lines = workspace.lines(path);
    if (!model || !lines) return undefined;
    return { path, model, lines };
  }

  private analyse(uri: string, version: number): void {
    const s = this.state;
    const doc = s.documents.get(uri);
    // Stale work: a newer version is scheduled, or the document was closed meanwhile.
    if (!doc || doc.version !== version) return;
    const path = s.pathOf(uri);
    s.uriOfPath.set(path, uri);
    this.analysed.set(uri, version);
    // Where the text changed since the engine read it, from the editor's change events (no 3 MB comparison).
    const unread = s.changes.take(uri, this.lineFeeds.rawOf(uri, s.workspace.model(path)?.source.text));
    if (s.schemaPaths.has(path)) {
      this.tooLarge.delete(uri);
      this.schemaFileChanged(path, withLineFeeds(doc.getText()));
      return;
    }
    const language = s.languageFor(path, doc.languageId);
    if (!language) return;
    // Lone CR line ends as LF, as in files read from disk (line-feeds.ts).
    const { text, change } = this.lineFeeds.read(uri, doc.getText(), unread);
    // In UTF-8 bytes, as the CLI and the index count a file on disk (lone CRs read as LF are one byte either way).
    const bytes = bytesOverLimit(text, s.config.maxFileBytes);
    if (bytes !== undefined) {
      const why = overLimitReason(s, bytes);
      if (!this.tooLarge.has(uri)) s.log('info', `${path}: not linted, ${why}`);
      this.tooLarge.add(uri);
      s.workspace.removeFile(path);
      if (s.shows(path)) this.publishNotice(path, this.fileSkippedNotice(text, why), version);
      else this.publishEmpty(path, version);
      return;
    }
    this.tooLarge.delete(uri);
    // The facts before: remembered from the last analysis (the edit may move the old statements in place).
    const previous = s.workspace.model(path);
    const before = (previous && this.facts.get(previous)) ?? schemaFacts(previous);
    const model = s.workspace.setFile(path, text, language, change);
    if (model?.timedOut) s.log('warn', `${path}: ${editorBudgetReason(model.leftOut!)}; no findings are shown for it`);
    s.onDisk.delete(path);
    // A kept schema means no DDL or insert shape changed: the facts are the same (issue 15: no walk per keystroke),
    // unless the statements read again write other columns (a MERGE's column list, NULL typed in place of a value).
    const kept = model && previous && model !== previous && s.workspace.lastEditKeptSchema && sameWrites(previous, model);
    const after = kept ? before : schemaFacts(s.workspace.model(path));
    if (model) this.facts.set(model, after);
    // The edited document is always answered (with its version), even when its findings did not change.
    this.publish(path, version);
    this.markDependentsDirty(path, changedNames(before, after));
    if (!this.indexing) this.sendStatus();
    if (model && !change && !model.code) this.prepareEdits(path, model);
  }

  /**
   * After a script is read whole (opened, or replaced), what its first edit would find for every statement
   * after it (the spans the edit moves, sql/incremental.ts prepareShifts) is found in idle slices of a few
   * milliseconds, between which messages are read; an edit meanwhile ends it (the edit finds what it needs).
   */
  private prepareEdits(path: string, model: FileModel): void {
    let next = 0;
    const slice = () => {
      if (this.state.workspace.model(path) !== model) return;
      next = prepareShifts(model.statements, next, 4);
      if (next < model.statements.length) setImmediate(slice);
    };
    setImmediate(slice);
  }

  /** A schema file's text changed (edited, saved, closed, deleted): every published file may change. */
  schemaFileChanged(path: string, text: string | undefined): void {
    if (text === undefined) this.state.workspace.removeSchemaFile(path);
    else this.state.workspace.setSchemaFile(path, text);
    this.markDirty(this.state.publishablePaths());
  }

  /** An edit of `path` changed the schema facts of the tables `changed` names: the other files that depend on them are re-published. */
  markDependentsDirty(path: string, changed: Set<string>): void {
    if (changed.size === 0) return;
    const { workspace } = this.state;
    const files = this.state.publishablePaths().filter((p) => p !== path);
    const named = files.map((p) => ({ key: p, names: fileNames(workspace.model(p)) }));
    // With only open files published, an entity class's file (not open) still leads from its table to the open files
    // inserting the class (FileNames.entities).
    const leads = this.state.settings.diagnosticsScope === 'workspace' ? named : workspace.paths().map((p) => ({ names: fileNames(workspace.model(p)) }));
    this.markDirty(dependentFiles(named, changed, leads));
  }

  markDirty(paths: string[]): void {
    for (const p of paths) this.dirty.add(p);
    if (!this.draining && this.dirty.size > 0) {
      this.draining = true;
      setImmediate(() => void this.drain());
    }
  }

  /** Re-publishes dirty files, open ones first, in short slices so that newer edits get in between. */
  private async drain(): Promise<void> {
    try {
      while (this.dirty.size > 0) {
        const open = new Set(this.state.openPaths());
        const next = [...this.dirty].sort((a, b) => Number(open.has(b)) - Number(open.has(a)));
        const sliceStart = Date.now();
        for (const path of next) {
          if (!this.dirty.has(path)) continue;
          this.dirty.delete(path);
          // A pending edit of this document will publish it itself.
          if (this.scheduler.pendingVersion(this.state.uriOf(path)) !== undefined) continue;
          this.publish(path);
          if (Date.now() - sliceStart > 20) break;
        }
        this.sendStatus();
        await yieldToEvents();
      }
    } catch (error) {
      this.state.log('error', `re-publishing diagnostics failed: ${describe(error)}`);
    } finally {
      this.draining = false;
    }
  }

  /** Sends the findings of a file if they changed; `version` (an open document's) forces the message. */
  publish(path: string, version?: number): void {
    const { workspace } = this.state;
    if (!workspace.hasFile(path)) {
      // An open document not linted for its size keeps its file-skipped notice (analyse sends it); so does a file
      // skipped when read from disk, or a schema file whose rules ran past the budget (skip-notices.ts).
      if (this.tooLarge.has(this.state.uriOf(path))) return;
      if (version === undefined && this.notices.holds(path)) return;
      return this.publishEmpty(path, version);
    }
    const failuresBefore = workspace.ruleFailures.length;
    const minimum = this.state.settings.minimumSeverity;
    // A file not shown (InsertLint disabled, language not linted) is still analysed: its DDL feeds the schema.
    const diagnostics = this.state.shows(path) ? workspace.diagnostics(path).filter((d) => !d.suppressed && severityShown(d.severity, minimum)) : [];
    this.logRuleFailures(failuresBefore);
    if (this.state.shows(path)) this.logRulesStopped(path);
    // A schema file's rules run with the first linted file's that asks for their findings (placed on its inserts).
    const schemaPaths = workspace.schemaFilePaths();
    for (const schemaPath of schemaPaths) this.logRulesStopped(schemaPath, true);
    this.notices.schemaFilesChecked(schemaPaths);
    const lines = workspace.lines(path)!;
    const style = this.state.diagnosticStyle();
    // An edited document's findings are converted through its cache; files published in the background are not kept.
    let cache = this.converted.get(path);
    if (!cache && version !== undefined) this.converted.set(path, (cache = new LspDiagnosticCache()));
    let lsp = cache ? cache.convert(diagnostics, lines, this.state.locate, style) : diagnostics.map((d) => toLspDiagnostic(d, lines, this.state.locate, style));
    const stopped = this.state.shows(path) ? this.timeBudgetNotice(path) : undefined;
    if (stopped) lsp = [...lsp, stopped];
    const uri = this.state.uriOf(path);
    const last = this.published.get(path);
    let key: string | undefined;
    if (version === undefined) {
      key = JSON.stringify(lsp);
      if (last && last.length === lsp.length) {
        last.key ??= JSON.stringify(last.lsp);
        if (last.key === key) return;
      }
      // A file that never had findings needs no empty message (the index publishes thousands of files).
      if (!last && lsp.length === 0) return;
    }
    // VS Code's Problems panel leaves hints out: the count is of what it lists.
    // Files published in the background keep the text (smaller than the objects); an edited document the objects.
    const count = lsp.filter((d) => d.severity !== DiagnosticSeverity.Hint).length;
    this.published.set(path, key === undefined ? { lsp, length: lsp.length, count } : { key, length: lsp.length, count });
    void this.state.connection.sendDiagnostics(version === undefined ? { uri, diagnostics: lsp } : { uri, version, diagnostics: lsp });
  }

  /**
   * Sends one diagnostic that says why a file has no findings, in place of them: an open document's with its version;
   * a file that is not open (skip-notices.ts) only when it is not what was last sent (a settings change shows it again).
   */
  publishNotice(path: string, notice: LspDiagnostic, version?: number): void {
    const last = this.published.get(path);
    const key = JSON.stringify([notice]);
    if (version === undefined && last?.length === 1 && (last.key ?? JSON.stringify(last.lsp)) === key) return;
    this.converted.delete(path);
    this.published.set(path, { lsp: [notice], key, length: 1, count: 1 });
    const uri = this.state.uriOf(path);
    void this.state.connection.sendDiagnostics(version === undefined ? { uri, diagnostics: [notice] } : { uri, version, diagnostics: [notice] });
    // While indexing, the index sends the status once per slice (not once per file it skips).
    if (version !== undefined || !this.indexing) this.sendStatus();
  }

  /** Clears a file's findings; `version` (an open document's) forces the message, so the client's wait for it ends. */
  publishEmpty(path: string, version?: number): void {
    if (!this.published.has(path) && version === undefined) return;
    this.published.delete(path);
    this.converted.delete(path);
    const uri = this.state.uriOf(path);
    void this.state.connection.sendDiagnostics(version === undefined ? { uri, diagnostics: [] } : { uri, version, diagnostics: [] });
    this.sendStatus();
  }

  /** Findings published, all files, hints left out (as in the Problems panel). */
  findings(): number {
    let findings = 0;
    for (const p of this.published.values()) findings += p.count;
    return findings;
  }

  /**
   * For a file whose reading or rules ran past the time budget per file, and which so has no findings: one diagnostic
   * on its first line saying so, with the CLI's warning (`rules stopped after 3 s in rule ...`, `analysis stopped after
   * 3 s ...`), so that its empty Problems list is not taken for a clean file. Shown whatever insertlint.minimumSeverity
   * says: it is not a finding, it tells why there are none.
   */
  private timeBudgetNotice(path: string): LspDiagnostic | undefined {
    const why = this.state.workspace.timedOut(path);
    if (why === undefined) return undefined;
    const text = this.state.workspace.model(path)?.source.text ?? '';
    return {
      range: firstLine(text),
      severity: DiagnosticSeverity.Warning,
      code: TIME_BUDGET_CODE,
      source: 'insertlint',
      message: `${editorBudgetReason(why)}; no findings are shown for this file`,
    };
  }

  /**
   * For an open document not linted for its size: one diagnostic on its first line saying so and which limit to
   * raise, so that its empty Problems list is not taken for a clean file. Information: nothing is wrong with it.
   */
  private fileSkippedNotice(text: string, why: string): LspDiagnostic {
    return notice(firstLine(text), FILE_SKIPPED_CODE, `not linted: ${why}`);
  }

  /** Says (once) that a file's rules ran past the time budget, so that its empty Problems list is not taken for a clean file. */
  private logRulesStopped(path: string, schemaFile = false): void {
    const why = this.state.workspace.rulesStoppedIn(path);
    if (why === undefined) {
      this.loggedStops.delete(path);
      return;
    }
    if (this.loggedStops.get(path) === why) return;
    this.loggedStops.set(path, why);
    const said = editorBudgetReason(why);
    this.state.log('warn', schemaFile ? `schema file ${path}: ${said}; none of its findings are shown on the inserts` : `${path}: ${said}; no findings are shown for it`);
  }

  private logRuleFailures(from: number): void {
    const failures = this.state.workspace.ruleFailures;
    for (let i = from; i < failures.length; i++) {
      const f = failures[i];
      const key = `${f.rule}\u0000${f.file}`;
      if (this.loggedFailures.has(key)) continue;
      this.loggedFailures.add(key);
      this.state.log('error', `rule ${f.rule} failed on ${f.file} and is skipped for that file: ${describe(f.error)}`);
    }
    // The engine records every run's failure; keep the list from growing while someone types.
    if (failures.length > 1000) failures.splice(0, failures.length - 100);
  }

  sendStatus(): void {
    const status: StatusParams = {
      state: !this.state.settings.enable ? 'disabled' : this.indexing ? 'indexing' : 'idle',
      files: this.state.workspace?.paths().length ?? 0,
      findings: this.findings(),
      ...(this.indexing ? this.indexProgress : {}),
    };
    void this.state.connection.sendNotification(STATUS_NOTIFICATION, status);
  }
}

/** The range of a text's first line (without its line end). */
function firstLine(text: string): LspDiagnostic['range'] {
  // Within the first 64 K characters: a file of one long line is not scanned whole for it.
  const lineEnd = text.slice(0, 65536).search(/[\r\n]/);
  return { start: { line: 0, character: 0 }, end: { line: 0, character: lineEnd < 0 ? Math.min(text.length, 65536) : lineEnd } };
}
