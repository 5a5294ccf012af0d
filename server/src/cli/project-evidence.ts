// Project evidence that a SQLAlchemy application runs on Db2, found on disk for the CLI and the language server (the
// engine does not look at the disk): a Db2 SQLAlchemy URL (`db2+ibm_db://…`) in a configuration file (.env, *.ini,
// *.cfg, *.toml, *.yaml, config.py, settings.py) or in a Python file of the run, or ibm_db_sa among the project's
// requirements (requirements*.txt, pyproject.toml, setup.py, setup.cfg, Pipfile). The answer is the projects' top
// folders (FrontEndOptions.sqlalchemyDb2Folders): a Python file under one that uses SQLAlchemy or Flask-SQLAlchemy is
// read though it names no driver (a model or loader module; its application keeps the URL in configuration).
//
// Cheap: only the folders from a file that uses SQLAlchemy up to its project's top are listed (once each per run),
// and of their files only those named like configuration or requirements, of 256 KB at most, are read. A project's
// top is the nearest folder up that holds a .git or a file of requirements; without one, the walk stops after 12
// folders and the evidence covers the folder it was found in.
//
// The language server looks again when a watched file changes (lsp/disk-files.ts): it hands the looks a
// RememberedLook, which keeps each source file's part while its text stays the same and what the disk showed until
// told that a file or folder changed (forget), so that a save re-reads only what it can have changed.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { REQUIREMENT_FILE, SEQUELIZE_DB2, sequelizeDb2Evidence, sqlalchemyDb2Evidence, usesSequelizeModels, usesSqlalchemy } from '../code/access';
import { DJANGO_SETTINGS_FILE, djangoDb2Evidence, usesDjango, type DjangoProject } from '../code/languages/python-django-project';
import { HIBERNATE_CONFIG_FILE, hibernateBatchSizeIn, mybatisBatchIn, type HibernateBatching } from '../code/hibernate-config';

const PROJECT_TOP = /^(?:\.git|requirements\.txt|pyproject\.toml|setup\.py|setup\.cfg|Pipfile)$/;
const CONFIGURATION = /^(?:\.env(?:\.[\w.-]+)?|[\w.-]+\.(?:env|ini|cfg|conf|toml|ya?ml)|[\w-]*(?:config|settings)\.py)$/i;
const MAX_BYTES = 256 * 1024;
const MAX_FILES_PER_FOLDER = 40;
const MAX_LEVELS = 12;

/** How the looks read the disk (a RememberedLook keeps what they read between the language server's looks). */
export interface EvidenceDisk {
  /** A folder's names, sorted; none when it cannot be listed. */
  list(dir: string): string[];
  /** A file's text when it is a file of 256 KB at most, else undefined. */
  read(path: string): string | undefined;
  isFile(path: string): boolean;
}

/**
 * What one source file brings to a look: its folder, to look from up to its project's top, and `db2`, why the file
 * itself shows Db2 (a Db2 SQLAlchemy URL, Sequelize made for Db2), worded with its path. Undefined: nothing.
 */
export interface FilePart {
  dir: string;
  db2?: string;
  /** Django: the settings that show Db2 also set ATOMIC_REQUESTS (DjangoProject.atomicRequests). */
  atomicRequests?: boolean;
}

export type PartOf = (path: string, text: string) => FilePart | undefined;

/** What a look reads: the disk, and each source file's part. */
export interface LookInputs {
  readonly disk: EvidenceDisk;
  part(of: PartOf, path: string, text: string): FilePart | undefined;
}

/** The disk as it is, and every file's part worked out: one run of the CLI. */
const AS_IS: LookInputs = {
  disk: { list: listed, read: readSmall, isFile },
  part: (of, path, text) => of(path, text),
};

/**
 * The looks of a language server (lsp/disk-files.ts): each source file's part is kept while its text stays the same,
 * and each folder's names, each file's text and whether a path is a file are kept until forget() is told that the
 * path, a folder above it or a file in it changed. A look over unchanged inputs then reads nothing again and finds
 * what a look as it is would. Only the file .sequelizerc points to is read each time (it may be any file, which no
 * watcher need cover).
 */
