// What a name of a SQLAlchemy file holds (an engine, a connection, a session, a factory) and how the readers name a
// session (python-sqlalchemy.ts, python-autoflush.ts).
import type { Node } from 'web-tree-sitter';
import type { PythonImports } from './python-imports';
import { bindingScope } from './python-scopes';

/** What a name of the file holds, as far as SQLAlchemy goes: where the file made it, and whether it autocommits. */
export interface SqlalchemyName {
  kind: 'engine' | 'connection' | 'session' | 'factory';
  /** isolation_level="AUTOCOMMIT" on it or on the engine it comes from. */
  autocommit: boolean;
  /** A session or factory made with autoflush=False (or a session of such a factory): its queries flush nothing. */
  noAutoflush?: boolean;
}

/** What sessionLike reads of a file for the sessions it receives (PythonFile). */
export interface ReceivingFile {
  imports: PythonImports;
  /** receivedSessionNames of the file's tree, read when first needed. */
  receivedSessions?: { tree: Node['tree']; names: ReceivedSessions };
}

/**
 * A session: one the file made, or one it did not: named so (db.session, self.session, db_session), or received so
 * in `file` (receivedSessionNames: `def load(db: Session, rows)`, `db = SessionLocal()`), `at` a node of its tree:
 * the name's receiver itself, or the call on it. A plain name (`db.add(...)`) is the session received in the scope
 * Python reads it from (python-scopes.ts bindingScope): `db` received by one function is not the `db` another function
 * binds to something else, nor one a function leaves unbound where the module makes no session of it. A name read
 * off an object (`self.db`) is a session where the file receives one under that name anywhere.
 */
export function sessionLike(name: string, known: SqlalchemyName | undefined, file?: ReceivingFile, at?: Node): boolean {
  if (known) return known.kind === 'session';
  if (/^(?:\w+_)?session$|^sess$/i.test(name)) return true;
  if (!file || !at) return false;
  if (file.receivedSessions?.tree !== at.tree) file.receivedSessions = { tree: at.tree, names: receivedSessionNames(at.tree.rootNode, file.imports) };
  const received = file.receivedSessions.names;
  if (!received.anywhere.has(name)) return false;
  const receiver = at.type === 'call' ? at.childForFieldName('function')?.childForFieldName('object') : at;
  if (receiver?.type !== 'identifier' || receiver.text !== name) return true;
  const scope = bindingScope(name, receiver);
  return scope !== undefined && received.byScope.get(scope.start)?.has(name) === true;
}

/** The names a file receives sessions under: by the start of the scope that binds them (PythonScope.start), and all. */
export interface ReceivedSessions {
  byScope: ReadonlyMap<number, ReadonlySet<string>>;
  anywhere: ReadonlySet<string>;
}

/** The session classes a parameter may be annotated with (SQLAlchemy's, its asyncio one, SQLModel's). */
const SESSION_CLASS = /^(?:sqlalchemy\.orm(?:\.session)?\.Session|sqlalchemy\.ext\.asyncio(?:\.session)?\.AsyncSession|sqlmodel(?:\.orm\.session)?\.Session)$/;
/** The first name of an annotation, inside Annotated[...] / Optional[...] and quotes: `Session` of `Annotated[Session, Depends(get_db)]`. */
const ANNOTATED_NAME = /^["']?(?:(?:typing\.)?(?:Annotated|Optional)\[\s*)?["']?([A-Za-z_][\w.]{0,200})/;

/**
 * Names of the file that hold a session it does not make: a parameter annotated as one (`db: Session`, FastAPI's
 * `db: Session = Depends(get_db)` or `Annotated[Session, Depends(get_db)]`, an AsyncSession, SQLModel's Session), or
 * a name given a session of a factory another module makes (`db = SessionLocal()`, `with SessionLocal() as db:`, the
 * factory imported: `from .database import SessionLocal`; a name with Session in it). Each in the scope (def, class
 * body or module) that binds it, as python-scopes.ts reads Python's scopes.
 */
export function receivedSessionNames(root: Node, imports: PythonImports): ReceivedSessions {
  const byScope = new Map<number, Set<string>>();
  const anywhere = new Set<string>();
  const add = (name: Node): void => {
    const scope = bindingScope(name.text, name);
    if (!scope) return;
    let names = byScope.get(scope.start);
    if (!names) byScope.set(scope.start, (names = new Set()));
    names.add(name.text);
    anywhere.add(name.text);
  };
  const importedFactory = (fn: Node | null): boolean => {
    if (!fn || (fn.type !== 'identifier' && fn.type !== 'attribute')) return false;
    // (A factory a relative import binds, `from .database import SessionLocal`, read without the file's path.)
    const resolved = imports.resolve(fn.text) ?? (fn.type === 'identifier' ? imports.relative?.get(fn.text) : undefined);
    return resolved !== undefined && !resolved.startsWith('sqlalchemy.') && /Session/.test(resolved.slice(resolved.lastIndexOf('.') + 1));
  };
  for (const node of root.descendantsOfType(['typed_parameter', 'typed_default_parameter', 'assignment', 'as_pattern'])) {
    if (!node) continue;
    if (node.type === 'typed_parameter' || node.type === 'typed_default_parameter') {
      const name = node.type === 'typed_parameter' ? node.namedChild(0) : node.childForFieldName('name');
      const type = ANNOTATED_NAME.exec(node.childForFieldName('type')?.text ?? '')?.[1];
      if (name?.type === 'identifier' && type && SESSION_CLASS.test(imports.qualify(type))) add(name);
    } else if (node.type === 'assignment') {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      if (left?.type === 'identifier' && right?.type === 'call' && importedFactory(right.childForFieldName('function'))) add(left);
    } else {
      // with SessionLocal() as db:
      const value = node.namedChild(0);
      const alias = node.childForFieldName('alias') ?? node.namedChild(1);
      const target = alias?.type === 'as_pattern_target' ? alias.namedChild(0) : alias;
      if (value?.type === 'call' && target?.type === 'identifier' && importedFactory(value.childForFieldName('function'))) add(target);
    }
  }
  return { byScope, anywhere };
}

/**
 * A session the file did not make, named as the code writes it (`db.session` in Flask, `self.session`): its adds,
 * flushes and commits are kept under that name, which the advice then uses (`db.session.commit()`); else the name.
 */
export function sessionAsWritten(receiver: Node | null | undefined, name: string, known: SqlalchemyName | undefined): string {
  const written = receiver?.text;
  return !known && written && written.length <= 100 && DOTTED_SESSION.test(written) && written.endsWith(`.${name}`) ? written : name;
}

const DOTTED_SESSION = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*){1,3}$/;

/** A keyword's value written False (or 0). */
export function isFalse(node: Node | undefined): boolean {
  return !!node && /^(?:False|0)$/.test(node.text.trim());
}

/** The value of a call's keyword argument `name`. */
export function keywordOf(call: Node, name: string): Node | undefined {
  for (const child of call.childForFieldName('arguments')?.namedChildren ?? []) {
    if (child?.type === 'keyword_argument' && child.childForFieldName('name')?.text === name) return child.childForFieldName('value') ?? undefined;
  }
  return undefined;
}
