// The language-independent part of the code front end: one tree-sitter query collects calls with
// their loop, guard and scope context, variable assignments and comments; language
// adapters say which calls are database calls and how strings are written; this module then links
// statement handles to prepares and connections, tracks autocommit, and builds the CodeModel.
import { Query, type Node, type Tree } from 'web-tree-sitter';
import type { Comment, Span, SqlOrigin, Statement } from '../sql/ast';
import type { CodeModel, CommitCall, ConnectionInfo, ExecutionAction, LoopInfo, SqlExecution } from './types';
import { buildMappedSql, joinTexts, looksLikeSql, type HostText, type TextPiece } from './sqltext';
import type { GrammarName } from './wasm';

export type ParseSqlFn = (text: string, options: { origin: SqlOrigin }) => { statements: Statement[]; comments: Comment[] };

// ---- what the walk collects ------------------------------------------------------------------

export interface Assignment {
  name: string;
  /** File offset where the assignment takes effect. */
  at: number;
  value: Node;
  append: boolean;
  /** The innermost loop around the assignment (appends in a loop make a text unknowable). */
  loop?: LoopInfo;
}

export interface Scope {
  node: Node;
  /** Name of the named function or method this scope is (not set for lambdas and the file). */
  functionName?: string;
  parent?: Scope;
  assignments: Assignment[];
}

export interface CallSite {
  node: Node;
  /** Method or function name (last segment). */
  name: string;
  /** Receiver expression of a method call. */
  receiver?: Node;
  /** Positional arguments. */
  args: Node[];
  /** Keyword arguments (Python) by name. */
  keywords: Map<string, Node>;
}

export interface CallContext {
  call: CallSite;
  scope: Scope;
  loop?: LoopInfo;
  /** Conditions of ifs between the innermost loop (or function) and the call. */
  guards: string[];
  /** Variable the call's result is assigned to, where it is. */
  resultName?: string;
  /** Callback parameters when the call passes a function (node callback style): names in order. */
  callbackParams?: string[];
}

// ---- what adapters report ------------------------------------------------------------------

export type ApiEvent =
  | {
      kind: 'execute';
      api: string;
      action: ExecutionAction;
      /** Where the SQL text comes from (expression node), or a text built by the adapter. */
      sql?: Node | HostText;
      /** The statement handle this call prepares into (prepare) or runs (executePrepared/addBatch/executeBatch). */
      handle?: string;
      connection?: string;
      batched?: boolean;
      /** DB-API execute(sql, params): %s / %(name)s in the text are parameter markers, not formatting. */
      pyformatMarkers?: boolean;
      /** This call runs without autocommit whatever the connection's state (`db2 +c …`). */
      autocommitOff?: boolean;
      /** The text is a whole CLP script (here-document), not one statement. */
      script?: boolean;
    }
  | { kind: 'commit'; api: string; connection?: string }
  | { kind: 'autocommit'; api: string; on: boolean; connection?: string }
  | { kind: 'link'; handle: string; connection: string }
  | { kind: 'paramset'; handle: string; size: number }
  | { kind: 'connect'; api: string; connection: string; autocommit?: boolean };

export interface Evaluator {
  /** The string value of an expression, or undefined when it is not a known string. */
  evaluate(node: Node): HostText | undefined;
  /** Latest value of a variable before `at` (follows simple assignments and appends). */
  variable(name: string, at: number): HostText | undefined;
  splice(node: Node): HostText;
  source: string;
}

export interface LanguageAdapter {
  grammar: GrammarName;
  /** Loop statement node types → loop kind. */
  loops: Record<string, string>;
  /** Named functions and methods: loops outside them do not apply inside. */
  functions: Set<string>;
  /** Lambdas, arrow functions, callbacks: they run where they are passed, loops around them apply. */
  lambdas: Set<string>;
  /** Node types of conditional statements; their `condition` field is the guard. */
  ifs: Set<string>;
  comments: Set<string>;
  calls: Set<string>;
  /** Node types that assign variables. */
  assignmentTypes: Set<string>;
  /** Method names whose callback runs once per element (forEach, map…). */
  loopMethods: Set<string>;
  /** The called method/function name, cheaply (most calls in a file are not database calls). */
  calleeName(node: Node): string | undefined;
  /** Whether a call of that name can matter (database API, string building, loop callbacks). */
  interestingCall(name: string): boolean;
  callSite(node: Node): CallSite | undefined;
  assignments(node: Node): { name: string; value: Node; append: boolean }[];
  /** Assignments made by calls (sprintf(buf, …), strcpy, sb.append(…)). */
  callAssignments?(call: CallSite): { name: string; value: Node; append: boolean }[];
  evaluate(node: Node, ev: Evaluator): HostText | undefined;
  classify(ctx: CallContext, ev: Evaluator): ApiEvent[];
  /** Text of a comment without its delimiters. */
  commentText(raw: string): string;
  /** Default autocommit of a connection by API when the code never switches it. */
  defaultAutocommit(api: string): 'on' | 'off' | 'unknown';
}

