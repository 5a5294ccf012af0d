// JavaScript/TypeScript: node ibm_db (query/querySync, prepare/prepareSync, execute/executeSync,
// executeNonQuery, beginTransaction/commitTransaction, Pool), in callback, promise and async/await styles,
// and any object that receives SQL text through those methods (wrappers, pools, re-exports, ORMs).
import type { Node } from 'web-tree-sitter';
import { argsOf, assignmentsNamed, cStyleCommentText, declaratorAssignment, operatorAssignment, plainText as PLAIN, scopesNaming, simpleName, type ApiEvent, type CallContext, type Evaluator, type LanguageAdapter } from '../adapter';
import { javascriptAccess, sequelizeDb2Project } from '../access';
import { entitiesOnly } from '../host-language';
import { classifySequelize, sequelizeEntities, sequelizeQuery, SEQUELIZE_CALLS, sequelizeFile, withSequelizeFile } from './javascript-sequelize';
import { emptyResult, readWithAdapter, type HostLanguage } from '../host-language';
import { concatenate, decodeQuoted, joinWithSeparator } from '../literals';
import { looksLikeSql, type HostText, type TextPiece } from '../sqltext';
import { parentOf } from '../parents';

function objectProperty(obj: Node, key: string): Node | undefined {
  for (const pair of obj.namedChildren) {
    if (pair?.type === 'pair' && pair.childForFieldName('key')?.text.replace(/['"]/g, '') === key) return pair.childForFieldName('value') ?? undefined;
    if (pair?.type === 'shorthand_property_identifier' && pair.text === key) return pair;
  }
  return undefined;
}

/** `sequelize`: the adapter of a file with Sequelize models on Db2 to read (languages/javascript-sequelize.ts). */
export function makeJsAdapter(grammar: 'javascript' | 'typescript' | 'tsx', sequelize = false): LanguageAdapter {
  return {
    grammar,
    loops: { for_statement: 'for', for_in_statement: 'for-of', while_statement: 'while', do_statement: 'do' },
    functions: new Set(['function_declaration', 'generator_function_declaration', 'method_definition']),
    lambdas: new Set(['arrow_function', 'function_expression', 'function', 'generator_function']),
    ifs: new Set(['if_statement']),
    comments: new Set(['comment']),
    calls: new Set(['call_expression']),
    assignmentTypes: new Set(['variable_declarator', 'assignment_expression', 'augmented_assignment_expression']),
    loopMethods: new Set(['forEach', 'map', 'flatMap', 'reduce', 'every', 'some', 'eachSeries', 'mapSeries', 'each']),

    calleeName(node) {
      const fn = node.childForFieldName('function');
      if (!fn) return undefined;
      return fn.type === 'member_expression' ? fn.childForFieldName('property')?.text : fn.text;
    },
    ...(sequelize ? { ormEntities: sequelizeEntities } : {}),
    interestingCall(name) {
      return QUERY.has(name) || PREPARE.has(name) || EXECUTE.has(name) || JS_CALLS.has(name) || (sequelize && SEQUELIZE_CALLS.has(name));
    },
    callSite(node) {
      const fn = node.childForFieldName('function');
      if (!fn) return undefined;
      const args = argsOf(node.childForFieldName('arguments'));
      if (fn.type === 'member_expression') {
        const prop = fn.childForFieldName('property');
        return prop ? { node, name: prop.text, receiver: fn.childForFieldName('object') ?? undefined, args, keywords: new Map() } : undefined;
      }
      return { node, name: fn.text, args, keywords: new Map() };
    },

    assignments(node) {
      // const { a } = ...: a destructuring pattern assigns no text.
      if (node.type === 'variable_declarator') return node.childForFieldName('name')?.type === 'identifier' ? declaratorAssignment(node) : [];
      return operatorAssignment(node, ['+=']);
    },

    callAssignments(call) {
      // rows.push(a, b) appends elements to the array rows (read by rows.join(sep)), also from a callback (forEach).
      if (call.name !== 'push' || call.receiver?.type !== 'identifier') return [];
      return call.args.map((value) => ({ name: call.receiver!.text, value, append: true, enclosing: true }));
    },

    returns: new Set(['return_statement']),

    memberName(lambda) {
      // class G { insertQuery = (row) => ... } (field_definition; TypeScript: public_field_definition).
      const field = parentOf(lambda);
      if (field?.type !== 'field_definition' && field?.type !== 'public_field_definition') return undefined;
      if (field.childForFieldName('value')?.id !== lambda.id) return undefined;
      const name = field.childForFieldName('property') ?? field.childForFieldName('name');
      return name?.type === 'property_identifier' || name?.type === 'private_property_identifier' ? name.text : undefined;
    },

    evaluate(node, ev) {
      switch (node.type) {
        case 'string':
          return { pieces: decodeQuoted(ev.source, node.startIndex + 1, node.endIndex - 1, 'c'), kind: 'constant' };
        case 'template_string': {
          const splices = node.namedChildren.filter((c): c is Node => c?.type === 'template_substitution');
          return { pieces: decodeQuoted(ev.source, node.startIndex + 1, node.endIndex - 1, 'c', splices, (e) => ev.evaluate(e)), kind: splices.length > 0 ? 'template' : 'constant' };
        }
        case 'parenthesized_expression':
        case 'as_expression':
        case 'non_null_expression':
        case 'satisfies_expression': {
          // (sql), sql as string, sql!, sql satisfies string: the first named child is the value.
          const inner = node.namedChildren.find((c) => c && c.type !== 'comment');
          return inner ? ev.evaluate(inner) : undefined;
        }
        case 'identifier':
        case 'shorthand_property_identifier': // { tuples } in an object literal: the variable's value
          return ev.variable(node.text, node.startIndex);
        case 'member_expression': {
          const prop = node.childForFieldName('property');
          return prop ? ev.variable(prop.text, node.startIndex) : undefined;
        }
        case 'binary_expression':
          return concatenate(node, ev, (n) => n.type === 'binary_expression' && n.childForFieldName('operator')?.text === '+');
        case 'call_expression': {
          // ['INSERT ...', 'VALUES (?)'].join(' '), parts.join(' ') of an array filled by push, 'x'.trim(), and lodash
          // templates: template(text)(data), _.template(text, settings)(data), compiled(data).
          const fn = node.childForFieldName('function');
          if (!fn) return undefined;
          const filled = templateCall(node, fn, ev);
          if (filled !== NOT_TEMPLATE) return filled;
          if (fn.type !== 'member_expression') return undefined;
          const prop = fn.childForFieldName('property')?.text;
          const object = fn.childForFieldName('object');
          if (!object) return undefined;
          if (prop === 'trim') return ev.evaluate(object);
          if (prop === 'join' && (object.type === 'array' || object.type === 'identifier')) {
            const elements = object.type === 'array' ? object.namedChildren : arrayElements(object, ev);
            if (!elements) return undefined;
            const sepNode = argsOf(node.childForFieldName('arguments'))[0];
            const sep = sepNode ? ev.evaluate(sepNode) : { pieces: [{ kind: 'text', text: ',', offsets: [node.endIndex - 1] } as TextPiece], kind: 'constant' as const };
            if (!sep) return undefined;
            return joinWithSeparator(elements, sep, ev);
          }
          return undefined;
        }
        default:
          return undefined;
      }
    },

    classify(ctx, ev) {
      const events = classifyNode(ctx, ev);
      if (!sequelize) return events;
      return events.length === 0 ? (classifySequelize(ctx, ev) ?? events) : sequelizeQuery(ctx, ev, events);
    },

    commentText: cStyleCommentText,

    defaultAutocommit(api) {
      return api === 'node-ibm_db' ? 'on' : 'unknown';
    },

    // Imports and class fields: a field typed with the driver's connection class (driverConnectionFields).
    declarations: new Set(['import_statement', 'public_field_definition', 'field_definition']),
    driverConnectionFields(declarations) {
      return driverConnectionFields(declarations);
    },
  };
}

/** node ibm_db's connection classes, as its typings name them. */
const DRIVER_CONNECTION_TYPES = new Set(['Database', 'Connection', 'ODBCConnection']);

/**
 * Class fields typed with a connection class imported from 'ibm_db' (`import { Connection } from 'ibm_db'` then
 * `protected connection?: Connection;`, or `import * as ibmdb from 'ibm_db'` then `db: ibmdb.Database | null`).
 */
function driverConnectionFields(declarations: readonly Node[]): Map<string, { api: string; described: string }> {
  const out = new Map<string, { api: string; described: string }>();
  // Local name of the type → its name in the driver; a namespace or default import of the driver.
  const types = new Map<string, string>();
  const namespaces = new Set<string>();
  for (const node of declarations) {
    if (node.type !== 'import_statement') continue;
    const source = node.childForFieldName('source')?.text.replace(/['"`]/g, '');
    if (!source || !/^ibm_db(\/|$)/.test(source)) continue;
    const clause = node.namedChildren.find((c) => c?.type === 'import_clause');
    for (const part of clause?.namedChildren ?? []) {
      if (!part) continue;
      if (part.type === 'identifier') namespaces.add(part.text);
      else if (part.type === 'namespace_import') {
        const id = part.namedChildren.find((c) => c?.type === 'identifier');
        if (id) namespaces.add(id.text);
      } else if (part.type === 'named_imports') {
        for (const spec of part.namedChildren) {
          const name = spec?.type === 'import_specifier' ? spec.childForFieldName('name')?.text : undefined;
          if (name && DRIVER_CONNECTION_TYPES.has(name)) types.set(spec!.childForFieldName('alias')?.text ?? name, name);
        }
      }
    }
  }
  if (types.size === 0 && namespaces.size === 0) return out;
  for (const node of declarations) {
    if (node.type === 'import_statement') continue;
    const name = (node.childForFieldName('name') ?? node.childForFieldName('property'))?.text;
    const annotation = node.namedChildren.find((c) => c?.type === 'type_annotation');
    if (!name || !annotation) continue;
    // `Connection`, `Connection | null`, `ibmdb.Database | undefined`: the one type apart from null and undefined.
    const named = annotation.text.replace(/^:\s*/, '').split('|').map((t) => t.trim()).filter((t) => t !== 'null' && t !== 'undefined');
    if (named.length !== 1) continue;
    const dot = named[0].lastIndexOf('.');
    const type = dot > 0 && namespaces.has(named[0].slice(0, dot)) && DRIVER_CONNECTION_TYPES.has(named[0].slice(dot + 1)) ? named[0].slice(dot + 1) : types.get(named[0]);
    if (type) out.set(name, { api: 'node-ibm_db', described: `an ibm_db ${type}` });
  }
  return out;
}

/**
 * The value an option says, when the code spells it: `true`, `false`, or the default of `config.autoCommit ?? true`
 * (what holds when nothing else is configured); undefined for anything else.
 */
function booleanOption(node: Node): boolean | undefined {
  if (node.type === 'true' || node.type === 'false') return node.type === 'true';
  if (node.type === 'parenthesized_expression' && node.namedChildren[0]) return booleanOption(node.namedChildren[0]);
  if (node.type === 'binary_expression' && ['??', '||'].includes(node.childForFieldName('operator')?.text ?? '')) {
    const right = node.childForFieldName('right');
    return right ? booleanOption(right) : undefined;
  }
  return undefined;
}

/** An object literal argument, or a variable assigned one before the call (`const options = { autoCommit: false }`). */
function objectArgument(ctx: CallContext, arg: Node): Node | undefined {
  if (arg.type === 'object') return arg;
  if (arg.type !== 'identifier') return undefined;
  for (const scope of scopesNaming(ctx.scope, arg.text)) {
    const before = assignmentsNamed(scope, arg.text).filter((a) => a.value.startIndex < arg.startIndex);
    if (before.length > 0) return before[before.length - 1].value.type === 'object' ? before[before.length - 1].value : undefined;
  }
  return undefined;
}

/** A file that defines Sequelize models: `sequelize.define(` / `Model.init(` / `@Table` (it also says Sequelize). */
const SEQUELIZE_MODEL_FILE = /\.define\s{0,40}\(|\.init\s{0,40}\(|@Table\b/;
const JS_ADAPTERS = { javascript: makeJsAdapter('javascript'), typescript: makeJsAdapter('typescript'), tsx: makeJsAdapter('tsx') };
const SEQUELIZE_ADAPTERS = { javascript: makeJsAdapter('javascript', true), typescript: makeJsAdapter('typescript', true), tsx: makeJsAdapter('tsx', true) };

export const javascriptLanguage: HostLanguage = {
  languages: ['javascript', 'typescript'],
  grammars: ['javascript', 'typescript', 'tsx'],
  grammarOf(path, language) {
    return /\.[jt]sx$/i.test(path) ? 'tsx' : language === 'typescript' ? 'typescript' : 'javascript';
  },
  read(source, env) {
    const leftOut = javascriptAccess(source.text, env.options, source.path);
    const grammar = javascriptLanguage.grammarOf!(source.path, source.language) as keyof typeof JS_ADAPTERS;
    // A Sequelize model module with no data access of its own (models/order.js: define / init with a tableName):
    // left out, with the models it defines, which other files' inserts name their tables by (engine/orm-entities.ts).
    if (leftOut && SEQUELIZE_MODEL_FILE.test(source.text) && /\btableName\b/.test(source.text) && /sequelize/i.test(source.text)) return entitiesOnly(readWithAdapter(source, env, SEQUELIZE_ADAPTERS[grammar]), leftOut);
    if (leftOut) return emptyResult(leftOut);
    // Sequelize models on Db2 (made so in this file, or imported from a configured models module): a second adapter
    // that also reads model inserts and transactions, so that other files pay nothing for them.
    const sequelize = sequelizeFile(source.text, env.options.driverModules, sequelizeDb2Project(source.path, env.options));
    if (sequelize) return withSequelizeFile(source.text, sequelize, () => readWithAdapter(source, env, SEQUELIZE_ADAPTERS[grammar]));
    return readWithAdapter(source, env, JS_ADAPTERS[grammar]);
  },
};

const QUERY = new Set(['query', 'querySync', 'queryResult', 'queryResultSync', 'queryStream']);
const PREPARE = new Set(['prepare', 'prepareSync']);
const EXECUTE = new Set(['execute', 'executeSync', 'executeNonQuery', 'executeNonQuerySync']);
const ARRAY_BINDING = /ParamType\s*:\s*['"]ARRAY['"]|\bArraySize\b/;
const JS_CALLS = new Set(['bind', 'bindSync', 'open', 'openSync', 'beginTransaction', 'beginTransactionSync', 'setAutoCommit', 'commitTransaction', 'commitTransactionSync', 'push']);

/**
 * The elements of an array variable where it is read: an array literal and what `push` added to it since, in order
 * (`allQueries.push(query)` under an if counts). Undefined when that is not known: not an array literal, or a push
 * in a loop the read is not in (an unknown number of elements, such as one row per pass).
 */
function arrayElements(name: Node, ev: Evaluator): readonly (Node | null)[] | undefined {
  const assigned = ev.assignedBefore?.(name.text, name.startIndex);
  if (!assigned || assigned[0].value.type !== 'array') return undefined;
  const elements: (Node | null)[] = [...assigned[0].value.namedChildren];
  for (const a of assigned.slice(1)) {
    if (a.loop && !(a.loop.span.start <= name.startIndex && name.startIndex <= a.loop.span.end)) return undefined;
    elements.push(a.value);
  }
  return elements;
}

const NOT_TEMPLATE: unique symbol = Symbol('not a template');

/** lodash/underscore template slots: `<%= x %>` (interpolate) and `<%- x %>` (escape), and any other `<% ... %>` (code). */
const TEMPLATE_TAG = /<%([=-]?)([\s\S]{0,400}?)%>/g;

/** `template(text, settings?)`, `_.template(...)`, `lodash.template(...)`: a call that compiles a lodash/underscore template. */
function compilesTemplate(node: Node | undefined | null): Node | undefined {
  if (node?.type !== 'call_expression') return undefined;
  const fn = node.childForFieldName('function');
  const name = fn?.type === 'member_expression' ? fn.childForFieldName('property')?.text : fn?.text;
  return name === 'template' ? node : undefined;
}

/**
 * A lodash/underscore template filled with data: `template(text, settings)(data)`, or `compiled(data)` with `compiled`
 * assigned `template(text)`. Its text is the template's with each `<%= name %>` / `<%- name %>` slot replaced by the
 * data's property of that name (what it evaluates to, else a spliced value at the property), or a spliced value at the
 * slot when the data is not an object literal the code shows. A template with code blocks (`<% if ... %>`) is not known.
 * NOT_TEMPLATE: the call is no filled template.
 */
function templateCall(node: Node, fn: Node, ev: Evaluator): HostText | undefined | typeof NOT_TEMPLATE {
  let compile = compilesTemplate(fn);
  if (!compile && fn.type === 'identifier') {
    const assigned = ev.assignedBefore?.(fn.text, fn.startIndex);
    compile = assigned && assigned.length === 1 ? compilesTemplate(assigned[0].value) : undefined;
  }
  if (!compile) return NOT_TEMPLATE;
  const textNode = argsOf(compile.childForFieldName('arguments'))[0];
  const text = textNode ? ev.evaluate(textNode) : undefined;
  if (!text) return undefined;
  const dataNode = argsOf(node.childForFieldName('arguments'))[0];
  const data = dataNode ? dataObject(dataNode, ev) : undefined;
  const out: TextPiece[] = [];
  for (const piece of text.pieces) {
    if (piece.kind !== 'text') {
      out.push(piece);
      continue;
    }
    let last = 0;
    const keep = (from: number, to: number) => {
      if (to > from) out.push({ kind: 'text', text: piece.text.slice(from, to), offsets: piece.offsets.slice(from, to) });
    };
    const pattern = new RegExp(TEMPLATE_TAG.source, 'g');
    for (let m = pattern.exec(piece.text); m; m = pattern.exec(piece.text)) {
      if (!m[1]) return undefined;
      keep(last, m.index);
      last = m.index + m[0].length;
      const field = m[2].trim();
      const value = data && /^[A-Za-z_$][\w$]*$/.test(field) ? objectProperty(data, field) : undefined;
      if (value) out.push(...(ev.evaluate(value) ?? ev.splice(value)).pieces);
      else out.push({ kind: 'splice', span: { start: piece.offsets[m.index], end: piece.offsets[last - 1] + 1 } });
    }
    keep(last, piece.text.length);
  }
  return { pieces: out, kind: 'format' };
}

/** The object literal a template is filled with: written in the call, or the latest value of the variable passed. */
function dataObject(node: Node, ev: Evaluator): Node | undefined {
  if (node.type === 'object') return node;
  if (node.type !== 'identifier') return undefined;
  const assigned = ev.assignedBefore?.(node.text, node.startIndex);
  return assigned?.[0].value.type === 'object' ? assigned[0].value : undefined;
}

/** `x.prepare(sql).then((stmt) => ...)`: the first parameter of the callback receives the result. */
function thenParam(node: Node): string | undefined {
  const member = parentOf(node);
  if (member?.type !== 'member_expression' || member.childForFieldName('property')?.text !== 'then') return undefined;
  const thenCall = parentOf(member);
  const fn = thenCall?.type === 'call_expression' ? argsOf(thenCall.childForFieldName('arguments'))[0] : undefined;
  if (!fn || !/function|arrow/.test(fn.type)) return undefined;
  const params = fn.childForFieldName('parameters') ?? fn.childForFieldName('parameter');
  if (!params) return undefined;
  if (params.type === 'identifier') return params.text;
  const first = params.namedChildren.find((p) => !!p);
  return first ? simpleName(first.childForFieldName('pattern') ?? first) : undefined;
}

function classifyNode(ctx: CallContext, ev: Evaluator): ApiEvent[] {
  const { call } = ctx;
  const recv = simpleName(call.receiver);
  const a = call.args;
  const api = 'node-ibm_db';
  // A result may arrive as `const x = await ...`, `.then(x => ...)` is not followed, or as a callback's 2nd parameter.
  const resultName = ctx.resultName ?? (ctx.callbackParams && ctx.callbackParams.length >= 2 ? ctx.callbackParams[1] : undefined) ?? thenParam(call.node);
  if (call.name === 'open' || call.name === 'openSync') {
    // ibmdb.open(cn), new ibmdb.Pool().open(cn, (err, conn) => ...): a connection the driver opens.
    if (!recv || !/ibm|db2|pool/i.test(recv) || !resultName) return [];
    // ibmdb.open(cn, { autoCommit: false }), or options a variable holds: the connection opens without autocommit.
    const autoCommit = a.map((arg) => objectArgument(ctx, arg)).map((o) => (o ? objectProperty(o, 'autoCommit') : undefined)).find((v) => v !== undefined);
    return [{ kind: 'connect', api, connection: resultName, autocommit: autoCommit ? booleanOption(autoCommit) : undefined }];
  }
  if (QUERY.has(call.name) && a.length > 0 && recv) {
    let sqlNode: Node | HostText | undefined = a[0];
    let batched = false;
    if (a[0].type === 'object') {
      const sql = objectProperty(a[0], 'sql');
      if (!sql) return [];
      sqlNode = sql;
      batched = objectProperty(a[0], 'ArraySize') !== undefined;
    }
    const text = ev.evaluate(sqlNode as Node);
    if (text && !looksLikeSql(PLAIN(text))) return [];
    if (!text) return [];
    const params = a.length > 1 && a[1].type !== 'arrow_function' && a[1].type !== 'function_expression';
    return [{ kind: 'execute', api, action: batched ? 'executeMany' : params ? 'executePrepared' : 'executeDirect', sql: text, connection: recv, batched }];
  }
  if (PREPARE.has(call.name) && a.length > 0 && recv) {
    const text = ev.evaluate(a[0]);
    if (text && !looksLikeSql(PLAIN(text))) return [];
    return [{ kind: 'execute', api, action: 'prepare', sql: text ?? a[0], connection: recv, handle: resultName ?? `@${call.node.startIndex}` }];
  }
  if (EXECUTE.has(call.name) && recv) {
    // db.execute('INSERT ...', params): a wrapper's execute takes the SQL text (ibm_db's statement takes params).
    const text = a.length > 0 ? ev.evaluate(a[0]) : undefined;
    if (text && looksLikeSql(PLAIN(text))) return [{ kind: 'execute', api, action: a.length > 1 ? 'executePrepared' : 'executeDirect', sql: text, connection: recv }];
    // Parameters bound as arrays (ParamType 'ARRAY', ArraySize) insert many rows per call.
    return [{ kind: 'execute', api, action: 'executePrepared', handle: recv, batched: a.some((arg) => ARRAY_BINDING.test(arg.text)) || undefined }];
  }
  if ((call.name === 'bind' || call.name === 'bindSync') && recv && a.some((arg) => ARRAY_BINDING.test(arg.text))) {
    return [{ kind: 'paramset', handle: recv, size: 2 }];
  }
  switch (call.name) {
    case 'beginTransaction':
    case 'beginTransactionSync':
      return recv ? [{ kind: 'autocommit', api, on: false, connection: recv }] : [];
    case 'setAutoCommit':
      return recv && a.length > 0 ? [{ kind: 'autocommit', api, on: a[0].text !== 'false', connection: recv }] : [];
    case 'commitTransaction':
    case 'commitTransactionSync':
      return recv ? [{ kind: 'commit', api, connection: recv }] : [];
    default:
      return [];
  }
}
