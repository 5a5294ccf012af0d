// Where the tree-sitter runtime and grammar .wasm files live. They stay outside the esbuild bundle
// (packages `web-tree-sitter` and `tree-sitter-<lang>`), so they are resolved from node_modules at run
// time; a packaged extension must ship these files (see codeParserWasmFiles).
import { dirname, join } from 'node:path';

/** Grammar name → package and file. tsx and typescript share one package. */
export const GRAMMARS = {
  java: ['tree-sitter-java', 'tree-sitter-java.wasm'],
  python: ['tree-sitter-python', 'tree-sitter-python.wasm'],
  javascript: ['tree-sitter-javascript', 'tree-sitter-javascript.wasm'],
  typescript: ['tree-sitter-typescript', 'tree-sitter-typescript.wasm'],
  tsx: ['tree-sitter-typescript', 'tree-sitter-tsx.wasm'],
  c: ['tree-sitter-c', 'tree-sitter-c.wasm'],
  cpp: ['tree-sitter-cpp', 'tree-sitter-cpp.wasm'],
  bash: ['tree-sitter-bash', 'tree-sitter-bash.wasm'],
} as const;

export type GrammarName = keyof typeof GRAMMARS;

/**
 * Grammars kept on V8's baseline wasm compiler (see wasm-tiering.ts): their lexers are 40-160 KB functions
 * that TurboFan takes 0.4-0.7 s of CPU each to optimise for a parse a few percent faster (measured on
 * ../shared/corpus/code: 2.7 s -> 1.9 s of CPU for the whole check). The other grammars' lexers optimise in
 * 60-120 ms and parse up to a third faster (Java) after it, so they tier up.
 */
export const BASELINE_ONLY_GRAMMARS: ReadonlySet<GrammarName> = new Set<GrammarName>(['c', 'cpp', 'bash']);

function resolvePackageFile(pkg: string, file: string, searchFrom?: string): string {
  const paths = searchFrom ? [searchFrom] : undefined;
  // package.json is resolvable for packages without an exports map; the .wasm sits beside it.
  try {
    return join(dirname(require.resolve(`${pkg}/package.json`, paths ? { paths } : undefined)), file);
  } catch {
    return require.resolve(`${pkg}/${file}`, paths ? { paths } : undefined);
  }
}

/** The web-tree-sitter runtime's .wasm (`searchFrom`: where node_modules is looked up, as below). */
export function runtimeWasmFile(searchFrom?: string): string {
  try {
    return require.resolve('web-tree-sitter/web-tree-sitter.wasm', searchFrom ? { paths: [searchFrom] } : undefined);
  } catch {
    return resolvePackageFile('web-tree-sitter', 'web-tree-sitter.wasm', searchFrom);
  }
}

/** A grammar's .wasm. Throws when its package is not installed. */
export function grammarWasmFile(name: GrammarName, searchFrom?: string): string {
  const [pkg, file] = GRAMMARS[name];
  return resolvePackageFile(pkg, file, searchFrom);
}

/**
 * Absolute paths of every .wasm the code front end loads: the web-tree-sitter runtime and one per grammar.
 * `searchFrom` overrides where node_modules is looked up (a packaged extension passes its own folder).
 */
export function codeParserWasmFiles(searchFrom?: string): { runtime: string; grammars: Record<GrammarName, string> } {
  const grammars = {} as Record<GrammarName, string>;
  for (const name of Object.keys(GRAMMARS) as GrammarName[]) grammars[name] = grammarWasmFile(name, searchFrom);
  return { runtime: runtimeWasmFile(searchFrom), grammars };
}
