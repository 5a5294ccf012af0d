// The walk over a parsed host file: one tree-sitter query captures the node types an adapter cares about
// (calls, loops, functions, lambdas, ifs, assignments, comments) in document order, and the nesting is
// rebuilt from their spans: each call gets its scope chain, its innermost loop (a named function is a
// barrier; a lambda passed to forEach/map is a loop) and the conditions of the ifs between them.
import type { Language, Node, Tree } from 'web-tree-sitter';
import type { Comment, Span } from '../sql/ast';
import { LineIndex } from '../engine/lines';
import type { LoopInfo } from '../code-model/types';
import { addAssignment, isCountGuard, newScope, scopesNaming, simpleName, type CallContext, type CallSite, type LanguageAdapter, type Scope } from './adapter';
import { DEEP_NESTING, indexParents, parentOf } from './parents';
import { checkDeadline } from '../engine/deadline';

export interface Walked {
  calls: CallContext[];
  /**
   * The loops that call each callee name, in the order of their first call of it (to see helpers that run once per
   * row), each with whether that first call is under a counter guard.
   */
  loopCalls: Map<string, { loop: LoopInfo; guarded: boolean }[]>;
  /** Method calls made inside a loop on a named receiver (`ts.createQuote(...)`), first of each name and receiver. */
  loopMethodCalls: { name: string; receiver: string; loop: LoopInfo; guarded: boolean }[];
  /**
   * Calls of a function declared in this file from another named function, outside loops, on no receiver or
   * `this` (`buy()` calling `createOrder(...)`), each pair once; only where the language's declared types are read
   * (Java): a loop another file lends to the caller reaches the callee (engine/cross-file.ts).
   */
  innerCalls: { caller: string; callee: string; span: Span; conditions: number }[];
  /**
   * Where the adapter links files by free functions (LanguageAdapter.linksFunctions, C/C++): the functions defined
   * here, and the calls of functions by plain name, once per calling function outside loops (`from`) and once per
   * loop inside one (`loop`), in document order (CodeModel.functions, functionCalls).
   */
  definitions?: { name: string; exported: boolean }[];
  functionCalls?: { name: string; span: Span; from?: string; loop?: LoopInfo; guarded?: boolean }[];
  /** Where the adapter links modules (LanguageAdapter.linksModules, Python): module-level functions, and calls in loops as written. */
  moduleFunctions?: { name: string; span: Span }[];
  moduleCalls?: { callee: string; loop: LoopInfo; guarded: boolean }[];
  comments: Comment[];
  /** The file's scope; named functions and lambdas are its descendants. */
  root: Scope;
  /** Named function scopes by name (a name may be declared more than once: overloads). */
  functions: Map<string, Scope[]>;
  /** Loop statements with the scope they are in (model.ts works out constant pass counts). */
  loops: { info: LoopInfo; node: Node; scope: Scope }[];
  /** The nodes of the adapter's `declarations` types, in document order. */
  declarations: Node[];
  /** The values named functions return (LanguageAdapter.returns), with the function's scope, in document order. */
  returns: { value: Node; scope: Scope }[];
}

interface Frame {
  /** End offset of the node that opened the frame. */
  end: number;
  kind: 'scope' | 'loop' | 'barrier' | 'guard';
  scope?: Scope;
  /**
   * For loop, barrier and guard frames, what a call inside the frame sees, worked out as the frame opens (an
   * `else if` chain nests 8,000 guards deep, and collecting them for every call was quadratic): the innermost loop
   * (none past a function's barrier), the ifs between it and here, and whether one of them is a counter check.
   */
  loop?: LoopInfo;
  conditions?: number;
  counted?: boolean;
}

/** A name, or names joined by dots (`dao.save_row`): no call, subscript or white space in it. */
const DOTTED_NAME = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$/;

/** Word characters from where it is set (past 200, no callee: noteModuleCall). */
const LEADING_NAME = /\w{0,201}/y;

/** The first name of a dotted callee starting at `start` (`dao` of `dao.save_row`). */
function leadingName(source: string, start: number): string {
  LEADING_NAME.lastIndex = start;
  return LEADING_NAME.exec(source)![0];
}

