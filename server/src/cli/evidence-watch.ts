// Which watched changes can change what the project-evidence looks find (lsp/disk-files.ts asks on each one).
import { basename, dirname } from 'node:path';
import { REQUIREMENT_FILE } from '../code/access';
import { HIBERNATE_CONFIG_FILE } from '../code/hibernate-config';
import { ENV_FILE, JS_FILE, SEQUELIZE_CONFIG_FILE } from './evidence-javascript';
import { JAVA_PROJECT_TOP } from './evidence-java';
import { CONFIGURATION, PROJECT_TOP } from './evidence-python';

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