export class RememberedLook implements LookInputs {
  private readonly parts = new Map<PartOf, Map<string, { text: string; part: FilePart | undefined }>>();
  private readonly names = new Map<string, string[]>();
  private readonly texts = new Map<string, string | undefined>();
  private readonly files = new Map<string, boolean>();

  constructor(private readonly base: EvidenceDisk = AS_IS.disk) {}

  readonly disk: EvidenceDisk = {
    list: (dir) => remembered(this.names, dir, () => this.base.list(dir)),
    read: (path) => remembered(this.texts, path, () => this.base.read(path)),
    isFile: (path) => remembered(this.files, path, () => this.base.isFile(path)),
  };

  part(of: PartOf, path: string, text: string): FilePart | undefined {
    let byPath = this.parts.get(of);
    if (!byPath) this.parts.set(of, (byPath = new Map()));
    const known = byPath.get(path);
    if (known?.text === text) return known.part;
    const part = of(path, text);
    byPath.set(path, { text, part });
    return part;
  }

  /**
   * A file or folder changed, came or went: what the disk showed of it, of what lies under it (a folder), and the names
   * of the folder it is in, are read again by the next look; a source file's part is worked out again if its text
   * changed.
   */
  forget(path: string): void {
    const under = path.endsWith(sep) ? path : path + sep;
    for (const known of [this.names, this.texts, this.files]) {
      for (const key of known.keys()) if (key === path || key.startsWith(under)) known.delete(key);
    }
    this.names.delete(dirname(path));
    for (const byPath of this.parts.values()) byPath.delete(path);
  }

  /** Everything read again (an index pass, "Lint workspace"). */
  clear(): void {
    for (const known of [this.parts, this.names, this.texts, this.files]) known.clear();
  }
}

function remembered<T>(known: Map<string, T>, key: string, read: () => T): T {
  if (known.has(key)) return known.get(key) as T;
  const value = read();
  known.set(key, value);
  return value;
}

interface FolderLook {
  /** The folder holds a .git or a file of requirements. */
  top: boolean;
  /** Why its files show Db2 as SQLAlchemy's database. */
  evidence?: string;
}

/** Reads folders for evidence, each once (a finder lives for one run, or one look of the language server). */
class ProjectEvidenceFinder {
  private readonly looked = new Map<string, FolderLook>();

  constructor(private readonly disk: EvidenceDisk) {}

  private look(dir: string): FolderLook {
    const known = this.looked.get(dir);
    if (known) return known;
    const found: FolderLook = { top: false };
    this.looked.set(dir, found);
    let read = 0;
    for (const name of this.disk.list(dir)) {
      if (PROJECT_TOP.test(name)) found.top = true;
      if (found.evidence || read >= MAX_FILES_PER_FOLDER || !(REQUIREMENT_FILE.test(name) || CONFIGURATION.test(name))) continue;
      const path = join(dir, name);
      const text = this.disk.read(path);
      if (text === undefined) continue;
      read++;
      const why = sqlalchemyDb2Evidence(name, text);
      if (why) found.evidence = `${why} (${path})`;
    }
    return found;
  }

