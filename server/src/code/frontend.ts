// The seam between the engine and the host-language extractors (issue 3): tree-sitter parsers for
// Java, Python, JavaScript/TypeScript, C/C++ and shell, one Parser per grammar, loaded once.
// Only the types at start-up: the runtime module is loaded with the grammars (see loadCodeFrontEnd).
import type { Parser } from 'web-tree-sitter';
import type { Comment, Statement } from '../sql/ast';
import type { FileLanguage, SourceFile } from '../engine/types';
import { parseSql } from '../sql/parser';
import type { CodeModel, CommitCall, SqlExecution } from './types';
import { extractFromTree, type ApiEvent, type CallContext, type Evaluator, type LanguageAdapter } from './host';
import { javaAdapter } from './java';
import { pythonAdapter } from './python';
import { makeJsAdapter } from './javascript';
import { embeddedEvents, makeCAdapter } from './c';
import { shellAdapter } from './shell';
import { blockText, PLACEHOLDER, scanEmbeddedSql, type EmbeddedBlock } from './esql';
import { buildMappedSql } from './sqltext';
import { codeParserWasmFiles, type GrammarName } from './wasm';

export { codeParserWasmFiles } from './wasm';

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

const EMPTY = (): ExtractedCode => ({ statements: [], comments: [], code: { executions: [], commits: [] } });

const ADAPTERS: Record<GrammarName, LanguageAdapter> = {
  java: javaAdapter,
  python: pythonAdapter,
  javascript: makeJsAdapter('javascript'),
  typescript: makeJsAdapter('typescript'),
  tsx: makeJsAdapter('tsx'),
  c: makeCAdapter('c'),
  cpp: makeCAdapter('cpp'),
  bash: shellAdapter,
};

/** The grammar of a file: by language, refined by extension (tsx, C++ embedded SQL). */
export function grammarOf(source: SourceFile): GrammarName | 'cobol' | undefined {
  const ext = source.path.slice(source.path.lastIndexOf('.'));
  switch (source.language as FileLanguage) {
    case 'java':
      return 'java';
    case 'python':
      return 'python';
    case 'javascript':
      return ext.toLowerCase() === '.jsx' ? 'tsx' : 'javascript';
    case 'typescript':
      return ext.toLowerCase() === '.tsx' ? 'tsx' : 'typescript';
    case 'c':
      return 'c';
    case 'cpp':
      return 'cpp';
    case 'embedded-sql':
      return ext === '.sqb' ? 'cobol' : ext === '.sqC' || ext === '.sqx' ? 'cpp' : 'c';
    case 'shell':
      return 'bash';
    default:
      return undefined;
  }
}

/** Some APIs share method names with everything else (query, execute): only files that use Db2 drivers count. */
function usesDb2Driver(grammar: GrammarName, text: string, embedded: boolean): boolean {
  if (embedded) return true;
  if (grammar === 'javascript' || grammar === 'typescript' || grammar === 'tsx') return /ibm_db|idb-p?connector/.test(text);
  if (grammar === 'python') return /ibm_db|\bdb2\b|pyodbc|jaydebeapi/i.test(text);
  if (grammar === 'bash') return /\bdb2\b/.test(text);
  // Files that never name a JDBC or CLI entry point are not parsed at all (most files of a code base).
  if (grammar === 'java') return /Statement|JdbcTemplate|setAutoCommit|executeUpdate|addBatch|batchUpdate|#sql/.test(text);
  return /\bSQL(?:ExecDirect|Prepare|Execute|SetConnectAttr|SetConnectOption|EndTran|Transact)\b|EXEC\s+SQL/i.test(text);
}

export class TreeSitterCodeFrontEnd implements CodeFrontEnd {
  constructor(private readonly parsers: Map<GrammarName, Parser>) {}

  extract(source: SourceFile): ExtractedCode {
    try {
      return this.extractUnsafe(source);
    } catch {
      // A grammar or extractor failure must not take the engine down: the file just yields nothing.
      return EMPTY();
    }
  }

