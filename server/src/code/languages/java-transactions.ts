// Whether a Spring Data save() runs in one transaction with the other saves of its loop: a @Transactional method or
// class around it, or a transaction the code opens itself around the loop (java-jpa.ts asks; outside any, each save()
// is a transaction of its own).
import type { Node } from 'web-tree-sitter';
import { simpleName, type CallContext } from '../adapter';
import { annotationName, annotationsOf, classNode, declaration, type DeclaredTypes } from './java-syntax';

/** What this module reads of a file, kept per file by java-jpa.ts (its FileFacts). */
export interface TransactionFacts {
  source: string;
  types: DeclaredTypes;
  /** The file names TransactionTemplate or TransactionOperations (templateCallback), read when a save first asks. */
  template?: boolean;
  /** The transactions each function opens and commits itself (demarcated), by the function's start. */
  demarcations?: Map<number, Map<string, Demarcation>>;
  /** The method calls of the file's tree by method name (the facts outlive it), for the callers of a helper (heldAroundCallers). */
  invocations?: { tree: Node['tree']; byName: Map<string, Node[]> };
}

const declaredType = (name: string, f: TransactionFacts): string | undefined => declaration(name, f.source, f.types)?.type;

/** Whether the method or class around a call is @Transactional (Spring's or JTA's): its saves join one transaction. */
export function transactional(call: Node): boolean {
  for (let node: Node | null = call.parent; node; node = node.parent) {
    if (node.type === 'method_declaration' || node.type === 'class_declaration') {
      if (annotationsOf(node).some((a) => annotationName(a) === 'Transactional')) return true;
    }
  }
  return false;
}

// Transactions the code opens itself around a loop of Spring Data save() calls: with Spring's default propagation
// (REQUIRED) each save() joins the open transaction, as in a @Transactional method, so the flush at its commit sends
// them together. The forms, as Spring's and Jakarta's API documentation names them:
// - TransactionTemplate (and TransactionOperations, the interface it implements): execute(TransactionCallback<T>),
//   given a lambda of the TransactionStatus or an anonymous TransactionCallback / TransactionCallbackWithoutResult
//   (whose doInTransactionWithoutResult(TransactionStatus) "gets called by TransactionTemplate.execute within a
//   transactional context"), and executeWithoutResult(Consumer<TransactionStatus>), since Spring 5.2:
//   https://docs.spring.io/spring-framework/docs/5.2.4.RELEASE/javadoc-api/org/springframework/transaction/support/TransactionOperations.html
//   https://docs.spring.io/spring/docs/current/javadoc-api/org/springframework/transaction/support/TransactionCallbackWithoutResult.html
// - PlatformTransactionManager: TransactionStatus getTransaction(TransactionDefinition), then commit(TransactionStatus)
//   (implemented by JpaTransactionManager, DataSourceTransactionManager, JtaTransactionManager, …):
//   https://docs.spring.io/spring-framework/docs/3.1.0.RELEASE/javadoc-api/org/springframework/transaction/PlatformTransactionManager.html
// - JTA's UserTransaction (javax.transaction, jakarta.transaction): begin(), then commit():
//   https://jakarta.ee/specifications/platform/10/apidocs/jakarta/transaction/usertransaction
// The transaction holds the loop only when the loop runs inside it: a TransactionTemplate called, or a transaction
// begun and committed, on every pass is a transaction per pass, as a commit on every pass (outside a counter's if) is.

/** Whether the code opens a transaction around the save's loop (the innermost one, CallContext.loop). */
export function heldAroundLoop(ctx: CallContext, f: TransactionFacts): { held: boolean; callerLoopAt?: number } {
  const loop = ctx.loop?.span;
  if (loop) return { held: heldAround(ctx.call.node, loop, f) };
  return heldAroundCallers(ctx.call.node, f);
}

function heldAround(inner: Node, loop: Span, f: TransactionFacts): boolean {
  for (let node: Node | null = inner.parent; node; node = node.parent) {
    // (Inside the loop: a transaction there is one per pass.)
    if (node.startIndex > loop.start || node.endIndex < loop.end) continue;
    if ((node.type === 'lambda_expression' || node.type === 'class_body') && templateCallback(node, f)) return true;
    if (FUNCTION_TYPES.has(node.type) && demarcated(node, loop, f)) return true;
  }
  return false;
}

/**
 * A save in a helper method of the class, outside any loop of its own: held when the helper is called from loops only
 * in one transaction each (`tx.execute(status -> { for (…) saveOne(x); })`, a caller's @Transactional, which its
 * self-invocation runs in) and from at least one loop. A call of it from a loop outside a transaction leaves it a
 * transaction per save, and that loop is the one its finding names (callerLoopAt).
 */
