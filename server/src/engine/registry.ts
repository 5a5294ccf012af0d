// The rule catalogue: every rules/<id>.ts with its rules/<id>.md, found by the build (see scripts/build.mjs).
import registered, { ruleFileIds } from 'insertlint:rules';
import type { RegisteredRule, Rule } from './types';

function validate(rules: RegisteredRule[], fileIds: string[]): RegisteredRule[] {
  rules.forEach(({ rule }, i) => {
    if (!rule || typeof rule.check !== 'function' || !rule.meta) {
      throw new Error(`rules/${fileIds[i]}.ts must export default a Rule ({ meta, check })`);
    }
    if (rule.meta.id !== fileIds[i]) {
      throw new Error(`rules/${fileIds[i]}.ts declares id '${rule.meta.id}': a rule's id is its file name`);
    }
  });
  return rules;
}

export const RULES: readonly RegisteredRule[] = validate(registered, ruleFileIds);

const byId = new Map(RULES.map((r) => [r.rule.meta.id, r]));

export function findRule(id: string): RegisteredRule | undefined {
  return byId.get(id);
}

export function allRules(): Rule[] {
  return RULES.map((r) => r.rule);
}

/** Where a rule's documentation lives by default: the repository copy, so that links work from any output. */
export const DOCS_BASE_URL = 'https://github.com/insertlint/insertlint/blob/main/rules/';

/**
 * A rule's documentation URL. `base` (CLI --docs-url, INSERTLINT_DOCS_URL) is where a team hosts the docs:
 * either a template with `{id}` or a folder URL that `<id>.md` is appended to.
 */
export function ruleDocUrl(id: string, base: string = DOCS_BASE_URL): string {
  if (base.includes('{id}')) return base.split('{id}').join(id);
  return `${base}${base.endsWith('/') ? '' : '/'}${id}.md`;
}
