// The workspace index: reads the workspace folders into the engine in the background (the CLI's file
// selection, so .gitignore and "ignore" apply), in 25 ms slices with $/progress and status notifications. A pass stopped
// by a cap (insertlint.index.maxFiles, maxTotalMegabytes) says so in a message box (index-stop.ts).
import { dirname } from 'node:path';
import type { WorkDoneProgressServerReporter } from 'vscode-languageserver/node';
import { collectFiles } from '../cli/files';
import { yieldToEvents, type ServerState } from './server-state';
import type { Diagnostics } from './diagnostics';
import type { DiskFiles } from './disk-files';
import type { Configuration } from './configuration';
import { IndexStopNotice, type IndexStop } from './index-stop';

export class Indexer {
  private generation = 0;
  /** Tells the user when a pass stopped before the end of the workspace (once per outcome). */
  readonly stopNotice: IndexStopNotice;

  constructor(
    private readonly state: ServerState,
    private readonly diagnostics: Diagnostics,
    private readonly disk: DiskFiles,
    private readonly configuration: Configuration,
  ) {
    this.stopNotice = new IndexStopNotice((message) => state.showMessage('warning', message));
  }

  /** Stops a running index at its next slice (shutdown, or a newer index). */
  cancel(): void {
    this.generation++;
  }

  /** Reads the workspace folders into the engine in the background, with $/progress. */
  async indexWorkspace(): Promise<{ files: number; skipped: number }> {
    const s = this.state;
    const d = this.diagnostics;
    const generation = ++this.generation;
    const stale = () => generation !== this.generation;
    if (!s.settings.index.enabled || s.folders.length === 0) {
      d.markDirty(s.publishablePaths());
      return { files: 0, skipped: 0 };
    }
    d.indexing = true;
    const started = Date.now();
    let progress: WorkDoneProgressServerReporter | undefined;
    try {
      if (s.canReportProgress) progress = await s.connection.window.createWorkDoneProgress();
    } catch {
      progress = undefined;
    }
    progress?.begin('InsertLint: indexing', 0, 'finding files', false);
    let files: string[] = [];
    for (const folder of s.folders) {
      const configDir = s.fileConfigPath ? dirname(s.fileConfigPath) : folder;
      const list = collectFiles([folder], s.config, folder, configDir);
      files.push(...list.files.filter((f) => !s.schemaPaths.has(f)));
      for (const skip of list.skipped) s.log('info', `skipped ${skip.path}: ${skip.reason}`);
      await yieldToEvents();
      if (stale()) {
        progress?.done();
        return { files: 0, skipped: 0 };
      }
    }
    const { maxFiles, maxTotalBytes } = s.settings.index;
    const total = files.length;
    let stop: IndexStop | undefined;
    if (files.length > maxFiles) {
      s.log('warn', `the workspace has ${files.length} files to lint; indexing the first ${maxFiles} (setting insertlint.index.maxFiles)`);
      files = files.slice(0, maxFiles);
      stop = { setting: 'maxFiles', limit: maxFiles, indexed: maxFiles, total };
    }
    d.indexProgress = { indexed: 0, total: files.length };
    this.disk.codeWithoutSql = 0;
    let skipped = 0;
    let sliceStart = Date.now();
    for (let i = 0; i < files.length; i++) {
      const path = files[i];
      const open = s.documents.get(s.uriOf(path));
      if (open && s.workspace.hasFile(path)) {
        // The schema folds files in the engine's order; put the open file where the CLI would read it,
        // so that the editor and `insertlint check` agree when two files define the same table.
        const model = s.workspace.model(path)!;
        s.workspace.removeFile(path);
        s.workspace.setFile(path, model.source.text, model.source.language);
      } else if (!open) {
        if (this.disk.indexedBytes >= maxTotalBytes) {
          s.log('warn', `stopped indexing after ${i} files: ${(this.disk.indexedBytes / 1048576).toFixed(0)} MB read, the limit (insertlint.index.maxTotalMegabytes)`);
          stop = { setting: 'maxTotalMegabytes', limit: maxTotalBytes, indexed: i, total };
          break;
        }
        if (!this.disk.readFromDisk(path)) skipped++;
      }
      d.indexProgress.indexed = i + 1;
      if (Date.now() - sliceStart > 25) {
        // Let edits, hovers and other requests in between slices of work.
        progress?.report(Math.round(((i + 1) / files.length) * 100), `${i + 1}/${files.length} files`);
        d.sendStatus();
        await yieldToEvents();
        if (stale()) {
          progress?.done();
          return { files: i + 1, skipped };
        }
        sliceStart = Date.now();
      }
    }
    progress?.done();
    d.indexing = false;
    // The project's evidence that SQLAlchemy runs on Db2, now that its Python files are in (a model module that names
    // no driver is read again under it). All of it read again: a change no watcher reported is seen here.
    this.disk.refreshProjectEvidence(true);
    const noSql = this.disk.codeWithoutSql;
    // Stopped by the total size: the files after it were not read.
    const passed = stop?.setting === 'maxTotalMegabytes' ? stop.indexed : files.length;
    s.log('info', `indexed ${passed - skipped} files in ${Date.now() - started} ms (${skipped - noSql} skipped, ${noSql} code files without SQL left out, ${(this.disk.indexedBytes / 1048576).toFixed(1)} MB)`);
    d.markDirty(s.publishablePaths());
    d.sendStatus();
    this.stopNotice.passEnded(stop);
    return { files: passed - skipped, skipped };
  }

  /** "Lint workspace": schema files and folders read again; files gone from disk leave the engine. */
  async relint(): Promise<{ files: number; skipped: number; findings: number }> {
    const s = this.state;
    const before = new Set(s.onDisk);
    const skippedBefore = this.diagnostics.notices.diskSkips();
    s.onDisk.clear();
    this.disk.indexedBytes = 0;
    this.configuration.loadSchema();
    const result = await this.indexWorkspace();
    // Files that vanished (or became ignored) without a watcher event leave the engine now.
    for (const path of before) {
      // Skipped this time (files.encoding changed, say): its file-skipped notice stays.
      if (s.onDisk.has(path) || s.documents.get(s.uriOf(path)) || this.diagnostics.notices.holds(path)) continue;
      s.workspace.removeFile(path);
      this.diagnostics.publishEmpty(path);
    }
    // Skipped before and not read again (gone, ignored now, past the index's caps): no notice left behind.
    this.diagnostics.notices.forgetUnchanged(skippedBefore);
    return { ...result, findings: this.diagnostics.findings() };
  }
}
