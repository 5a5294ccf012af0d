// Project evidence that a SQLAlchemy application runs on Db2, found on disk for the CLI and the language server (the
// engine does not look at the disk): a Db2 SQLAlchemy URL (`db2+ibm_db://…`) in a configuration file (.env, *.ini,
// *.cfg, *.toml, *.yaml, config.py, settings.py) or in a Python file of the run, or ibm_db_sa among the project's
// requirements (requirements*.txt, pyproject.toml, setup.py, setup.cfg, Pipfile). The answer is the projects' top
// folders (FrontEndOptions.sqlalchemyDb2Folders): a Python file under one that uses SQLAlchemy or Flask-SQLAlchemy is
// read though it names no driver (a model or loader module; its application keeps the URL in configuration).
//
// The same look tells whether a SQLAlchemy project's sessions autoflush (FrontEndOptions.sqlalchemyAutoflushOff): the
// session factories its Python files of the run build, and those its session modules on disk build (database.py,
// db/session.py, core/db.py …, code/sqlalchemy-sessions.ts): a session a module does not build itself (a parameter,
// FastAPI's Depends(get_db)) does not autoflush where every one of them turns autoflush off.
//
// Cheap: only the folders from a file that uses SQLAlchemy up to its project's top are listed (once each per run),
// and of their files only those named like configuration or requirements, of 256 KB at most, are read. A project's
// top is the nearest folder up that holds a .git or a file of requirements; without one, the walk stops after 12
// folders and the evidence covers the folder it was found in.
//
// Java projects are looked at the same way for Hibernate's batching and MyBatis's executor (hibernateBatchingFolders)
// and for MyBatis's mapper XML files (mybatisMapperStatements): XML files are evidence here, never linted.
//
// The language server looks again when a watched file changes (lsp/disk-files.ts): it hands the looks a
// RememberedLook, which keeps each source file's part while its text stays the same and what the disk showed until
// told that a file or folder changed (forget), so that a save re-reads only what it can have changed.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { REQUIREMENT_FILE, SEQUELIZE_DB2, sequelizeDb2Evidence, sqlalchemyDb2Evidence, usesSequelizeModels, usesSqlalchemy } from '../code/access';
import { DJANGO_SETTINGS_FILE, djangoDb2Evidence, usesDjango, type DjangoProject } from '../code/languages/python-django-project';
import { HIBERNATE_CONFIG_FILE, hibernateBatchSizeIn, mybatisBatchIn, poolAutocommitOffIn, type HibernateBatching } from '../code/hibernate-config';
import { MAPPER_XML, mapperXmlInserts, MYBATIS_CONFIG_FILE, mybatisConfigBatch } from '../code/mybatis-xml';
import { MAPPER_VARIABLE } from '../code/languages/java-mybatis';
import { sessionFactoriesIn, type SessionFactories } from '../code/sqlalchemy-sessions';

const PROJECT_TOP = /^(?:\.git|requirements\.txt|pyproject\.toml|setup\.py|setup\.cfg|Pipfile)$/;
const CONFIGURATION = /^(?:\.env(?:\.[\w.-]+)?|[\w.-]+\.(?:env|ini|cfg|conf|toml|ya?ml)|[\w-]*(?:config|settings)\.py)$/i;
/** Python modules that usually build an application's sessions (database.py, db/session.py, core/db.py, Flask's extensions.py …). */
const SESSION_MODULE = /^(?:database|db|db_session|session|sessions|deps|dependencies|extensions|engine|base|models|__init__|app|main|[\w-]*(?:config|settings))\.py$/i;
/** Sub-folders of a folder on the way up whose session modules are read too (app/db/session.py, app/core/db.py). */
const SESSION_FOLDERS: ReadonlySet<string> = new Set(['db', 'database', 'core']);
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
  /** The SQLAlchemy session factories and constructors the file builds (a Python file's; code/sqlalchemy-sessions.ts). */
  sessions?: SessionFactories;
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
  /** The session factories its session modules (and those of its db/, database/, core/ folders) build, with their paths. */
  sessions?: [string, SessionFactories][];
}