  /** From a folder up to its project's top: the top, and the first evidence on the way. */
  walk(start: string): { top: string; evidence?: string; at?: string } {
    let evidence: string | undefined;
    let at: string | undefined;
    let dir = start;
    for (let level = 0; level < MAX_LEVELS; level++) {
      const look = this.look(dir);
      if (look.evidence && !evidence) {
        evidence = look.evidence;
        at = dir;
      }
      if (look.top) return { top: dir, evidence, at };
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
    // No project top found: the evidence covers the folder it is in (never a whole disk).
    return { top: at ?? start, evidence, at };
  }
}

/**
 * A Python file's part in the SQLAlchemy look: a Db2 SQLAlchemy URL in it (config.py, the app factory), or a use of
 * SQLAlchemy (its folder is looked at up to its project's top).
 */
export const sqlalchemyPart: PartOf = (path, text) => {
  if (!path.endsWith('.py') && !path.endsWith('.pyw')) return undefined;
  const why = sqlalchemyDb2Evidence(basename(path), text);
  if (why) return { dir: dirname(path), db2: `${why} (${path})` };
  return usesSqlalchemy(text) ? { dir: dirname(path) } : undefined;
};

/**
 * The top folders of the projects of `files` (a run's, or the language server's workspace) that show Db2 as
 * SQLAlchemy's database, each with why: a Python file among them with a Db2 SQLAlchemy URL (config.py, the app
 * factory), or evidence on disk from the folder of a Python file that uses SQLAlchemy up to its project's top.
 */
export function sqlalchemyDb2Folders(files: Iterable<{ path: string; text: string }>, inputs: LookInputs = AS_IS): Map<string, string> {
  const finder = new ProjectEvidenceFinder(inputs.disk);
  const found = new Map<string, string>();
  const users = new Set<string>();
  for (const { path, text } of files) {
    const part = inputs.part(sqlalchemyPart, path, text);
    if (part?.db2) {
      const { top } = finder.walk(part.dir);
      if (!found.has(top)) found.set(top, part.db2);
    } else if (part) users.add(part.dir);
  }
  for (const dir of users) {
    const { top, evidence } = finder.walk(dir);
    if (evidence && !found.has(top)) found.set(top, evidence);
  }
  return found;
}

// ---- Django on Db2 in a Python project (FrontEndOptions.djangoDb2Folders) -----------------------------------------

/** A Django project's top: the folder of manage.py, else the nearest with a .git or a file of requirements. */
const DJANGO_TOP = /^manage\.py$/;
const SKIPPED_FOLDERS = /^(?:\.|node_modules$|__pycache__$|venv$|env$|site-packages$|static$|media$|templates$|migrations$)/;

/** A Python file's part in the Django look: ibm_db_django as ENGINE in it (settings.py of the run), or a use of Django. */
export const djangoPart: PartOf = (path, text) => {
  if (!path.endsWith('.py')) return undefined;
  const said = djangoDb2Evidence(basename(path), text);
  if (said) return { dir: dirname(path), db2: `${said.why} (${path})`, ...(said.atomicRequests ? { atomicRequests: true } : {}) };
  return usesDjango(text) ? { dir: dirname(path) } : undefined;
};

/**
 * The top folders of the Django projects of `files` that show Db2 as their database (ibm_db_django as ENGINE), each
 * with why and whether the settings set ATOMIC_REQUESTS: a Python file of the run that says so (settings.py), or, for
 * a file that uses Django, its project's settings on disk: settings.py, *settings.py and .env files of the project's
 * top (manage.py's folder, else the nearest up with a .git or requirements, else the file's own), of each folder
 * just under it, and the modules of a settings/ package there (mysite/settings.py, config/settings/production.py).
 */
export function djangoDb2Folders(files: Iterable<{ path: string; text: string }>, inputs: LookInputs = AS_IS): Map<string, DjangoProject> {
  const found = new Map<string, DjangoProject>();
  const tops = new Map<string, string>();
  const topOf = (start: string): string => {
    let top = tops.get(start);
    if (top === undefined) {
      const names = (dir: string) => inputs.disk.list(dir);
      top = nearestUp(start, (dir) => names(dir).some((n) => DJANGO_TOP.test(n))) ?? nearestUp(start, (dir) => names(dir).some((n) => PROJECT_TOP.test(n))) ?? start;
      tops.set(start, top);
    }
    return top;
  };
  const users = new Set<string>();
  for (const { path, text } of files) {
    const part = inputs.part(djangoPart, path, text);
    if (part?.db2) {
      const top = topOf(part.dir);
      if (!found.has(top)) found.set(top, part.atomicRequests ? { why: part.db2, atomicRequests: true } : { why: part.db2 });
    } else if (part) users.add(part.dir);
  }
  const looked = new Set<string>();
  for (const dir of users) {
    const top = topOf(dir);
    if (found.has(top) || looked.has(top)) continue;
    looked.add(top);
    const said = readDjangoSettings(top, inputs.disk);
    if (said) found.set(top, said);
  }
  return found;
}

/** What a Django project's settings on disk say of Db2 (djangoDb2Folders): the first that names ibm_db_django. */
function readDjangoSettings(top: string, disk: EvidenceDisk): DjangoProject | undefined {
  const folders = [top];
  let listed = 0;
  for (const name of disk.list(top)) {
    if (SKIPPED_FOLDERS.test(name) || name.includes('.') || listed >= MAX_FILES_PER_FOLDER) continue;
    const dir = join(top, name);
    if (disk.isFile(dir)) continue;
    listed++;
    folders.push(dir, join(dir, 'settings'));
  }
  for (const dir of folders) {
    let read = 0;
    const settingsPackage = basename(dir) === 'settings' && dir !== top;
    for (const name of disk.list(dir)) {
      if (!(DJANGO_SETTINGS_FILE.test(name) || (settingsPackage && name.endsWith('.py'))) || read >= MAX_FILES_PER_FOLDER) continue;
      const path = join(dir, name);
      const text = disk.read(path);
      if (text === undefined) continue;
      read++;
      const said = djangoDb2Evidence(name, text);
      if (said) return { ...said, why: `${said.why} (${path})` };
    }
  }
  return undefined;
}

// ---- Hibernate's batching in a Java project (FrontEndOptions.hibernateBatching) ----------------------------------

/** A Java project's top: the nearest folder up that holds a build file (Maven, Gradle) or a .git. */
const JAVA_PROJECT_TOP = /^(?:pom\.xml|build\.gradle(?:\.kts)?|settings\.gradle(?:\.kts)?|build\.xml|\.git)$/;
/** Where a project's configuration lies, below its top (the class path's resources, Spring Boot's ./config). */
const JAVA_CONFIG_FOLDERS = ['', 'config', 'src/main/resources', 'src/main/resources/META-INF', 'src/main/resources/config', 'src/main/webapp/WEB-INF/classes', 'src/main/webapp/WEB-INF/classes/META-INF'];
/** A Java file of a JPA / Hibernate / Spring Data or MyBatis application (the files the ORM readings read). */
const JAVA_ORM_FILE = /\b(?:javax|jakarta)\.persistence\b|\borg\.hibernate\b|\borg\.springframework\.data\b|\borg\.apache\.ibatis\b|\b[Mm]y[Bb]atis\b/;

/** A Java file's part in the Hibernate look: a JPA / Hibernate / Spring Data file's folder. */
export const hibernatePart: PartOf = (path, text) => (path.endsWith('.java') && JAVA_ORM_FILE.test(text) ? { dir: dirname(path) } : undefined);

/** Hibernate's batching by the projects' top folders: the Java files' projects whose configuration was found. */
export function hibernateBatchingFolders(files: Iterable<{ path: string; text: string }>, inputs: LookInputs = AS_IS): Map<string, HibernateBatching> {
  const found = new Map<string, HibernateBatching>();
  const tops = new Map<string, string | null>();
  const looked = new Map<string, string[]>();
  const list = (dir: string): string[] => {
    let names = looked.get(dir);
    if (!names) looked.set(dir, (names = inputs.disk.list(dir)));
    return names;
  };
  for (const { path, text } of files) {
    const part = inputs.part(hibernatePart, path, text);
    if (!part) continue;
    const start = part.dir;
    if (tops.has(start)) continue;
    // Up to the project's top; without one (a lone file), the file's own folder.
    const top = nearestUp(start, (dir) => list(dir).some((n) => JAVA_PROJECT_TOP.test(n)));
    tops.set(start, top);
    const root = top ?? start;
    if (found.has(root)) continue;
    const config = readHibernateConfiguration(root, list, inputs.disk);
    if (config) found.set(root, config);
  }
  return found;
}

/** What the configuration files under a project's top say, combined: set anywhere wins (precision first). */
function readHibernateConfiguration(top: string, list: (dir: string) => string[], disk: EvidenceDisk): HibernateBatching | undefined {
  let first: string | undefined;
  let size: number | null = null;
  let sizeFile: string | undefined;
  let mybatis: string | undefined;
  for (const folder of JAVA_CONFIG_FOLDERS) {
    const dir = folder ? join(top, ...folder.split('/')) : top;
    let read = 0;
    // application.properties before application-dev.properties: a message names the main file.
    const names = list(dir).filter((n) => HIBERNATE_CONFIG_FILE.test(n)).sort((a, b) => Number(a.includes('-')) - Number(b.includes('-')) || (a < b ? -1 : 1));
    for (const name of names) {
      if (!HIBERNATE_CONFIG_FILE.test(name) || read >= MAX_FILES_PER_FOLDER) continue;
      const text = disk.read(join(dir, name));
      if (text === undefined) continue;
      read++;
      const shown = folder ? `${folder}/${name}` : name;
      // (MyBatis's executor, in a Spring Boot file: java-mybatis.ts.)
      if (mybatis === undefined && mybatisBatchIn(name, text)) mybatis = shown;
      const said = hibernateBatchSizeIn(name, text);
      if (!said) continue;
      first ??= shown;
      if (said.batchSize !== null && (size === null || said.batchSize > size)) {
        size = said.batchSize;
        sizeFile = shown;
      }
    }
  }
  const batch = mybatis !== undefined ? { mybatisBatch: mybatis } : {};
  if (first === undefined) return mybatis !== undefined ? { file: mybatis, mybatisOnly: true, ...batch } : undefined;
  return size === null ? { file: first, ...batch } : { file: sizeFile ?? first, batchSize: size, ...batch };
}

// ---- Sequelize on Db2 in a JavaScript/TypeScript project (FrontEndOptions.sequelizeDb2Folders) --------------------

const JS_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/i;
/** Files of a Sequelize configuration in a project's config folder (sequelize-cli's config/config.json, database.js …). */
const SEQUELIZE_CONFIG_FILE = /^[\w.-]{1,100}\.(?:json|[cm]?[jt]s|ya?ml)$/i;
const ENV_FILE = /^\.env(?:\.[\w.-]+)?$/;

/** A JavaScript/TypeScript file's part in the Sequelize look: Sequelize made for Db2 in it, or a use of models. */
export const sequelizePart: PartOf = (path, text) => {
  if (!JS_FILE.test(path)) return undefined;
  const made = SEQUELIZE_DB2.exec(text);
  if (made) return { dir: dirname(path), db2: `${made[0].trim()} in ${path}` };
  return usesSequelizeModels(text) ? { dir: dirname(path) } : undefined;
};

/**
 * The top folders (where their package.json lies) of the JavaScript/TypeScript projects of `files` that show Db2 as
 * Sequelize's database, each with why: @sequelize/db2, @sequelize/db2-ibmi or sequelize-ibmi among package.json's
 * dependencies; a Sequelize configuration that says db2 (`"dialect": "db2"` or a `db2://` URL in config/*, the config
 * .sequelizerc points to, `DB_DIALECT=db2` or a db2:// URL in .env); a file of the run that makes Sequelize for Db2
 * (models/index.js with `dialect: 'db2'`); or ibm_db and sequelize in package.json when no configuration names another
 * dialect. Only projects of files that use Sequelize models (code/access.ts usesSequelizeModels) or make Sequelize
 * for Db2 are looked at; a file with no package.json above it (12 folders at most) has no project.
 */
export function sequelizeDb2Folders(files: Iterable<{ path: string; text: string }>, inputs: LookInputs = AS_IS): Map<string, string> {
  const found = new Map<string, string>();
  const tops = new Map<string, string | null>();
  const looked = new Set<string>();
  const topOf = (start: string): string | null => {
    const known = tops.get(start);
    if (known !== undefined) return known;
    const top = nearestUp(start, (dir) => inputs.disk.isFile(join(dir, 'package.json')));
    tops.set(start, top);
    return top;
  };
  for (const { path, text } of files) {
    const part = inputs.part(sequelizePart, path, text);
    if (!part) continue;
    const top = topOf(part.dir);
    if (top === null || found.has(top)) continue;
    if (part.db2) {
      found.set(top, part.db2);
      continue;
    }
    if (looked.has(top)) continue;
    looked.add(top);
    const why = readSequelizeConfiguration(top, inputs.disk);
    if (why) found.set(top, why);
  }
  return found;
}

/**
 * Whether a change of the file at `path` (or its coming or going) can change what the looks find: a source file they
 * take a part of, or a file whose name they list or read (a project's top, requirements, configuration, package.json,
 * .sequelizerc, config/*, persistence.xml, application.properties …).
 */
export function mayChangeEvidence(path: string): boolean {
  const name = basename(path);
  const folder = basename(dirname(path));
  return (
    /\.(?:pyw?|java)$/.test(name) ||
    JS_FILE.test(name) ||
    PROJECT_TOP.test(name) ||
    REQUIREMENT_FILE.test(name) ||
    CONFIGURATION.test(name) ||
    JAVA_PROJECT_TOP.test(name) ||
    HIBERNATE_CONFIG_FILE.test(name) ||
    ENV_FILE.test(name) ||
    name === 'package.json' ||
    name === '.sequelizerc' ||
    (folder === 'config' && SEQUELIZE_CONFIG_FILE.test(name))
  );
}

// No such file is the common answer (a package.json looked for in each folder up): told without an exception.
function isFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}

