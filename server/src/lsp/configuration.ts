// The configuration in force: the first folder's .insertlintrc.json, the editor settings over it,
// and the schema files both name. Changing any of them re-publishes every shown file.
import { dirname } from 'node:path';
import { ConfigError, resolveConfig, validateConfig, type ConfigFile, type ResolvedConfig } from '../engine/config';
import { findConfigFile, repositoryFinder } from '../cli/files';
import { loadConfigFile } from '../cli/lint-run';
import { anchorSchemaEntries, loadSchemaFiles } from '../schema/schema-files';
import { withLineFeeds } from '../engine/lines';
import { readEncoding, readSettings, settingsLayer, type ServerSettings } from './settings';
import { describe, type ServerState } from './server-state';
import type { Diagnostics } from './diagnostics';

export class Configuration {
  constructor(
    private readonly state: ServerState,
    private readonly diagnostics: Diagnostics,
  ) {}

  readSettingsReporting(raw: unknown): ServerSettings {
    const problems: string[] = [];
    const settings = readSettings(raw, problems);
    for (const p of problems) this.state.log('warn', p);
    return settings;
  }

  loadFileConfig(): void {
    const s = this.state;
    s.fileConfig = undefined;
    s.fileConfigPath = undefined;
    for (const folder of s.folders) {
      const path = findConfigFile(folder);
      if (!path) continue;
      try {
        s.fileConfig = loadConfigFile(path);
        s.fileConfigPath = path;
        s.log('info', `configuration: ${path}`);
      } catch (error) {
        const message = error instanceof ConfigError ? error.message : describe(error);
        s.log('error', `${message}; using the defaults`);
        s.showMessage('warning', `InsertLint: ${message}. Using the default configuration.`);
      }
      break; // one configuration per server: the first folder's (see README, multi-root workspaces)
    }
  }

  buildConfig(): ResolvedConfig {
    const s = this.state;
    let editorLayer: ConfigFile | undefined;
    try {
      editorLayer = validateConfig(settingsLayer(s.settings), s.rules.map((r) => r.rule), 'settings (insertlint.rules / insertlint.ignore)');
    } catch (error) {
      s.log('error', `${describe(error)}; the editor settings are ignored`);
    }
    // Schema entries are relative to the configuration file, and the editor's to the first workspace folder.
    const fileConfig = s.fileConfig && s.fileConfigPath ? { ...s.fileConfig, schema: anchorSchemaEntries(s.fileConfig.schema, dirname(s.fileConfigPath)) } : s.fileConfig;
    const editorSchema: ConfigFile = { schema: s.folders.length ? anchorSchemaEntries(s.settings.schema, s.folders[0]) : undefined };
    const config = resolveConfig(s.rules.map((r) => r.rule), fileConfig, editorLayer, editorSchema);
    s.configMaxFileBytes = config.maxFileBytes;
    config.maxFileBytes = Math.min(config.maxFileBytes, s.settings.index.maxFileBytes);
    config.source = s.fileConfigPath;
    if (s.folders.length) config.root = s.folders[0];
    // As the CLI run in that folder places test code (a new finder per configuration: repositories come and go).
    config.repositoryOf = repositoryFinder();
    return config;
  }

  /**
   * Pulls the editor settings again (workspace/configuration) and applies them; true when files on disk
   * must be read again (files.encoding changed).
   */
  async reload(republish = true): Promise<boolean> {
    const s = this.state;
    const encodingBefore = s.settings.encoding;
    try {
      if (s.canPullConfiguration) {
        const [raw, filesEncoding] = await s.connection.workspace.getConfiguration([{ section: 'insertlint' }, { section: 'files.encoding' }]);
        const problems: string[] = [];
        const encoding = readEncoding(filesEncoding, problems);
        s.settings = { ...this.readSettingsReporting(raw), encoding };
        for (const p of problems) s.log('warn', p);
      }
    } catch (error) {
      s.log('warn', `could not read the editor settings: ${describe(error)}`);
    }
    this.apply(republish);
    return s.settings.encoding !== encodingBefore;
  }

  apply(republish: boolean): void {
    const s = this.state;
    s.config = this.buildConfig();
    // Before the configuration: a file read past a smaller budget is read again once, with the new one. A lowered
    // budget reads nothing again: a file read within the old one was read whole (its findings are complete), and its
    // next change is read under the new one; its rules are held to the new one at once, as every file's rules run
    // again after a settings change (setConfig). Re-reading every file to find those now too slow would cost the very
    // time the user lowered the budget to save, to show less (test/lsp/rule-budget.test.ts).
    s.workspace.fileBudgetMs = s.fileBudgetMs();
    s.workspace.setConfig(s.config);
    this.loadSchema();
    if (!republish) return;
    this.diagnostics.markDirty(s.publishablePaths());
    this.diagnostics.settingsChanged();
    // Lenses follow insertlint.codeLens and insertlint.enable without a reload.
    if (s.canRefreshCodeLens) void s.connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
  }

  /** (Re)reads the schema files named by the configuration; open ones count with their editor text. */
  loadSchema(): void {
    const s = this.state;
    const loaded = loadSchemaFiles(s.workspace, s.config.schema, { ...s.config, encoding: s.settings.encoding });
    for (const problem of loaded.problems) s.log('warn', problem);
    s.schemaPaths = new Set(loaded.files);
    for (const path of s.schemaPaths) {
      // A file indexed or opened before it became a schema file stops being linted (and skipped, no longer says so).
      this.diagnostics.notices.forget(path);
      if (s.workspace.hasFile(path)) {
        s.workspace.removeFile(path);
        s.onDisk.delete(path);
        this.diagnostics.publishEmpty(path);
      }
      const open = s.documents.get(s.uriOf(path));
      if (open) s.workspace.setSchemaFile(path, withLineFeeds(open.getText()));
    }
    if (loaded.files.length > 0) s.log('info', `schema files: ${loaded.files.join(', ')}`);
  }
}
