// SQLAlchemy inserts written without SQL text: the ORM's session.add(obj) / add_all / merge of a mapped class's
// instance, and Core's insert(t) / t.insert() constructs. Each becomes the INSERT SQLAlchemy sends, with its values
// bound (`INSERT INTO S.T VALUES (?)`), so that the insert-pattern rules read it as they read an SQL text. The table
// comes from the file: a declarative class's __tablename__ (and __table_args__'s schema), a Table('name', metadata,
// schema='S') assigned to a variable. Where the file does not show it, the table is a name spliced at the class or
// table expression (as a table named at run time is: the rules name it `<Order>`).
import type { Node } from 'web-tree-sitter';
import type { Evaluator } from '../adapter';
import type { PythonImports } from './python-imports';
import type { InsertTarget, MappedTable } from '../orm-insert-text';

/** An insert construct read from an execute's first argument: its target, and whether .values() was given a list of rows. */
export interface InsertConstruct {
  target: InsertTarget;
  multiRow: boolean;
}

/** The classes of a file with a __tablename__, by class name (a class without one maps no table we can name: null). */
export type MappedClasses = Map<string, MappedTable | null>;

const INSERT_FUNCTION = /^sqlalchemy\.(?:sql\.(?:expression\.)?)?insert$/;

/** Methods that may be chained on an insert construct without changing what it inserts. */
const INSERT_CHAIN = new Set(['values', 'prefix_with', 'inline', 'return_defaults', 'returning', 'execution_options', 'with_dialect_options', 'add_cte']);

function namedArgs(call: Node): { args: Node[]; keywords: Map<string, Node> } {
  const args: Node[] = [];
  const keywords = new Map<string, Node>();
  for (const child of call.childForFieldName('arguments')?.namedChildren ?? []) {
    if (!child || child.type === 'comment') continue;
    if (child.type === 'keyword_argument') {
      const name = child.childForFieldName('name');
      const value = child.childForFieldName('value');
      if (name && value) keywords.set(name.text, value);
    } else args.push(child);
  }
  return { args, keywords };
}

/** The constant string an expression holds (a literal, a constant of the file), else undefined. */
function constantString(node: Node | undefined, ev: Evaluator): string | undefined {
  return constantStringAt(node, ev)?.value;
}