/** Calls that stand for pre-scanned embedded SQL blocks (see languages/esql.ts). */
const PLACEHOLDER_CALL = /^_E\d+$/;
/**
 * Names of calls that may run SQL through a wrapper (execSQL, runQuery, _prepare_and_execute, ida_query):
 * collected so that one given an SQL text counts (model.ts decides), whatever the driver behind it.
 */
export const USAGE_CALL = /exec|query|sql|prepare/i;
/** ...but not assertions, loggers and builders that only look at SQL text. */
export const NOT_RUNNING_SQL = /^_*(?:expect|assert|check|verify|log|print|debug|info|warn|trace|format|build|generate|parse|quote|escape|to|is|get)/i;

/** The node types the walk looks at, per adapter and language, and which of them also name an anonymous token. */
interface InterestingTypes {
  types: string[];
  /** Types that are also an anonymous token's text (Python's `lambda` node and `lambda` keyword): only named nodes count. */
  alsoTokens: Set<string>;
}

const interestingTypes = new WeakMap<LanguageAdapter, WeakMap<Language, InterestingTypes>>();

function interestingTypesOf(adapter: LanguageAdapter, language: Language): InterestingTypes {
  let byLanguage = interestingTypes.get(adapter);
  if (!byLanguage) interestingTypes.set(adapter, (byLanguage = new WeakMap()));
  let found = byLanguage.get(language);
  if (!found) {
    const names = new Set([...Object.keys(adapter.loops), ...adapter.functions, ...adapter.lambdas, ...adapter.ifs, ...adapter.comments, ...adapter.calls, ...adapter.assignmentTypes, ...(adapter.declarations ?? []), ...(adapter.returns ?? [])]);
    const types = [...names].filter((type) => language.idForNodeType(type, true) !== null);
    found = { types, alsoTokens: new Set(types.filter((type) => language.idForNodeType(type, false) !== null)) };
    byLanguage.set(language, found);
  }
  return found;
}

/** The nodes the walk looks at, in document order (a node before its descendants), with their types and ends. */
interface InterestingNodes {
  nodes: Node[];
  /** `types[i]` is `nodes[i].type`, `ends[i]` its `endIndex`: each a call into wasm, made once per node. */
  types: string[];
  ends: number[];
}

/**
 * The named nodes of every type the walk looks at. `descendantsOfType` walks the tree inside the wasm
 * module in one call: a tree-sitter query does the same but grows quadratically in deep trees (a Python
 * text concatenated from 80,000 values never finished), and a TreeCursor driven from JavaScript pays a call
 * into wasm and back for every move over every node (80% of the walk on ordinary files).
 */
function interestingNodes(trees: readonly Tree[], adapter: LanguageAdapter): InterestingNodes {
  if (trees.length === 1) return interestingNodesOf(trees[0], adapter);
  // Trees of disjoint parts of one text (a shell script read piece by piece): each tree's nodes are in document
  // order, so a stable sort by start merges them into document order, a node still before its descendants.
  const parts = trees.map((tree) => interestingNodesOf(tree, adapter));
  const all: { node: Node; type: string; end: number; start: number }[] = [];
  for (const { nodes, types, ends } of parts) for (let i = 0; i < nodes.length; i++) all.push({ node: nodes[i], type: types[i], end: ends[i], start: nodes[i].startIndex });
  all.sort((a, b) => a.start - b.start);
  return { nodes: all.map((n) => n.node), types: all.map((n) => n.type), ends: all.map((n) => n.end) };
}

function interestingNodesOf(tree: Tree, adapter: LanguageAdapter): InterestingNodes {
  const { types: wanted, alsoTokens } = interestingTypesOf(adapter, tree.language);
  const found = tree.rootNode.descendantsOfType(wanted);
  const nodes: Node[] = [];
  const types: string[] = [];
  const ends: number[] = [];
  for (const node of found) {
    if (!node) continue;
    const type = node.type;
    if (alsoTokens.has(type) && !node.isNamed) continue;
    nodes.push(node);
    types.push(type);
    ends.push(node.endIndex);
  }
  return { nodes, types, ends };
}