function heldAroundCallers(call: Node, f: TransactionFacts): { held: boolean; callerLoopAt?: number } {
  let method: Node | null = call.parent;
  while (method && method.type !== 'method_declaration' && method.type !== 'class_body') method = method.parent;
  const name = method?.type === 'method_declaration' ? method.childForFieldName('name')?.text : undefined;
  if (!name) return { held: false };
  if (f.invocations?.tree !== call.tree) f.invocations = { tree: call.tree, byName: invocationsByName(call.tree.rootNode) };
  let loops = 0;
  for (const inv of f.invocations.byName.get(name) ?? []) {
    const object = inv.childForFieldName('object');
    if (object && object.type !== 'this') continue;
    const loop = enclosingLoop(inv);
    if (!loop) continue;
    loops++;
    if (!transactional(inv) && !heldAround(inv, { start: loop.startIndex, end: loop.endIndex }, f)) return { held: false, callerLoopAt: loop.startIndex };
  }
  return { held: loops > 0 };
}

/** A tree's method calls by method name, read once per tree (each save in a helper asks for its own name's). */
function invocationsByName(root: Node): Map<string, Node[]> {
  const byName = new Map<string, Node[]>();
  for (const inv of root.descendantsOfType('method_invocation')) {
    const name = inv?.childForFieldName('name')?.text;
    if (!inv || !name) continue;
    const list = byName.get(name);
    if (list) list.push(inv);
    else byName.set(name, [inv]);
  }
  return byName;
}

const LOOP_TYPES = new Set(['for_statement', 'enhanced_for_statement', 'while_statement', 'do_statement']);

/** The innermost loop statement of the method or lambda around a node. */
function enclosingLoop(node: Node): Node | undefined {
  for (let n: Node | null = node.parent; n && !FUNCTION_TYPES.has(n.type) && n.type !== 'class_body'; n = n.parent) if (LOOP_TYPES.has(n.type)) return n;
  return undefined;
}

const FUNCTION_TYPES = new Set(['method_declaration', 'constructor_declaration', 'lambda_expression']);

/**
 * A lambda of one parameter (the TransactionStatus), or the body of an anonymous TransactionCallback, that is the one
 * argument of execute() or executeWithoutResult(), in a file that names TransactionTemplate or TransactionOperations
 * (the receiver may be any field, variable or getter).
 */
function templateCallback(node: Node, f: TransactionFacts): boolean {
  f.template ??= /\bTransaction(?:Template|Operations)\b/.test(f.source);
  if (!f.template) return false;
  let callback: Node | null = node;
  let anonymous: string | undefined;
  if (node.type === 'class_body') {
    callback = node.parent;
    if (callback?.type !== 'object_creation_expression') return false;
    anonymous = classNode(callback.childForFieldName('type'))?.text;
    if (!anonymous) return false;
  } else {
    const params = node.childForFieldName('parameters');
    const count = params?.type === 'identifier' ? 1 : (params?.namedChildren.filter((c) => c?.type !== 'comment').length ?? 0);
    if (count !== 1) return false;
  }
  const list = callback?.parent;
  if (list?.type !== 'argument_list' || list.namedChildren.filter((c) => c?.type !== 'comment').length !== 1) return false;
  const call = list.parent;
  if (call?.type !== 'method_invocation') return false;
  // (A receiver declared as another type, a JdbcTemplate's execute(con -> …), is not the template.)
  const receiver = call.childForFieldName('object');
  const receiverName = receiver && receiver.type !== 'method_invocation' && receiver.type !== 'object_creation_expression' ? simpleName(receiver) : undefined;
  const receiverType = receiverName ? declaredType(receiverName, f) : undefined;
  if (receiverType && !/Transaction(?:Template|Operations)$/.test(receiverType)) return false;
  const name = call.childForFieldName('name')?.text;
  if (name === 'execute') return anonymous === undefined || /^TransactionCallback(?:WithoutResult)?$/.test(anonymous);
  if (name === 'executeWithoutResult') return anonymous === undefined || anonymous === 'Consumer';
  return false;
}

/**
 * A transaction a function opens and commits itself: where it begins, and its commits, each with the ifs, switches and
 * catches around it in the function (spans: the file's facts outlive its tree).
 */
export interface Demarcation {
  begins: Span[];
  commits: { span: Span; conditions: Span[] }[];
}

type Span = { start: number; end: number };

