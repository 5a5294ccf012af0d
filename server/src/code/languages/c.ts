// C/C++: Db2 CLI (SQLExecDirect, SQLPrepare/SQLExecute, SQLSetConnectAttr AUTOCOMMIT, SQLSetStmtAttr
// PARAMSET_SIZE, SQLEndTran). Embedded SQL files (.sqc/.sqC/.sqx) use this adapter too (embedded-sql.ts).
import type { Node } from 'web-tree-sitter';
import { argsOf, cStyleCommentText, declaratorAssignment, operatorAssignment, simpleName, type ApiEvent, type CallContext, type LanguageAdapter } from '../adapter';
import { cAccess } from '../access';
import { emptyResult, readWithAdapter, type HostLanguage } from '../host-language';
import { applyFormat, decodeQuoted } from '../literals';
import { joinTexts, type HostText } from '../sqltext';
import type { FileLanguage } from '../../engine/types';

/** The variable a declarator declares: `*p`, `buf[100]`, `x` → the identifier. */
function declaredName(node: Node | null): string | undefined {
  let n: Node | null = node;
  while (n && n.type !== 'identifier') n = n.childForFieldName('declarator');
  return n?.text;
}

const FORMAT_CALLS: Record<string, number> = { sprintf: 1, snprintf: 2, swprintf: 2, sprintf_s: 2, _snprintf: 2 };

export function makeCAdapter(grammar: 'c' | 'cpp'): LanguageAdapter {
  return {
    grammar,
    loops: { for_statement: 'for', while_statement: 'while', do_statement: 'do', for_range_loop: 'for-each' },
    functions: new Set(['function_definition']),
    lambdas: new Set(['lambda_expression']),
    ifs: new Set(['if_statement']),
    comments: new Set(['comment']),
    calls: new Set(['call_expression']),
    assignmentTypes: new Set(['init_declarator', 'assignment_expression', 'preproc_def']),
    loopMethods: new Set(['for_each']),
    linksFunctions: true,

    calleeName(node) {
      const fn = node.childForFieldName('function');
      if (!fn) return undefined;
      return fn.type === 'field_expression' ? fn.childForFieldName('field')?.text : fn.text.replace(/^::/, '');
    },
    interestingCall() {
      // Any call may pass SQL_AUTOCOMMIT_OFF to a connection helper (the IBM samples' CLIAppInit does).
      return true;
    },
    callSite(node) {
      const fn = node.childForFieldName('function');
      if (!fn) return undefined;
      const args = argsOf(node.childForFieldName('arguments'));
      if (fn.type === 'field_expression') {
        const field = fn.childForFieldName('field');
        return field ? { node, name: field.text, receiver: fn.childForFieldName('argument') ?? undefined, args, keywords: new Map() } : undefined;
      }
      return { node, name: fn.text.replace(/^::/, ''), args, keywords: new Map() };
    },

    assignments(node) {
      if (node.type === 'init_declarator') {
        const name = declaredName(node.childForFieldName('declarator'));
        const value = node.childForFieldName('value');
        return name && value ? [{ name, value, append: false }] : [];
      }
      return node.type === 'preproc_def' ? declaratorAssignment(node) : operatorAssignment(node, []);
    },

    callAssignments(call) {
      const target = declaredName(call.args[0] ?? null) ?? simpleName(call.args[0]);
      if (!target) return [];
      if (call.name in FORMAT_CALLS) return [{ name: target, value: call.node, append: false }];
      if ((call.name === 'strcpy' || call.name === 'strncpy' || call.name === 'strcpy_s') && call.args.length >= 2) return [{ name: target, value: call.args[call.name === 'strcpy_s' ? 2 : 1] ?? call.args[1], append: false }];
      if ((call.name === 'strcat' || call.name === 'strncat' || call.name === 'strcat_s') && call.args.length >= 2) return [{ name: target, value: call.args[call.name === 'strcat_s' ? 2 : 1] ?? call.args[1], append: true }];
      return [];
    },

    evaluate(node, ev) {
      switch (node.type) {
        case 'string_literal': {
          const open = node.text.indexOf('"');
          if (open < 0 || /^u?R/.test(node.text)) return undefined;
          return { pieces: decodeQuoted(ev.source, node.startIndex + open + 1, node.endIndex - 1, 'c'), kind: 'constant' };
        }
        case 'raw_string_literal':
          return undefined;
        case 'concatenated_string': {
          const parts: HostText[] = [];
          for (const c of node.namedChildren) {
            if (!c) continue;
            parts.push(ev.evaluate(c) ?? ev.splice(c));
          }
          return joinTexts(parts, parts.some((p) => p.pieces.some((x) => x.kind === 'splice')) ? 'concatenation' : 'constant');
        }
        case 'preproc_arg': {
          const m = /^(\s*)"/.exec(node.text);
          if (!m || !node.text.trimEnd().endsWith('"')) return undefined;
          const end = node.startIndex + node.text.trimEnd().length - 1;
          return { pieces: decodeQuoted(ev.source, node.startIndex + m[1].length + 1, end, 'c'), kind: 'constant' };
        }
        case 'parenthesized_expression': {
          const inner = node.namedChildren.find((c) => c && c.type !== 'comment');
          return inner ? ev.evaluate(inner) : undefined;
        }
        case 'cast_expression': {
          const value = node.childForFieldName('value');
          return value ? ev.evaluate(value) : undefined;
        }
        case 'pointer_expression': {
          const arg = node.childForFieldName('argument');
          return arg && node.text.startsWith('&') ? ev.evaluate(arg) : undefined;
        }
        case 'identifier':
          return ev.variable(node.text, node.startIndex);
        case 'field_expression': {
          const field = node.childForFieldName('field');
          return field ? ev.variable(field.text, node.startIndex) : undefined;
        }
        case 'call_expression': {
          const fn = node.childForFieldName('function')?.text ?? '';
          const args = argsOf(node.childForFieldName('arguments'));
          const at = FORMAT_CALLS[fn];
          if (at !== undefined && args.length > at) {
            const fmt = ev.evaluate(args[at]);
            return fmt ? applyFormat(fmt, args.slice(at + 1), new Map(), 'printf', (n) => ev.evaluate(n) ?? ev.splice(n)) : undefined;
          }
          if (fn.endsWith('c_str') || fn.endsWith('.data')) {
            const receiver = node.childForFieldName('function')?.childForFieldName('argument');
            return receiver ? ev.evaluate(receiver) : undefined;
          }
          return undefined;
        }
        default:
          return undefined;
      }
    },

    classify(ctx) {
      return classifyCli(ctx);
    },

    commentText: cStyleCommentText,

    defaultAutocommit(api) {
      return api === 'cli' ? 'on' : 'unknown';
    },

    fixedAutocommit(api) {
      // Embedded SQL never autocommits: the program commits (or the precompiler's options do).
      return api === 'esql' ? 'off' : undefined;
    },
  };
}

