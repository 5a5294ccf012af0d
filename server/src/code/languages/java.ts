// Java: JDBC (Statement, PreparedStatement, Connection, XAConnection), Spring JdbcTemplate, SQLJ clauses
// (pre-scanned by esql.ts), and the inserts JPA / Hibernate / Spring Data send without SQL text (java-jpa.ts), Spring's
// SimpleJdbcInsert (java-spring-jdbc.ts) and jOOQ (java-jooq.ts) send.
import type { Node } from 'web-tree-sitter';
import { argsOf, cStyleCommentText, declaratorAssignment, operatorAssignment, plainText, simpleName, type ApiEvent, type CallContext, type Evaluator, type LanguageAdapter } from '../adapter';
import { javaAccess, projectBatching } from '../access';
import { javaPoolSetUpOff } from '../hibernate-config';
import { embeddedHooks, scanEmbeddedSql } from '../esql';
import { emptyResult, entitiesOnly, readWithAdapter, type HostLanguage } from '../host-language';
import { applyFormat, concatenate, decodeQuoted } from '../literals';
import { looksLikeSql, type HostText } from '../sqltext';
import { classifyJpa, javaEntities, javaRepositories, JPA_CALLS, SPRING_DATA_QUERY, withHibernateConfiguration } from './java-jpa';
import { ReadScoped } from '../read-scope';
import { declaration, type DeclaredTypes } from './java-syntax';
import { classifyMybatis, javaMappers, MAPPER_VARIABLE, MYBATIS_FILE, withMybatisBatch } from './java-mybatis';
import { classifySimpleJdbcInsert, SIMPLE_INSERT_CALLS } from './java-spring-jdbc';
import { classifyJooq, JOOQ_CALLS } from './java-jooq';

const EXECUTE_METHODS = new Set(['executeUpdate', 'executeLargeUpdate', 'execute', 'executeQuery']);
const JAVA_CALLS = new Set([
  ...EXECUTE_METHODS,
  'setAutoCommit', 'commit', 'createStatement', 'getConnection', 'prepareStatement', 'prepareCall',
  'addBatch', 'executeBatch', 'executeLargeBatch', 'update', 'batchUpdate', 'append', 'getXAConnection',
  ...JPA_CALLS, ...SIMPLE_INSERT_CALLS, ...JOOQ_CALLS,
]);
/** The calls java-jpa.ts reads first (commit too: a JPA transaction's commit, else JDBC's). */
const JPA_CALL_SET = new Set(JPA_CALLS);

/** The file being read names MyBatis: any method call may be a mapper's (java-mybatis.ts). */
const readingMybatis = new ReadScoped(false);

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
  ormEntities(root, ev) {
    // (Entity classes, MyBatis mapper interfaces, Spring Data repository interfaces whose query methods hint a flush
    // mode of COMMIT: what other files' calls take from this one, engine/orm-entities.ts.)
    const mappers = javaMappers(root, ev);
    const repositories = javaRepositories(root, ev);
    return mappers.length > 0 || repositories.length > 0 ? [...javaEntities(root, ev), ...mappers, ...repositories] : javaEntities(root, ev);
  },
  declarations: new Set(['field_declaration', 'local_variable_declaration', 'formal_parameter', 'class_declaration', 'interface_declaration', 'record_declaration']),
  declaredTypes(declarations, names) {
    const variables = new Map<string, string>();
    const classes: string[] = [];
    // The type's own name, without its package or type arguments: a.b.Dao<T> → Dao.
    const typeName = (node: Node | null) => (node ? (node.type === 'generic_type' ? node.namedChild(0) : node)?.text.replace(/^.*\./, '') : undefined);
    // One of the names as a whole identifier (names are identifiers: no pattern characters but `$`).
    const naming = new RegExp(`(?<![\\w$])(?:${[...names].map((n) => n.replace(/\$/g, '\\$')).join('|')})(?![\\w$])`);
    for (const node of declarations) {
      const kind = node.type;
      if (kind === 'formal_parameter' || kind === 'field_declaration' || kind === 'local_variable_declaration') {
        // Variables by the names asked for only: each node asked of wasm costs about a microsecond, the declarators'
        // list more, so a short declaration whose text holds none of the names is passed over. (A long one, a lambda's
        // body, is read: scanning the text of every declaration nested in it would grow with the square of the nesting.)
        if (names.size === 0) continue;
        const text = node.text;
        if (text.length <= 1000 && !naming.test(text)) continue;
        const declarators = kind === 'formal_parameter' ? [node] : node.childrenForFieldName('declarator');
        let type: string | undefined | null = null;
        for (const d of declarators) {
          const name = d?.childForFieldName('name')?.text;
          if (!name || !names.has(name)) continue;
          if (type === null) type = typeName(node.childForFieldName('type'));
          if (type) variables.set(name, type);
        }
      } else {
        const name = node.childForFieldName('name')?.text;
        if (name) classes.push(name);
        const parents = [node.childForFieldName('superclass'), node.childForFieldName('interfaces'), node.namedChildren.find((c) => c?.type === 'extends_interfaces') ?? null];
        for (const p of parents) for (const t of p?.descendantsOfType(['type_identifier', 'generic_type']) ?? []) if (t && t.parent?.type !== 'type_arguments' && t.parent?.type !== 'generic_type') classes.push(typeName(t)!);
      }
    }
    return { variables, classes: [...new Set(classes)] };
  },
  interestingCall(name) {
    return JAVA_CALLS.has(name) || readingMybatis.current || SPRING_DATA_QUERY.test(name);
  },
  callSite(node) {
    const name = node.childForFieldName('name');
    if (!name) return undefined;
    return { node, name: name.text, receiver: node.childForFieldName('object') ?? undefined, args: argsOf(node.childForFieldName('arguments')), keywords: new Map() };
  },

  assignments(node) {
    const type = node.type;
    return type === 'variable_declarator' || type === 'resource' ? declaratorAssignment(node) : operatorAssignment(node, ['+=']);
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
        if (name === 'format' && receiver && /^(?:String|MessageFormat|java\.text\.MessageFormat)$/.test(receiver.text) && args.length > 0) {
          const fmt = ev.evaluate(args[0]);
          const style = receiver.text === 'String' ? 'printf' : 'message';
          return fmt ? applyFormat(fmt, args.slice(1), new Map(), style, (n) => ev.evaluate(n) ?? ev.splice(n)) : undefined;
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
    const built = classifyJooq(ctx, ev) ?? classifySimpleJdbcInsert(ctx, ev);
    if (built) return built;
    return (JPA_CALL_SET.has(ctx.call.name) || SPRING_DATA_QUERY.test(ctx.call.name) ? classifyJpa(ctx, ev) : undefined) ?? (readingMybatis.current ? classifyMybatis(ctx, ev, JAVA_CALLS.has(ctx.call.name)) : undefined) ?? classifyJava(ctx, ev);
  },

  commentText: cStyleCommentText,

  defaultAutocommit(api) {
    return api === 'jdbc' ? 'on' : 'unknown';
  },

  fixedAutocommit(api) {
    // An ORM's inserts run in a transaction (the entity manager's, or Spring Data's own per save()).
    return api === 'sqlj' || api === 'jpa' || api === 'hibernate' || api === 'spring-data' ? 'off' : undefined;
  },
};

