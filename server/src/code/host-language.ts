// What a host-language module registers (languages/index.ts lists them): the file languages it reads, the
// tree-sitter grammars it needs, and how it reads one file. Adding a language (COBOL, …) is one module
// that exports a HostLanguage and one line in that list.
import type { Node, ParseState, Parser, Tree } from 'web-tree-sitter';
import type { FileLanguage, FrontEndOptions, FrontEndResult, SourceFile } from '../engine/types';
import { parseSql } from '../sql/parser';
import type { LanguageAdapter } from './adapter';
import { extractFromTree, type ExtractHooks } from './model';
import type { GrammarName } from './wasm';
import type { Span } from '../sql/ast';
import { checkDeadline, deadlinePassed } from '../engine/deadline';

export interface HostEnv {
  /** The loaded parser of a grammar this module declared. */
  parser(grammar: GrammarName): Parser | undefined;
  /** Why a grammar has no parser, when it failed to load (a damaged install). */
  unavailable(grammar: GrammarName): string | undefined;
  options: FrontEndOptions;
}

export interface HostLanguage {
  /** File languages (by extension, see engine/config.ts) this module reads. */
  languages: readonly FileLanguage[];
  /** Tree-sitter grammars it parses with; each loaded once, when a file that needs it is among the inputs. */
  grammars: readonly GrammarName[];
  /**
   * The one grammar a file of `path` parses with, when the module has several (JSX, C++); `grammars[0]` when
   * absent. `text`, when given, may decide it (a C++ header); `read` must decide the same way.
   */
  grammarOf?(path: string, language: FileLanguage, text?: string): GrammarName;
  /** Reads one file. May throw: the front end turns a failure into an empty result. */
  read(source: SourceFile, env: HostEnv): FrontEndResult;
}

/** The first ERROR or MISSING node, going down only into subtrees that hold one (a loop: trees can be deep). */
function firstErrorNode(root: Node): Node | undefined {
  let node: Node | null = root;
  while (node) {
    if (node.isError || node.isMissing) return node;
    let next: Node | null = null;
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (child && (child.hasError || child.isMissing)) {
        next = child;
        break;
      }
    }
    node = next;
  }
  return undefined;
}

/**
 * Where a syntax error is shown: the ERROR node, or one character for a MISSING token (which has no width). A
 * token missing at a line's end or the file's (a `;` lost from the end of a line, the `}` of a truncated file) is
 * shown on the character before it: one past it was a line break (between CR and LF, in no column) or past the end
 * of the file.
 */
function errorSpan(node: Node, text: string): Span {
  const length = text.length;
  let start = Math.max(0, Math.min(node.startIndex, length));
  if (node.endIndex <= start) {
    const at = text.charCodeAt(start);
    const before = text.charCodeAt(start - 1);
    if (start > 0 && (start === length || at === 10 || at === 13) && before !== 10 && before !== 13) start--;
    start = Math.min(start, Math.max(0, length - 1));
  }
  let end = Math.min(length, Math.max(node.endIndex, start + 1));
  // Never between the CR and the LF of one line break.
  if (end < length && text.charCodeAt(end - 1) === 13 && text.charCodeAt(end) === 10) end++;
  return { start, end };
}

export const emptyResult = (leftOut?: string): FrontEndResult => ({ statements: [], comments: [], code: { executions: [], commits: [] }, ...(leftOut ? { leftOut } : {}) });

/**
 * A file left out (`leftOut`) but for the ORM entity classes it declares (CodeModel.entities), from a read of it
 * (`read`): a model class's file, with no data access of its own, whose tables other files' inserts name.
 */
export function entitiesOnly(read: FrontEndResult, leftOut: string): FrontEndResult {
  const empty = emptyResult(leftOut);
  const entities = read.code?.entities;
  return entities ? { ...empty, code: { executions: [], commits: [], entities } } : empty;
}

/**
 * The common path of a tree-sitter language: parse (`hostText` when a pre-scanner blanked embedded SQL
 * blocks) and run the adapter over the tree.
 */
export function readWithAdapter(source: SourceFile, env: HostEnv, adapter: LanguageAdapter, options: { hostText?: string; hooks?: ExtractHooks } = {}): FrontEndResult {
  const parser = env.parser(adapter.grammar);
  if (!parser) return emptyResult(env.unavailable(adapter.grammar));
  // tree-sitter asks now and then whether to give up (true: stop); the typings say void.
  const progressCallback = deadlinePassed as unknown as (state: ParseState) => void;
  const tree = parser.parse(options.hostText ?? source.text, null, { progressCallback });
  if (!tree) {
    parser.reset();
    checkDeadline();
    return emptyResult();
  }
  try {
    return extractTrees([tree], source, adapter, options.hooks);
  } finally {
    tree.delete();
  }
}

/**
 * Runs the adapter over a file's tree, or over the trees of disjoint parts of it, the first spanning the whole file
 * (languages/shell-read.ts), with the first syntax error among them. The caller deletes the trees.
 */
export function extractTrees(trees: readonly Tree[], source: SourceFile, adapter: LanguageAdapter, hooks?: ExtractHooks): FrontEndResult {
  const result: FrontEndResult = extractFromTree(trees.length === 1 ? trees[0] : trees, source.text, adapter, parseSql, hooks);
  let error: Node | undefined;
  for (const tree of trees) {
    const first = tree.rootNode.hasError ? firstErrorNode(tree.rootNode) : undefined;
    if (first && (!error || first.startIndex < error.startIndex)) error = first;
  }
  if (error) result.syntaxError = errorSpan(error, source.text);
  return result;
}
