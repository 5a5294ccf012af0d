// Editor settings (section "insertlint") with their defaults, read defensively: a client may send
// anything, and a bad value must fall back to the default with a message, never stop linting.
import type { ConfigFile } from '../engine/config';
import type { Severity } from '../engine/types';
import { sourceEncoding, type SourceEncoding } from '../cli/files';

/** When an open document is analysed: as it is typed (debounced), or when it is saved. */
export type RunMode = 'onType' | 'onSave';
/** The whole message, or its first sentence (the rest is in the rule's documentation). */
export type MessageStyle = 'full' | 'firstSentence';

/** Severities from the most to the least severe: a minimum shows its own and those before it. */
export const SEVERITY_ORDER: readonly Severity[] = ['error', 'warning', 'information', 'hint'];

/** VS Code language ids linted by default (the engine reads each as one of its FileLanguages). */
export const DEFAULT_LANGUAGES = ['sql', 'db2sql', 'java', 'python', 'javascript', 'javascriptreact', 'typescript', 'typescriptreact', 'c', 'cpp', 'shellscript', 'cobol', 'jcl'];

export interface ServerSettings {
  /** insertlint.enable: false publishes nothing and offers no lenses or actions (the server keeps running). */
  enable: boolean;
  run: RunMode;
  /** Findings less severe than this are not shown (nor counted). */
  minimumSeverity: Severity;
  /** VS Code language ids whose files are linted. */
  languages: string[];
  codeLens: boolean;
  messageStyle: MessageStyle;
  /** Same shape as "rules" in .insertlintrc.json; applied over the file. */
  rules: Record<string, unknown>;
  /** gitignore-style globs of files not to lint, over the file's "ignore". */
  ignore: string[];
  /** Schema files, folders or globs (insertlint.schema), relative to the first workspace folder; added to the file's "schema". */
  schema: string[];
  index: {
    enabled: boolean;
    maxFiles: number;
    maxTotalBytes: number;
    maxFileBytes: number;
  };
  /** 'workspace': findings of every indexed file; 'openFiles': only of files open in the editor. */
  diagnosticsScope: 'workspace' | 'openFiles';
  /** Quiet time after an edit before re-analysis (a keystroke in a quickly analysed file waits less: scheduler.ts debounceFor). */
  debounceMs: number;
  /**
   * How files read from disk (index, closed files, schema files) are decoded: VS Code's files.encoding, so
   * that a closed file is linted as the editor would show it. Open files are always the editor's text.
   */
  encoding: SourceEncoding;
  /**
   * insertlint.fileTimeBudget in ms: the time one file may take to read, and apart its rules, before it is left out
   * with a `time-budget` warning. Undefined when the client did not say: the server's default (3 s).
   */
  fileBudgetMs?: number;
}

/** insertlint.fileTimeBudget's bounds, in seconds: less leaves ordinary large files out, more leaves the editor deaf. */
export const FILE_TIME_BUDGET_SECONDS = { min: 0.5, max: 60 };

export const DEFAULT_SETTINGS: ServerSettings = {
  enable: true,
  run: 'onType',
  minimumSeverity: 'hint',
  languages: DEFAULT_LANGUAGES,
  codeLens: true,
  messageStyle: 'full',
  rules: {},
  ignore: [],
  schema: [],
  index: { enabled: true, maxFiles: 5000, maxTotalBytes: 50 * 1024 * 1024, maxFileBytes: 2 * 1024 * 1024 },
  diagnosticsScope: 'workspace',
  debounceMs: 150,
  encoding: 'utf-8',
};

function num(value: unknown, fallback: number, min: number, problems: string[], name: string): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    problems.push(`insertlint.${name} must be a number ≥ ${min}; using ${fallback}`);
    return fallback;
  }
  return value;
}

function choice<T extends string>(value: unknown, allowed: readonly T[], fallback: T, problems: string[], name: string): T {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  problems.push(`insertlint.${name} must be one of ${allowed.join(', ')}; using ${fallback}`);
  return fallback;
}

function bool(value: unknown, fallback: boolean, problems: string[], name: string): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'boolean') return value;
  problems.push(`insertlint.${name} must be true or false; using ${fallback}`);
  return fallback;
}

