// Sequelize on Db2 in a JavaScript/TypeScript file: model inserts written without SQL text. `Model.create(values)`
// and `Model.build(values).save()` (or `new Model(values).save()`) send one INSERT per call, `Model.bulkCreate(rows)`
// one multi-row INSERT for the rows (the Db2 dialect's bulkInsertQuery); each becomes the INSERT Sequelize sends, its
// values bound (`INSERT INTO S.T VALUES (?)`), so that the insert-pattern rules read it as they read an SQL text. A
// managed transaction, `sequelize.transaction(async (t) => …)`, commits when its callback ends; an unmanaged one,
// `const t = await sequelize.transaction()`, at `t.commit()`. A raw `sequelize.query(sql, { replacements })` sends its
// values escaped into the text (not bound): they are read as spliced values.
//
// Which files: Sequelize talks to many databases, and a model call names none. A file is read for its models when it
// shows Sequelize made for Db2 (the v6 dialects `dialect: 'db2'` / `'ibmi'`, a `db2://` or `ibmi://` URI, the v7
// packages `@sequelize/db2` / `@sequelize/db2-ibmi`, the `sequelize-ibmi` fork), or when it imports a module the
// project lists in `driverModules` (its models module, `./models`) and says Sequelize somewhere (`db.sequelize`, a
// `require('sequelize')` for Op or Transaction): then only the names that module gives it are models. In a project
// that shows Db2 as Sequelize's database (its package.json, configuration or .env: cli/project-evidence.ts), a file
// that uses its models is read so without configuration: the names its models module (`../models`) gives it, and
// `sequelize.models.Order`.
// TypeORM has no Db2 driver (typeorm/typeorm#2699, #11043): nothing to read.
import type { Node } from 'web-tree-sitter';
import { argsOf, type ApiEvent, type CallContext, type Evaluator } from '../adapter';
import { isModelsModule, namesModule, SEQUELIZE_DB2 } from '../access';
import { parentOf } from '../parents';
import type { HostText, TextPiece } from '../sqltext';
import type { OrmEntity } from '../../code-model/types';
import { insertText as insertTextOf } from '../orm-insert-text';

/** A table a model maps to, as written (Sequelize quotes every identifier it sends). */
interface ModelTable {
  name: string;
  schema?: string;
}

/** What the file shows about its Sequelize models. */
export interface SequelizeFile {
  /** The file makes Sequelize for Db2 (SEQUELIZE_DB2): a capitalised receiver is taken for a model. */
  db2: boolean;
  /** Names bound by an import of a configured driver module (`const { Order } = require('./models')`, `db` of `import db from './models'`). */
  imported: Set<string>;
  /**
   * Where the imported names come from (SqlExecution.ormClass): the module (`models`, its specifier without `./`,
   * extension or `/index`) and the name it exports (`Order` of `{ Order: Ord }`); undefined: a namespace or default
   * binding (`db` of `const db = require('../models')`, whose properties are the models).
   */
  importedFrom?: Map<string, { module: string; name?: string }>;
  /** Models the file defines (define / init / @Table), by variable or class name; null: table not known (pluralised). */
  tables?: Map<string, ModelTable | null>;
  /** Classes the file declares that extend no Model (`class OrderService`): no models, whatever their name. */
  plainClasses?: Set<string>;
  /** The file's project shows Db2 as Sequelize's database: `sequelize.models.Order` is a model too. */
  project?: boolean;
}

/** Global objects and Sequelize's own classes, whose `create` is no model's. */
const NOT_MODELS = new Set([
  'Object', 'Array', 'Promise', 'Reflect', 'Map', 'Set', 'WeakMap', 'WeakSet', 'Date', 'JSON', 'Math', 'Buffer', 'Symbol', 'Error',
  'Number', 'String', 'Boolean', 'BigInt', 'Intl', 'URL', 'Proxy', 'Function', 'RegExp', 'Sequelize', 'Model', 'DataTypes', 'Op',
  'Transaction', 'QueryTypes', 'React', 'Vue', 'Stream', 'Readable', 'Writable', 'EventEmitter', 'Worker', 'Blob', 'File',
]);

