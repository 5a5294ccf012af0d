// MyBatis: the INSERTs a mapper method runs. A mapper interface's method annotated `@Insert("INSERT INTO APP.ORDERS
// (ID, ITEM) VALUES (#{id}, #{item})")` runs that statement once per call, as does `sqlSession.insert("com.acme.
// OrderMapper.insertOrder", order)` by the statement's id (namespace = the interface's qualified name, then the
// method). A call of such a method (`orderMapper.insertOrder(o)`, the receiver declared as the interface, or got from
// `session.getMapper(OrderMapper.class)`) becomes an execution of that SQL text, api `mybatis`, so that the
// insert-pattern rules read it as a JDBC statement's.
//
// MyBatis semantics followed (MyBatis 3: https://mybatis.org/mybatis-3/java-api.html, "SqlSessionFactory" and "Mapper
// Annotations"; https://mybatis.org/mybatis-3/sqlmap-xml.html, "String Substitution"; the project's FAQ,
// https://github.com/mybatis/mybatis-3/wiki/FAQ, "What is the difference between #{...} and ${...}?"):
// - "Java API", Mapper Annotations: @Insert / @Select … take an array of strings (or a single string); the parts of an
//   array are joined with a single space between them. `<script>` in the value makes it dynamic SQL (XML tags in the
//   annotation): a `<foreach>` there writes one VALUES row per element of a list, a multi-row INSERT, not read as one.
// - FAQ / "Mapper XML Files", String Substitution: `#{…}` is a parameter marker of a JDBC PreparedStatement (`?`);
//   `${…}` is string substitution, the value spliced into the SQL text unescaped (new text per value, injection risk):
//   spliced here too, so prefer-parameter-markers reads it as any other spliced value.
// - "Java API", SqlSessionFactory: openSession() (ExecutorType.SIMPLE, the default) prepares and runs each statement on
//   its own; openSession(ExecutorType.BATCH) queues the updates, inserts included, and sends them as JDBC batches at
//   flushStatements() / commit(). A call in a method that opens its session with ExecutorType.BATCH is batched (no
//   event); so is every call in a file that builds a Spring SqlSessionTemplate with ExecutorType.BATCH.
//
// Read only in a file that names MyBatis (`org.apache.ibatis`, `mybatis`) or holds a variable of a type named like a
// mapper (`private final OrderMapper orderMapper;`, a Spring service handed its mapper): other files are left as they
// were, and a call of such a variable is an INSERT only when the workspace's mappers declare its statement.
// The interface in the same file: the SQL text is the annotation's, character by character (a `${…}` is a splice at
// its place). In another file (the usual layout): the mapper file records its interfaces' INSERTs (OrmEntity.mapper,
// javaMappers) and the call records the statement's qualified ids (SqlExecution.mapperStatement); the engine finds
// the text (engine/orm-entities.ts withOrmEntities), parsed over the call. A mapper XML file's <insert> statements
// (code/mybatis-xml.ts, found on disk as project evidence, cli/evidence-java.ts mybatisMapperStatements) join that
// index by the same qualified ids: the interface's method without annotation is found there. Not read:
// @InsertProvider, `${…}` in another file's statement or in XML (not settled). A project whose Spring Boot application
// file sets the executor to BATCH (`mybatis.executor-type=batch`, `mybatis.configuration.default-executor-type=BATCH`),
// or whose mybatis-config.xml sets defaultExecutorType BATCH (read on disk with Hibernate's configuration,
// cli/project-evidence.ts, HibernateBatching.mybatisBatch), is batched.
import type { Node } from 'web-tree-sitter';
import { simpleName, type ApiEvent, type CallContext, type Evaluator } from '../adapter';
import type { OrmEntity } from '../../code-model/types';
import type { HostText, TextPiece } from '../sqltext';
import { ReadScoped } from '../read-scope';
import { annotationName, declaration, JAVA_PACKAGE, javaImports, qualifiedCandidates, type DeclaredTypes, type JavaImports } from './java-syntax';

/** The file names MyBatis: its calls are read here. */
export const MYBATIS_FILE = /\borg\.apache\.ibatis\b|\bmybatis\b/i;