/** constantString, with the file offset of each of its characters. */
export function constantStringAt(node: Node | undefined, ev: Evaluator): { value: string; at: number[] } | undefined {
  const text = node ? ev.evaluate(node) : undefined;
  if (!text || text.pieces.some((p) => p.kind !== 'text')) return undefined;
  let value = '';
  const at: number[] = [];
  for (const p of text.pieces) {
    if (p.kind !== 'text') continue;
    value += p.text;
    at.push(...p.offsets);
  }
  return /^[^\s"]{1,128}$/.test(value) ? { value, at } : undefined;
}

/** A table named by literals: its name and schema, and where the file writes them. */
function mappedTable(name: { value: string; at: number[] }, schema: { value: string; at: number[] } | undefined): MappedTable {
  return schema ? { name: name.value, schema: schema.value, nameAt: name.at } : { name: name.value, nameAt: name.at };
}

/**
 * The file's declarative classes (top-level `class Order(Base):` with `__tablename__ = 'orders'`, and
 * `__table_args__ = {'schema': 'APP'}` or a tuple ending in such a dict), from the module's own nodes.
 */
export function mappedClasses(root: Node, ev: Evaluator, flaskDb?: ReadonlySet<string>): MappedClasses {
  const classes: MappedClasses = new Map();
  for (const child of root.namedChildren) {
    const node = child?.type === 'decorated_definition' ? child.childForFieldName('definition') : child;
    if (node?.type !== 'class_definition') continue;
    const name = node.childForFieldName('name')?.text;
    const body = node.childForFieldName('body');
    if (!name || !body) continue;
    let table: { value: string; at: number[] } | undefined;
    let schema: { value: string; at: number[] } | undefined;
    for (const statement of body.namedChildren) {
      const assignment = statement?.type === 'expression_statement' ? statement.namedChild(0) : null;
      if (assignment?.type !== 'assignment') continue;
      const left = assignment.childForFieldName('left')?.text;
      const right = assignment.childForFieldName('right');
      if (!right) continue;
      if (left === '__tablename__') table = constantStringAt(right, ev);
      else if (left === '__table_args__') schema = schemaOf(right, ev);
    }
    // Flask-SQLAlchemy names the table of a model without one after the class (`OrderLine` → order_line).
    if (table) classes.set(name, mappedTable(table, schema));
    // SQLModel's table model (`class Hero(SQLModel, table=True)`): its table is the class's name in lower case.
    else if (sqlmodelTable(node)) classes.set(name, schema ? { name: name.toLowerCase(), schema: schema.value } : { name: name.toLowerCase() });
    else if (flaskDb && flaskModel(node, flaskDb)) classes.set(name, schema ? { name: flaskTableName(name), schema: schema.value } : { name: flaskTableName(name) });
    else classes.set(name, null);
  }
  return classes;
}

/** A SQLModel table model: `SQLModel` (or `sqlmodel.SQLModel`) among its bases, and `table=True`. */
function sqlmodelTable(node: Node): boolean {
  const bases = node.childForFieldName('superclasses')?.namedChildren ?? [];
  return bases.some((b) => b?.type === 'keyword_argument' && b.childForFieldName('name')?.text === 'table' && b.childForFieldName('value')?.text === 'True') && bases.some((b) => /^(?:sqlmodel\.)?SQLModel$/.test(b?.text ?? ''));
}

/** A class whose base is a Flask-SQLAlchemy object's Model (`class Order(db.Model):`). */
function flaskModel(node: Node, flaskDb: ReadonlySet<string>): boolean {
  const bases = node.childForFieldName('superclasses')?.namedChildren ?? [];
  return bases.some((b) => b?.type === 'attribute' && b.childForFieldName('attribute')?.text === 'Model' && flaskDb.has(b.childForFieldName('object')?.text ?? ''));
}

/**
 * The table Flask-SQLAlchemy (3.x, flask_sqlalchemy/model.py camel_to_snake_case) gives a model that sets no
 * __tablename__: an underscore before a capital that follows a lower-case letter or digit, or that starts a
 * capitalised word, then lower case (`Order` → order, `OrderLine` → order_line, `HTTPRequest` → http_request).
 */
export function flaskTableName(className: string): string {
  return className.replace(/((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))/g, '_$1').toLowerCase().replace(/^_+/, '');
}

/** The 'schema' entry of __table_args__: a dict, or a tuple whose last item is one. */
function schemaOf(node: Node, ev: Evaluator): { value: string; at: number[] } | undefined {
  const dict = node.type === 'tuple' ? node.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment').pop() : node;
  if (dict?.type !== 'dictionary') return undefined;
  for (const pair of dict.namedChildren) {
    if (pair?.type === 'pair' && constantString(pair.childForFieldName('key') ?? undefined, ev) === 'schema') return constantStringAt(pair.childForFieldName('value') ?? undefined, ev);
  }
  return undefined;
}

/** Table('orders', metadata, ..., schema='APP') under any name the file imports it as; undefined for another call. */
function tableCall(node: Node, ev: Evaluator, imports: PythonImports): MappedTable | null | undefined {
  if (node.type !== 'call') return undefined;
  const fn = node.childForFieldName('function')?.text ?? '';
  if (!/^sqlalchemy(?:\.sql)?(?:\.schema)?\.Table$/.test(imports.qualify(fn))) return undefined;
  const { args, keywords } = namedArgs(node);
  const name = constantStringAt(args[0], ev);
  return name ? mappedTable(name, constantStringAt(keywords.get('schema'), ev)) : null;
}

/**
 * The table an expression names: a class of the file with a __tablename__ (`Order`, `Order.__table__`), a variable
 * assigned Table(...) before `at`; otherwise the expression itself (the table is not known here).
 */
export function targetOf(node: Node, at: number, ev: Evaluator, imports: PythonImports, classes: MappedClasses): InsertTarget {
  let named = node;
  if (named.type === 'attribute' && named.childForFieldName('attribute')?.text === '__table__') named = named.childForFieldName('object') ?? named;
  if (named.type === 'identifier') {
    const mapped = classes.get(named.text);
    if (mapped) return { table: mapped };
    const value = ev.assignedBefore?.(named.text, at)?.[0]?.value;
    const table = value ? tableCall(value, ev, imports) : undefined;
    if (table) return { table };
  }
  return { expression: node };
}

/**
 * An insert construct: insert(t) (sqlalchemy's, under any name the file imports it as) or t.insert(), with .values()
 * and other chained calls that keep it an INSERT of rows; a variable assigned one before `at`. Not INSERT … SELECT
 * (from_select). `.values([...])` with a list is a multi-row INSERT.
 */
export function insertConstruct(node: Node, at: number, ev: Evaluator, imports: PythonImports, classes: MappedClasses, depth = 0): InsertConstruct | undefined {
  if (node.type === 'identifier' && depth === 0) {
    const value = ev.assignedBefore?.(node.text, at)?.[0]?.value;
    return value ? insertConstruct(value, at, ev, imports, classes, 1) : undefined;
  }
  let multiRow = false;
  let call: Node | null = node;
  for (let steps = 0; call?.type === 'call' && steps < 8; steps++) {
    const fn: Node | null = call.childForFieldName('function');
    if (!fn) return undefined;
    // insert(t), sa.insert(t), sqlalchemy.sql.expression.insert(t)
    if (INSERT_FUNCTION.test(imports.qualify(fn.text))) {
      const table = namedArgs(call).args[0];
      return table ? { target: targetOf(table, at, ev, imports, classes), multiRow } : undefined;
    }
    if (fn.type === 'attribute') {
      const method = fn.childForFieldName('attribute')?.text ?? '';
      const object = fn.childForFieldName('object');
      if (!object) return undefined;
      if (method === 'insert') {
        // t.insert(), Order.__table__.insert(): no arguments (a list's insert(i, x) has two).
        if (namedArgs(call).args.length > 0) return undefined;
        return { target: targetOf(object, at, ev, imports, classes), multiRow };
      }
      if (INSERT_CHAIN.has(method)) {
        const rows = method === 'values' ? namedArgs(call).args[0]?.type : undefined;
        if (rows === 'list' || rows === 'list_comprehension') multiRow = true;
        call = object;
        continue;
      }
    }
    return undefined;
  }
  return undefined;
}

/**
 * The class an ORM call adds an instance of: `Order(...)`, or a variable last assigned `Order(...)` before the
 * call. A constructor is a call of a capitalised name (the class of a mapped object). Undefined when the call does
 * not show a new instance (a loaded object added again inserts nothing).
 */
export function constructedClass(node: Node, at: number, ev: Evaluator): Node | undefined {
  let value: Node | undefined = node;
  if (value.type === 'identifier') value = ev.assignedBefore?.(value.text, at)?.[0]?.value;
  if (value?.type !== 'call') return undefined;
  const fn = value.childForFieldName('function');
  const name = fn?.type === 'attribute' ? fn.childForFieldName('attribute')?.text : fn?.text;
  return fn && name && /^[A-Z]\w*$/.test(name) && !/^[A-Z0-9_]+$/.test(name) ? fn : undefined;
}

