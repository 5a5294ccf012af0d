// The virtual module that scripts/build.mjs generates from rules/*.ts and rules/*.md.
declare module 'insertlint:rules' {
  import type { RegisteredRule } from '../server/src/engine/types';
  const rules: RegisteredRule[];
  export const ruleFileIds: string[];
  export default rules;
}

declare module '*.md' {
  const text: string;
  export default text;
}