  private extractUnsafe(source: SourceFile): ExtractedCode {
    const grammar = grammarOf(source);
    if (!grammar) return EMPTY();
    const text = source.text;
    if (grammar === 'cobol') return extractCobol(text);
    const embedded = source.language === 'embedded-sql' || (grammar === 'java' && text.includes('#sql'));
    if (!usesDb2Driver(grammar, text, embedded)) return EMPTY();
    const parser = this.parsers.get(grammar);
    if (!parser) return EMPTY();
    const scan = embedded ? scanEmbeddedSql(text, { execSql: source.language === 'embedded-sql', sqlj: grammar === 'java' }) : { hostText: text, blocks: [] as EmbeddedBlock[] };
    const tree = parser.parse(scan.hostText);
    if (!tree) return EMPTY();
    try {
      const adapter = ADAPTERS[grammar];
      const blocks = scan.blocks;
      const preEvents = blocks.length === 0 ? undefined : (ctx: CallContext, ev: Evaluator): ApiEvent[] | undefined => {
        const m = PLACEHOLDER.exec(ctx.call.name);
        if (!m || ctx.call.args.length > 0) return undefined;
        const block = blocks[Number(m[1])];
        if (!block) return undefined;
        return embeddedEvents(blockText(text, block), text.slice(block.sql.start, block.sql.end), block.kind === 'sqlj' ? 'sqlj' : 'esql', ev, block.span.start);
      };
      return extractFromTree(tree, text, adapter, parseSql, { preEvents });
    } finally {
      tree.delete();
    }
  }
}

/** COBOL embedded SQL (.sqb): no host grammar here, so blocks are read without loop context. */
function extractCobol(text: string): ExtractedCode {
  const { blocks } = scanEmbeddedSql(text, { execSql: true, cobol: true });
  const statements: Statement[] = [];
  const executions: SqlExecution[] = [];
  const commits: CommitCall[] = [];
  for (const block of blocks) {
    const host = blockText(text, block);
    const mapped = buildMappedSql(host);
    const body = mapped.text.trim().toUpperCase();
    if (/^COMMIT\b/.test(body)) {
      commits.push({ callSpan: block.span, api: 'esql', guarded: false });
      continue;
    }
    if (!/^(?:INSERT|UPDATE|DELETE|MERGE|SELECT|VALUES|WITH|CALL)\b/.test(body)) continue;
    const parsed = parseSql(mapped.text, { origin: mapped.origin });
    statements.push(...parsed.statements);
    executions.push({ callSpan: block.span, api: 'esql', action: 'executePrepared', statements: parsed.statements, textKind: 'constant', splicedValues: [], batched: false, connection: { autocommit: 'off' } });
  }
  return { statements, comments: [], code: { executions, commits } };
}

let loading: Promise<CodeFrontEnd> | undefined;

/**
 * Loads the host-language parsers once (web-tree-sitter initialises asynchronously). Callers ask for it
 * only when a host-language file is to be read: the runtime and eight grammars take ~50 ms and ~30 MiB,
 * a third of the CLI's start-up, which SQL-only runs do not need.
 */
export function loadCodeFrontEnd(): Promise<CodeFrontEnd> {
  loading ??= (async () => {
    // require, not import(): import() resolves the package's ES module build, a second copy whose
    // Language objects the CommonJS copy that host.ts queries with does not accept.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Language, Parser } = require('web-tree-sitter') as typeof import('web-tree-sitter');
    const wasm = codeParserWasmFiles();
    await Parser.init({ locateFile: () => wasm.runtime });
    const parsers = new Map<GrammarName, Parser>();
    for (const [name, file] of Object.entries(wasm.grammars) as [GrammarName, string][]) {
      const parser = new Parser();
      parser.setLanguage(await Language.load(file));
      parsers.set(name, parser);
    }
    return new TreeSitterCodeFrontEnd(parsers);
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