/** How deeply the nodes nest in one another (starts and ends in document order, a node before its descendants). */
function nestingOf(nodes: readonly Node[], ends: readonly number[]): number {
  const open: number[] = [];
  let deepest = 0;
  for (let i = 0; i < nodes.length; i++) {
    const start = nodes[i].startIndex;
    while (open.length > 0 && open[open.length - 1] <= start) open.pop();
    open.push(ends[i]);
    if (open.length > deepest) deepest = open.length;
  }
  return deepest;
}

/**
 * Walks a file's tree, or the trees of disjoint parts of it (a shell script read piece by piece: languages/shell-read.ts),
 * the first of them spanning the whole file, as one file: one scope for the file, the calls in document order.
 */
export function walkTree(trees: Tree | readonly Tree[], adapter: LanguageAdapter, source: string, moduleCallHeads?: ReadonlySet<string>): Walked {
  const list: readonly Tree[] = isTreeList(trees) ? trees : [trees];
  const root = newScope(list[0].rootNode, undefined);
  // Each tree's root spans its part only: the file's scope spans the file.
  if (list.length > 1) {
    root.start = 0;
    root.end = source.length;
  }
  const { nodes, types, ends } = interestingNodes(list, adapter);
  if (nestingOf(nodes, ends) > DEEP_NESTING) for (const tree of list) indexParents(tree);
  const walk = new TreeWalk(adapter, source, root, declaredFunctions(adapter, nodes, types), moduleCallHeads);
  // Captures come in document order, a node before its descendants.
  for (let i = 0; i < nodes.length; i++) {
    if ((i & 255) === 255) checkDeadline();
    walk.visit(nodes[i], types[i], ends[i]);
  }
  return walk.walked();
}

/** The names of the functions declared in the file: calls of them are collected too (one may wrap a database call). */
function declaredFunctions(adapter: LanguageAdapter, nodes: readonly Node[], types: readonly string[]): Set<string> {
  const declared = new Set<string>();
  for (let i = 0; i < nodes.length; i++) {
    const name = adapter.functions.has(types[i]) ? functionNameOf(nodes[i]) : adapter.memberName && adapter.lambdas.has(types[i]) ? adapter.memberName(nodes[i]) : undefined;
    if (name) declared.add(name);
  }
  return declared;
}

/** One walk over a file's interesting nodes: the frames open at the node it visits, and what it has collected. */
class TreeWalk {
  /**
   * The ancestors (among interesting nodes) of the node being visited, outermost first: scopes apart from
   * loops, guards and function barriers, so that neither lookup walks past frames of the other kind (a
   * walk through 10,000 nested callbacks for every call was quadratic).
   */
  private readonly scopes: Frame[];
  private readonly frames: Frame[] = [];
  private readonly lines: LineIndex;
  // The same guard texts come up for every call in a loop body: each is classified once.
  private readonly countGuards = new Map<string, boolean>();
  private readonly seenMethodCalls = new Set<string>();
  private readonly seenInnerCalls = new Set<string>();
  private readonly seenFunctionCalls = new Set<string>();
  private readonly calls: CallContext[] = [];
  private readonly comments: Comment[] = [];
  private readonly loopCalls = new Map<string, { loop: LoopInfo; guarded: boolean }[]>();
  /** Name and loop start of each loopCalls entry: one entry per loop, however often it calls the name. */
  private readonly loopCallSeen = new Set<string>();
  private readonly loopMethodCalls: Walked['loopMethodCalls'] = [];
  private readonly innerCalls: Walked['innerCalls'] = [];
  private readonly functions = new Map<string, Scope[]>();
  private readonly definitions: NonNullable<Walked['definitions']> = [];
  private readonly functionCalls: NonNullable<Walked['functionCalls']> = [];
  private readonly moduleFunctions: NonNullable<Walked['moduleFunctions']> = [];
  private readonly moduleCalls: NonNullable<Walked['moduleCalls']> = [];
  private readonly seenModuleCalls = new Set<string>();
  /** The starts of the module-level functions (Python). */
  private readonly moduleLevel = new Set<number>();
  private readonly loops: Walked['loops'] = [];
  private readonly declarations: Node[] = [];
  private readonly returns: Walked['returns'] = [];