// ---- helpers for adapters --------------------------------------------------------------------

/** The last identifier of an expression: conn, this.conn, self.conn, obj->conn → conn. */
export function simpleName(node: Node | null | undefined): string | undefined {
  if (!node) return undefined;
  const text = node.text.trimEnd();
  if (text.length === 0 || text.length > 200 || !/^[\w$.\->\s&*()]+$/.test(text)) return undefined;
  // Scan back over identifier characters (a loop, not a regex with an unanchored start).
  let i = text.length;
  while (i > 0 && /[\w$]/.test(text[i - 1])) i--;
  const name = text.slice(i);
  return /^[A-Za-z_$]/.test(name) ? name : undefined;
}

/**
 * Decodes the characters of a quoted literal between `start` and `end` (file offsets), mapping each
 * decoded character to the offset of its source. `style` says which escapes exist; `splices` are
 * interpolation nodes inside the literal (f-string fields, ${…}, $var) that become spliced values.
 */
export function decodeQuoted(source: string, start: number, end: number, style: 'c' | 'none' | 'bash' | 'python-f', splices: Node[] = []): TextPiece[] {
  const pieces: TextPiece[] = [];
  let text = '';
  let offsets: number[] = [];
  const flush = () => {
    if (text) pieces.push({ kind: 'text', text, offsets });
    text = '';
    offsets = [];
  };
  const sorted = splices.filter((s) => s.startIndex >= start && s.endIndex <= end).sort((a, b) => a.startIndex - b.startIndex);
  let next = 0;
  let i = start;
  while (i < end) {
    if (next < sorted.length && i === sorted[next].startIndex) {
      flush();
      const s = sorted[next++];
      pieces.push({ kind: 'splice', span: innerSpliceSpan(s) });
      i = s.endIndex;
      continue;
    }
    const c = source[i];
    if (c === '\\' && style !== 'none' && i + 1 < end) {
      const d = source[i + 1];
      if (style === 'bash') {
        // In double quotes only \$ \` \" \\ and \newline are escapes.
        if (d === '\n') { i += 2; continue; }
        if ('$`"\\'.includes(d)) { text += d; offsets.push(i); i += 2; continue; }
        text += c; offsets.push(i); i++; continue;
      }
      if (d === '\n' || d === '\r') {
        // Line continuation inside a literal.
        i += d === '\r' && source[i + 2] === '\n' ? 3 : 2;
        continue;
      }
      const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0', v: '\v', a: '\x07', s: ' ' };
      let len = 2;
      let ch = simple[d] ?? d;
      if (d === 'u' && /^[0-9a-fA-F]{4}$/.test(source.slice(i + 2, i + 6))) { ch = String.fromCharCode(parseInt(source.slice(i + 2, i + 6), 16)); len = 6; }
      else if (d === 'x' && /^[0-9a-fA-F]{2}$/.test(source.slice(i + 2, i + 4))) { ch = String.fromCharCode(parseInt(source.slice(i + 2, i + 4), 16)); len = 4; }
      else if (/[0-7]/.test(d)) {
        const m = /^[0-7]{1,3}/.exec(source.slice(i + 1, i + 4))!;
        ch = String.fromCharCode(parseInt(m[0], 8)); len = 1 + m[0].length;
      }
      text += ch; offsets.push(i); i += len; continue;
    }
    if (style === 'python-f' && (c === '{' || c === '}') && source[i + 1] === c) {
      text += c; offsets.push(i); i += 2; continue;
    }
    text += c; offsets.push(i); i++;
  }
  flush();
  return pieces;
}

/** The expression inside an interpolation node: `{x}` → x, `${x}` → x, `$x` → $x as a whole. */
function innerSpliceSpan(node: Node): Span {
  const named = node.namedChildren.filter((c): c is Node => !!c && c.type !== 'format_specifier' && c.type !== 'type_conversion');
  if ((node.type === 'interpolation' || node.type === 'template_substitution') && named.length > 0) {
    return { start: named[0].startIndex, end: named[named.length - 1].endIndex };
  }
  return { start: node.startIndex, end: node.endIndex };
}