/** A session module's part (sqlalchemyPart's, kept apart from a file of the run's by the look: see sessionModule). */
const sessionModulePart: PartOf = (path, text) => sqlalchemyPart(path, text);

/** Reads folders for evidence, each once (a finder lives for one run, or one look of the language server). */
class ProjectEvidenceFinder {
  private readonly looked = new Map<string, FolderLook>();
  private readonly disk: EvidenceDisk;

  constructor(private readonly inputs: LookInputs) {
    this.disk = inputs.disk;
  }

  look(dir: string): FolderLook {
    const known = this.looked.get(dir);
    if (known) return known;
    const found: FolderLook = { top: false };
    this.looked.set(dir, found);
    let read = 0;
    let modules = 0;
    for (const name of this.disk.list(dir)) {
      if (PROJECT_TOP.test(name)) found.top = true;
      if (SESSION_FOLDERS.has(name)) {
        const sub = join(dir, name);
        let inSub = 0;
        for (const n of this.disk.list(sub)) if (inSub < MAX_FILES_PER_FOLDER && SESSION_MODULE.test(n) && this.sessionModule(join(sub, n), found)) inSub++;
      } else if (modules < MAX_FILES_PER_FOLDER && SESSION_MODULE.test(name) && this.sessionModule(join(dir, name), found)) modules++;
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

  /**
   * The session factories a session module on disk builds, into the folder's look; whether it could be read. Its part
   * is kept by the look's inputs (a RememberedLook works it out again only when its text changed), apart from the part
   * of a file of the run of the same path, whose text may differ (an editor's unsaved one).
   */
  private sessionModule(path: string, into: FolderLook): boolean {
    const text = this.disk.read(path);
    if (text === undefined) return false;
    const sessions = this.inputs.part(sessionModulePart, path, text)?.sessions;
    if (sessions) (into.sessions ??= []).push([path, sessions]);
    return true;
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
 * SQLAlchemy (its folder is looked at up to its project's top); and the session factories it builds.
 */
export const sqlalchemyPart: PartOf = (path, text) => {
  if (!path.endsWith('.py') && !path.endsWith('.pyw')) return undefined;
  const why = sqlalchemyDb2Evidence(basename(path), text);
  const uses = usesSqlalchemy(text);
  if (!why && !uses) return undefined;
  const sessions = uses ? sessionFactoriesIn(text) : undefined;
  return { dir: dirname(path), ...(why ? { db2: `${why} (${path})` } : {}), ...(sessions ? { sessions } : {}) };
};

/** Whether a SQLAlchemy project's sessions autoflush (FrontEndOptions.sqlalchemyAutoflushOff), and why. */
export interface AutoflushEvidence {
  /** Every session factory and constructor found sets autoflush off. */
  off: boolean;
  /** The factory that decides (the first one left on, else the first one off), with its path. */
  why: string;
}

/** What the SQLAlchemy look finds, by project top: Db2 as the database (why), and whether the sessions autoflush. */
export interface SqlalchemyEvidence {
  db2: Map<string, string>;
  autoflush: Map<string, AutoflushEvidence>;
}

/**
 * The top folders of the projects of `files` (a run's, or the language server's workspace) that show Db2 as
 * SQLAlchemy's database, each with why: a Python file among them with a Db2 SQLAlchemy URL (config.py, the app
 * factory), or evidence on disk from the folder of a Python file that uses SQLAlchemy up to its project's top.
 */
export function sqlalchemyDb2Folders(files: Iterable<{ path: string; text: string }>, inputs: LookInputs = AS_IS): Map<string, string> {
  return sqlalchemyEvidence(files, inputs).db2;
}

/**
 * The SQLAlchemy look (sqlalchemyDb2Folders), and whether each project's sessions autoflush: the session factories and
 * constructors (sessionmaker, Session, Flask-SQLAlchemy's SQLAlchemy) its Python files of `files` build, and those its
 * session modules on disk build (database.py, db.py, session.py, deps.py, extensions.py, __init__.py … in the folders
 * from a file that uses SQLAlchemy up to the project's top, and in their db/, database/ and core/ folders; a file of
 * `files` is taken as its text there, not on disk). A project that builds none is absent.
 */
export function sqlalchemyEvidence(files: Iterable<{ path: string; text: string }>, inputs: LookInputs = AS_IS): SqlalchemyEvidence {
  const finder = new ProjectEvidenceFinder(inputs);
  const walks = new Map<string, ReturnType<ProjectEvidenceFinder['walk']>>();
  const walk = (dir: string) => {
    let walked = walks.get(dir);
    if (!walked) walks.set(dir, (walked = finder.walk(dir)));
    return walked;
  };
  const found = new Map<string, string>();
  const users = new Set<string>();
  const autoflush = new AutoflushLook();
  for (const { path, text } of files) {
    const part = inputs.part(sqlalchemyPart, path, text);
    if (!part) continue;
    const { top } = walk(part.dir);
    autoflush.ofRun(top, path, part.sessions);
    if (part.db2) {
      if (!found.has(top)) found.set(top, part.db2);
    } else users.add(part.dir);
  }
  for (const dir of users) {
    const { top, evidence } = walk(dir);
    if (evidence && !found.has(top)) found.set(top, evidence);
  }
  // The session modules on disk in the folders from the files' up to their tops (each folder once).
  for (const [dir, { top }] of walks) autoflush.onDisk(finder, dir, top);
  return { db2: found, autoflush: autoflush.byTop() };
}

/**
 * Whether each project's sessions autoflush: the session factories its files of the run build, and those of its
 * session modules on disk (in the folders from theirs up to its top) that are not files of the run.
 */
class AutoflushLook {
  /** By top: the first factory left on and the first turned off, by path (the message names the first). */
  private readonly tops = new Map<string, { on?: [string, string]; off?: [string, string] }>();
  private readonly folders = new Set<string>();
  /** The files of the run named like a session module (the only ones a session module on disk can be). */
  private readonly runModules = new Set<string>();

  ofRun(top: string, path: string, sessions: SessionFactories | undefined): void {
    if (SESSION_MODULE.test(basename(path))) this.runModules.add(path);
    if (sessions) this.note(top, path, sessions);
  }

  onDisk(finder: ProjectEvidenceFinder, dir: string, top: string): void {
    if (dir !== top && !dir.startsWith(top.endsWith(sep) ? top : top + sep)) return;
    for (let d = dir, level = 0; level < MAX_LEVELS && !this.folders.has(d); level++) {
      this.folders.add(d);
      // (A file of the run is taken as its text there.)
      for (const [path, sessions] of finder.look(d).sessions ?? []) if (!this.runModules.has(path)) this.note(top, path, sessions);
      const up = dirname(d);
      if (d === top || up === d) break;
      d = up;
    }
  }

  private note(top: string, path: string, sessions: SessionFactories): void {
    let t = this.tops.get(top);
    if (!t) this.tops.set(top, (t = {}));
    if (sessions.on && (!t.on || path < t.on[0])) t.on = [path, sessions.on];
    if (sessions.off && (!t.off || path < t.off[0])) t.off = [path, sessions.off];
  }

  byTop(): Map<string, AutoflushEvidence> {
    const autoflush = new Map<string, AutoflushEvidence>();
    for (const [top, t] of this.tops) {
      if (t.on) autoflush.set(top, { off: false, why: `${t.on[1]} (${t.on[0]})` });
      else if (t.off) autoflush.set(top, { off: true, why: `${t.off[1]} (${t.off[0]})` });
    }
    return autoflush;
  }
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
const JAVA_CONFIG_FOLDERS = ['', 'config', 'src/main/resources', 'src/main/resources/META-INF', 'src/main/resources/config', 'src/main/resources/mybatis', 'src/main/webapp/WEB-INF/classes', 'src/main/webapp/WEB-INF/classes/META-INF'];
/**
 * A Java file of a JPA / Hibernate / Spring Data or MyBatis application (the files the ORM readings read), or one that
 * gets JDBC connections from a DataSource (the pool's configured autocommit: java.ts getConnection).
 */
const JAVA_ORM_FILE = /\b(?:javax|jakarta)\.persistence\b|\borg\.hibernate\b|\borg\.springframework\.data\b|\borg\.apache\.ibatis\b|\b[Mm]y[Bb]atis\b|\bDataSource\b/;

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
  let poolOff: string | undefined;
  for (const folder of JAVA_CONFIG_FOLDERS) {
    const dir = folder ? join(top, ...folder.split('/')) : top;
    let read = 0;
    // application.properties before application-dev.properties: a message names the main file.
    const names = list(dir).filter((n) => HIBERNATE_CONFIG_FILE.test(n) || MYBATIS_CONFIG_FILE.test(n)).sort((a, b) => Number(a.includes('-')) - Number(b.includes('-')) || (a < b ? -1 : 1));
    for (const name of names) {
      if (read >= MAX_FILES_PER_FOLDER) continue;
      const text = disk.read(join(dir, name));
      if (text === undefined) continue;
      read++;
      const shown = folder ? `${folder}/${name}` : name;
      // (MyBatis's executor, in a Spring Boot file or MyBatis's own configuration: java-mybatis.ts.)
      if (mybatis === undefined && (MYBATIS_CONFIG_FILE.test(name) ? mybatisConfigBatch(text) : mybatisBatchIn(name, text))) mybatis = shown;
      if (!HIBERNATE_CONFIG_FILE.test(name)) continue;
      // (The pool's autocommit off anywhere: a connection got from a DataSource starts with it off. Precision first.)
      if (poolOff === undefined && poolAutocommitOffIn(name, text)) poolOff = shown;
      const said = hibernateBatchSizeIn(name, text);
      if (!said) continue;
      first ??= shown;
      if (said.batchSize !== null && (size === null || said.batchSize > size)) {
        size = said.batchSize;
        sizeFile = shown;
      }
    }
  }
  const batch = { ...(mybatis !== undefined ? { mybatisBatch: mybatis } : {}), ...(poolOff !== undefined ? { poolAutocommitOff: poolOff } : {}) };
  if (first === undefined) return mybatis !== undefined || poolOff !== undefined ? { file: (mybatis ?? poolOff)!, mybatisOnly: true, ...batch } : undefined;
  return size === null ? { file: first, ...batch } : { file: sizeFile ?? first, batchSize: size, ...batch };
}

// ---- MyBatis mapper XML files of a Java project (Workspace.setMybatisStatements) -------------------------------------

/** Folders listed below a project's src/main/resources, and XML files read, per run of the look (bounds). */
const MAX_RESOURCE_FOLDERS = 400;
const MAX_MAPPER_FILES = 2000;
const MAX_RESOURCE_DEPTH = 12;

/** Per language server look (RememberedLook): each mapper XML file's statements, by path, while its text is the same. */
const parsedMappers = new WeakMap<LookInputs, Map<string, { text: string; mapper: ReturnType<typeof mapperXmlInserts> }>>();

/**
 * A Java file's part in the MyBatis mapper look: a file that names MyBatis, holds a variable of a mapper type, or is
 * named like a mapper interface (OrderMapper.java, OrderDao.java: its XML file often lies beside it).
 */
export const mybatisPart: PartOf = (path, text) =>
  path.endsWith('.java') && (/(?:Mapper|Dao|DAO)\.java$/.test(path) || /\borg\.apache\.ibatis\b|\b[Mm]y[Bb]atis\b/.test(text) || MAPPER_VARIABLE.test(text)) ? { dir: dirname(path) } : undefined;

/**
 * The <insert> statements of the MyBatis mapper XML files of the projects of `files` (code/mybatis-xml.ts), by
 * qualified id (`com.acme.mapper.OrderMapper.insertOrder`): the SQL text MyBatis prepares (`#{…}` as `?`), or null
 * for a statement whose text is not settled (a <foreach> of rows, other dynamic SQL, `${…}`). Looked for in each
 * project's src/main/resources, every folder down (the class path's resources: resources/mapper/*.xml,
 * resources/com/acme/mapper/OrderMapper.xml), and in the folders of the MyBatis Java files (an XML file beside its
 * interface); each XML file of 256 KB at most is read once, only one with a `<mapper namespace=…>` is parsed.
 * Bounded: 400 folders below the resources and 2,000 XML files per look.
 */
export function mybatisMapperStatements(files: Iterable<{ path: string; text: string }>, inputs: LookInputs = AS_IS): Map<string, (string | null)[]> {
  const found = new Map<string, (string | null)[]>();
  const dirs = new Set<string>();
  const tops = new Set<string>();
  // (Each folder listed once: a folder up is asked for by each folder below it.)
  const looked = new Map<string, string[]>();
  const list = (dir: string): string[] => {
    let names = looked.get(dir);
    if (!names) looked.set(dir, (names = inputs.disk.list(dir)));
    return names;
  };
  for (const { path, text } of files) {
    const part = inputs.part(mybatisPart, path, text);
    if (!part || dirs.has(part.dir)) continue;
    dirs.add(part.dir);
    const top = nearestUp(part.dir, (dir) => list(dir).some((n) => JAVA_PROJECT_TOP.test(n)));
    if (top) tops.add(top);
  }
  if (dirs.size === 0) return found;
  const xmlFiles = new Set<string>();
  const addXml = (dir: string, names: string[]) => {
    for (const name of names) if (/\.xml$/i.test(name) && xmlFiles.size < MAX_MAPPER_FILES) xmlFiles.add(join(dir, name));
  };
  let folders = 0;
  const walk = (dir: string, depth: number) => {
    if (folders >= MAX_RESOURCE_FOLDERS) return;
    folders++;
    const names = list(dir);
    addXml(dir, names);
    // (A name without a dot is taken for a folder: listing a file gives nothing.)
    if (depth < MAX_RESOURCE_DEPTH) for (const name of names) if (!name.includes('.')) walk(join(dir, name), depth + 1);
  };
  for (const top of [...tops].sort()) walk(join(top, 'src', 'main', 'resources'), 0);
  for (const dir of [...dirs].sort()) addXml(dir, list(dir));
  // (The language server's look keeps each file's statements while its text stays the same: a save parses none again.)
  const parsed = inputs === AS_IS ? undefined : (parsedMappers.get(inputs) ?? new Map<string, { text: string; mapper: ReturnType<typeof mapperXmlInserts> }>());
  if (parsed) parsedMappers.set(inputs, parsed);
  if (parsed) for (const path of parsed.keys()) if (!xmlFiles.has(path)) parsed.delete(path);
  for (const path of xmlFiles) {
    const text = inputs.disk.read(path);
    if (text === undefined) continue;
    const known = parsed?.get(path);
    const mapper = known?.text === text ? known.mapper : MAPPER_XML.test(text) ? mapperXmlInserts(text) : undefined;
    parsed?.set(path, { text, mapper });
    if (!mapper) continue;
    for (const insert of mapper.inserts) {
      const id = `${mapper.namespace}.${insert.id}`;
      const texts = found.get(id);
      if (texts) texts.push(insert.sql ?? null);
      else found.set(id, [insert.sql ?? null]);
    }
  }
  return found;
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
 * .sequelizerc, config/*, persistence.xml, application.properties, a MyBatis mapper XML file or mybatis-config.xml …).
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
    // (MyBatis's mapper XML files and mybatis-config.xml; not a build's copies.)
    (/\.xml$/i.test(name) && !/[\\/](?:target|build|out|bin|node_modules|\.git)[\\/]/.test(path)) ||
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
