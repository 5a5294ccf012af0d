// Django's ORM on Db2 (IBM's ibm_db_django backend), in a Python file of a project whose settings name it as ENGINE
// (python-django-project.ts, cli/project-evidence.ts djangoDb2Folders): model inserts written without SQL text.
//
// - `Order.objects.create(...)` (also `.objects.using('db2').create(...)`): one INSERT, sent at the call.
// - `Order(...).save()`, `o = Order(...); o.save()`: a new instance's save is an INSERT; a loaded instance's
//   (`o = Order.objects.get(...)`) is an UPDATE, and a save with update_fields or force_update is one too: silent.
// - `Order.objects.bulk_create(objs)`: the batched form (ibm_db_django sets has_bulk_insert when it connects: one
//   multi-row INSERT per batch_size objects); a bulk_create of a one-element list is one row per call.
// - The async forms (Django 4.1+), awaited: `acreate` as create, `asave` as save, `abulk_create` as bulk_create; the
//   same statements are sent, so the same findings.
// - `Order.objects.get_or_create(...)` / `update_or_create(...)` (and aget_or_create / aupdate_or_create): a SELECT
//   first (update_or_create's with FOR UPDATE), then an INSERT when no row is found. Read as a create: in a loop over
//   new data that is one INSERT per row plus a query per row; the event names the call (queriesFirst) for the message
//   and the advice (one lookup of the existing keys, then bulk_create). A loop over keys that mostly exist reads
//   or updates instead: the message says the INSERT is only for a row not found.
//
// Transactions: Django runs in autocommit mode; an ORM write outside `transaction.atomic()` is committed on its own
// (its own transaction), which the model says as a connection with autocommit on (python.ts fixedAutocommit). Inside
// a `with transaction.atomic():` block, a function decorated `@transaction.atomic`, or a view (a function taking
// `request`) of a project with ATOMIC_REQUESTS, the insert runs with autocommit off; the outermost atomic block commits
// at its end (a commit event where the block opens: a block opened on every pass of a loop commits every row).
//
// The table: Meta.db_table of a model class of the file, else Django's default `<app_label>_<modelname>` (the app's
// folder: shop/models.py's Order is shop_order); a model of another file is named by its class (`<Order>`) until the
// engine finds its table among the models modules' entities (djangoEntities, engine/orm-entities.ts).
import type { Node } from 'web-tree-sitter';
import type { ApiEvent, CallContext, Evaluator } from '../adapter';
import type { DjangoProject, OrmEntity } from '../../code-model/types';
import { parentOf } from '../parents';
import { constantStringAt, constructedClass } from './python-sqlalchemy-inserts';
import { insertText, sqlName, type InsertTarget, type MappedTable } from '../orm-insert-text';
import { pythonReadOf } from './python-sqlalchemy';
import { readPythonImports, type PythonImportLine } from './python-imports';

/** A manager's calls that look the row up first and insert only when none is found (the async forms too). */
const QUERIES_FIRST = ['get_or_create', 'update_or_create', 'aget_or_create', 'aupdate_or_create'];

/** The calls python.ts hands over to classifyDjango in a Django file of a Db2 project. */
export const DJANGO_CALLS: ReadonlySet<string> = new Set(['create', 'bulk_create', 'save', 'atomic', 'acreate', 'abulk_create', 'asave', ...QUERIES_FIRST]);

/** What the file shows of its Django models: its classes (a model's table, null: no model or no table of its own). */
interface DjangoFile {
  classes: Map<string, MappedTable | null>;
  imports: readonly PythonImportLine[];
  /** Functions of the file by name: whether every call of it the file shows runs in a transaction (heldByCallers). */
  held?: Map<string, boolean>;
}

const files = new WeakMap<Evaluator, DjangoFile>();

function djangoFileOf(ev: Evaluator, root: Node, path: string): DjangoFile {
  let file = files.get(ev);
  if (!file) files.set(ev, (file = { classes: djangoModels(root, ev, path), imports: pythonReadOf(ev)?.importLines() ?? readPythonImports(ev.source) }));
  return file;
}

