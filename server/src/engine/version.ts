import { version as packageVersion } from '../../../package.json';

/**
 * The version this build reports (`--version`, JSON and SARIF output, the language server's serverInfo): the
 * package's, inlined at build time, so an installed bundle names the release it came from. INSERTLINT_VERSION
 * overrides it (tests pin output; a fork's CI may stamp its own).
 */
export function toolVersion(): string {
  return process.env.INSERTLINT_VERSION ?? packageVersion;
}
