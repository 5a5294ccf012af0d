// .insertlintrc.json: per-rule severity/off and options, ignore globs, which files are which language.
import type { Dialect, FileLanguage, Rule, Severity, SeveritySetting } from './types';
import ignore, { type Ignore } from 'ignore';
import { UNUSED_SUPPRESSION_RULE } from './suppressions';
import { BULK_ROW_THRESHOLD } from '../schema/schema';
import { didYouMean } from './spelling';

export const CONFIG_FILE_NAME = '.insertlintrc.json';

export type RuleSetting = SeveritySetting | [SeveritySetting, Record<string, number | string | boolean>?];

export interface ConfigFile {
  /** The preset the rules start from: PRESETS (default insertlint:recommended). */
  extends?: string;
  /**
   * Literal rows (INSERT … VALUES in scripts, summed over the analysed files) from which a table counts as a
   * bulk insert target; below it they are reference data and the schema rules leave the table alone.
   */
  bulkRowThreshold?: number;
  /** Rule id → severity, 'off', or [severity, options]. */
  rules?: Record<string, RuleSetting>;
  /** gitignore-style patterns of files not to lint. */
  ignore?: string[];
  /** Extension (with dot) → language; merged over the defaults. Map to null to stop linting an extension. */
  languages?: Record<string, FileLanguage | null>;
  /** Files larger than this are skipped with a message (bytes). */
  maxFileBytes?: number;
  /** JS/TS/Python modules that give access to Db2 besides the known drivers (wrappers, ORMs): './db/client', '@acme/db2'. */
  driverModules?: string[];
  /**
   * DDL that feeds the schema model without being linted (db2look output, a DBA's folder): files, folders or
   * globs, relative to the configuration file. Their findings appear on the inserts they concern.
   */
  schema?: string[];
  /**
   * The terminator SQL scripts are run with (CLP -td<x>): one for all, or by gitignore-style glob (the last
   * matching glob wins). "auto" infers it from the file (the default), "newline" is `db2` without -t.
   */
  terminator?: string | Record<string, string>;
  /**
   * The Db2 files are written for: "zos" (Db2 for z/OS), "luw" (Linux, UNIX and Windows) or "auto" (inferred per
   * file, the default); one for all, or by gitignore-style glob (the last matching glob wins).
   */
  dialect?: string | Record<string, string>;
  /**
   * gitignore-style globs of test code (DEFAULT_TEST_FILES when absent; [] for none): findings located in these
   * files are at most information. Their DDL still feeds the schema model.
   */
  testFiles?: string[];
}

export interface ResolvedRuleConfig {
  severity: Severity;
  options: Record<string, number | string | boolean>;
}

export interface ResolvedConfig {
  rules: Map<string, ResolvedRuleConfig | 'off'>;
  /** The preset the rules started from. */
  preset: Preset;
  bulkRowThreshold: number;
  ignore: string[];
  languages: Record<string, FileLanguage>;
  maxFileBytes: number;
  driverModules: string[];
  /** Schema files, folders and globs of every layer, each made absolute by its layer (see schema/schema-files.ts). */
  schema: string[];
  /** Terminators by glob in the order given (`pattern` undefined: every file); see terminatorFor(). */
  terminators: { pattern?: string; terminator: string }[];
  /** Dialects by glob in the order given (`pattern` undefined: every file); see dialectFor(). */
  dialects?: { pattern?: string; dialect: string }[];
  /** Globs of test code (see testFileMatcher); the last layer that sets "testFiles" chooses them. */
  testFiles: readonly string[];
  /** Where the configuration came from (for messages); terminator globs are relative to its folder. */
  source?: string;
  /**
   * The folder "testFiles" globs are relative to when no configuration file was found: the folder the CLI ran
   * in, the editor's first workspace folder.
   */
  root?: string;
  /**
   * The root folder of the repository holding a file (the nearest folder with a `.git`), or undefined outside
   * one: set by the CLI and the language server, which read the disk. Without a configuration file, "testFiles"
   * globs are relative to it when it does not hold `root` too (see isTestFile).
   */
  repositoryOf?: (path: string) => string | undefined;
}