/** The Django events of a call of a Django file of a Db2 project; undefined when the call is none of them. */
export function classifyDjango(ctx: CallContext, ev: Evaluator): ApiEvent[] | undefined {
  const django = pythonReadOf(ev)?.django;
  if (!django) return undefined;
  const { call } = ctx;
  // (The async forms, awaited, send the same statements: acreate as create, asave as save, abulk_create as bulk_create.)
  const name = /^a(?:create|bulk_create|save|get_or_create|update_or_create)$/.test(call.name) ? call.name.slice(1) : call.name;
  switch (name) {
    case 'create':
    case 'bulk_create':
    case 'get_or_create':
    case 'update_or_create': {
      const model = managedModel(call.receiver);
      // (create takes keyword arguments only: a positional one is another create.)
      if (!model || (name === 'create' && call.args.length > 0)) return undefined;
      const file = djangoFileOf(ev, call.node.tree.rootNode, django.path);
      const target = modelTarget(model, file, true);
      if (!target) return undefined;
      const objs = call.args[0] ?? call.keywords.get('objs');
      const many = name === 'bulk_create' && !(objs?.type === 'list' && objs.namedChildren.filter((c) => c?.type !== 'comment').length === 1);
      // get_or_create / update_or_create: a SELECT first (update_or_create's FOR UPDATE), the INSERT only for a row not found.
      const queriesFirst = QUERIES_FIRST.includes(call.name) ? `${model.text}.objects.${call.name}()` : undefined;
      return [insertEvent(call.node, target, many, django.project, ev, file, queriesFirst)];
    }
    case 'save': {
      if (!call.receiver || call.args.length > 0 || call.keywords.has('update_fields') || isTrue(call.keywords.get('force_update'))) return undefined;
      const cls = constructedClass(call.receiver, call.node.startIndex, ev);
      if (!cls) return undefined;
      const file = djangoFileOf(ev, call.node.tree.rootNode, django.path);
      const target = modelTarget(cls, file, false);
      return target ? [insertEvent(call.node, target, false, django.project, ev, file)] : undefined;
    }
    case 'atomic': {
      // `with transaction.atomic():` commits at the block's end: the outermost block only (an inner one is a savepoint).
      if (!/^(?:[\w.]*\.)?(?:transaction\.)?atomic$/.test(call.node.childForFieldName('function')?.text ?? '')) return undefined;
      const item = parentOf(call.node);
      const withStatement = item?.type === 'with_item' ? parentOf(parentOf(item) ?? item) : undefined;
      if (withStatement?.type !== 'with_statement') return undefined;
      return inAtomic(withStatement, django.project) ? [] : [{ kind: 'commit', api: 'django' }];
    }
    default:
      return undefined;
  }
}

function insertEvent(call: Node, target: { target: InsertTarget; ormClass?: { name: string; from: string[] } }, many: boolean, project: DjangoProject, ev: Evaluator, file: DjangoFile, queriesFirst?: string): ApiEvent {
  return {
    kind: 'execute',
    api: 'django',
    action: many ? 'executeMany' : 'executePrepared',
    sql: insertText(target.target, call),
    batched: many,
    construct: 'orm',
    ...(inAtomic(call, project) || heldByCallers(call, project, ev, file) ? { autocommitOff: true } : {}),
    ...(target.ormClass ? { ormClass: target.ormClass } : {}),
    ...(queriesFirst ? { queriesFirst } : {}),
  };
}

/** The model of `Order.objects`, `Order.objects.using('db2')`, `models.Order.objects`: the `Order` node. */
function managedModel(receiver: Node | undefined): Node | undefined {
  let node: Node | null | undefined = receiver;
  // .using(alias) / .db_manager(alias) return the manager (or a queryset) on another database.
  if (node?.type === 'call') {
    const fn = node.childForFieldName('function');
    const method = fn?.type === 'attribute' ? fn.childForFieldName('attribute')?.text : undefined;
    node = method === 'using' || method === 'db_manager' ? fn!.childForFieldName('object') : undefined;
  }
  if (node?.type !== 'attribute' || node.childForFieldName('attribute')?.text !== 'objects') return undefined;
  const model = node.childForFieldName('object');
  const name = model?.type === 'attribute' ? model.childForFieldName('attribute')?.text : model?.type === 'identifier' ? model.text : undefined;
  return model && name && isClassName(name) ? model : undefined;
}

/**
 * What a model expression inserts into: a model of the file (its table), or a class of another module (named by it,
 * with the class as written for python.ts to resolve through the imports). A class of the file that is no model, and
 * for a save (`managed` false) a class not imported from a models module, insert nothing known.
 */