  constructor(
    private readonly adapter: LanguageAdapter,
    private readonly source: string,
    private readonly root: Scope,
    /** Functions declared in the file (declaredFunctions). */
    private readonly declared: Set<string>,
    /** The names a module call's callee starts with (ExtractHooks.moduleCallHeads); undefined: any. */
    private readonly moduleCallHeads?: ReadonlySet<string>,
  ) {
    this.scopes = [{ end: Number.MAX_SAFE_INTEGER, kind: 'scope', scope: root }];
    this.lines = new LineIndex(source);
  }

  /** Visits the next node in document order: closes the frames that end before it, then reads it. */
  visit(node: Node, type: string, end: number): void {
    const { adapter, scopes, frames } = this;
    const start = node.startIndex;
    while (scopes.length > 1 && scopes[scopes.length - 1].end <= start) scopes.pop();
    while (frames.length > 0 && frames[frames.length - 1].end <= start) frames.pop();
    if (adapter.declarations?.has(type)) this.declarations.push(node);
    if (adapter.comments.has(type)) {
      this.comments.push({ span: { start, end }, text: adapter.commentText(this.source.slice(start, end)) });
      return;
    }
    const loopKind = adapter.loops[type];
    if (loopKind) this.openLoop(node, loopKind);
    if (adapter.functions.has(type)) {
      this.openFunction(node, end, functionNameOf(node));
    } else if (adapter.lambdas.has(type)) {
      // A lambda bound to a class member (`insertQuery = (row) => ...`) is a method by that name.
      const member = adapter.memberName?.(node);
      if (member !== undefined) this.openFunction(node, end, member);
      else scopes.push({ end, kind: 'scope', scope: newScope(node, this.currentScope()) });
    }
    if (adapter.ifs.has(type)) {
      const condition = node.childForFieldName('condition') ?? (type === 'list' ? node.namedChild(0) : null);
      this.openGuard(end, condition ? condition.text : '');
    }
    if (adapter.assignmentTypes.has(type)) {
      const assigned = adapter.assignments(node);
      if (assigned.length > 0) {
        const loop = this.loopAround();
        const scope = this.currentScope();
        for (const a of assigned) addAssignment(scope, { name: a.name, value: a.value, append: a.append, at: end, loop });
      }
    }
    if (adapter.calls.has(type)) this.readCall(node, end);
    if (adapter.returns?.has(type)) this.readReturn(node);
  }

  /** `return <expr>` in a named function itself (not in a callback it holds): the value its callers get. */
  private readReturn(node: Node): void {
    const scope = this.currentScope();
    const value = node.namedChildren.find((c): c is Node => !!c && !this.adapter.comments.has(c.type));
    if (scope.functionName !== undefined && value) this.returns.push({ value, scope });
  }

  walked(): Walked {
    const { calls, comments, root, loopCalls, loopMethodCalls, innerCalls, functions, loops, declarations, returns } = this;
    const walked: Walked = { calls, comments, root, loopCalls, loopMethodCalls, innerCalls, functions, loops, declarations, returns };
    if (this.adapter.linksFunctions) {
      walked.definitions = this.definitions;
      walked.functionCalls = this.functionCalls;
    }
    if (this.adapter.linksModules) {
      walked.moduleFunctions = this.moduleFunctions;
      walked.moduleCalls = this.moduleCalls;
    }
    return walked;
  }

  private currentScope(): Scope {
    return this.scopes[this.scopes.length - 1].scope!;
  }

  /** The innermost loop around the node being visited (within its function), the ifs since, and if one counts. */
  private innermostLoop(): { loop?: LoopInfo; conditions: number; counted: boolean } {
    const top = this.frames[this.frames.length - 1];
    return top ? { loop: top.loop, conditions: top.conditions ?? 0, counted: top.counted ?? false } : { conditions: 0, counted: false };
  }

