// Python projects' evidence (project-evidence.ts): SQLAlchemy on Db2, a Db2 SQLAlchemy URL (`db2+ibm_db://…`) in a
// configuration file (.env, *.ini, *.cfg, *.toml, *.yaml, config.py, settings.py) or in a Python file of the run, or
// ibm_db_sa among the project's requirements (requirements*.txt, pyproject.toml, setup.py, setup.cfg, Pipfile). The
// answer is the projects' top folders (FrontEndOptions.sqlalchemyDb2Folders): a Python file under one that uses
// SQLAlchemy or Flask-SQLAlchemy is read though it names no driver (a model or loader module; its application keeps
// the URL in configuration). A project's top is the nearest folder up that holds a .git or a file of requirements;
// without one, the walk stops after 12 folders and the evidence covers the folder it was found in.
//
// The same look tells whether a SQLAlchemy project's sessions autoflush (FrontEndOptions.sqlalchemyAutoflushOff): the
// session factories its Python files of the run build, and those its session modules on disk build (database.py,
// db/session.py, core/db.py …, code/sqlalchemy-sessions.ts): a session a module does not build itself (a parameter,
// FastAPI's Depends(get_db)) does not autoflush where every one of them turns autoflush off.
//
// Django on Db2: ibm_db_django as ENGINE in the project's settings (FrontEndOptions.djangoDb2Folders).
import { basename, dirname, join, sep } from 'node:path';
import { REQUIREMENT_FILE, sqlalchemyDb2Evidence, usesSqlalchemy } from '../code/access';
import { DJANGO_SETTINGS_FILE, djangoDb2Evidence, usesDjango, type DjangoProject } from '../code/languages/python-django-project';
import { sessionConfiguresIn, sessionFactoriesIn, type SessionFactories } from '../code/sqlalchemy-sessions';
import { AS_IS, MAX_FILES_PER_FOLDER, MAX_LEVELS, nearestUp, type EvidenceDisk, type LookInputs, type PartOf } from './project-evidence';

export const PROJECT_TOP = /^(?:\.git|requirements\.txt|pyproject\.toml|setup\.py|setup\.cfg|Pipfile)$/;
export const CONFIGURATION = /^(?:\.env(?:\.[\w.-]+)?|[\w.-]+\.(?:env|ini|cfg|conf|toml|ya?ml)|[\w-]*(?:config|settings)\.py)$/i;
/** Python modules that usually build an application's sessions (database.py, db/session.py, core/db.py, Flask's extensions.py …). */
const SESSION_MODULE = /^(?:database|db|db_session|session|sessions|deps|dependencies|extensions|engine|base|models|__init__|app|main|[\w-]*(?:config|settings))\.py$/i;
/** Sub-folders of a folder on the way up whose session modules are read too (app/db/session.py, app/core/db.py). */
const SESSION_FOLDERS: ReadonlySet<string> = new Set(['db', 'database', 'core']);

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
  // (A module that only configures another's factory, `SessionLocal.configure(autoflush=False)`, counts for that.)
  if (!why && !uses && !sessionConfiguresIn(text)) return undefined;
  const sessions = uses ? sessionFactoriesIn(text) : sessionConfiguresIn(text);
  return { dir: dirname(path), ...(why ? { db2: `${why} (${path})` } : {}), ...(sessions ? { sessions } : {}), ...(!uses && !why ? { configuresOnly: true } : {}) };
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
    if (part.configuresOnly) continue;
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
 * session modules on disk (in the folders from theirs up to its top) that are not files of the run. A factory's
 * `configure(autoflush=...)` in any of those files (SessionLocal.configure(autoflush=False) in main.py, the factory
 * made in database.py) sets that factory again: off where every configure of its name says False, else on.
 */
class AutoflushLook {
  /** By top: each file's factories, by path. */
  private readonly tops = new Map<string, Map<string, SessionFactories>>();
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
    if (!t) this.tops.set(top, (t = new Map()));
    if (!t.has(path)) t.set(path, sessions);
  }

  byTop(): Map<string, AutoflushEvidence> {
    const autoflush = new Map<string, AutoflushEvidence>();
    for (const [top, files] of this.tops) {
      // The configure calls of the project, by the name configured (False only where every one says False).
      const configured = new Map<string, { off: boolean; why: string }>();
      for (const [path, sessions] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        for (const [name, c] of sessions.configures ?? []) {
          const known = configured.get(name);
          if (!known || (known.off && !c.off)) configured.set(name, { off: c.off, why: `${c.written} in ${path}` });
        }
      }
      let on: [string, string] | undefined;
      let off: [string, string] | undefined;
      for (const [path, sessions] of files) {
        let fileOn = sessions.on;
        let fileOff = sessions.off;
        if (sessions.made && configured.size > 0 && sessions.made.some((f) => f.name !== undefined && configured.has(f.name))) {
          fileOn = fileOff = undefined;
          for (const f of sessions.made) {
            const c = f.name !== undefined ? configured.get(f.name) : undefined;
            const isOff = c ? c.off : f.off;
            const written = c && c.off !== f.off ? `${f.written} with ${c.why}` : f.written;
            if (isOff) fileOff ??= written;
            else fileOn ??= written;
          }
        }
        if (fileOn && (!on || path < on[0])) on = [path, fileOn];
        if (fileOff && (!off || path < off[0])) off = [path, fileOff];
      }
      if (on) autoflush.set(top, { off: false, why: `${on[1]} (${on[0]})` });
      else if (off) autoflush.set(top, { off: true, why: `${off[1]} (${off[0]})` });
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