function modelTarget(node: Node, file: DjangoFile, managed: boolean): { target: InsertTarget; ormClass?: { name: string; from: string[] } } | undefined {
  const name = node.type === 'identifier' ? node.text : node.childForFieldName('attribute')?.text;
  if (!name) return undefined;
  if (node.type === 'identifier' && file.classes.has(name)) {
    const table = file.classes.get(name);
    return table ? { target: { table } } : undefined;
  }
  if (!managed && !fromModelsModule(node, file.imports)) return undefined;
  return { target: { expression: node }, ormClass: { name, from: [node.text] } };
}

/** `Order` bound by `from .models import Order` / `from shop.models import Order`, or `models.Order` of such a module. */
function fromModelsModule(node: Node, imports: readonly PythonImportLine[]): boolean {
  const object = node.type === 'identifier' ? undefined : node.childForFieldName('object')?.text;
  const head = (object ?? node.text).split('.')[0];
  for (const line of imports) {
    for (const n of line.names) {
      const bound = n.as ?? (line.from === undefined ? n.name.split('.')[0] : n.name);
      if (bound !== head) continue;
      // The module the class comes from: `from X import Order` X; `from X import models` X.models; `import X as m` X.
      const module = line.from === undefined ? (n.as ? n.name : (object ?? '')) : object === undefined ? line.from : `${line.from}.${n.name}`;
      if (/(?:^|\.)models(?:\.|$)/.test(module)) return true;
    }
  }
  return false;
}

/**
 * Whether `node` runs in a Django transaction: inside a `with transaction.atomic():` block of its function, in a
 * function decorated `@transaction.atomic`, or in a view (first parameter `request`, or second after `self`) of a
 * project whose settings set ATOMIC_REQUESTS.
 */
function inAtomic(node: Node, project: DjangoProject): boolean {
  for (let child = node, p = parentOf(node); p; child = p, p = parentOf(p)) {
    if (p.type === 'with_statement' && child.type === 'block' && ATOMIC_CALL.test(p.namedChildren.find((c) => c?.type === 'with_clause')?.text ?? '')) return true;
    if (p.type === 'function_definition') {
      const decorated = parentOf(p);
      if (decorated?.type === 'decorated_definition' && decorated.namedChildren.some((d) => d?.type === 'decorator' && ATOMIC_DECORATOR.test(d.text))) return true;
      return project.atomicRequests === true && isView(p);
    }
    if (p.type === 'class_definition' || p.type === 'module') return false;
  }
  return false;
}

/**
 * A helper of the file (`def import_data(self, row):`, which a loop elsewhere in the file calls once per row) whose
 * every call the file shows runs in a transaction (`with transaction.atomic(): for row in reader:
 * self.import_data(row)`): its inserts are in that transaction too. A helper the file never calls: not held.
 */
function heldByCallers(node: Node, project: DjangoProject, ev: Evaluator, file: DjangoFile): boolean {
  let fn: Node | null = parentOf(node);
  while (fn && fn.type !== 'function_definition') fn = parentOf(fn);
  const name = fn?.childForFieldName('name')?.text;
  if (!fn || !name) return false;
  const held = (file.held ??= new Map());
  const known = held.get(name);
  if (known !== undefined) return known;
  held.set(name, false);
  const root = node.tree.rootNode;
  let calls = 0;
  let all = true;
  const pattern = new RegExp(`(?:\\bself\\.|\\bcls\\.|(?<![\\w.]))${name}\\s*\\(`, 'g');
  for (const m of ev.source.matchAll(pattern)) {
    const at = m.index + m[0].indexOf(name);
    // (Not the definition itself, nor a call inside the helper.)
    if (at >= fn.startIndex && at < fn.endIndex) continue;
    const site = root.descendantForIndex(at);
    if (!site) continue;
    calls++;
    if (!inAtomic(site, project) && !heldByCallers(site, project, ev, file)) {
      all = false;
      break;
    }
    if (calls > 50) break;
  }
  const result = calls > 0 && all;
  held.set(name, result);
  return result;
}