/**
 * Whether the function (method, constructor, lambda) begins a transaction before the loop and commits it after it,
 * with no commit of it on every pass in between (one under an if in the loop, a counter's, ends a chunk). Its
 * transactions are read once per function.
 */
function demarcated(fn: Node, loop: Span, f: TransactionFacts): boolean {
  f.demarcations ??= new Map();
  let found = f.demarcations.get(fn.startIndex);
  if (!found) {
    found = demarcationsOf(fn, f);
    f.demarcations.set(fn.startIndex, found);
  }
  const within = (s: Span) => s.start >= loop.start && s.end <= loop.end;
  for (const { begins, commits } of found.values()) {
    if (!begins.some((b) => b.end <= loop.start) || !commits.some((c) => c.span.start >= loop.end)) continue;
    if (commits.some((c) => within(c.span) && !c.conditions.some(within))) continue;
    return true;
  }
  return false;
}

function demarcationsOf(fn: Node, f: TransactionFacts): Map<string, Demarcation> {
  const out = new Map<string, Demarcation>();
  const of = (key: string) => {
    let d = out.get(key);
    if (!d) out.set(key, (d = { begins: [], commits: [] }));
    return d;
  };
  const commit = (key: string, inv: Node) => {
    const conditions: Span[] = [];
    for (let n: Node | null = inv.parent; n && !FUNCTION_TYPES.has(n.type) && n.type !== 'class_body'; n = n.parent) {
      if (CONDITIONAL_TYPES.has(n.type)) conditions.push({ start: n.startIndex, end: n.endIndex });
    }
    of(key).commits.push({ span: { start: inv.startIndex, end: inv.endIndex }, conditions });
  };
  for (const inv of fn.descendantsOfType('method_invocation')) {
    if (!inv) continue;
    const name = inv.childForFieldName('name')?.text;
    if (name !== 'getTransaction' && name !== 'begin' && name !== 'commit') continue;
    const receiver = inv.childForFieldName('object');
    if (!receiver || nearestFunction(inv)?.startIndex !== fn.startIndex) continue;
    const args = (inv.childForFieldName('arguments')?.namedChildren ?? []).filter((c): c is Node => !!c && c.type !== 'comment');
    const recv = receiver.text.replace(/\s+/g, '');
    const span = { start: inv.startIndex, end: inv.endIndex };
    if (name === 'getTransaction' && args.length === 1 && transactionManager(receiver, f)) {
      // TransactionStatus status = txManager.getTransaction(definition); (or status = …)
      const holder = inv.parent;
      const status = holder?.type === 'variable_declarator' ? holder.childForFieldName('name')?.text : holder?.type === 'assignment_expression' && holder.childForFieldName('right')?.startIndex === inv.startIndex ? holder.childForFieldName('left')?.text : undefined;
      if (status) of(`ptm ${recv} ${status}`).begins.push(span);
    } else if (name === 'begin' && args.length === 0 && userTransaction(receiver, f)) {
      of(`jta ${recv}`).begins.push(span);
    } else if (name === 'commit' && args.length === 1 && args[0].type === 'identifier') {
      commit(`ptm ${recv} ${args[0].text}`, inv);
    } else if (name === 'commit' && args.length === 0) {
      commit(`jta ${recv}`, inv);
    }
  }
  return out;
}

const CONDITIONAL_TYPES = new Set(['if_statement', 'switch_expression', 'switch_block', 'catch_clause', 'ternary_expression']);

function nearestFunction(node: Node): Node | undefined {
  for (let n: Node | null = node.parent; n; n = n.parent) if (FUNCTION_TYPES.has(n.type) || n.type === 'class_body') return n;
  return undefined;
}

/** A Spring transaction manager: declared as a …TransactionManager, or got from (get)TransactionManager(). */
function transactionManager(receiver: Node, f: TransactionFacts): boolean {
  if (receiver.type === 'method_invocation') return /^(?:get)?[tT]ransactionManager$/.test(receiver.childForFieldName('name')?.text ?? '');
  const name = simpleName(receiver);
  const type = name ? declaredType(name, f) : undefined;
  return !!type && /TransactionManager$/.test(type);
}

/** JTA's UserTransaction: declared so, or got from getUserTransaction() (an EJB context's). */
function userTransaction(receiver: Node, f: TransactionFacts): boolean {
  if (receiver.type === 'method_invocation') return receiver.childForFieldName('name')?.text === 'getUserTransaction';
  const name = simpleName(receiver);
  return !!name && declaredType(name, f) === 'UserTransaction';
}
