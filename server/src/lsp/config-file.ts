// Writing the workspace's .insertlintrc.json from the editor: "Create configuration" and
// "Disable rule in this workspace". The file stays plain JSON, two-space indented, its other keys kept.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CONFIG_FILE_NAME } from '../engine/config';
import { parseJsonText } from '../engine/json-text';
import type { ConfigFileResult } from './protocol';

/**
 * No "$schema": VS Code validates the file with the schema the extension contributes (jsonValidation), and a
 * "$schema" address would take precedence and need the network.
 */
const STARTER = { rules: {}, ignore: [], schema: [] };

/** The configuration file in force, or where the first workspace folder's would go. */
export function configFilePath(fileConfigPath: string | undefined, folders: readonly string[]): string | undefined {
  return fileConfigPath ?? (folders.length > 0 ? join(folders[0], CONFIG_FILE_NAME) : undefined);
}

export function createConfigFile(path: string | undefined): ConfigFileResult {
  if (!path) return { error: 'open a folder first: the configuration file lives in the workspace folder' };
  if (existsSync(path)) return { path, uri: pathToFileURL(path).toString(), created: false };
  writeFileSync(path, JSON.stringify(STARTER, null, 2) + '\n');
  return { path, uri: pathToFileURL(path).toString(), created: true };
}

/** Sets `"rules": { id: "off" }`, creating the file when there is none. */
export function disableRuleInConfigFile(path: string | undefined, ruleId: string): ConfigFileResult {
  if (!path) return { error: 'open a folder first: the configuration file lives in the workspace folder' };
  const created = !existsSync(path);
  let config: Record<string, unknown> = { ...STARTER };
  if (!created) {
    try {
      const parsed: unknown = parseJsonText(readFileSync(path, 'utf8'));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { error: `${path} does not hold a JSON object; fix it first` };
      config = parsed as Record<string, unknown>;
    } catch (error) {
      return { error: `${path} is not valid JSON ${(error as Error).message}; fix it first` };
    }
  }
  const rules = config.rules;
  config.rules = { ...(typeof rules === 'object' && rules !== null && !Array.isArray(rules) ? rules : {}), [ruleId]: 'off' };
  writeFileSync(path, JSON.stringify(config, null, 2) + '\n');
  return { path, uri: pathToFileURL(path).toString(), created };
}
