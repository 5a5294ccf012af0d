// Java: JDBC (Statement, PreparedStatement, Connection), Spring JdbcTemplate, SQLJ clauses (pre-scanned).
import type { Node } from 'web-tree-sitter';
import { argsOf, applyFormat, concatenate, cStyleCommentText, decodeQuoted, simpleName, type ApiEvent, type CallContext, type Evaluator, type LanguageAdapter } from './host';
import { looksLikeSql, type HostText } from './sqltext';

const EXECUTE_METHODS = new Set(['executeUpdate', 'executeLargeUpdate', 'execute', 'executeQuery']);
const JAVA_CALLS = new Set([
  ...EXECUTE_METHODS,
  'setAutoCommit', 'commit', 'createStatement', 'getConnection', 'prepareStatement', 'prepareCall',
  'addBatch', 'executeBatch', 'executeLargeBatch', 'update', 'batchUpdate', 'append',
]);

export const javaAdapter: LanguageAdapter = {
  grammar: 'java',
  loops: { for_statement: 'for', enhanced_for_statement: 'for-each', while_statement: 'while', do_statement: 'do' },
  functions: new Set(['method_declaration', 'constructor_declaration', 'compact_constructor_declaration']),
  lambdas: new Set(['lambda_expression']),
  ifs: new Set(['if_statement']),
  comments: new Set(['line_comment', 'block_comment']),
  calls: new Set(['method_invocation']),
  assignmentTypes: new Set(['variable_declarator', 'assignment_expression', 'resource']),
  loopMethods: new Set(['forEach', 'forEachOrdered']),

  calleeName(node) {
    return node.childForFieldName('name')?.text;
  },
  interestingCall(name) {
    return JAVA_CALLS.has(name);
  },
  callSite(node) {
    const name = node.childForFieldName('name');
    if (!name) return undefined;
    return { node, name: name.text, receiver: node.childForFieldName('object') ?? undefined, args: argsOf(node.childForFieldName('arguments')), keywords: new Map() };
  },

  assignments(node) {
    if (node.type === 'variable_declarator' || node.type === 'resource') {
      const name = node.childForFieldName('name');
      const value = node.childForFieldName('value');
      return name && value ? [{ name: name.text, value, append: false }] : [];
    }
    const left = simpleName(node.childForFieldName('left'));
    const right = node.childForFieldName('right');
    const op = node.childForFieldName('operator')?.text;
    if (!left || !right || (op !== '=' && op !== '+=')) return [];
    return [{ name: left, value: right, append: op === '+=' }];
  },

  callAssignments(call) {
    // StringBuilder sb …; sb.append(x) appends to sb's text.
    if (call.name === 'append' && call.receiver?.type === 'identifier' && call.args.length === 1) {
      return [{ name: call.receiver.text, value: call.args[0], append: true }];
    }
    return [];
  },

  evaluate(node, ev) {
    switch (node.type) {
      case 'string_literal': {
        const raw = node.text;
        const delim = raw.startsWith('"""') ? 3 : 1;
        return { pieces: decodeQuoted(ev.source, node.startIndex + delim, node.endIndex - delim, 'c'), kind: 'constant' };
      }
      case 'parenthesized_expression': {
        const inner = node.namedChildren[0];
        return inner ? ev.evaluate(inner) : undefined;
      }
      case 'identifier':
        return ev.variable(node.text, node.startIndex);
      case 'field_access': {
        const field = node.childForFieldName('field');
        return field ? ev.variable(field.text, node.startIndex) : undefined;
      }
      case 'binary_expression':
        return concatenation(node, ev);
      case 'object_creation_expression': {
        const type = node.childForFieldName('type')?.text ?? '';
        if (!/^(StringBuilder|StringBuffer|String)$/.test(type)) return undefined;
        const args = argsOf(node.childForFieldName('arguments'));
        if (args.length === 0) return { pieces: [], kind: 'constant' };
        return args[0].type === 'decimal_integer_literal' ? { pieces: [], kind: 'constant' } : ev.evaluate(args[0]);
      }
      case 'method_invocation': {
        const name = node.childForFieldName('name')?.text;
        const receiver = node.childForFieldName('object');
        const args = argsOf(node.childForFieldName('arguments'));
        if (name === 'format' && receiver?.text === 'String' && args.length > 0) {
          const fmt = ev.evaluate(args[0]);
          return fmt ? applyFormat(fmt, args.slice(1), new Map(), 'printf', (n) => ev.evaluate(n) ?? ev.splice(n)) : undefined;
        }
        if (name === 'formatted' && receiver) {
          const fmt = ev.evaluate(receiver);
          return fmt ? applyFormat(fmt, args, new Map(), 'printf', (n) => ev.evaluate(n) ?? ev.splice(n)) : undefined;
        }
        if (receiver && (name === 'toString' || name === 'trim' || name === 'strip' || name === 'stripIndent' || name === 'intern')) return ev.evaluate(receiver);
        return undefined;
      }
      default:
        return undefined;
    }
  },

  classify(ctx, ev) {
    return classifyJava(ctx, ev);
  },

  commentText: cStyleCommentText,

  defaultAutocommit(api) {
    if (api === 'jdbc') return 'on';
    if (api === 'sqlj') return 'off';
    return 'unknown';
  },
};

