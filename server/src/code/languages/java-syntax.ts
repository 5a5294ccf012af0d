// What the Java ORM readers (java-jpa.ts, java-transactions.ts, java-mybatis.ts) read of a file's declarations:
// a variable's declared type by a text search, the annotations and class names of tree nodes, and the file's package
// and imports, which settle the qualified names of another file's class (an entity, a mapper interface).
import type { Node } from 'web-tree-sitter';

/** A variable's declared type, with where the type's name is written. */
export interface Declared {
  type: string;
  span: { start: number; end: number };
}

/** Declared types found so far in one file, by variable name (undefined: looked for, not found). */
export type DeclaredTypes = Map<string, Declared | undefined>;

/**
 * The declared type of a variable, field or parameter of the file (`EntityManager em`, `private final OrderRepository
 * orders;`, `for (Order o : orders)`), without package or type arguments. A text search, asked only for the receivers
 * and arguments of the few calls the ORM readers read, each name once per file (`known`).
 */
export function declaration(name: string, source: string, known: DeclaredTypes): Declared | undefined {
  if (known.has(name)) return known.get(name);
  const escaped = name.replace(/\$/g, '\\$');
  const pattern = new RegExp(`\\b([A-Z][\\w$]{0,100})(?:<[^<>;{}]{0,200}(?:<[^<>;{}]{0,200}>[^<>;{}]{0,200})?>)?\\s+${escaped}\\s*[;=,):]`);
  const m = pattern.exec(source);
  const declared = m ? { type: m[1], span: { start: m.index + m[0].indexOf(m[1]), end: m.index + m[0].indexOf(m[1]) + m[1].length } } : undefined;
  known.set(name, declared);
  return declared;
}

/** `Order`, `com.acme.Order`, `Order<T>` → the node naming the class (its last identifier). */
export function classNode(type: Node | null): Node | undefined {
  let node = type;
  if (node?.type === 'generic_type') node = node.namedChild(0);
  if (node?.type === 'scoped_type_identifier') node = node.namedChildren[node.namedChildCount - 1] ?? null;
  return node?.type === 'type_identifier' && /^[A-Z]/.test(node.text) ? node : undefined;
}

export function annotationsOf(node: Node): Node[] {
  const modifiers = node.namedChildren.find((c) => c?.type === 'modifiers');
  return modifiers ? modifiers.namedChildren.filter((c): c is Node => !!c && (c.type === 'annotation' || c.type === 'marker_annotation')) : [];
}

/** An annotation's simple name (`Transactional` for `@org.springframework.transaction.annotation.Transactional`). */
export function annotationName(annotation: Node): string | undefined {
  return annotation.childForFieldName('name')?.text.replace(/^.*\./, '');
}

export interface JavaImports {
  package?: string;
  /** Single-type imports by simple name (`Order` → `com.acme.model.Order`). */
  single: Map<string, string>;
  /** Wildcard imports' packages (`import com.acme.model.*;` → `com.acme.model`). */
  wildcards: string[];
}

export const JAVA_PACKAGE = /^[ \t]*package[ \t]+([\w.]{1,300})[ \t]*;/m;
const IMPORT = /^[ \t]*import[ \t]+([\w.]{1,300}?)(\.\*)?[ \t]*;/gm;

export function javaImports(source: string): JavaImports {
  const single = new Map<string, string>();
  const wildcards: string[] = [];
  for (const m of source.matchAll(IMPORT)) {
    if (m[2]) wildcards.push(m[1]);
    else single.set(m[1].slice(m[1].lastIndexOf('.') + 1), m[1]);
  }
  return { package: JAVA_PACKAGE.exec(source)?.[1], single, wildcards };
}

/**
 * The qualified names a class the file names by `name` may have: the class a single-type import names; else the one
 * of the file's package (`name` alone in the default package) and of each wildcard import's.
 */
export function qualifiedCandidates(name: string, imports: JavaImports): string[] {
  const imported = imports.single.get(name);
  if (imported) return [imported];
  return [imports.package ? `${imports.package}.${name}` : name, ...imports.wildcards.map((w) => `${w}.${name}`)];
}