export const C_ADAPTERS = { c: makeCAdapter('c'), cpp: makeCAdapter('cpp') };

// C++ written in a .h file (C and C++ share the extension): namespaces, templates, classes with a body, access
// labels or a scope operator. The C grammar reads such a header with error recovery, slower and losing the
// calls inside the classes it cannot read. Each alternative is bounded by its line. (After a class's name the
// rest starts with a character that is no part of a name: `\w+[^;\n]*` could split a long name every way before
// failing, quadratic in it; the regex audit's pumped input caught it.)
const CPP_HEADER = /^[ \t]*(?:namespace\b|template[ \t]*<|class[ \t]+\w+(?:[^\w;\n{][^;\n{]*)?\{|(?:public|private|protected)[ \t]*:)|\w::~?\w/m;

/** The grammar of a C or C++ file: C++ for .cpp and the like, and for a .h whose text is C++. */
export function cGrammarOf(path: string, language: FileLanguage, text: string | undefined): 'c' | 'cpp' {
  if (language === 'cpp') return 'cpp';
  return text !== undefined && /\.h$/i.test(path) && CPP_HEADER.test(text) ? 'cpp' : 'c';
}

export const cLanguage: HostLanguage = {
  languages: ['c', 'cpp'],
  grammars: ['c', 'cpp'],
  grammarOf: cGrammarOf,
  read(source, env) {
    const leftOut = cAccess(source.text, env.options.calledFunctions);
    if (leftOut) return emptyResult(leftOut);
    const grammar = cGrammarOf(source.path, source.language, source.text);
    // A caller that loaded only the C grammar (it chose grammars without the texts) still reads the header.
    return readWithAdapter(source, env, C_ADAPTERS[grammar === 'cpp' && env.parser('cpp') ? 'cpp' : 'c']);
  },
};

function handleName(node: Node | undefined): string | undefined {
  return node ? simpleName(node) : undefined;
}

/** A handle as written, blanks dropped (`session->stmtp->hsql`), when it is a name or a path of fields. */
function handleText(node: Node | undefined): string | undefined {
  if (!node || node.text.length > 200) return undefined;
  const text = node.text.replace(/\s+/g, '');
  return /^[A-Za-z_]\w*(?:(?:->|\.)[A-Za-z_]\w*)*$/.test(text) ? text : undefined;
}

function classifyCli(ctx: CallContext): ApiEvent[] {
  const { call } = ctx;
  const a = call.args;
  const api = 'cli';
  switch (call.name.replace(/W$/, '')) {
    case 'SQLAllocHandle':
      return a.length >= 3 && /STMT/.test(a[0].text) && handleName(a[2]) && handleName(a[1]) ? [{ kind: 'link', handle: handleName(a[2])!, connection: handleName(a[1])! }] : [];
    case 'SQLAllocStmt':
      return a.length >= 2 && handleName(a[1]) && handleName(a[0]) ? [{ kind: 'link', handle: handleName(a[1])!, connection: handleName(a[0])! }] : [];
    case 'SQLConnect':
    case 'SQLDriverConnect':
    case 'SQLBrowseConnect':
      return a.length >= 1 && handleName(a[0]) ? [{ kind: 'connect', api, connection: handleName(a[0])! }] : [];
    case 'SQLExecDirect':
      return a.length >= 2 ? [{ kind: 'execute', api, action: 'executeDirect', sql: a[1], handle: handleName(a[0]), handleText: handleText(a[0]) }] : [];
    case 'SQLPrepare':
      return a.length >= 2 ? [{ kind: 'execute', api, action: 'prepare', sql: a[1], handle: handleName(a[0]) ?? `@${call.node.startIndex}`, handleText: handleText(a[0]) }] : [];
    case 'SQLExecute':
      return a.length >= 1 ? [{ kind: 'execute', api, action: 'executePrepared', handle: handleName(a[0]), handleText: handleText(a[0]) }] : [];
    case 'SQLSetConnectAttr':
    case 'SQLSetConnectOption':
      if (a.length >= 3 && /AUTOCOMMIT/.test(a[1].text)) {
        return [{ kind: 'autocommit', api, on: !/OFF|\b0\b/.test(a[2].text), connection: handleName(a[0]) }];
      }
      return [];
    case 'SQLSetStmtAttr':
    case 'SQLSetStmtOption':
    case 'SQLParamOptions': {
      if (call.name === 'SQLParamOptions' && a.length >= 2) {
        const n = /\d+/.exec(a[1].text);
        return handleName(a[0]) ? [{ kind: 'paramset', handle: handleName(a[0])!, size: n ? Number(n[0]) : 2 }] : [];
      }
      if (a.length >= 3 && /PARAMSET_SIZE/.test(a[1].text) && handleName(a[0])) {
        const n = /^\D*(\d+)\D*$/.exec(a[2].text);
        return [{ kind: 'paramset', handle: handleName(a[0])!, size: n ? Number(n[1]) : 2 }];
      }
      return [];
    }
    case 'SQLEndTran':
      return a.length >= 3 && /COMMIT/.test(a[2].text) ? [{ kind: 'commit', api, connection: handleName(a[1]) }] : [];
    case 'SQLTransact':
      return a.length >= 3 && /COMMIT/.test(a[2].text) ? [{ kind: 'commit', api, connection: handleName(a[1]) }] : [];
    default:
      // A helper that opens the connection with autocommit off: CLIAppInit(…, (SQLPOINTER)SQL_AUTOCOMMIT_OFF).
      if (!call.name.startsWith('SQL') && a.some((arg) => /\bSQL_AUTOCOMMIT_OFF\b/.test(arg.text))) return [{ kind: 'autocommit', api, on: false }];
      return [];
  }
}