  private loopAround(): LoopInfo | undefined {
    return this.frames[this.frames.length - 1]?.loop;
  }

  /** Opens the frame of an if: inside it, the loop around it and one condition more. */
  private openGuard(end: number, guard: string): void {
    const top = this.frames[this.frames.length - 1];
    this.frames.push({ end, kind: 'guard', loop: top?.loop, conditions: (top?.conditions ?? 0) + 1, counted: (top?.counted ?? false) || this.countGuard(guard) });
  }

  private countGuard(guard: string): boolean {
    let counted = this.countGuards.get(guard);
    if (counted === undefined) this.countGuards.set(guard, (counted = isCountGuard(guard)));
    return counted;
  }

  private openLoop(node: Node, kind: string): void {
    const info: LoopInfo = { span: { start: node.startIndex, end: node.endIndex }, kind, line: this.lines.position(node.startIndex).line + 1 };
    this.frames.push({ end: node.endIndex, kind: 'loop', loop: info, conditions: 0, counted: false });
    this.loops.push({ info, node, scope: this.currentScope() });
  }

  /**
   * A named function: a scope of its own, and a barrier no loop around it reaches past. A lambda's expression body
   * (`insertQuery = (row) => `INSERT ...``) is what it returns.
   */
  private openFunction(node: Node, end: number, name: string | undefined): void {
    const scope = newScope(node, this.currentScope(), { functionName: name, params: parameterNames(node) });
    this.frames.push({ end, kind: 'barrier', conditions: 0, counted: false });
    this.scopes.push({ end, kind: 'scope', scope });
    if (name !== undefined && this.adapter.returns && this.adapter.lambdas.has(node.type)) {
      const body = node.childForFieldName('body');
      if (body && !/block/.test(body.type)) this.returns.push({ value: body, scope });
    }
    if (scope.functionName) this.functions.set(scope.functionName, [...(this.functions.get(scope.functionName) ?? []), scope]);
    if (this.adapter.linksFunctions && scope.functionName) this.definitions.push({ name: scope.functionName, exported: !isStatic(node) });
    // A `def` in the first column is at module level (Python's indentation): not a method, not a nested function.
    if (this.adapter.linksModules && scope.functionName && this.lines.position(node.startIndex).column === 0) {
      this.moduleFunctions.push({ name: scope.functionName, span: { start: node.startIndex, end } });
      this.moduleLevel.add(node.startIndex);
    }
  }

  private noteLoopCall(name: string, loop: LoopInfo, guarded: boolean): void {
    const key = `${name}\u0000${loop.span.start}`;
    if (this.loopCallSeen.has(key)) return;
    this.loopCallSeen.add(key);
    const callers = this.loopCalls.get(name);
    if (callers) callers.push({ loop, guarded });
    else this.loopCalls.set(name, [{ loop, guarded }]);
  }

  /** A call: noted where a loop or another file may need it, and kept with its context when it may run SQL. */
  private readCall(node: Node, end: number): void {
    const adapter = this.adapter;
    const name = adapter.calleeName(node);
    if (name === undefined) return;
    const top = this.frames[this.frames.length - 1];
    const loop = top?.loop;
    if (loop) this.noteLoopCall(name, loop, top.counted ?? false);
    // obj.method(...) in a loop, obj a plain name: another file's class may define the method (CodeModel.loopCalls).
    // Only for a language whose declared types the model reads (Java): no lookup per call for the others. The
    // receiver is looked up only where one of the two can use it (each node asked of wasm costs about a microsecond).
    const declared = adapter.declaredTypes !== undefined && this.declared.has(name);
    const receiver = adapter.declaredTypes && (loop || declared) ? node.childForFieldName('object') : null;
    const receiverType = receiver?.type;
    if (declared && (!receiver || receiverType === 'this')) this.noteInnerCall(node, name);
    // Python: a module-level function's call of another by plain name (save_row() calling _commit()).
    else if (adapter.linksModules && !loop && this.declared.has(name) && this.moduleLevel.has(this.currentScope().fn?.start ?? -1) && node.childForFieldName('function')?.type === 'identifier') this.noteInnerCall(node, name);
    if (loop && receiverType === 'identifier') {
      const receiverName = receiver!.text;
      const key = `${name}.${receiverName}`;
      if (!this.seenMethodCalls.has(key)) {
        this.seenMethodCalls.add(key);
        this.loopMethodCalls.push({ name, receiver: receiverName, loop, guarded: top.counted ?? false });
      }
    }
    if (adapter.linksFunctions && node.childForFieldName('function')?.type === 'identifier' && !PLACEHOLDER_CALL.test(name)) this.noteFunctionCall(node, name, end);
    if (loop && adapter.linksModules) this.noteModuleCall(node, name, loop, top.counted ?? false);
    const call = this.wanted(name) ? adapter.callSite(node) : undefined;
    if (call) this.addCall(node, call, end);
  }

