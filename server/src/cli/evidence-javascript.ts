// JavaScript/TypeScript projects' evidence (project-evidence.ts): Sequelize on Db2 (FrontEndOptions.sequelizeDb2Folders).
import { basename, dirname, join, resolve } from 'node:path';
import { SEQUELIZE_DB2, sequelizeDb2Evidence, usesSequelizeModels } from '../code/access';
import { AS_IS, MAX_FILES_PER_FOLDER, nearestUp, readSmall, type EvidenceDisk, type LookInputs, type PartOf } from './project-evidence';

// ---- Sequelize on Db2 in a JavaScript/TypeScript project (FrontEndOptions.sequelizeDb2Folders) --------------------

export const JS_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/i;
/** Files of a Sequelize configuration in a project's config folder (sequelize-cli's config/config.json, database.js …). */
export const SEQUELIZE_CONFIG_FILE = /^[\w.-]{1,100}\.(?:json|[cm]?[jt]s|ya?ml)$/i;
export const ENV_FILE = /^\.env(?:\.[\w.-]+)?$/;

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

