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
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { REQUIREMENT_FILE, SEQUELIZE_DB2, sequelizeDb2Evidence, sqlalchemyDb2Evidence, usesSequelizeModels, usesSqlalchemy } from '../code/access';
import { HIBERNATE_CONFIG_FILE, hibernateBatchSizeIn, type HibernateBatching } from '../code/hibernate-config';

const PROJECT_TOP = /^(?:\.git|requirements\.txt|pyproject\.toml|setup\.py|setup\.cfg|Pipfile)$/;
const CONFIGURATION = /^(?:\.env(?:\.[\w.-]+)?|[\w.-]+\.(?:env|ini|cfg|conf|toml|ya?ml)|[\w-]*(?:config|settings)\.py)$/i;
const MAX_BYTES = 256 * 1024;
const MAX_FILES_PER_FOLDER = 40;
const MAX_LEVELS = 12;

interface FolderLook {
  /** The folder holds a .git or a file of requirements. */
  top: boolean;
  /** Why its files show Db2 as SQLAlchemy's database. */
  evidence?: string;
}

/** Reads folders for evidence, each once (a finder lives for one run, or one look of the language server). */
export class ProjectEvidenceFinder {
  private readonly looked = new Map<string, FolderLook>();

  private look(dir: string): FolderLook {
    const known = this.looked.get(dir);
    if (known) return known;
    const found: FolderLook = { top: false };
    this.looked.set(dir, found);
    let read = 0;
    for (const name of listed(dir)) {
      if (PROJECT_TOP.test(name)) found.top = true;
      if (found.evidence || read >= MAX_FILES_PER_FOLDER || !(REQUIREMENT_FILE.test(name) || CONFIGURATION.test(name))) continue;
      const path = join(dir, name);
      const text = readSmall(path);
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
 * The top folders of the projects of `files` (a run's, or the language server's workspace) that show Db2 as
 * SQLAlchemy's database, each with why: a Python file among them with a Db2 SQLAlchemy URL (config.py, the app
 * factory), or evidence on disk from the folder of a Python file that uses SQLAlchemy up to its project's top.
 */
export function sqlalchemyDb2Folders(files: Iterable<{ path: string; text: string }>, finder = new ProjectEvidenceFinder()): Map<string, string> {
  const found = new Map<string, string>();
  const users = new Set<string>();
  for (const { path, text } of files) {
    if (!path.endsWith('.py') && !path.endsWith('.pyw')) continue;
    const why = sqlalchemyDb2Evidence(basename(path), text);
    if (why) {
      const { top } = finder.walk(dirname(path));
      if (!found.has(top)) found.set(top, `${why} (${path})`);
    } else if (usesSqlalchemy(text)) users.add(dirname(path));
  }
  for (const dir of users) {
    const { top, evidence } = finder.walk(dir);
    if (evidence && !found.has(top)) found.set(top, evidence);
  }
  return found;
}

// ---- Hibernate's batching in a Java project (FrontEndOptions.hibernateBatching) ----------------------------------

/** A Java project's top: the nearest folder up that holds a build file (Maven, Gradle) or a .git. */
const JAVA_PROJECT_TOP = /^(?:pom\.xml|build\.gradle(?:\.kts)?|settings\.gradle(?:\.kts)?|build\.xml|\.git)$/;
/** Where a project's configuration lies, below its top (the class path's resources, Spring Boot's ./config). */
const JAVA_CONFIG_FOLDERS = ['', 'config', 'src/main/resources', 'src/main/resources/META-INF', 'src/main/resources/config', 'src/main/webapp/WEB-INF/classes', 'src/main/webapp/WEB-INF/classes/META-INF'];
/** A Java file of a JPA / Hibernate / Spring Data application (the files the ORM reading reads). */
const JAVA_ORM_FILE = /\b(?:javax|jakarta)\.persistence\b|\borg\.hibernate\b|\borg\.springframework\.data\b/;

/** Hibernate's batching by the projects' top folders: the Java files' projects whose configuration was found. */
export function hibernateBatchingFolders(files: Iterable<{ path: string; text: string }>): Map<string, HibernateBatching> {
  const found = new Map<string, HibernateBatching>();
  const tops = new Map<string, string | null>();
  const looked = new Map<string, string[]>();
  const list = (dir: string): string[] => {
    let names = looked.get(dir);
    if (!names) looked.set(dir, (names = listed(dir)));
    return names;
  };
  for (const { path, text } of files) {
    if (!path.endsWith('.java') || !JAVA_ORM_FILE.test(text)) continue;
    const start = dirname(path);
    if (tops.has(start)) continue;
    // Up to the project's top; without one (a lone file), the file's own folder.
    const top = nearestUp(start, (dir) => list(dir).some((n) => JAVA_PROJECT_TOP.test(n)));
    tops.set(start, top);
    const root = top ?? start;
    if (found.has(root)) continue;
    const config = readHibernateConfiguration(root, list);
    if (config) found.set(root, config);
  }
  return found;
}

/** What the configuration files under a project's top say, combined: set anywhere wins (precision first). */
function readHibernateConfiguration(top: string, list: (dir: string) => string[]): HibernateBatching | undefined {
  let first: string | undefined;
  let size: number | null = null;
  let sizeFile: string | undefined;
  for (const folder of JAVA_CONFIG_FOLDERS) {
    const dir = folder ? join(top, ...folder.split('/')) : top;
    let read = 0;
    // application.properties before application-dev.properties: a message names the main file.
    const names = list(dir).filter((n) => HIBERNATE_CONFIG_FILE.test(n)).sort((a, b) => Number(a.includes('-')) - Number(b.includes('-')) || (a < b ? -1 : 1));
    for (const name of names) {
      if (!HIBERNATE_CONFIG_FILE.test(name) || read >= MAX_FILES_PER_FOLDER) continue;
      const text = readSmall(join(dir, name));
      if (text === undefined) continue;
      read++;
      const said = hibernateBatchSizeIn(name, text);
      if (!said) continue;
      const shown = folder ? `${folder}/${name}` : name;
      first ??= shown;
      if (said.batchSize !== null && (size === null || said.batchSize > size)) {
        size = said.batchSize;
        sizeFile = shown;
      }
    }
  }
  if (first === undefined) return undefined;
  return size === null ? { file: first } : { file: sizeFile ?? first, batchSize: size };
}

// ---- Sequelize on Db2 in a JavaScript/TypeScript project (FrontEndOptions.sequelizeDb2Folders) --------------------

const JS_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/i;
/** Files of a Sequelize configuration in a project's config folder (sequelize-cli's config/config.json, database.js …). */
const SEQUELIZE_CONFIG_FILE = /^[\w.-]{1,100}\.(?:json|[cm]?[jt]s|ya?ml)$/i;
const ENV_FILE = /^\.env(?:\.[\w.-]+)?$/;

/**
 * The top folders (where their package.json lies) of the JavaScript/TypeScript projects of `files` that show Db2 as
 * Sequelize's database, each with why: @sequelize/db2, @sequelize/db2-ibmi or sequelize-ibmi among package.json's
 * dependencies; a Sequelize configuration that says db2 (`"dialect": "db2"` or a `db2://` URL in config/*, the config
 * .sequelizerc points to, `DB_DIALECT=db2` or a db2:// URL in .env); a file of the run that makes Sequelize for Db2
 * (models/index.js with `dialect: 'db2'`); or ibm_db and sequelize in package.json when no configuration names another
 * dialect. Only projects of files that use Sequelize models (code/access.ts usesSequelizeModels) or make Sequelize
 * for Db2 are looked at; a file with no package.json above it (12 folders at most) has no project.
 */
export function sequelizeDb2Folders(files: Iterable<{ path: string; text: string }>): Map<string, string> {
  const found = new Map<string, string>();
  const tops = new Map<string, string | null>();
  const looked = new Set<string>();
  const topOf = (start: string): string | null => {
    const known = tops.get(start);
    if (known !== undefined) return known;
    const top = nearestUp(start, (dir) => isFile(join(dir, 'package.json')));
    tops.set(start, top);
    return top;
  };
  for (const { path, text } of files) {
    if (!JS_FILE.test(path)) continue;
    const made = SEQUELIZE_DB2.exec(text);
    if (!made && !usesSequelizeModels(text)) continue;
    const top = topOf(dirname(path));
    if (top === null || found.has(top)) continue;
    if (made) {
      found.set(top, `${made[0].trim()} in ${path}`);
      continue;
    }
    if (looked.has(top)) continue;
    looked.add(top);
    const why = readSequelizeConfiguration(top);
    if (why) found.set(top, why);
  }
  return found;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function readSmall(path: string): string | undefined {
  try {
    const stat = statSync(path);
    return stat.isFile() && stat.size <= MAX_BYTES ? readFileSync(path, 'utf8') : undefined;
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
function readSequelizeConfiguration(top: string): string | undefined {
  const paths: string[] = [join(top, 'package.json')];
  for (const name of listed(top)) if (ENV_FILE.test(name)) paths.push(join(top, name));
  // .sequelizerc: config: path.resolve('config', 'database.json') (strings joined from the top).
  const rc = readSmall(join(top, '.sequelizerc'));
  const pointed = rc ? /['"]?config['"]?\s{0,40}:\s{0,40}path\s{0,40}\.\s{0,40}(?:resolve|join)\s{0,40}\(([^()]{0,500})\)/.exec(rc) : null;
  if (pointed) {
    const parts = [...pointed[1].matchAll(/['"`]([^'"`\n]{1,200})['"`]/g)].map((m) => m[1]);
    if (parts.length > 0) paths.push(resolve(top, ...parts));
  }
  let read = 0;
  for (const name of listed(join(top, 'config'))) {
    if (SEQUELIZE_CONFIG_FILE.test(name) && read++ < MAX_FILES_PER_FOLDER) paths.push(join(top, 'config', name));
  }
  let driver: string | undefined;
  let other = false;
  for (const path of [...new Set(paths)]) {
    const text = readSmall(path);
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