export const javaLanguage: HostLanguage = {
  languages: ['java'],
  grammars: ['java'],
  read(source, env) {
    // (A service that is handed a mapper names no MyBatis: `private final OrderMapper orderMapper;` is enough, the
    // engine settling its calls by the workspace's mapper interfaces; java-mybatis.ts classifyMybatis.)
    const mybatis = MYBATIS_FILE.test(source.text) || MAPPER_VARIABLE.test(source.text);
    return readingMybatis.run(mybatis, () => readJava(source, env, mybatis));
  },
};

function readJava(source: Parameters<HostLanguage['read']>[0], env: Parameters<HostLanguage['read']>[1], mybatis: boolean): ReturnType<HostLanguage['read']> {
    // (A MyBatis SqlSession runs statements by id: sqlSession.insert("com.acme.OrderMapper.insertOrder", o).)
    const leftOut = mybatis && SQL_SESSION.test(source.text) ? undefined : javaAccess(source.text);
    // An entity class's file has no data access of its own: left out, with the entities it declares, which other
    // files' inserts name their tables by (engine/orm-entities.ts); a MyBatis mapper interface's likewise, with its
    // @Insert statements (java-mybatis.ts javaMappers); a Spring Data repository interface's, with its query methods'
    // flush mode hints (java-jpa.ts javaRepositories).
    if (leftOut) return ENTITY_ANNOTATION.test(source.text) || (mybatis && MAPPER_ANNOTATION.test(source.text)) || QUERY_HINTS.test(source.text) ? entitiesOnly(readWithAdapter(source, env, javaAdapter), leftOut) : emptyResult(leftOut);
    // The Hibernate configuration of the file's project, when the CLI or the language server found one (and whether it
    // sets MyBatis's executor to BATCH).
    const config = projectBatching(source.path, env.options.hibernateBatching);
    // A DataSource's connections start with autocommit off when the project's pool configuration or this file's pool
    // set-up says so (getConnection below).
    const poolOff = config?.poolAutocommitOff !== undefined || poolConfiguredOff(source.text);
    return poolAutocommitOff.run(poolOff, () => readJavaWith(source, env, config));
}

function readJavaWith(source: Parameters<HostLanguage['read']>[0], env: Parameters<HostLanguage['read']>[1], config: ReturnType<typeof projectBatching>): ReturnType<HostLanguage['read']> {
    return withMybatisBatch(config?.mybatisBatch, () => withHibernateConfiguration(config?.mybatisOnly ? undefined : config, () => {
      if (!source.text.includes('#sql')) return readWithAdapter(source, env, javaAdapter);
      const scan = scanEmbeddedSql(source.text, { sqlj: true });
      return readWithAdapter(source, env, javaAdapter, { hostText: scan.hostText, hooks: embeddedHooks(source.text, scan) });
    }));
}

