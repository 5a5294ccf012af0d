// What a name of a SQLAlchemy file holds (an engine, a connection, a session, a factory) and how the readers name a
// session (python-sqlalchemy.ts, python-autoflush.ts).
import type { Node } from 'web-tree-sitter';

/** What a name of the file holds, as far as SQLAlchemy goes: where the file made it, and whether it autocommits. */
export interface SqlalchemyName {
  kind: 'engine' | 'connection' | 'session' | 'factory';
  /** isolation_level="AUTOCOMMIT" on it or on the engine it comes from. */
  autocommit: boolean;
  /** A session or factory made with autoflush=False (or a session of such a factory): its queries flush nothing. */
  noAutoflush?: boolean;
}

/** A session: one the file made, or a name for one it did not (db.session, self.session, db_session). */
export function sessionLike(name: string, known: SqlalchemyName | undefined): boolean {
  return known ? known.kind === 'session' : /^(?:\w+_)?session$|^sess$/i.test(name);
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