export const DEFAULT_LANGUAGES: Record<string, FileLanguage> = {
  '.sql': 'sql',
  '.db2': 'sql',
  '.ddl': 'sql',
  '.clp': 'sql',
  '.java': 'java',
  '.sqlj': 'java',
  '.py': 'python',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascript',
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'typescript',
  '.c': 'c',
  '.h': 'c',
  '.cpp': 'cpp',
  '.cc': 'cpp',
  '.cxx': 'cpp',
  '.sqc': 'embedded-sql',
  '.sqC': 'embedded-sql',
  '.sqx': 'embedded-sql',
  '.sh': 'shell',
  '.bash': 'shell',
  '.ksh': 'shell',
  '.sqb': 'cobol',
  '.cbl': 'cobol',
  '.cob': 'cobol',
  '.cpy': 'cobol',
  '.dcl': 'cobol',
  '.jcl': 'jcl',
  '.ctl': 'jcl',
};

export const DEFAULT_MAX_FILE_BYTES = 20 * 1024 * 1024;

/**
 * Rule presets for "extends". recommended: the rules whose finding is worth acting on (RuleMeta.recommended
 * not false); all: every rule at its default severity.
 */
export const PRESETS = ['insertlint:recommended', 'insertlint:all'] as const;
export type Preset = (typeof PRESETS)[number];
export const DEFAULT_PRESET: Preset = 'insertlint:recommended';

/**
 * Default of bulkRowThreshold: seed and reference data (codes, statuses, a few test rows) stay well below it;
 * seed 000 measured every cost on 10,000 rows and more (Appendix A).
 */
export const DEFAULT_BULK_ROW_THRESHOLD = BULK_ROW_THRESHOLD;

/**
 * Default of "testFiles": where common layouts keep test code. Matched case-sensitively: `*IT.java` must not
 * take Audit.java or Deposit.java. An insert in a test fixture is not a production load.
 */
export const DEFAULT_TEST_FILES: readonly string[] = [
  // Folders: Maven/Gradle src/test (and Gradle's src/integrationTest...), test/, tests/, Jest's __tests__/.
  '**/test/**',
  '**/tests/**',
  '**/__tests__/**',
  '**/src/*Test/**',
  // Java (JUnit, Failsafe's integration tests), Python (pytest, unittest), JavaScript/TypeScript, C/C++.
  '**/*Test.java',
  '**/*Tests.java',
  '**/*IT.java',
  '**/*TestCase.java',
  '**/test_*.py',
  '**/*_test.py',
  '**/conftest.py',
  '**/*.test.[jt]s',
  '**/*.test.[jt]sx',
  '**/*.test.[cm][jt]s',
  '**/*.spec.[jt]s',
  '**/*.spec.[jt]sx',
  '**/*.spec.[cm][jt]s',
  '**/*_test.c',
  '**/*_test.cc',
  '**/*_test.cpp',
];

/** Whether a rule runs in a preset before "rules" settings apply. */
export function inPreset(rule: Rule, preset: Preset): boolean {
  return preset === 'insertlint:all' || rule.meta.recommended !== false;
}

/** Ids of findings the engine reports besides the rules' (see suppressions.ts). */
export const ENGINE_FINDINGS: readonly string[] = [UNUSED_SUPPRESSION_RULE];

const SEVERITIES: readonly SeveritySetting[] = ['error', 'warning', 'information', 'hint', 'off'];

export class ConfigError extends Error {}