const REQUIRE_BINDING = /\b(?:const|let|var)\s{1,40}(\{[^{}]{0,2000}\}|[A-Za-z_$][\w$]{0,100})\s{0,40}=\s{0,40}require\s{0,40}\(\s{0,40}['"`]([^'"`\n]{1,200})['"`]\s{0,40}\)/g;
/** `import <clause> from '<module>'`: the clause ends with `from` (checked in importedNames). */
const IMPORT_BINDING = /^[ \t]{0,40}import\b([^'"`;]{1,2000})['"`]([^'"`\n]{1,200})['"`]/gm;

/** The names a file binds from configured driver modules (its models module). */
function importedNames(text: string, driverModules: readonly string[], project = false, from?: Map<string, { module: string; name?: string }>): Set<string> {
  const out = new Set<string>();
  if (driverModules.length === 0 && !project) return out;
  // In a Db2 Sequelize project, its models module (`../models`) is one without configuration.
  const configured = (m: string) => (project && isModelsModule(m)) || driverModules.some((c) => namesModule(m, c));
  const bind = (clause: string, module: string) => {
    // { Order, Customer: Cust }, Default, * as db, Default, { Order }
    const braced = clause.match(/\{([^{}]*)\}/)?.[1] ?? '';
    for (const part of clause.replace(/[{}]/g, ',').split(',')) {
      const words = part.trim().split(/\s{0,40}(?::|\bas\b)\s{0,40}/);
      const name = words[words.length - 1]?.replace(/^\*\s*/, '').trim();
      if (name && /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'type') {
        out.add(name);
        // A name inside braces is one the module exports (under its first word); else the module itself.
        const exported = part.trim() && braced.split(',').some((b) => b.trim() === part.trim()) ? words[0].replace(/^type\s+/, '').trim() : undefined;
        from?.set(name, exported ? { module, name: exported } : { module });
      }
    }
  };
  for (const pattern of [REQUIRE_BINDING, IMPORT_BINDING]) {
    const re = new RegExp(pattern.source, pattern.flags);
    for (let m = re.exec(text); m; m = re.exec(text)) {
      let clause = m[1].trimEnd();
      if (pattern === IMPORT_BINDING) {
        // import { Order } from './models' (not import './models' nor import x = require(...)).
        if (!/\bfrom$/.test(clause)) continue;
        clause = clause.slice(0, -4);
      }
      if (configured(m[2])) bind(clause, moduleTail(m[2]));
    }
  }
  return out;
}

/** Files being read, by their text: set by javascript.ts around one synchronous read (the adapter gets no options). */
const reading = new Map<string, SequelizeFile>();

/**
 * The Sequelize facts of a file about to be read; undefined when it has no Sequelize models to read. `project`: the
 * file's project shows Db2 as Sequelize's database (FrontEndOptions.sequelizeDb2Folders).
 */
export function sequelizeFile(text: string, driverModules: readonly string[], project = false): SequelizeFile | undefined {
  const db2 = SEQUELIZE_DB2.test(text);
  if (db2) return { db2, imported: new Set() };
  if (project) {
    // The project says Sequelize and Db2: its models module's names, and sequelize.models.Order, are models.
    const importedFrom = new Map<string, { module: string; name?: string }>();
    const imported = importedNames(text, driverModules, true, importedFrom);
    return imported.size > 0 || SEQUELIZE_MODELS.test(text) ? { db2, imported, importedFrom, project } : undefined;
  }
  // Through a configured module only in a file that says Sequelize somewhere (require('sequelize') for Op or a
  // Transaction type, db.sequelize, @sequelize/core): an in-house driver wrapper's Helper.create() is no model's.
  const importedFrom = new Map<string, { module: string; name?: string }>();
  const imported = !/sequelize/i.test(text) ? new Set<string>() : importedNames(text, driverModules, false, importedFrom);
  return imported.size > 0 ? { db2, imported, importedFrom } : undefined;
}

/** A module specifier as the entity index keys JavaScript modules: no leading `./` / `../`, extension or `/index`. */
export function moduleTail(specifier: string): string {
  return specifier.replace(/\\/g, '/').replace(/^(?:\.\.?\/)+/, '').replace(/\.(?:[cm]?[jt]sx?)$/, '').replace(/\/index$/, '');
}

/**
 * The models a JavaScript/TypeScript file defines with a table (CodeModel.entities), by the name Sequelize gives them
 * (the define's model name, the class's or its `modelName`): other files' inserts of them (`db.Order.create`, a model
 * imported from the models module) name the table (engine/orm-entities.ts).
 */
export function sequelizeEntities(root: Node, ev: Evaluator): OrmEntity[] {
  if (!/\.(?:define|init)\s{0,40}\(|@Table\b/.test(ev.source)) return [];
  const file: SequelizeFile = { db2: false, imported: new Set() };
  const names = new Map<string, string>();
  const tables = modelTables(root, ev, file, names);
  const out: OrmEntity[] = [];
  for (const [variable, table] of tables) {
    if (table) out.push({ name: names.get(variable) ?? variable, table: table.schema ? { name: quoted(table.name), schema: quoted(table.schema) } : { name: quoted(table.name) } });
  }
  return out;
}

/** `sequelize.models.Order` (or `db.sequelize.models.Order`): a model the instance holds. */
const SEQUELIZE_MODELS = /\bsequelize\s{0,40}\.\s{0,40}models\s{0,40}\.\s{0,40}[A-Z]/;

/** Runs `read` with the file's Sequelize facts where the adapter can find them (by the evaluator's source). */
export function withSequelizeFile<T>(text: string, file: SequelizeFile, read: () => T): T {
  reading.set(text, file);
  try {
    return read();
  } finally {
    reading.delete(text);
  }
}

/** The calls the Sequelize reading needs, besides the driver's. */
export const SEQUELIZE_CALLS = new Set(['create', 'bulkCreate', 'save', 'transaction', 'commit']);

/** A property of an object literal (`{ tableName: 'ORDERS' }`). */
function property(obj: Node | undefined, key: string): Node | undefined {
  if (obj?.type !== 'object') return undefined;
  for (const pair of obj.namedChildren) {
    if (pair?.type === 'pair' && pair.childForFieldName('key')?.text.replace(/['"`]/g, '') === key) return pair.childForFieldName('value') ?? undefined;
  }
  return undefined;
}