  /** A call of a function of this file from another named function, outside loops: each pair once (Walked.innerCalls). */
  private noteInnerCall(node: Node, name: string): void {
    const caller = this.currentScope().fn?.functionName;
    if (caller !== undefined && caller !== name && !this.seenInnerCalls.has(`${caller}\0${name}`) && !this.innermostLoop().loop) {
      this.seenInnerCalls.add(`${caller}\0${name}`);
      this.innerCalls.push({ caller, callee: name, span: { start: node.startIndex, end: node.endIndex }, conditions: this.innermostLoop().conditions });
    }
  }

  /**
   * f(...) by plain name (C/C++): the function may be another file's (engine/called-inserts.ts). Each name once
   * per calling function outside loops, and once per loop inside one.
   */
  private noteFunctionCall(node: Node, name: string, end: number): void {
    const { loop, counted } = this.innermostLoop();
    const from = this.currentScope().fn?.functionName;
    const key = loop ? `${loop.span.start}\0${name}` : `${from ?? ''}\0\0${name}`;
    if ((loop || from !== undefined) && !this.seenFunctionCalls.has(key)) {
      this.seenFunctionCalls.add(key);
      const span = { start: node.startIndex, end };
      this.functionCalls.push(loop ? { name, span, from, loop, guarded: counted } : { name, span, from });
    }
  }

  /**
   * f(...) or a.b.f(...) in a loop (Python): another module may define f (Walked.moduleCalls). Each callee once per
   * loop. Where the heads are known, only a callee whose first name is one of them: its text is fetched for those
   * alone (`name`, what calleeName gave: a plain callee's own text).
   */
  private noteModuleCall(node: Node, name: string, loop: LoopInfo, guarded: boolean): void {
    const heads = this.moduleCallHeads;
    if (heads?.size === 0) return;
    const fn = node.childForFieldName('function');
    const type = fn?.type;
    if (type !== 'identifier' && type !== 'attribute') return;
    if (heads && !heads.has(type === 'identifier' ? name : leadingName(this.source, fn!.startIndex))) return;
    const callee = fn!.text;
    if (callee.length > 200 || !DOTTED_NAME.test(callee)) return;
    const key = `${loop.span.start}\0${callee}`;
    if (this.seenModuleCalls.has(key)) return;
    this.seenModuleCalls.add(key);
    this.moduleCalls.push({ callee, loop, guarded });
  }

  /** Whether a call of `name` may run SQL, or lead to a call that does. */
  private wanted(name: string): boolean {
    const adapter = this.adapter;
    return adapter.interestingCall(name) || adapter.loopMethods.has(name) || PLACEHOLDER_CALL.test(name) || this.declared.has(name) || (USAGE_CALL.test(name) && !NOT_RUNNING_SQL.test(name));
  }