/** Mappers of other libraries (Jackson's ObjectMapper, Spring's RowMapper, ModelMapper …): no MyBatis statements. */
const OTHER_MAPPERS = 'Object|Row|Model|Json|Xml|Yaml|Csv|Bean|Property|Column|Result';
const OTHER_MAPPER = new RegExp(`^(?:${OTHER_MAPPERS})Mapper$`);
/** A field, variable or parameter of a type named like a MyBatis mapper (`private final OrderMapper orderMapper;`). */
export const MAPPER_VARIABLE = new RegExp(`\\b(?!(?:${OTHER_MAPPERS})Mapper\\b)[A-Z]\\w{0,100}Mapper(?:<[^<>;]{0,200}>)?\\s+[a-z_]\\w{0,100}\\s*[;=,)]`);

/** An @Insert method of a mapper interface of the file. */
interface MapperInsert {
  /** The annotation's string parts (a literal, or the literals of an array). */
  parts: Node[];
  /** Dynamic SQL (`<script>`): not read as one single-row statement. */
  script: boolean;
}

interface FileFacts {
  source: string;
  /** The tree the nodes below are of (a file read again is a new tree: its nodes, not the old one's). */
  tree: object;
  /** Interface name → method → its @Insert. */
  mappers: Map<string, Map<string, MapperInsert>>;
  /** A Spring SqlSessionTemplate built with ExecutorType.BATCH: every mapper call of the file is batched. */
  batchTemplate: boolean;
  types: DeclaredTypes;
  /** Per method (by its start): whether it names ExecutorType.BATCH (inBatchSession). */
  batchMethods: Map<number, boolean>;
  /** The file's package and imports (java-syntax.ts), read when an unresolved call first asks. */
  imports?: JavaImports;
}

let facts: FileFacts | undefined;

/** The configuration file of the project of the file being read that sets MyBatis's executor to BATCH, if any. */
const projectBatch = new ReadScoped<string | undefined>(undefined);

/** Reads a file with its project's MyBatis BATCH setting (HibernateBatching.mybatisBatch) in effect for its calls. */
export function withMybatisBatch<T>(file: string | undefined, read: () => T): T {
  return projectBatch.run(file, read);
}

