// The seam between the engine and the host-language extractors (issue 3).
import type { Comment, Statement } from '../sql/ast';
import type { SourceFile } from '../engine/types';
import type { CodeModel } from './types';

export interface ExtractedCode {
  /** Statements of every SQL text the code executes, with origins mapping into the host file. */
  statements: Statement[];
  /** Host-language comments (file offsets), for suppressions. */
  comments: Comment[];
  code: CodeModel;
}

export interface CodeFrontEnd {
  /** Never throws: unreadable code yields an empty model. */
  extract(source: SourceFile): ExtractedCode;
}

/** Loads the host-language parsers once (web-tree-sitter initialises asynchronously). */
export async function loadCodeFrontEnd(): Promise<CodeFrontEnd> {
  return { extract: () => ({ statements: [], comments: [], code: { executions: [], commits: [] } }) };
}