  /** A call that may run SQL, with its scope, loop and guards; a loop method given a callback (forEach) opens a loop. */
  private addCall(node: Node, call: CallSite, end: number): void {
    const adapter = this.adapter;
    const { loop, conditions, counted } = this.innermostLoop();
    const scope = this.currentScope();
    this.calls.push(new WalkedCall(call, scope, loop, conditions, counted, callbackParams(call)));
    if (adapter.callAssignments) {
      for (const a of adapter.callAssignments(call)) addAssignment((a.enclosing && scopesNaming(scope, a.name)[0]) || scope, { name: a.name, value: a.value, append: a.append, at: end, loop });
    }
    if (adapter.loopMethods.has(call.name) && call.args.some((a) => adapter.lambdas.has(a.type) || adapter.functions.has(a.type))) this.openLoop(node, call.name);
  }
}

/**
 * A call kept with its context. The variable its result is assigned to is looked up when a classifier first asks
 * (a connect, a prepare: few calls), not for every call kept: the lookup goes through the node's parents, which
 * web-tree-sitter finds by walking down from the root. (Asked while the tree is alive: model.ts, during the read.)
 */
class WalkedCall implements CallContext {
  private result?: { name: string | undefined };

  constructor(
    readonly call: CallSite,
    readonly scope: Scope,
    readonly loop: LoopInfo | undefined,
    readonly conditions: number,
    readonly countGuarded: boolean,
    readonly callbackParams: string[] | undefined,
  ) {}

  get resultName(): string | undefined {
    this.result ??= { name: resultNameOf(this.call.node) };
    return this.result.name;
  }
}

function isTreeList(trees: Tree | readonly Tree[]): trees is readonly Tree[] {
  return Array.isArray(trees);
}

/** A C/C++ function definition declared `static` (visible in its own file only), or a C++ method in a class body. */
function isStatic(node: Node): boolean {
  for (const child of node.children) if (child?.type === 'storage_class_specifier' && child.text === 'static') return true;
  return parentOf(node)?.type === 'field_declaration_list';
}

/** The name a function or method is declared with (C declarators nest it). */
function functionNameOf(node: Node): string | undefined {
  const name = node.childForFieldName('name');
  if (name) return name.text;
  let d = node.childForFieldName('declarator');
  while (d && d.type !== 'identifier' && d.type !== 'field_identifier') d = d.childForFieldName('declarator');
  return d?.text;
}

/** Parameter names of a function in order (Java, Python, JS/TS, C declarators). */
function parameterNames(node: Node): string[] | undefined {
  let params = node.childForFieldName('parameters');
  for (let d = node.childForFieldName('declarator'); !params && d; d = d.childForFieldName('declarator')) params = d.childForFieldName('parameters');
  if (!params) {
    // JavaScript's `row => ...`: one parameter without parentheses.
    const one = node.childForFieldName('parameter');
    return one?.type === 'identifier' ? [one.text] : undefined;
  }
  const names: string[] = [];
  for (const p of params.namedChildren) {
    if (!p || /comment/.test(p.type)) continue;
    if (p.type === 'identifier') {
      names.push(p.text);
      continue;
    }
    let id: Node | null = p.childForFieldName('name') ?? p.childForFieldName('pattern') ?? p.childForFieldName('declarator');
    // Python's typed_parameter has no name field: its first identifier is the name.
    id ??= p.namedChildren.find((c): c is Node => c?.type === 'identifier') ?? null;
    while (id && id.childForFieldName('declarator')) id = id.childForFieldName('declarator');
    names.push(simpleName(id) ?? '');
  }
  return names;
}

const RESULT_WRAPPERS = new Set(['await_expression', 'parenthesized_expression', 'cast_expression', 'as_expression', 'non_null_expression', 'await']);

function resultNameOf(node: Node): string | undefined {
  let child: Node = node;
  let parent = parentOf(node);
  while (parent && RESULT_WRAPPERS.has(parent.type)) {
    child = parent;
    parent = parentOf(parent);
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
    case 'as_pattern':
      // Python's `with engine.connect() as conn:`: the name the context manager's value is bound to.
      return parentOf(parent)?.type === 'with_item' ? simpleName(parent.childForFieldName('alias')) : undefined;
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

/** The named function a scope belongs to. */
export function functionScope(scope: Scope): Scope | undefined {
  return scope.fn;
}