const ATOMIC_CALL = /(?:^|[^\w.])(?:[\w.]*\.)?atomic\s*\(/;
const ATOMIC_DECORATOR = /^@\s*(?:[\w.]*\.)?atomic\b/;

function isView(fn: Node): boolean {
  const params = (fn.childForFieldName('parameters')?.namedChildren ?? []).filter((c): c is Node => !!c && c.type !== 'comment').map((c) => c.text.split(/[:=]/)[0].trim());
  return params[0] === 'request' || (params[0] === 'self' && params[1] === 'request');
}

function isTrue(node: Node | undefined): boolean {
  return !!node && /^(?:True|1)$/.test(node.text.trim());
}

function isClassName(name: string): boolean {
  return /^[A-Z]\w{0,100}$/.test(name) && !/^[A-Z0-9_]+$/.test(name);
}

/**
 * The file's top-level classes: a Django model (a base named like a model, `models.Model`, `TimeStampedModel`, or a
 * model of the file) maps its Meta.db_table, else `<app_label>_<modelname>` (Meta.app_label, else the app's folder);
 * an abstract or proxy model, or another class, maps no table of its own (null).
 */
export function djangoModels(root: Node, ev: Evaluator, path: string): Map<string, MappedTable | null> {
  const classes = new Map<string, MappedTable | null>();
  const models = new Set<string>();
  for (const child of root.namedChildren) {
    const node = child?.type === 'decorated_definition' ? child.childForFieldName('definition') : child;
    if (node?.type !== 'class_definition') continue;
    const name = node.childForFieldName('name')?.text;
    if (!name) continue;
    const bases = (node.childForFieldName('superclasses')?.namedChildren ?? []).map((b) => b?.text ?? '');
    if (!bases.some((b) => /Model$/.test(b) || models.has(b))) {
      classes.set(name, null);
      continue;
    }
    models.add(name);
    const meta = metaOf(node, ev);
    if (meta.abstract || meta.proxy) classes.set(name, null);
    else if (meta.dbTable) classes.set(name, meta.dbTable);
    else {
      const label = meta.appLabel ?? appLabelOf(path);
      classes.set(name, label ? { name: `${label}_${name.toLowerCase()}` } : null);
    }
  }
  return classes;
}

/** What a model's `class Meta:` says: db_table (with where the file writes it), app_label, abstract, proxy. */
function metaOf(model: Node, ev: Evaluator): { dbTable?: MappedTable; appLabel?: string; abstract?: boolean; proxy?: boolean } {
  const out: { dbTable?: MappedTable; appLabel?: string; abstract?: boolean; proxy?: boolean } = {};
  const meta = model.childForFieldName('body')?.namedChildren.find((c) => c?.type === 'class_definition' && c.childForFieldName('name')?.text === 'Meta');
  for (const statement of meta?.childForFieldName('body')?.namedChildren ?? []) {
    const assignment = statement?.type === 'expression_statement' ? statement.namedChild(0) : null;
    if (assignment?.type !== 'assignment') continue;
    const left = assignment.childForFieldName('left')?.text;
    const right = assignment.childForFieldName('right');
    if (!right) continue;
    if (left === 'abstract' || left === 'proxy') out[left] = isTrue(right);
    else if (left === 'db_table' || left === 'app_label') {
      const value = constantStringAt(right, ev);
      if (!value) continue;
      if (left === 'app_label') out.appLabel = value.value;
      else out.dbTable = { name: value.value, nameAt: value.at };
    }
  }
  return out;
}

/** Django's default app label: the app's package, the folder of models.py (or above a models/ package). */
export function appLabelOf(path: string): string | undefined {
  const parts = path.split(/[\\/]/);
  parts.pop();
  if (parts[parts.length - 1] === 'models') parts.pop();
  const label = parts[parts.length - 1];
  return label && /^[A-Za-z_]\w*$/.test(label) ? label.toLowerCase() : undefined;
}

/** The Django models of a file with tables, for other files' inserts (CodeModel.entities, engine/orm-entities.ts). */
export function djangoEntities(root: Node, ev: Evaluator): OrmEntity[] {
  const django = pythonReadOf(ev)?.django;
  if (!django || !/Model\b/.test(ev.source)) return [];
  const out: OrmEntity[] = [];
  for (const [name, table] of djangoFileOf(ev, root, django.path).classes) if (table) out.push({ name, table: { name: sqlName(table.name) } });
  return out;
}