const ENTITY_ANNOTATION = /@(?:Entity|MappedSuperclass)\b/;
const MAPPER_ANNOTATION = /@Insert\b/;
const QUERY_HINTS = /@(?:[\w.]*\.)?QueryHints\b/;
const SQL_SESSION = /\bSqlSession(?:Template)?\s+[a-z_]\w*\s*[;=,)]/;

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
      // conn.commit(), or through a getter (Debezium's connection.connection().commit()): a commit either way.
      return call.args.length === 0 && (recv || chained) ? [{ kind: 'commit', api: 'jdbc', connection: recv }] : [];
    case 'createStatement':
      return ctx.resultName && recv ? [{ kind: 'link', handle: ctx.resultName, connection: recv }] : [];
    case 'getConnection': {
      // A connection of an XAConnection takes part in global transactions: the transaction manager commits.
      // A DataSource's starts as its pool is configured: off when the project's configuration or this file's pool
      // set-up says so (poolAutocommitOff), else the pool's default (on: HikariCP, DBCP2, Tomcat JDBC), like the driver's.
      if (!ctx.resultName) return [];
      if (isXa(call.receiver)) return [{ kind: 'connect', api: 'jdbc', connection: ctx.resultName, autocommit: false }];
      const pooled = isDataSource(call.receiver, ev.source);
      return [{ kind: 'connect', api: 'jdbc', connection: ctx.resultName, ...(pooled ? (poolAutocommitOff.current ? { autocommit: false } : { pooled: true }) : {}) }];
    }
    case 'getXAConnection':
      return [];
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
      if (!text || !looksLikeSql(plainText(text))) return [];
      const batched = name === 'batchUpdate';
      return [{ kind: 'execute', api: 'spring', action: batched ? 'executeMany' : 'executePrepared', sql: text, connection: recv, batched }];
    }
    default:
      break;
  }
  if (EXECUTE_METHODS.has(name)) {
    if (call.args.length === 0) return handle ? [{ kind: 'execute', api: 'jdbc', action: 'executePrepared', handle }] : [];
    const texts = call.args.map((a) => ev.evaluate(a));
    // execute(x) is a common name (executors, commands): only SQL-looking text or a statement handle counts.
    const first = texts[0];
    if (first && !looksLikeSql(plainText(first))) return [];
    if (!first && name === 'execute' && !/st(?:mt|atement)?\b|^ps$/i.test(recv ?? '')) return [];
    // execute("CREATE …", "INSERT …") on a connection helper (Debezium's JdbcConnection) runs each text.
    const more = texts.slice(1).filter((t): t is HostText => !!t && looksLikeSql(plainText(t)));
    return [first ?? call.args[0], ...more].map((sql): ApiEvent => ({ kind: 'execute', api: 'jdbc', action: 'executeDirect', sql, handle }));
  }
  return [];
}

/** Whether the file reads with the pool's autocommit off (the project's configuration, or the file's own pool set-up). */
const poolAutocommitOff = new ReadScoped<boolean>(false);

/**
 * A DataSource receiver of getConnection(): a variable named like one (ds, dataSource, this.orderDataSource) or
 * declared with a DataSource type (DataSource, HikariDataSource, BasicDataSource …), or a getDataSource() call.
 * DriverManager's connections keep the driver's default.
 */
function isDataSource(receiver: Node | undefined, source: string): boolean {
  if (!receiver) return false;
  if (receiver.type === 'method_invocation') return /^get\w*DataSource$/.test(receiver.childForFieldName('name')?.text ?? '');
  const name = simpleName(receiver);
  if (!name || name === 'DriverManager') return false;
  if (/^(?:ds|\w*[dD]ata[sS]ource)$/.test(name)) return true;
  return /DataSource$/.test(declaredTypeOf(name, source) ?? '');
}

/** The declared types asked of the file being read, each name once (java-syntax.ts declaration). */
let declaredIn: { source: string; known: DeclaredTypes } | undefined;

function declaredTypeOf(name: string, source: string): string | undefined {
  if (declaredIn?.source !== source) declaredIn = { source, known: new Map() };
  return declaration(name, source, declaredIn.known)?.type;
}

/**
 * A pool this file sets up with autocommit off: `cfg.setAutoCommit(false)` on a HikariConfig or HikariDataSource,
 * or setDefaultAutoCommit(false) (Commons DBCP2's BasicDataSource, Tomcat JDBC's PoolProperties / DataSource); the
 * same reading as another Java file's pool set-up gets as project evidence (hibernate-config.ts javaPoolSetUpOff).
 */
function poolConfiguredOff(text: string): boolean {
  return javaPoolSetUpOff(text, (name) => declaredTypeOf(name, text));
}

/** xaConnection.getConnection(), ds.getXAConnection().getConnection(). */
function isXa(receiver: Node | undefined): boolean {
  if (!receiver) return false;
  return /^xa|XA/.test(simpleName(receiver) ?? '') || (receiver.type === 'method_invocation' && receiver.childForFieldName('name')?.text === 'getXAConnection');
}