function obj(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Reads the settings object a client sent; `problems` collects what was ignored and why. */
export function readSettings(raw: unknown, problems: string[] = []): ServerSettings {
  const s = obj(raw);
  const index = obj(s.index);
  const d = DEFAULT_SETTINGS;
  const ignore = Array.isArray(s.ignore) ? s.ignore.filter((g): g is string => typeof g === 'string') : [];
  if (s.ignore !== undefined && !Array.isArray(s.ignore)) problems.push('insertlint.ignore must be an array of globs; ignored');
  const scope = s.diagnosticsScope ?? obj(s.diagnostics).scope;
  const schema = Array.isArray(s.schema) ? s.schema.filter((g): g is string => typeof g === 'string' && g.trim() !== '') : [];
  if (s.schema !== undefined && !Array.isArray(s.schema)) problems.push('insertlint.schema must be an array of files, folders or globs; ignored');
  let languages = d.languages;
  if (Array.isArray(s.languages)) languages = s.languages.filter((l): l is string => typeof l === 'string');
  else if (s.languages !== undefined && s.languages !== null) problems.push('insertlint.languages must be an array of language ids; linting the default languages');
  const codeLens = s.codeLens;
  return {
    enable: bool(s.enable, d.enable, problems, 'enable'),
    run: choice(s.run, ['onType', 'onSave'] as const, d.run, problems, 'run'),
    minimumSeverity: choice(s.minimumSeverity, SEVERITY_ORDER, d.minimumSeverity, problems, 'minimumSeverity'),
    languages,
    // "codeLens": true/false, or { "enabled": ... } as VS Code writes nested keys (insertlint.codeLens.enabled).
    codeLens: bool(typeof codeLens === 'object' && codeLens !== null ? (codeLens as { enabled?: unknown }).enabled : codeLens, d.codeLens, problems, 'codeLens'),
    messageStyle: choice(s.messageStyle, ['full', 'firstSentence'] as const, d.messageStyle, problems, 'messageStyle'),
    rules: obj(s.rules),
    ignore,
    schema,
    index: {
      enabled: index.enabled === undefined ? d.index.enabled : index.enabled !== false,
      maxFiles: num(index.maxFiles, d.index.maxFiles, 0, problems, 'index.maxFiles'),
      maxTotalBytes: index.maxTotalMegabytes !== undefined ? num(index.maxTotalMegabytes, d.index.maxTotalBytes / 1048576, 1, problems, 'index.maxTotalMegabytes') * 1048576 : d.index.maxTotalBytes,
      maxFileBytes: index.maxFileKilobytes !== undefined ? num(index.maxFileKilobytes, d.index.maxFileBytes / 1024, 1, problems, 'index.maxFileKilobytes') * 1024 : d.index.maxFileBytes,
    },
    diagnosticsScope: scope === 'openFiles' ? 'openFiles' : 'workspace',
    debounceMs: num(s.debounceMs, d.debounceMs, 0, problems, 'debounceMs'),
    encoding: readEncoding(s.encoding, problems),
    fileBudgetMs: readFileBudget(s.fileTimeBudget, problems),
  };
}

/** insertlint.fileTimeBudget (seconds) in ms; out of bounds, the nearest bound, with a message. */
function readFileBudget(value: unknown, problems: string[]): number | undefined {
  if (value === undefined || value === null) return undefined;
  const { min, max } = FILE_TIME_BUDGET_SECONDS;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    problems.push(`insertlint.fileTimeBudget must be a number of seconds from ${min} to ${max}; using the default`);
    return undefined;
  }
  const seconds = Math.min(max, Math.max(min, value));
  if (seconds !== value) problems.push(`insertlint.fileTimeBudget must be from ${min} to ${max} seconds; using ${seconds}`);
  return Math.round(seconds * 1000);
}

/** The settings as a configuration layer over .insertlintrc.json (validated by the caller). */
export function settingsLayer(settings: ServerSettings): ConfigFile {
  const layer: Record<string, unknown> = {};
  if (Object.keys(settings.rules).length > 0) layer.rules = settings.rules;
  if (settings.ignore.length > 0) layer.ignore = settings.ignore;
  return layer as ConfigFile;
}

/** An encoding name (files.encoding: utf8, iso88591, windows1252, …); others fall back to UTF-8 with a message. */
export function readEncoding(value: unknown, problems: string[]): SourceEncoding {
  if (value === undefined || value === null || value === '') return 'utf-8';
  const encoding = typeof value === 'string' ? sourceEncoding(value) : undefined;
  if (!encoding) problems.push(`files.encoding ${JSON.stringify(value)}: InsertLint reads files on disk as UTF-8, ISO 8859-1 or Windows-1252 only; using UTF-8 (open files are linted as shown)`);
  return encoding ?? 'utf-8';
}

/** Whether a finding of `severity` is shown under `minimum`. */
export function severityShown(severity: Severity, minimum: Severity): boolean {
  return SEVERITY_ORDER.indexOf(severity) <= SEVERITY_ORDER.indexOf(minimum);
}