function constantString(node: Node | undefined, ev: Evaluator): string | undefined {
  const text = node ? ev.evaluate(node) : undefined;
  if (!text || text.pieces.some((p) => p.kind !== 'text')) return undefined;
  const value = text.pieces.map((p) => (p.kind === 'text' ? p.text : '')).join('');
  return /^[^\s"]{1,128}$/.test(value) ? value : undefined;
}

/** The table options of define / init / @Table: tableName (+ schema), or the model name when freezeTableName is set. */
function tableOf(options: Node | undefined, modelName: string | undefined, ev: Evaluator): ModelTable | null {
  const name = constantString(property(options, 'tableName'), ev) ?? (property(options, 'freezeTableName')?.type === 'true' ? modelName : undefined);
  if (!name) return null;
  const schema = constantString(property(options, 'schema'), ev);
  return schema ? { name, schema } : { name };
}

/**
 * The models the file defines: `const Order = sequelize.define('Order', attrs, { tableName, schema })`,
 * `Order.init(attrs, { sequelize, tableName, schema })`, sequelize-typescript's `@Table({ tableName, schema }) class Order`.
 */
function modelTables(root: Node, ev: Evaluator, file: SequelizeFile, modelNames?: Map<string, string>): Map<string, ModelTable | null> {
  const tables = new Map<string, ModelTable | null>();
  file.plainClasses = new Set();
  for (const keyword of wordNodes(root, ev.source, /\bclass\b/g)) {
    const cls = parentOf(keyword);
    if (cls?.type !== 'class_declaration') continue;
    const heritage = cls.namedChildren.find((c) => c?.type === 'class_heritage');
    const name = cls.childForFieldName('name')?.text;
    if (name && !/\bextends\s{1,40}[\w$.]{0,100}Model\b/.test(heritage?.text ?? '')) file.plainClasses.add(name);
  }
  for (const call of callsNamed(root, ev.source, /\b(?:define|init|Table)\b/g)) {
    const fn = call?.childForFieldName('function');
    if (fn?.type !== 'member_expression' && fn?.type !== 'identifier') continue;
    const method = fn.type === 'member_expression' ? fn.childForFieldName('property')?.text : fn.text;
    const args = argsOf(call!.childForFieldName('arguments'));
    if (method === 'define' && fn.type === 'member_expression') {
      const parent = parentOf(call!);
      const declarator = parent?.type === 'await_expression' ? parentOf(parent) : parent;
      const variable = declarator?.type === 'variable_declarator' ? declarator.childForFieldName('name') : undefined;
      const modelName = constantString(args[0], ev);
      // return sequelize.define('Order', …) (sequelize-cli's model files): the model's name only.
      const key = variable?.type === 'identifier' ? variable.text : modelNames && modelName ? `define:${modelName}` : undefined;
      if (!key) continue;
      if (modelName) modelNames?.set(key, modelName);
      tables.set(key, tableOf(args[2], modelName, ev));
    } else if (method === 'init' && fn.type === 'member_expression') {
      const model = fn.childForFieldName('object');
      if (model?.type !== 'identifier' || !property(args[1], 'sequelize') && !property(args[1], 'tableName')) continue;
      const modelName = constantString(property(args[1], 'modelName'), ev);
      if (modelName) modelNames?.set(model.text, modelName);
      tables.set(model.text, tableOf(args[1], modelName ?? model.text, ev));
    } else if (method === 'Table' && parentOf(call!)?.type === 'decorator') {
      // @Table(...) class Order, or @Table(...) export class Order (the decorator then is the export's).
      let cls = parentOf(parentOf(call!)!);
      if (cls?.type === 'export_statement') cls = cls.childForFieldName('declaration');
      const name = cls?.type === 'class_declaration' || cls?.type === 'class' ? cls.childForFieldName('name')?.text : undefined;
      if (name) tables.set(name, tableOf(args[0], name, ev));
    }
  }
  return tables;
}

/**
 * The nodes that are the word `words` matches where it stands in the source (a name, a keyword), found by searching
 * the text: a bundle of 46,000 lines has ~100,000 calls, and handing each from the parser's memory to look at its
 * name took a second (descendantsOfType), where the few calls named define / init / Table are all that matter.
 */
function wordNodes(root: Node, source: string, words: RegExp): Node[] {
  const out: Node[] = [];
  for (const match of source.matchAll(words)) {
    const start = match.index!;
    const end = start + match[0].length;
    const node = root.descendantForIndex(start, end);
    if (node && node.startIndex === start && node.endIndex === end) out.push(node);
  }
  return out;
}

/**
 * The calls whose function is the name `names` matches or a member of that name (`x.define(…)`, `Table(…)`), in the
 * order descendantsOfType('call_expression') gives them (a call before the calls inside it).
 */
function callsNamed(root: Node, source: string, names: RegExp): Node[] {
  const calls: Node[] = [];
  for (const name of wordNodes(root, source, names)) {
    const member = parentOf(name);
    const fn = member?.type === 'member_expression' && member.childForFieldName('property')?.equals(name) ? member : name;
    const call = parentOf(fn);
    if (call?.type === 'call_expression' && call.childForFieldName('function')?.equals(fn)) calls.push(call);
  }
  return calls.sort((a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex);
}

/** The model an expression names, when the file makes it one: `Order`, `db.Order`, `models.Order`. */
function modelOf(node: Node | null | undefined, file: SequelizeFile, ev: Evaluator): Node | undefined {
  if (!node) return undefined;
  const tables = (file.tables ??= modelTables(node.tree.rootNode, ev, file));
  if (node.type === 'identifier') {
    if (tables.has(node.text) || file.imported.has(node.text)) return node;
    return file.db2 && modelLike(node.text) && !file.plainClasses?.has(node.text) ? node : undefined;
  }
  if (node.type === 'member_expression') {
    const object = node.childForFieldName('object');
    const name = node.childForFieldName('property')?.text;
    if (!object || !name || !modelLike(name)) return undefined;
    // db.Order, models.Order, sequelize.models.Order
    const root = object.type === 'member_expression' ? object.childForFieldName('object') : object;
    if (root?.type === 'identifier' && file.imported.has(root.text)) return node;
    // sequelize.models.Order, db.sequelize.models.Order, in a Db2 Sequelize project.
    if (file.project && object.type === 'member_expression' && object.childForFieldName('property')?.text === 'models' && /(?:^|\.)sequelize$/i.test(object.childForFieldName('object')?.text ?? '')) return node;
    return file.db2 && (object.type === 'identifier' || object.type === 'member_expression') ? node : undefined;
  }
  return undefined;
}

function modelLike(name: string): boolean {
  return /^[A-Z][A-Za-z0-9_$]*$/.test(name) && /[a-z]/.test(name) && !NOT_MODELS.has(name);
}

/** The model a new instance comes from: `Order.build(values)`, `new Order(values)`, or a variable last assigned one. */
function builtModel(node: Node | null | undefined, at: number, file: SequelizeFile, ev: Evaluator): Node | undefined {
  let value: Node | null | undefined = node;
  if (value?.type === 'identifier') value = ev.assignedBefore?.(value.text, at)?.[0]?.value;
  if (value?.type === 'await_expression') value = value.namedChild(0);
  if (value?.type === 'new_expression') return modelOf(value.childForFieldName('constructor'), file, ev);
  if (value?.type !== 'call_expression') return undefined;
  const fn = value.childForFieldName('function');
  if (fn?.type !== 'member_expression' || fn.childForFieldName('property')?.text !== 'build') return undefined;
  return modelOf(fn.childForFieldName('object'), file, ev);
}

/** A receiver that is the Sequelize instance (`sequelize`, `db.sequelize`, `this.sequelize`, `orm` assigned `new Sequelize(…)`). */
function sequelizeInstance(node: Node | undefined, at: number, ev: Evaluator): boolean {
  if (!node) return false;
  if (/(?:^|\.)sequelize$/i.test(node.text)) return true;
  if (node.type !== 'identifier') return false;
  const value = ev.assignedBefore?.(node.text, at)?.[0]?.value;
  return value?.type === 'new_expression' && value.childForFieldName('constructor')?.text === 'Sequelize';
}

/** `sequelize.transaction()` (awaited or not), the value of an unmanaged transaction. */
function transactionCall(node: Node | undefined, ev: Evaluator): boolean {
  let value = node;
  if (value?.type === 'await_expression') value = value.namedChild(0) ?? undefined;
  if (value?.type !== 'call_expression') return false;
  const fn = value.childForFieldName('function');
  return fn?.type === 'member_expression' && fn.childForFieldName('property')?.text === 'transaction' && sequelizeInstance(fn.childForFieldName('object') ?? undefined, value.startIndex, ev);
}

/** The Sequelize events of a call of a file that has models to read; undefined when the call is none of them. */
export function classifySequelize(ctx: CallContext, ev: Evaluator): ApiEvent[] | undefined {
  const file = reading.get(ev.source);
  if (!file) return undefined;
  const { call } = ctx;
  const at = call.node.startIndex;
  const api = 'sequelize';
  switch (call.name) {
    case 'create':
    case 'bulkCreate': {
      const model = modelOf(call.receiver, file, ev);
      if (!model || call.args.length === 0 || call.args.length > 2) return undefined;
      const many = call.name === 'bulkCreate';
      return [{ kind: 'execute', api, action: many ? 'executeMany' : 'executePrepared', sql: insertText(model, file, call.node), batched: many, construct: 'orm', ...ormClassOf(model, file) }];
    }
    case 'save': {
      // Model.build(values).save(), new Model(values).save(), or an instance so made: an INSERT. A loaded one: an UPDATE.
      const model = builtModel(call.receiver, at, file, ev);
      return model ? [{ kind: 'execute', api, action: 'executePrepared', sql: insertText(model, file, call.node), batched: false, construct: 'orm', ...ormClassOf(model, file) }] : undefined;
    }
    case 'transaction': {
      // A managed transaction commits when its callback's promise resolves: a commit where it is called.
      const fn = call.args.find((a) => /function|arrow/.test(a.type));
      return fn && sequelizeInstance(call.receiver, at, ev) ? [{ kind: 'commit', api }] : undefined;
    }
    case 'commit': {
      const t = call.receiver;
      if (t?.type !== 'identifier' || call.args.length > 0) return undefined;
      return transactionCall(ev.assignedBefore?.(t.text, at)?.[0]?.value, ev) ? [{ kind: 'commit', api, connection: t.text }] : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * `sequelize.query(sql, options)`, which the driver reading takes for node ibm_db's query: Sequelize's raw query, whose
 * rows go together through its queryInterface.bulkInsert or a model's bulkCreate (api 'sequelize', no construct).
 */
export function sequelizeQuery(ctx: CallContext, ev: Evaluator, events: ApiEvent[]): ApiEvent[] {
  if (ctx.call.name !== 'query' || !reading.has(ev.source) || !sequelizeInstance(ctx.call.receiver, ctx.call.node.startIndex, ev)) return events;
  // { replacements }: Sequelize escapes the values into the text it sends (bind parameters go as markers).
  const options = ctx.call.args[1];
  const replacements = options?.type === 'object' && !property(options, 'bind') ? property(options, 'replacements') : undefined;
  return events.map((e) => {
    if (e.kind !== 'execute') return e;
    const text = replacements && e.sql && 'pieces' in e.sql ? replaced(e.sql, replacements) : undefined;
    return text ? { ...e, api: 'sequelize', sql: text, escapedSplices: true } : { ...e, api: 'sequelize' };
  });
}

/**
 * The text Sequelize sends for a query with replacements: each `?` (an array's elements in order) or `:name` (an
 * object's properties) outside quotes is a value spliced at the replacement that fills it (the element, the property's
 * value, else the whole replacements expression). Undefined when the text has no such marker.
 */
function replaced(text: HostText, replacements: Node): HostText | undefined {
  const elements = replacements.type === 'array' ? argsOf(replacements) : undefined;
  const out: TextPiece[] = [];
  let positional = 0;
  let quoted = false;
  let found = false;
  const spanOf = (node: Node | undefined) => ({ start: (node ?? replacements).startIndex, end: (node ?? replacements).endIndex });
  for (const piece of text.pieces) {
    if (piece.kind !== 'text') {
      out.push(piece);
      continue;
    }
    let from = 0;
    const keep = (to: number) => {
      if (to > from) out.push({ kind: 'text', text: piece.text.slice(from, to), offsets: piece.offsets.slice(from, to) });
    };
    for (let i = 0; i < piece.text.length; i++) {
      const c = piece.text[i];
      if (c === "'") quoted = !quoted;
      if (quoted) continue;
      let end = -1;
      let value: Node | undefined;
      if (c === '?') {
        end = i + 1;
        value = elements?.[positional++];
      } else if (c === ':' && piece.text[i - 1] !== ':' && /[A-Za-z_]/.test(piece.text[i + 1] ?? '')) {
        end = i + 1;
        while (end < piece.text.length && /\w/.test(piece.text[end])) end++;
        const name = piece.text.slice(i + 1, end);
        value = replacements.type === 'object' ? (property(replacements, name) ?? shorthand(replacements, name)) : undefined;
      }
      if (end < 0) continue;
      keep(i);
      out.push({ kind: 'splice', span: spanOf(value) });
      from = end;
      i = end - 1;
      found = true;
    }
    keep(piece.text.length);
  }
  return found ? { pieces: out, kind: 'format', ...(text.from ? { from: text.from } : {}) } : undefined;
}

function shorthand(obj: Node, name: string): Node | undefined {
  return obj.namedChildren.find((c) => c?.type === 'shorthand_property_identifier' && c.text === name) ?? undefined;
}

/**
 * The INSERT Sequelize sends for a model's row, mapped onto the call: `INSERT INTO S.T VALUES (?)` with the table the
 * file defines for the model, else the model expression spliced where the table's name goes (Sequelize names the
 * table by pluralising the model's name: the rules name it `<Order>`). Sequelize quotes every identifier: a name not
 * in upper case keeps its case in Db2, so it is quoted here too.
 */
function insertText(model: Node, file: SequelizeFile, over: Node): HostText {
  const table = model.type === 'identifier' ? file.tables?.get(model.text) : undefined;
  return insertTextOf(table ? { table } : { expression: model }, over, quoted);
}

/**
 * The model of an insert whose table the file does not define (SqlExecution.ormClass), for the engine to find among
 * other files' models (engine/orm-entities.ts): `from` holds `<module>.<Name>` when an import says which module gives
 * it (`const { Order } = require('../models')`, `db.Order` of `const db = require('../models')`), else the name alone
 * (`sequelize.models.Order`: any model of that name).
 */
function ormClassOf(model: Node, file: SequelizeFile): { ormClass?: { name: string; from: string[] } } {
  if (model.type === 'identifier') {
    if (file.tables?.has(model.text)) return {};
    const bound = file.importedFrom?.get(model.text);
    const name = bound?.name ?? model.text;
    return { ormClass: { name, from: [bound ? `${bound.module}.${name}` : name] } };
  }
  const name = model.childForFieldName('property')?.text;
  if (!name) return {};
  const object = model.childForFieldName('object');
  const bound = object?.type === 'identifier' ? file.importedFrom?.get(object.text) : undefined;
  return { ormClass: { name, from: [bound ? `${bound.module}.${name}` : name] } };
}

function quoted(name: string): string {
  return /^[A-Z_][A-Z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}