/**
 * Replaces format specifiers in a text by the given argument expressions: printf style (%d, %s, %5.2f,
 * %1$s; %% is a percent sign), Python brace style ({} {0} {name}; {{ }} are braces).
 */
export function applyFormat(fmt: HostText, args: Node[], keywords: Map<string, Node>, style: 'printf' | 'brace', spliceOf: (n: Node) => HostText): HostText {
  const out: TextPiece[] = [];
  let auto = 0;
  // Bounded quantifiers: flags, width and precision overlap on digits, so unbounded ones backtrack.
  const pattern = style === 'printf' ? /%(?:(\d{1,3})\$)?[-+ #0,(]{0,6}(?:\d{1,4}|\*)?(?:\.\d{1,4})?(?:hh|h|ll|l|L|q|j|z|t)?([diouxXeEfFgGaAcspnbBhHtT%])/g : /\{\{|\}\}|\{([^{}!:]{0,100})(?:![rsa])?(?::[^{}]{0,100})?\}/g;
  for (const piece of fmt.pieces) {
    if (piece.kind !== 'text') { out.push(piece); continue; }
    let last = 0;
    let text = '';
    let offsets: number[] = [];
    const keep = (from: number, to: number) => {
      text += piece.text.slice(from, to);
      offsets.push(...piece.offsets.slice(from, to));
    };
    const flush = () => {
      if (text) out.push({ kind: 'text', text, offsets });
      text = '';
      offsets = [];
    };
    pattern.lastIndex = 0;
    for (let m = pattern.exec(piece.text); m; m = pattern.exec(piece.text)) {
      keep(last, m.index);
      last = m.index + m[0].length;
      if (m[0] === '%%' || m[0] === '{{' || m[0] === '}}' || (style === 'printf' && m[2] === '%')) {
        text += m[0][0];
        offsets.push(piece.offsets[m.index]);
        continue;
      }
      let arg: Node | undefined;
      if (style === 'printf') arg = m[1] ? args[Number(m[1]) - 1] : args[auto++];
      else {
        const field = (m[1] ?? '').trim();
        if (field === '') arg = args[auto++];
        else if (/^\d+$/.test(field)) arg = args[Number(field)];
        else arg = keywords.get(field.split(/[.[]/)[0]);
      }
      flush();
      if (arg) out.push(...spliceOf(arg).pieces);
      else out.push({ kind: 'splice', span: { start: piece.offsets[m.index], end: piece.offsets[last - 1] + 1 } });
    }
    keep(last, piece.text.length);
    flush();
  }
  return { pieces: out, kind: 'format' };
}

/**
 * `a + b + c …` as a flat list of operands (tree-sitter nests it to the left; long multi-line SQL
 * concatenations would otherwise go deeper than the evaluator's recursion limit). Each operand that is
 * not a known string becomes a spliced value; undefined when no operand is a string.
 */
export function concatenate(node: Node, ev: Evaluator, isPlus: (n: Node) => boolean): HostText | undefined {
  const operands: Node[] = [];
  let n: Node = node;
  while (isPlus(n)) {
    const right = n.childForFieldName('right');
    const left = n.childForFieldName('left');
    if (!left || !right) return undefined;
    operands.push(right);
    n = left;
  }
  operands.push(n);
  operands.reverse();
  const parts = operands.map((o) => ev.evaluate(o));
  if (parts.every((p) => !p)) return undefined;
  return joinTexts(parts.map((p, i) => p ?? ev.splice(operands[i])), 'concatenation');
}

/** The arguments of a call's argument list, comments left out (each grammar names its comment nodes its own way). */
export function argsOf(list: Node | null): Node[] {
  return list ? list.namedChildren.filter((n): n is Node => !!n && n.type !== 'comment' && n.type !== 'line_comment' && n.type !== 'block_comment') : [];
}

/** `sep.join(items)` / `items.join(sep)`: the elements' texts with the separator between them. */
export function joinWithSeparator(elements: readonly (Node | null)[], sep: HostText, ev: Evaluator): HostText {
  const parts: HostText[] = [];
  for (const el of elements) {
    if (!el || el.type === 'comment') continue;
    if (parts.length > 0) parts.push(sep);
    parts.push(ev.evaluate(el) ?? ev.splice(el));
  }
  return joinTexts(parts, 'concatenation');
}

/** The text of a `//` or `/* … *\/` comment without its delimiters (Java, JavaScript, C). */
export function cStyleCommentText(raw: string): string {
  if (raw.startsWith('//')) return raw.slice(2);
  return raw.replace(/^\/\*+/, '').replace(/\*\/$/, '');
}

/** A guard that limits a commit to every n-th row: a modulo, or a comparison with a count or size. */
export function isCountGuard(condition: string): boolean {
  if (condition.includes('%')) return true;
  if (!/(>=|<=|==|!=|>|<|-ge|-gt|-eq)/.test(condition)) return false;
  return /\b(?:count|cnt|batch\w*|size|limit|every|interval|chunk\w*|commit\w*|threshold|max\w*|n_?rows|rows?_?(?:count|since\w*|in\w*)|pending|len|length)\b/i.test(condition) ||
    /\.size\(\)|\.length\b|len\(/.test(condition) ||
    /(>=|==|>|-ge|-eq|-gt)\s*(?:\(\s*)?\d{2,}/.test(condition);
}

// ---- the walk ------------------------------------------------------------------------------

interface Frame {
  /** End offset of the node that opened the frame. */
  end: number;
  kind: 'scope' | 'loop' | 'barrier' | 'guard';
  scope?: Scope;
  loop?: LoopInfo;
  guard?: string;
}

interface Collected {
  calls: CallContext[];
  /** Every call made inside a loop, by callee name (to see helpers that run once per row). */
  loopCalls: Map<string, { loop: LoopInfo; guarded: boolean }>;
  comments: Comment[];
  /** Every scope: the root and one per function. */
  root: Scope;
}

const queries = new WeakMap<LanguageAdapter, Query>();
/** Calls that stand for pre-scanned embedded SQL blocks (see esql.ts). */
const PLACEHOLDER_CALL = /^_E\d+$/;

/** One query that captures every node type the walk looks at (tree-sitter finds them natively). */
function interestingNodes(tree: Tree, adapter: LanguageAdapter): Node[] {
  let query = queries.get(adapter);
  if (!query) {
    const language = tree.language;
    const types = new Set<string>([
      ...Object.keys(adapter.loops),
      ...adapter.functions,
      ...adapter.lambdas,
      ...adapter.ifs,
      ...adapter.comments,
      ...adapter.calls,
      ...adapter.assignmentTypes,
    ]);
    // Only names the grammar knows: a query with an unknown node type does not compile.
    const known = [...types].filter((t) => language.idForNodeType(t, true) !== null);
    query = new Query(language, `[${known.map((t) => `(${t})`).join(' ')}] @n`);
    queries.set(adapter, query);
  }
  return query.captures(tree.rootNode).map((c) => c.node);
}

function collect(tree: Tree, adapter: LanguageAdapter, source: string): Collected {
  const root: Scope = { node: tree.rootNode, assignments: [] };
  // The ancestors (among interesting nodes) of the node being visited, outermost first.
  const frames: Frame[] = [{ end: Number.MAX_SAFE_INTEGER, kind: 'scope', scope: root }];
  const calls: CallContext[] = [];
  const comments: Comment[] = [];
  const loopCalls = new Map<string, { loop: LoopInfo; guarded: boolean }>();

  const currentScope = (): Scope => {
    for (let i = frames.length - 1; i >= 0; i--) if (frames[i].kind === 'scope') return frames[i].scope!;
    return root;
  };
  const innermostLoop = (): { loop?: LoopInfo; guards: string[] } => {
    const guards: string[] = [];
    for (let i = frames.length - 1; i >= 0; i--) {
      const f = frames[i];
      if (f.kind === 'guard') guards.push(f.guard!);
      else if (f.kind === 'loop') return { loop: f.loop, guards };
      else if (f.kind === 'barrier') return { guards };
    }
    return { guards };
  };

  // Captures come in document order, a node before its descendants.
  for (const node of interestingNodes(tree, adapter)) {
    const start = node.startIndex;
    const end = node.endIndex;
    while (frames.length > 1 && frames[frames.length - 1].end <= start) frames.pop();
    const type = node.type;
    if (adapter.comments.has(type)) {
      comments.push({ span: { start, end }, text: adapter.commentText(source.slice(start, end)) });
      continue;
    }
    const loopKind = adapter.loops[type];
    if (loopKind) frames.push({ end, kind: 'loop', loop: { span: { start, end }, kind: loopKind } });
    if (adapter.functions.has(type)) {
      frames.push({ end, kind: 'barrier' });
      frames.push({ end, kind: 'scope', scope: { node, parent: currentScope(), assignments: [], functionName: functionNameOf(node) } });
    } else if (adapter.lambdas.has(type)) {
      frames.push({ end, kind: 'scope', scope: { node, parent: currentScope(), assignments: [] } });
    }
    if (adapter.ifs.has(type)) {
      const condition = node.childForFieldName('condition') ?? (type === 'list' ? node.namedChild(0) : null);
      frames.push({ end, kind: 'guard', guard: condition ? condition.text : '' });
    }
    if (adapter.assignmentTypes.has(type)) {
      const loop = innermostLoop().loop;
      for (const a of adapter.assignments(node)) currentScope().assignments.push({ ...a, at: end, loop });
    }
    if (adapter.calls.has(type)) {
      const name = adapter.calleeName(node);
      const call = name !== undefined && (adapter.interestingCall(name) || adapter.loopMethods.has(name) || PLACEHOLDER_CALL.test(name)) ? adapter.callSite(node) : undefined;
      if (name !== undefined && !loopCalls.has(name)) {
        const { loop, guards } = innermostLoop();
        if (loop) loopCalls.set(name, { loop, guarded: guards.some(isCountGuard) });
      }
      if (call) {
        const { loop, guards } = innermostLoop();
        const scope = currentScope();
        calls.push({ call, scope, loop, guards, resultName: resultNameOf(node), callbackParams: callbackParams(call) });
        if (adapter.callAssignments) {
          for (const a of adapter.callAssignments(call)) scope.assignments.push({ ...a, at: end, loop });
        }
        if (adapter.loopMethods.has(call.name) && call.args.some((a) => adapter.lambdas.has(a.type) || adapter.functions.has(a.type))) {
          frames.push({ end, kind: 'loop', loop: { span: { start, end }, kind: call.name } });
        }
      }
    }
  }
  return { calls, comments, root, loopCalls };
}

/** The name a function or method is declared with (C declarators nest it). */
function functionNameOf(node: Node): string | undefined {
  const name = node.childForFieldName('name');
  if (name) return name.text;
  let d = node.childForFieldName('declarator');
  while (d && d.type !== 'identifier' && d.type !== 'field_identifier') d = d.childForFieldName('declarator');
  return d?.text;
}

/** The named function a scope belongs to. */
function functionScope(scope: Scope): Scope | undefined {
  for (let s: Scope | undefined = scope; s; s = s.parent) if (s.functionName !== undefined) return s;
  return undefined;
}

const WRAPPERS = new Set(['await_expression', 'parenthesized_expression', 'cast_expression', 'as_expression', 'non_null_expression', 'await']);

function resultNameOf(node: Node): string | undefined {
  let child: Node = node;
  let parent = node.parent;
  while (parent && WRAPPERS.has(parent.type)) {
    child = parent;
    parent = parent.parent;
  }
  if (!parent) return undefined;
  switch (parent.type) {
    case 'variable_declarator':
    case 'resource':
    case 'init_declarator':
      return simpleName(parent.childForFieldName('name') ?? parent.childForFieldName('declarator'));
    case 'assignment':
    case 'assignment_expression':
      return parent.childForFieldName('right')?.id === child.id ? simpleName(parent.childForFieldName('left')) : undefined;
    default:
      return undefined;
  }
}

function callbackParams(call: CallSite): string[] | undefined {
  const fn = call.args[call.args.length - 1];
  if (!fn || !/function|lambda|arrow/.test(fn.type)) return undefined;
  const params = fn.childForFieldName('parameters') ?? fn.childForFieldName('parameter');
  if (!params) return undefined;
  if (params.type === 'identifier') return [params.text];
  return params.namedChildren.filter((p): p is Node => !!p).map((p) => simpleName(p.childForFieldName('pattern') ?? p.childForFieldName('name') ?? p) ?? '');
}

// ---- evaluation ------------------------------------------------------------------------------

const MAX_DEPTH = 12;
/** STATUS_NEW, Defaults.STATUS: a constant of another module, the same text every time (not a row value). */
const CONSTANT_NAME = /^(?:[A-Za-z_$][\w$]{0,60}\.){0,4}[A-Z][A-Z0-9_]{1,60}$/;
const MARKER_LIST = /\?|placeholder|\bmarks\b|marker|qmark|\bparams?\b|\bbinds?\b/i;

class HostEvaluator implements Evaluator {
  private depth = 0;
  private readonly active = new Set<string>();
  constructor(
    readonly source: string,
    private readonly adapter: LanguageAdapter,
    private scope: Scope,
  ) {}

  at(scope: Scope): this {
    this.scope = scope;
    return this;
  }

  evaluate(node: Node): HostText | undefined {
    if (this.depth > MAX_DEPTH) return undefined;
    this.depth++;
    try {
      return this.adapter.evaluate(node, this);
    } finally {
      this.depth--;
    }
  }

  splice(node: Node): HostText {
    return { pieces: [{ kind: 'splice', span: { start: node.startIndex, end: node.endIndex } }], kind: 'concatenation' };
  }

  variable(name: string, at: number): HostText | undefined {
    const key = `${name}@${at}`;
    if (this.active.has(key)) return undefined;
    this.active.add(key);
    const saved = this.scope;
    try {
      for (let scope: Scope | undefined = this.scope; scope; scope = scope.parent) {
        const own = scope.assignments.filter((a) => a.name === name);
        if (own.length === 0) continue;
        const inner = scope === saved;
        const before = own.filter((a) => a.at <= at);
        const candidates = before.length > 0 || inner ? before : own;
        let base = -1;
        for (let i = candidates.length - 1; i >= 0; i--) if (!candidates[i].append) { base = i; break; }
        if (base < 0) return undefined;
        const parts: HostText[] = [];
        for (let i = base; i < candidates.length; i++) {
          const a = candidates[i];
          // An append inside a loop that the use is not in repeats an unknown number of times.
          if (a.append && a.loop && !(a.loop.span.start <= at && at <= a.loop.span.end)) return undefined;
          this.scope = scope;
          const value = this.evaluate(a.value);
          // An appended value that is not a known string is spliced in (sb.append(name)).
          if (!value && (!a.append || parts.length === 0)) return undefined;
          parts.push(value ?? this.splice(a.value));
        }
        const joined = joinTexts(parts, parts.length > 1 ? 'concatenation' : parts[0].kind);
        return { pieces: joined.pieces, kind: joined.kind === 'constant' ? 'variable' : joined.kind };
      }
      return undefined;
    } finally {
      this.scope = saved;
      this.active.delete(key);
    }
  }
}

// ---- building the model ----------------------------------------------------------------------

export interface ExtractResult {
  statements: Statement[];
  comments: Comment[];
  code: CodeModel;
}

interface PrepareRecord {
  execution: SqlExecution;
  handle: string;
  at: number;
  scope: Scope;
  connection?: string;
}

/** Runs an adapter over a parsed tree. `extraCalls` lets a pre-scanner (EXEC SQL, #sql) add events. */
export function extractFromTree(
  tree: Tree,
  source: string,
  adapter: LanguageAdapter,
  parseSql: ParseSqlFn,
  hooks: { preEvents?: (ctx: CallContext, ev: Evaluator) => ApiEvent[] | undefined } = {},
): ExtractResult {
  const collected = collect(tree, adapter, source);
  const statements: Statement[] = [];
  const sqlComments: Comment[] = [];
  const executions: SqlExecution[] = [];
  const commits: CommitCall[] = [];
  const handles = new Map<string, string>(); // statement/cursor handle → connection name
  const prepares: PrepareRecord[] = [];
  const autocommitEvents: { connection?: string; at: number; on: boolean; span: Span; scope: Scope }[] = [];
  const connects: { connection: string; api: string; autocommit?: boolean }[] = [];
  const paramsets = new Map<string, number>();
  const commitConnections: { name: string; scope: Scope }[] = [];
  const pending: { execution: SqlExecution; connection?: string; at: number; scope: Scope; handle?: string; autocommitOff?: boolean }[] = [];
  const ev = new HostEvaluator(source, adapter, collected.root);
  // Variables assigned a text built from "?" (a marker list made from the column count).
  let markerVars: Set<string> | undefined;
  const markerVariables = (): Set<string> => {
    if (!markerVars) {
      markerVars = new Set();
      const seen = new Set<Scope>();
      const visit = (scope: Scope) => {
        if (seen.has(scope)) return;
        seen.add(scope);
        for (const a of scope.assignments) if (/["'`]\s*\?\s*(?:,\s*)?["'`]/.test(source.slice(a.value.startIndex, a.value.endIndex))) markerVars!.add(a.name);
      };
      visit(collected.root);
      for (const c of collected.calls) for (let x: Scope | undefined = c.scope; x; x = x.parent) visit(x);
    }
    return markerVars;
  };
  // A call outside any loop in a helper function that a loop of this file calls runs once per pass.
  const helperCaller = (scope: Scope): { loop: LoopInfo; guarded: boolean } | undefined => {
    const fn = functionScope(scope);
    const caller = fn?.functionName !== undefined ? collected.loopCalls.get(fn.functionName) : undefined;
    return caller ? { loop: { ...caller.loop, via: fn!.functionName }, guarded: caller.guarded } : undefined;
  };
  const helperLoop = (scope: Scope): LoopInfo | undefined => helperCaller(scope)?.loop;
  // A call in a helper that the loop calls under a counter guard (if (n >= 1000) flush()) is guarded too.
  const guardedAt = (ctx: CallContext): boolean => ctx.guards.some(isCountGuard) || (!ctx.loop && (helperCaller(ctx.scope)?.guarded ?? false));

  const textOf = (sql: Node | HostText | undefined, pyformat: boolean): { host?: HostText } => {
    if (!sql) return {};
    const host = 'pieces' in sql ? sql : ev.evaluate(sql);
    if (!host) return {};
    if (!pyformat) return { host };
    // DB-API paramstyle format/pyformat: %s and %(name)s are markers; show them to the SQL parser as ?.
    const pieces = host.pieces.map((p): TextPiece => {
      if (p.kind !== 'text') return p;
      const text = p.text.replace(/%\((\w+)\)s|%s/g, (m) => '?' + ' '.repeat(m.length - 1));
      return { ...p, text };
    });
    return { host: { pieces, kind: host.kind } };
  };

  for (const ctx of collected.calls) {
    ev.at(ctx.scope);
    const events = hooks.preEvents?.(ctx, ev) ?? adapter.classify(ctx, ev);
    const span: Span = { start: ctx.call.node.startIndex, end: ctx.call.node.endIndex };
    for (const e of events) {
      switch (e.kind) {
        case 'link':
          handles.set(e.handle, e.connection);
          break;
        case 'connect':
          connects.push({ connection: e.connection, api: e.api, autocommit: e.autocommit });
          if (e.autocommit !== undefined) autocommitEvents.push({ connection: e.connection, at: span.start, on: e.autocommit, span, scope: ctx.scope });
          break;
        case 'autocommit':
          autocommitEvents.push({ connection: e.connection, at: span.start, on: e.on, span, scope: ctx.scope });
          break;
        case 'paramset':
          paramsets.set(e.handle, Math.max(paramsets.get(e.handle) ?? 0, e.size));
          break;
        case 'commit':
          commits.push({ callSpan: span, api: e.api, loop: ctx.loop ?? helperLoop(ctx.scope), guarded: guardedAt(ctx) });
          if (e.connection) commitConnections.push({ name: e.connection, scope: ctx.scope });
          break;
        case 'execute': {
          const { host } = textOf(e.sql, e.pyformatMarkers ?? false);
          let stmts: Statement[] = [];
          let textKind: SqlExecution['textKind'] = host ? host.kind : 'unknown';
          const splicedValues: Span[] = [];
          let connection = e.connection;
          if (host) {
            const mapped = buildMappedSql(host);
            for (const s of mapped.splices) {
              // A spliced list of markers ("?, ?, ?" built from the column count) is not a value.
              const expr = source.slice(s.fileSpan.start, s.fileSpan.end);
              if (!MARKER_LIST.test(expr) && !CONSTANT_NAME.test(expr) && !markerVariables().has(expr)) splicedValues.push(s.fileSpan);
            }
            if (looksLikeSql(mapped.text)) {
              const parsed = parseSql(mapped.text, { origin: mapped.origin });
              // Text pieced together at run time that does not parse was guessed wrong, not written wrong.
              stmts = mapped.splices.length > 0 && parsed.statements.some((st) => st.parseError) ? [] : parsed.statements;
              statements.push(...stmts);
              for (const c of parsed.comments) sqlComments.push({ span: { start: mapped.origin.toFile(c.span.start), end: mapped.origin.toFile(c.span.end) }, text: c.text });
            }
          }
          let prepare: PrepareRecord | undefined;
          if ((e.action === 'executePrepared' || e.action === 'addBatch' || e.action === 'executeBatch' || e.action === 'executeMany') && e.handle && !e.sql) {
            prepare = latestPrepare(prepares, e.handle, span.start, ctx.scope);
            if (prepare) {
              stmts = prepare.execution.statements;
              textKind = prepare.execution.textKind;
              connection ??= prepare.connection;
            }
          }
          if (!connection && e.handle) connection = handles.get(e.handle);
          if (connection && handles.has(connection)) connection = handles.get(connection);
          const execution: SqlExecution = {
            callSpan: span,
            api: e.api,
            action: e.action,
            statements: stmts,
            textKind,
            splicedValues: prepare ? [] : splicedValues,
            loop: ctx.loop ?? helperLoop(ctx.scope),
            batched: e.batched ?? (e.action === 'addBatch' || e.action === 'executeBatch' || e.action === 'executeMany'),
          };
          if (prepare) execution.preparedAt = prepare.execution.callSpan;
          if (guardedAt(ctx)) execution.guarded = true;
          if (e.script) {
            execution.script = true;
            // COMMIT statements inside a here-document are commits at their place in the loop.
            for (const st of stmts) {
              if (st.kind === 'commit') commits.push({ callSpan: { start: st.origin.toFile(st.span.start), end: st.origin.toFile(st.span.end) }, api: e.api, loop: execution.loop, guarded: execution.guarded ?? false });
            }
          }
          executions.push(execution);
          if (e.action === 'prepare' && e.handle) prepares.push({ execution, handle: e.handle, at: span.start, scope: ctx.scope, connection });
          pending.push({ execution, connection, at: span.start, scope: ctx.scope, handle: e.handle, autocommitOff: e.autocommitOff });
          break;
        }
      }
    }
  }

  // Autocommit and array sizes are known only once every call is seen (a helper may switch it).
  for (const p of pending) {
    const { execution } = p;
    if (p.handle && (paramsets.get(p.handle) ?? 0) > 1 && execution.action === 'executePrepared') execution.batched = true;
    const handleOfPrepare = execution.preparedAt ? prepares.find((r) => r.execution.callSpan === execution.preparedAt)?.handle : undefined;
    if (handleOfPrepare && (paramsets.get(handleOfPrepare) ?? 0) > 1 && execution.action === 'executePrepared') execution.batched = true;
    execution.connection = p.autocommitOff ? { name: p.connection, autocommit: 'off', autocommitSpan: execution.callSpan } : connectionState(p.connection, p.at, p.scope, execution.api);
  }

  function connectionState(name: string | undefined, at: number, scope: Scope, api: string): ConnectionInfo {
    const relevant = autocommitEvents.filter((e) => !name || !e.connection || e.connection === name);
    // Latest switch before the call in the same function or an enclosing one; else any in the file
    // (a constructor or an init method switched it); else the driver's default.
    const enclosing = (s: Scope) => {
      for (let x: Scope | undefined = scope; x; x = x.parent) if (x === s) return true;
      return false;
    };
    const before = relevant.filter((e) => e.at < at && enclosing(e.scope));
    // A connection held in a local variable of this function is not the one another function switched.
    const local = name !== undefined && declaredIn(scope, name);
    const chosen = before.length > 0 ? before[before.length - 1] : local ? undefined : relevant.find((e) => !enclosing(e.scope));
    if (chosen) return { name, autocommit: chosen.on ? 'on' : 'off', autocommitSpan: chosen.span };
    const connect = connects.find((c) => c.connection === name);
    let state = adapter.defaultAutocommit(connect?.api ?? api);
    // A connection that comes from elsewhere (parameter, field) while this file switches some
    // connection off may well be that one: do not guess.
    if (state === 'on' && !local && !connect && autocommitEvents.some((e) => !e.on)) state = 'unknown';
    // JDBC refuses commit() in autocommit mode: code that commits has switched it off somewhere.
    if (state === 'on' && api === 'jdbc' && commitConnections.some((c) => (!name || c.name === name) && (enclosing(c.scope) || !local))) state = 'unknown';
    return { name, autocommit: state };
  }

  statements.sort((a, b) => a.origin.toFile(a.span.start) - b.origin.toFile(b.span.start));
  const comments = [...collected.comments, ...sqlComments].sort((a, b) => a.span.start - b.span.start);
  return { statements: dedupe(statements), comments, code: { executions, commits } };
}

/** True when `name` is assigned in the function that `scope` belongs to (lambdas included). */
function declaredIn(scope: Scope, name: string): boolean {
  for (let x: Scope | undefined = scope; x && x.parent; x = x.parent) {
    if (x.assignments.some((a) => a.name === name && !a.append)) return true;
  }
  return false;
}

function dedupe(statements: Statement[]): Statement[] {
  const seen = new Set<Statement>();
  return statements.filter((s) => (seen.has(s) ? false : (seen.add(s), true)));
}

function latestPrepare(prepares: PrepareRecord[], handle: string, at: number, scope: Scope): PrepareRecord | undefined {
  const inScope = (s: Scope) => {
    for (let x: Scope | undefined = scope; x; x = x.parent) if (x === s) return true;
    return false;
  };
  let best: PrepareRecord | undefined;
  for (const p of prepares) {
    if (p.handle !== handle) continue;
    if (p.at <= at && inScope(p.scope)) best = p;
  }
  return best ?? prepares.filter((p) => p.handle === handle).pop();
}