/** `a + b + …`: strings joined with values; a part that is not a known string is a spliced value. */
export function concatenation(node: Node, ev: Evaluator): HostText | undefined {
  return concatenate(node, ev, (n) => n.type === 'binary_expression' && n.childForFieldName('operator')?.text === '+');
}

function classifyJava(ctx: CallContext, ev: Evaluator): ApiEvent[] {
  const { call } = ctx;
  const recv = simpleName(call.receiver);
  const name = call.name;
  const chained = call.receiver?.type === 'method_invocation' ? `@${call.receiver.startIndex}` : undefined;
  const handle = chained ?? recv;
  switch (name) {
    case 'setAutoCommit':
      return call.args.length === 1 ? [{ kind: 'autocommit', api: 'jdbc', on: call.args[0].text.trim() !== 'false', connection: recv }] : [];
    case 'commit':
      return call.args.length === 0 && recv ? [{ kind: 'commit', api: 'jdbc', connection: recv }] : [];
    case 'createStatement':
      return ctx.resultName && recv ? [{ kind: 'link', handle: ctx.resultName, connection: recv }] : [];
    case 'getConnection':
      return ctx.resultName ? [{ kind: 'connect', api: 'jdbc', connection: ctx.resultName }] : [];
    case 'prepareStatement':
    case 'prepareCall':
      if (call.args.length === 0) return [];
      return [{ kind: 'execute', api: 'jdbc', action: 'prepare', sql: call.args[0], handle: ctx.resultName ?? `@${call.node.startIndex}`, connection: recv }];
    case 'addBatch':
      if (call.args.length === 1) return [{ kind: 'execute', api: 'jdbc', action: 'addBatch', sql: call.args[0], handle, batched: true }];
      return handle ? [{ kind: 'execute', api: 'jdbc', action: 'addBatch', handle, batched: true }] : [];
    case 'executeBatch':
    case 'executeLargeBatch':
      return handle ? [{ kind: 'execute', api: 'jdbc', action: 'executeBatch', handle, batched: true }] : [];
    case 'update':
    case 'batchUpdate': {
      // Spring JdbcTemplate / NamedParameterJdbcTemplate: the first argument is the SQL text.
      if (call.args.length === 0) return [];
      const text = ev.evaluate(call.args[0]);
      if (!text || !looksLikeSql(text.pieces.map((p) => (p.kind === 'text' ? p.text : '0')).join(''))) return [];
      const batched = name === 'batchUpdate';
      return [{ kind: 'execute', api: 'spring', action: batched ? 'executeMany' : 'executePrepared', sql: text, connection: recv, batched }];
    }
    default:
      break;
  }
  if (EXECUTE_METHODS.has(name)) {
    if (call.args.length === 0) return handle ? [{ kind: 'execute', api: 'jdbc', action: 'executePrepared', handle }] : [];
    const text = ev.evaluate(call.args[0]);
    // execute(x) is a common name (executors, commands): only SQL-looking text or a statement handle counts.
    const plain = text ? text.pieces.map((p) => (p.kind === 'text' ? p.text : '0')).join('') : '';
    if (text && !looksLikeSql(plain)) return [];
    if (!text && name === 'execute' && !/st(?:mt|atement)?\b|^ps$/i.test(recv ?? '')) return [];
    return [{ kind: 'execute', api: 'jdbc', action: 'executeDirect', sql: text ?? call.args[0], handle }];
  }
  return [];
}