function factsOf(root: Node, ev: Evaluator): FileFacts {
  if (facts?.source === ev.source && facts.tree === root.tree) return facts;
  const mappers = new Map<string, Map<string, MapperInsert>>();
  // (Only where MyBatis is named: a file read for its `…Mapper` variables alone may hold an @Insert of another kind.)
  if (/@Insert\b/.test(ev.source) && MYBATIS_FILE.test(ev.source)) {
    for (const { name, methods } of mapperInterfaces(root)) mappers.set(name, methods);
  }
  facts = {
    source: ev.source,
    tree: root.tree,
    mappers,
    batchTemplate: /\bnew\s+SqlSessionTemplate\s*\([^;]{0,300}ExecutorType\s*\.\s*BATCH\b/.test(ev.source),
    types: new Map(),
    batchMethods: new Map(),
  };
  return facts;
}


/** The interfaces of a tree with @Insert methods (org.apache.ibatis.annotations.Insert), each method's parts. */
function mapperInterfaces(root: Node): { name: string; methods: Map<string, MapperInsert> }[] {
  const out: { name: string; methods: Map<string, MapperInsert> }[] = [];
  for (const iface of root.descendantsOfType('interface_declaration')) {
    const name = iface?.childForFieldName('name')?.text;
    if (!iface || !name) continue;
    const methods = new Map<string, MapperInsert>();
    for (const member of iface.childForFieldName('body')?.namedChildren ?? []) {
      if (member?.type !== 'method_declaration') continue;
      const method = member.childForFieldName('name')?.text;
      const modifiers = member.namedChildren.find((c) => c?.type === 'modifiers');
      const insert = modifiers?.namedChildren.find((a) => a?.type === 'annotation' && annotationName(a) === 'Insert');
      if (!method || !insert) continue;
      const parts = annotationParts(insert);
      if (!parts) continue;
      // (An overloaded name: two statements of one id is a MyBatis error; neither is read.)
      if (methods.has(method)) methods.set(method, { parts: [], script: true });
      else methods.set(method, { parts, script: parts.some((p) => /<\s*script\b/i.test(p.text)) });
    }
    if (methods.size > 0) out.push({ name, methods });
  }
  return out;
}

/** `@Insert("…")`, `@Insert({"…", "…"})`, `@Insert(value = …)`: the string literals, or undefined for anything else. */
function annotationParts(annotation: Node): Node[] | undefined {
  const args = annotation.childForFieldName('arguments');
  let value: Node | null | undefined = args?.namedChildren.find((c) => !!c && c.type !== 'line_comment' && c.type !== 'block_comment');
  if (value?.type === 'element_value_pair') {
    if (value.childForFieldName('key')?.text !== 'value') return undefined;
    value = value.childForFieldName('value');
  }
  if (!value) return undefined;
  const items = value.type === 'element_value_array_initializer' ? value.namedChildren.filter((c): c is Node => !!c && c.type !== 'line_comment' && c.type !== 'block_comment') : [value];
  return items.length > 0 && items.every((i) => i.type === 'string_literal') ? items : undefined;
}

/**
 * The mapper interfaces a Java file declares with their @Insert statements, for other files' calls (CodeModel.entities,
 * OrmEntity.mapper): the text MyBatis prepares (`#{…}` as `?`). A statement with `${…}` or `<script>` is not recorded.
 */
export function javaMappers(root: Node, ev: Evaluator): OrmEntity[] {
  const source = ev.source;
  if (!/@Insert\b/.test(source) || !MYBATIS_FILE.test(source)) return [];
  const pkg = JAVA_PACKAGE.exec(source)?.[1] ?? '';
  const out: OrmEntity[] = [];
  for (const { name, methods } of mapperInterfaces(root)) {
    const inserts: Record<string, string> = {};
    for (const [method, insert] of methods) {
      if (insert.script || insert.parts.length === 0) continue;
      const host = joinedParts(insert.parts, ev);
      if (!host || host.pieces.some((p) => p.kind !== 'text')) continue;
      const text = host.pieces.map((p) => (p.kind === 'text' ? p.text : '')).join('');
      if (text.includes('${')) continue;
      inserts[method] = text.replace(MARKER, '?');
    }
    if (Object.keys(inserts).length > 0) out.push({ name, package: pkg, mapper: inserts });
  }
  return out;
}

/** `#{id}`, `#{item,jdbcType=VARCHAR}`: a parameter marker. */
const MARKER = /#\{[^{}]{0,200}\}/g;
/** `#{…}` or `${…}`. */
const PLACEHOLDER = /[#$]\{[^{}]{0,200}\}/g;

/** The parts' text joined with a space between them (as MyBatis joins an array), each character on the file. */
function joinedParts(parts: Node[], ev: Evaluator): HostText | undefined {
  const pieces: TextPiece[] = [];
  for (let i = 0; i < parts.length; i++) {
    const text = ev.evaluate(parts[i]);
    if (!text) return undefined;
    if (i > 0) pieces.push({ kind: 'text', text: ' ', offsets: [parts[i].startIndex] });
    pieces.push(...text.pieces);
  }
  return { pieces, kind: 'constant', from: { start: parts[0].startIndex, end: parts[parts.length - 1].endIndex } };
}

/** The SQL text MyBatis runs: `#{…}` a `?` on the placeholder's `#`, `${…}` a value spliced at its place. */
function preparedText(host: HostText): HostText {
  const pieces: TextPiece[] = [];
  let spliced = false;
  for (const piece of host.pieces) {
    if (piece.kind !== 'text') {
      pieces.push(piece);
      continue;
    }
    let from = 0;
    const push = (end: number) => {
      if (end > from) pieces.push({ kind: 'text', text: piece.text.slice(from, end), offsets: piece.offsets.slice(from, end) });
    };
    for (const m of piece.text.matchAll(PLACEHOLDER)) {
      const at = m.index;
      push(at);
      if (m[0][0] === '#') pieces.push({ kind: 'text', text: '?', offsets: [piece.offsets[at]] });
      else {
        spliced = true;
        pieces.push({ kind: 'splice', span: { start: piece.offsets[at], end: piece.offsets[at + m[0].length - 1] + 1 } });
      }
      from = at + m[0].length;
    }
    push(piece.text.length);
  }
  return { pieces, kind: spliced ? 'template' : host.kind, ...(host.from ? { from: host.from } : {}) };
}

/** The declared type of a variable, field or parameter of the file (`OrderMapper orderMapper;`: java-syntax.ts). */
function declaredType(name: string, f: FileFacts): string | undefined {
  return declaration(name, f.source, f.types)?.type;
}

/** The interface a mapper receiver is: declared so, `var m = session.getMapper(OrderMapper.class)`, or the call itself. */
function mapperType(receiver: Node, at: number, ev: Evaluator, f: FileFacts): string | undefined {
  const fromGetMapper = (node: Node | undefined): string | undefined => {
    if (node?.type !== 'method_invocation' || node.childForFieldName('name')?.text !== 'getMapper') return undefined;
    const arg = node.childForFieldName('arguments')?.namedChild(0);
    return arg?.type === 'class_literal' ? arg.namedChild(0)?.text.replace(/^.*\./, '') : undefined;
  };
  if (receiver.type === 'method_invocation') return fromGetMapper(receiver);
  const name = receiver.type === 'identifier' || receiver.type === 'field_access' ? simpleName(receiver) : undefined;
  if (!name) return undefined;
  const declared = declaredType(name, f);
  if (declared && declared !== 'var') return declared;
  return fromGetMapper(ev.assignedBefore?.(name, at)?.[0]?.value);
}

/** The method the call is in opens a session with ExecutorType.BATCH (anywhere in it): its inserts are batched. */
function inBatchSession(call: Node, f: FileFacts): boolean {
  for (let n: Node | null = call.parent; n; n = n.parent) {
    if (n.type === 'method_declaration' || n.type === 'constructor_declaration') {
      // (Once per method: its text per call was quadratic in a long method's calls.)
      let known = f.batchMethods.get(n.startIndex);
      if (known === undefined) f.batchMethods.set(n.startIndex, (known = BATCH.test(f.source.slice(n.startIndex, n.endIndex))));
      return known;
    }
    if (n.type === 'class_body') return false;
  }
  return false;
}

const BATCH = /\bExecutorType\s*\.\s*BATCH\b/;

/**
 * The events of a MyBatis call in a file that names MyBatis (MYBATIS_FILE), or undefined for a call this module does
 * not read: a mapper method with an @Insert (`m.insertOrder(o)`), `sqlSession.insert("ns.id", o)`. `jdbcName`: the
 * call's name is one the JDBC reading reads (executeUpdate, update …): only a mapper method of the file's own takes it.
 */
export function classifyMybatis(ctx: CallContext, ev: Evaluator, jdbcName: boolean): ApiEvent[] | undefined {
  const { call } = ctx;
  if (!call.receiver) return undefined;
  const f = factsOf(call.node.tree.rootNode, ev);
  const at = call.node.startIndex;
  if (call.name === 'insert' && (call.args.length === 1 || call.args.length === 2)) {
    const name = simpleName(call.receiver);
    const type = name ? declaredType(name, f) : undefined;
    if (!type || !/^Sql(?:Session|SessionTemplate)$/.test(type)) return undefined;
    const id = call.args[0].type === 'string_literal' ? ev.evaluate(call.args[0]) : undefined;
    const idText = id?.pieces.every((p) => p.kind === 'text') ? id.pieces.map((p) => (p.kind === 'text' ? p.text : '')).join('') : undefined;
    if (!idText || !/^[\w$.]+$/.test(idText)) return undefined;
    if (projectBatch.current !== undefined || f.batchTemplate || inBatchSession(call.node, f)) return [];
    const dot = idText.lastIndexOf('.');
    const iface = dot > 0 ? idText.slice(idText.lastIndexOf('.', dot - 1) + 1, dot) : undefined;
    const local = iface ? f.mappers.get(iface)?.get(idText.slice(dot + 1)) : undefined;
    return mapperEvents(local, dot > 0 ? [idText] : undefined, name!, ev);
  }
  const type = mapperType(call.receiver, at, ev, f);
  if (!type) return undefined;
  const local = f.mappers.get(type)?.get(call.name);
  // Another file's interface: a type named like a mapper (the engine finds its statement, if it has one).
  if (!local && (jdbcName || !/Mapper$|Dao$|DAO$/.test(type) || OTHER_MAPPER.test(type))) return undefined;
  if (projectBatch.current !== undefined || f.batchTemplate || inBatchSession(call.node, f)) return local ? [] : undefined;
  const connection = simpleName(call.receiver) ?? call.receiver.text.replace(/\s+/g, '');
  return mapperEvents(local, local ? undefined : qualifiedCandidates(type, (f.imports ??= javaImports(f.source))).map((q) => `${q}.${call.name}`), connection, ev);
}

function mapperEvents(local: MapperInsert | undefined, ids: string[] | undefined, connection: string, ev: Evaluator): ApiEvent[] | undefined {
  if (local) {
    // (Dynamic SQL, a <foreach> of rows: not one single-row INSERT per call.)
    if (local.script || local.parts.length === 0) return [];
    const host = joinedParts(local.parts, ev);
    if (!host) return [];
    return [{ kind: 'execute', api: 'mybatis', action: 'executePrepared', sql: preparedText(host), connection, batched: false }];
  }
  if (!ids) return undefined;
  return [{ kind: 'execute', api: 'mybatis', action: 'executePrepared', connection, batched: false, mapperStatement: ids }];
}