/** Checks a parsed config file; unknown rules and bad values are errors that name the key. */
export function validateConfig(raw: unknown, knownRules: readonly Rule[], source: string): ConfigFile {
  const fail = (what: string): never => {
    throw new ConfigError(`${source}: ${what}`);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('the configuration must be a JSON object');
  const config = raw as Record<string, unknown>;
  const keys = ['$schema', 'extends', 'bulkRowThreshold', 'rules', 'ignore', 'languages', 'maxFileBytes', 'schema', 'terminator', 'driverModules', 'dialect', 'testFiles'];
  for (const key of Object.keys(config)) {
    if (!keys.includes(key)) fail(`unknown key "${key}"${didYouMean(key, keys)}`);
  }
  if (config.extends !== undefined && !PRESETS.includes(config.extends as Preset)) {
    fail(`"extends" must be one of ${PRESETS.map((p) => `"${p}"`).join(', ')}, not ${JSON.stringify(config.extends)}`);
  }
  if (config.bulkRowThreshold !== undefined && (typeof config.bulkRowThreshold !== 'number' || !Number.isInteger(config.bulkRowThreshold) || config.bulkRowThreshold < 1)) {
    fail('"bulkRowThreshold" must be a whole number of rows, 1 or more');
  }
  const known = new Map(knownRules.map((r) => [r.meta.id, r]));
  // Findings the engine itself reports can be configured like rules (severity or off, no options).
  const builtIn = new Set(ENGINE_FINDINGS);
  if (config.rules !== undefined) {
    if (typeof config.rules !== 'object' || config.rules === null || Array.isArray(config.rules)) fail('"rules" must be an object');
    for (const [id, setting] of Object.entries(config.rules as Record<string, unknown>)) {
      const rule = known.get(id);
      if (!rule && !builtIn.has(id)) fail(`unknown rule "${id}" in "rules"${didYouMean(id, [...known.keys(), ...builtIn])}`);
      const [severity, options] = Array.isArray(setting) ? setting : [setting, undefined];
      if (!SEVERITIES.includes(severity as SeveritySetting)) fail(`rule "${id}": severity must be one of ${SEVERITIES.join(', ')}`);
      if (options !== undefined) {
        if (!rule) fail(`"${id}" takes no options`);
        if (typeof options !== 'object' || options === null || Array.isArray(options)) fail(`rule "${id}": options must be an object`);
        for (const [name, value] of Object.entries(options as Record<string, unknown>)) {
          const defaults = rule!.meta.defaultOptions ?? {};
          if (!(name in defaults)) fail(`rule "${id}" has no option "${name}"${didYouMean(name, Object.keys(defaults))}`);
          if (typeof value !== typeof defaults[name]) fail(`rule "${id}": option "${name}" must be a ${typeof defaults[name]}`);
        }
      }
    }
  }
  if (config.ignore !== undefined && (!Array.isArray(config.ignore) || config.ignore.some((p) => typeof p !== 'string'))) {
    fail('"ignore" must be an array of glob strings');
  }
  if (config.languages !== undefined) {
    if (typeof config.languages !== 'object' || config.languages === null) fail('"languages" must be an object');
    const languages = new Set<string>(Object.values(DEFAULT_LANGUAGES));
    for (const [ext, lang] of Object.entries(config.languages as Record<string, unknown>)) {
      if (!ext.startsWith('.')) fail(`"languages": "${ext}" must start with a dot`);
      if (lang !== null && !languages.has(lang as string)) fail(`"languages": "${ext}" maps to unknown language "${String(lang)}"`);
    }
  }
  if (config.testFiles !== undefined && (!Array.isArray(config.testFiles) || config.testFiles.some((p) => typeof p !== 'string' || p.trim() === ''))) {
    fail('"testFiles" must be an array of glob strings ([] when no file is test code)');
  }
  if (config.maxFileBytes !== undefined && (typeof config.maxFileBytes !== 'number' || config.maxFileBytes <= 0)) {
    fail('"maxFileBytes" must be a positive number');
  }
  if (config.driverModules !== undefined && (!Array.isArray(config.driverModules) || config.driverModules.some((m) => typeof m !== 'string' || m.trim() === ''))) {
    fail('"driverModules" must be an array of module names');
  }
  if (config.schema !== undefined && (!Array.isArray(config.schema) || config.schema.some((p) => typeof p !== 'string' || p.trim() === ''))) {
    fail('"schema" must be an array of file, folder or glob strings');
  }
  if (config.terminator !== undefined) {
    const entries = typeof config.terminator === 'string' ? [['', config.terminator] as const] : Object.entries(config.terminator ?? {});
    if (typeof config.terminator !== 'string' && (typeof config.terminator !== 'object' || config.terminator === null || Array.isArray(config.terminator))) {
      fail('"terminator" must be a string or an object of glob → terminator');
    }
    for (const [glob, value] of entries) {
      const problem = terminatorProblem(value);
      if (problem) fail(`"terminator"${glob ? ` for "${glob}"` : ''}: ${problem}`);
    }
  }
  if (config.dialect !== undefined) {
    const entries = typeof config.dialect === 'string' ? [['', config.dialect] as const] : typeof config.dialect === 'object' && config.dialect !== null && !Array.isArray(config.dialect) ? Object.entries(config.dialect) : fail('"dialect" must be a string or an object of glob → dialect');
    for (const [glob, value] of entries) {
      if (!DIALECT_SETTINGS.includes(value as string)) fail(`"dialect"${glob ? ` for "${glob}"` : ''}: must be one of ${DIALECT_SETTINGS.join(', ')}`);
    }
  }
  return config as ConfigFile;
}

const DIALECT_SETTINGS: readonly string[] = ['auto', 'luw', 'zos'];

/** The dialect configured for a file, or undefined to infer it (sql/dialect.ts). The last matching glob wins. */
export function dialectFor(path: string, config: ResolvedConfig): Dialect | undefined {
  let chosen: string | undefined;
  for (const { pattern, dialect } of config.dialects ?? []) {
    if (pattern !== undefined && !globMatcher(pattern).ignores(relativeToConfig(path, config.source))) continue;
    chosen = dialect;
  }
  return chosen === 'luw' || chosen === 'zos' ? chosen : undefined;
}

/** Defaults of every rule, overridden by the file, overridden by command-line/editor settings. */
export function resolveConfig(rules: readonly Rule[], ...layers: (ConfigFile | undefined)[]): ResolvedConfig {
  // The last layer that names a preset chooses it; the rules start from it and every layer's "rules" apply over it.
  let preset: Preset = DEFAULT_PRESET;
  for (const layer of layers) if (layer?.extends) preset = layer.extends as Preset;
  const resolved: ResolvedConfig = {
    rules: new Map(),
    preset,
    bulkRowThreshold: DEFAULT_BULK_ROW_THRESHOLD,
    ignore: [],
    languages: { ...DEFAULT_LANGUAGES },
    maxFileBytes: DEFAULT_MAX_FILE_BYTES,
    driverModules: [],
    schema: [],
    terminators: [],
    testFiles: DEFAULT_TEST_FILES,
  };
  for (const rule of rules) {
    resolved.rules.set(rule.meta.id, inPreset(rule, preset) ? { severity: rule.meta.defaultSeverity, options: { ...(rule.meta.defaultOptions ?? {}) } } : 'off');
  }
  for (const layer of layers) {
    if (!layer) continue;
    for (const [id, setting] of Object.entries(layer.rules ?? {})) {
      const [severity, options] = Array.isArray(setting) ? setting : [setting, undefined];
      const current = resolved.rules.get(id);
      const baseOptions = current && current !== 'off' ? current.options : { ...(rules.find((r) => r.meta.id === id)?.meta.defaultOptions ?? {}) };
      resolved.rules.set(id, severity === 'off' ? 'off' : { severity, options: { ...baseOptions, ...(options ?? {}) } });
    }
    resolved.ignore.push(...(layer.ignore ?? []));
    for (const [ext, lang] of Object.entries(layer.languages ?? {})) {
      if (lang === null) delete resolved.languages[ext];
      else resolved.languages[ext] = lang;
    }
    // A list, not merged: a layer that sets it replaces the defaults ([] turns the cap off).
    if (layer.testFiles !== undefined) resolved.testFiles = [...layer.testFiles];
    if (layer.maxFileBytes !== undefined) resolved.maxFileBytes = layer.maxFileBytes;
    if (layer.bulkRowThreshold !== undefined) resolved.bulkRowThreshold = layer.bulkRowThreshold;
    for (const m of layer.driverModules ?? []) if (!resolved.driverModules.includes(m)) resolved.driverModules.push(m);
    for (const pattern of layer.schema ?? []) if (!resolved.schema.includes(pattern)) resolved.schema.push(pattern);
    if (typeof layer.dialect === 'string') (resolved.dialects ??= []).push({ dialect: layer.dialect });
    else for (const [pattern, dialect] of Object.entries(layer.dialect ?? {})) (resolved.dialects ??= []).push({ pattern, dialect });
    if (typeof layer.terminator === 'string') resolved.terminators.push({ terminator: layer.terminator });
    else for (const [pattern, terminator] of Object.entries(layer.terminator ?? {})) resolved.terminators.push({ pattern, terminator });
  }
  return resolved;
}

/** Why a configured terminator cannot be used, or undefined when it can. */
export function terminatorProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  if (value === 'auto' || value === 'newline') return undefined;
  if (value.length === 0 || value.length > 2 || /[\s\w'"]/.test(value)) return `"${value}" is not a terminator: use one or two characters such as ";", "@", "/" or "!", "newline" (db2 without -t) or "auto"`;
  return undefined;
}

/**
 * The terminator configured for a script, or undefined to infer it from the file (sql/terminator.ts).
 * Globs match the path relative to the configuration's folder, as "ignore" does; the last match wins.
 */
export function terminatorFor(path: string, config: ResolvedConfig): string | undefined {
  let chosen: string | undefined;
  let relative: string | undefined;
  for (const { pattern, terminator } of config.terminators) {
    if (pattern !== undefined) {
      relative ??= relativeToConfig(path, config.source);
      if (!globMatcher(pattern).ignores(relative)) continue;
    }
    chosen = terminator;
  }
  if (chosen === undefined || chosen === 'auto') return undefined;
  return chosen === 'newline' ? '\n' : chosen;
}

/** Compiled "terminator" / "dialect" globs: compiling one per file and lookup cost more than reading a small file. */
const globMatchers = new Map<string, Ignore>();

function globMatcher(pattern: string): Ignore {
  let matcher = globMatchers.get(pattern);
  if (!matcher) {
    // Patterns come from configuration files, so the cache stays small; the bound is only a safeguard.
    if (globMatchers.size >= 1000) globMatchers.clear();
    globMatchers.set(pattern, (matcher = ignore().add(pattern)));
  }
  return matcher;
}

/** Compiled "testFiles" globs, by the list they were compiled from (one list per configuration). */
const testMatchers = new WeakMap<readonly string[], Ignore>();

/**
 * Whether a file is test code ("testFiles"). Globs match the path relative to the configuration's folder, or
 * without one to the root of the repository holding the file when that repository does not hold `root` (a
 * repository checked out below the run folder, even one named test/, has its own layout), else to `root`; a
 * file outside that folder (a corpus linted from elsewhere) is matched by its path below the folders it shares
 * with that one: a checkout kept under ~/tests/ is not all test code.
 */
export function isTestFile(path: string, config: ResolvedConfig): boolean {
  if (config.testFiles.length === 0) return false;
  // The path the globs see is a part of this one: without any glob's literal text in it (which holds no slash),
  // none can match, and neither the repository's folder nor the compiled globs are needed (3-7 ms of the first
  // file with findings of a run).
  const literals = requiredLiterals(config.testFiles);
  if (literals !== undefined && !literals.some((literal) => path.includes(literal))) return false;
  let matcher = testMatchers.get(config.testFiles);
  if (!matcher) testMatchers.set(config.testFiles, (matcher = ignore({ ignorecase: false }).add([...config.testFiles])));
  const root = config.root === undefined ? undefined : asFolder(config.root);
  // A path inside the folder stands for it (relativeToConfig takes the folder of the path it is given).
  const base = config.source ?? repositoryBase(path, config.repositoryOf, root) ?? root;
  // `ignore` throws on "./" and "../" (not a relative path as it defines one): what follows them is matched.
  const relative = belowSharedFolders(path, base).replace(/^(\.\.?\/)+/, '');
  return relative !== '' && matcher.ignores(relative);
}

/** requiredLiterals' answers, by the list of globs. */
const globLiterals = new WeakMap<readonly string[], readonly string[] | null>();

/**
 * For each glob, its longest piece of literal text (no wildcard, character class or slash): a path that holds
 * none of them matches none of the globs. Undefined when that cannot be said: a negation, an escape, a glob
 * without literal text.
 */
export function requiredLiterals(globs: readonly string[]): readonly string[] | undefined {
  const known = globLiterals.get(globs);
  if (known !== undefined) return known ?? undefined;
  let literals: string[] | null = [];
  for (const glob of globs) {
    const pattern = glob.trim();
    if (pattern.startsWith('!') || pattern.includes('\\')) {
      literals = null;
      break;
    }
    // (A class holds no '[': each '[' tries only up to the next one, linear in a glob of many unclosed '['.)
    const pieces = pattern.replace(/\[[^\][]*\]/g, '*').split(/[*?[\]{}/]+/);
    const longest = pieces.reduce((a, b) => (b.length > a.length ? b : a), '');
    if (longest === '') {
      literals = null;
      break;
    }
    literals.push(longest);
  }
  globLiterals.set(globs, literals);
  return literals ?? undefined;
}

/**
 * The folder of the repository holding `path`, unless it also holds the run folder `root`: then (the run is
 * inside one checkout, or a home folder kept in git holds everything) the run folder stays the base.
 */
function repositoryBase(path: string, repositoryOf: ResolvedConfig['repositoryOf'], root: string | undefined): string | undefined {
  const repository = repositoryOf?.(path);
  if (repository === undefined) return undefined;
  const folder = asFolder(repository);
  return root !== undefined && root.startsWith(folder) ? undefined : folder;
}

/** A folder's path with forward slashes, ending in one (the form relativeToConfig takes for a folder). */
function asFolder(path: string): string {
  const p = path.replace(/\\/g, '/');
  return p.endsWith('/') ? p : `${p}/`;
}

/**
 * `path` relative to the folder of `base` (relativeToConfig) when it is inside; outside it, without the leading
 * folders it shares with that folder: /home/dev/tests/other/db/load.sql beside /home/dev/tests/shop/ is
 * other/db/load.sql.
 */
function belowSharedFolders(path: string, base: string | undefined): string {
  const relative = relativeToConfig(path, base);
  const file = path.replace(/\\/g, '/');
  if (base === undefined || !/^([a-zA-Z]:)?\//.test(file) || file.startsWith(folderOf(base))) return relative;
  const folders = folderOf(base).split('/');
  const parts = file.split('/');
  let shared = 0;
  while (shared < parts.length - 1 && shared < folders.length && parts[shared] === folders[shared]) shared++;
  return parts.slice(shared).join('/');
}

/** The folder of a configuration file's path (or of a folder's path ending in a slash), with forward slashes and the slash. */
function folderOf(path: string): string {
  const p = path.replace(/\\/g, '/');
  return p.slice(0, p.lastIndexOf('/') + 1);
}

/** `path` relative to the folder of the configuration file, with forward slashes (a relative path for "ignore"). */
function relativeToConfig(path: string, configPath: string | undefined): string {
  const file = path.replace(/\\/g, '/');
  const dir = configPath ? folderOf(configPath) : '';
  const rel = dir && file.startsWith(dir) ? file.slice(dir.length) : file;
  return rel.replace(/^([a-zA-Z]:)?\/+/, '');
}

/** The language of a path by its extension (exact case first: .sqC differs from .sqc). */
export function languageOf(path: string, config: ResolvedConfig): FileLanguage | undefined {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const dot = path.lastIndexOf('.');
  if (dot <= slash) return undefined;
  const ext = path.slice(dot);
  return config.languages[ext] ?? config.languages[ext.toLowerCase()];
}
