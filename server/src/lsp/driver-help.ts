// What the editor says when the optional ibm_db driver cannot be used: steps a Marketplace user can follow
// (install it somewhere, point insertlint.explain.ibmDbPath at it), never a script of this repository.
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Db2Error } from '../explain/driver';

/** The setting's folder with a leading ~ expanded (require() does not know ~). */
export function ibmDbFolder(setting: unknown): string | undefined {
  if (typeof setting !== 'string' || setting.trim() === '') return undefined;
  const path = setting.trim();
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
}

export const IBM_DB_EDITOR_STEPS =
  'To explain or import a schema from a live database, install it once in a folder of your choice, from a terminal: ' +
  '`mkdir ~/insertlint-ibm_db && cd ~/insertlint-ibm_db && npm install ibm_db` (needs Node.js and npm; the install also downloads IBM\'s CLI driver). ' +
  'Then set insertlint.explain.ibmDbPath to that folder\'s node_modules/ibm_db (e.g. ~/insertlint-ibm_db/node_modules/ibm_db). ' +
  'Without a database, open the db2exfmt output of the statement instead (InsertLint: Open db2exfmt file as plan).';

/** The message for a 'driver-missing' error in the editor; `ibmDbPath` is the setting's value, if any. */
export function driverMissingMessage(error: Db2Error, ibmDbPath: string | undefined): string {
  if (/libraries cannot be loaded/.test(error.message)) {
    return 'The Db2 driver "ibm_db" is installed but its IBM CLI driver libraries cannot be loaded: reinstall it (npm install ibm_db downloads them), or add its clidriver/lib folder to LD_LIBRARY_PATH (PATH on Windows) before starting VS Code.';
  }
  const where = ibmDbPath ? `The setting insertlint.explain.ibmDbPath points at ${ibmDbPath}, where no working "ibm_db" was found.` : 'The optional Db2 driver "ibm_db" is not installed (linting never needs it).';
  return `${where} ${IBM_DB_EDITOR_STEPS}`;
}