function readSmall(path: string): string | undefined {
  try {
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat?.isFile() && stat.size <= MAX_BYTES ? readFileSync(path, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

function listed(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** What a project's top says of Sequelize's database: why it is Db2, else undefined (another dialect, or nothing). */
function readSequelizeConfiguration(top: string, disk: EvidenceDisk): string | undefined {
  const paths: string[] = [join(top, 'package.json')];
  for (const name of disk.list(top)) if (ENV_FILE.test(name)) paths.push(join(top, name));
  // .sequelizerc: config: path.resolve('config', 'database.json') (strings joined from the top).
  const rc = disk.read(join(top, '.sequelizerc'));
  let pointedTo: string | undefined;
  const pointed = rc ? /['"]?config['"]?\s{0,40}:\s{0,40}path\s{0,40}\.\s{0,40}(?:resolve|join)\s{0,40}\(([^()]{0,500})\)/.exec(rc) : null;
  if (pointed) {
    const parts = [...pointed[1].matchAll(/['"`]([^'"`\n]{1,200})['"`]/g)].map((m) => m[1]);
    if (parts.length > 0) paths.push((pointedTo = resolve(top, ...parts)));
  }
  let read = 0;
  for (const name of disk.list(join(top, 'config'))) {
    if (SEQUELIZE_CONFIG_FILE.test(name) && read++ < MAX_FILES_PER_FOLDER) paths.push(join(top, 'config', name));
  }
  let driver: string | undefined;
  let other = false;
  for (const path of [...new Set(paths)]) {
    // The file .sequelizerc points to is read as it is: it may be any file, whose changes no watcher need report.
    const text = path === pointedTo ? readSmall(path) : disk.read(path);
    if (text === undefined) continue;
    const said = sequelizeDb2Evidence(basename(path), text);
    if (said?.kind === 'db2') return `${said.why} (${path})`;
    if (said?.kind === 'driver') driver = `${said.why} (${path})`;
    if (said?.kind === 'other') other = true;
  }
  // ibm_db beside sequelize: Db2's dialect, unless the configuration names another one.
  return other ? undefined : driver;
}

/** The nearest folder from `start` up (MAX_LEVELS at most) that `isTop` accepts, or null. */
function nearestUp(start: string, isTop: (dir: string) => boolean): string | null {
  for (let dir = start, level = 0; level < MAX_LEVELS; level++) {
    if (isTop(dir)) return dir;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}
