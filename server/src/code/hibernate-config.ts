// Hibernate's JDBC batching as a Java project's configuration sets it: hibernate.jdbc.batch_size in persistence.xml,
// hibernate.cfg.xml, hibernate.properties, or Spring Boot's application*.properties / application*.yml
// (spring.jpa.properties.hibernate.jdbc.batch_size, passed to Hibernate as is). Hibernate's default is 0: no batching,
// and a size of 1 batches nothing either; each INSERT of a flush then goes on its own. Read by cli/project-evidence.ts
// (the disk) and handed to the engine as FrontEndOptions.hibernateBatching; the Java ORM reading
// (languages/java-jpa.ts) uses it for the flush after a loop.

import type { HibernateBatching } from '../code-model/types';
import { declaration, type DeclaredTypes } from './languages/java-syntax';

export type { HibernateBatching };

/** Whether Hibernate sends one INSERT per entity at a flush with that configuration (batch_size unset, 0 or 1). */
export function hibernateUnbatched(config: HibernateBatching | undefined): boolean {
  return !!config && !config.mybatisOnly && (config.batchSize === undefined || config.batchSize <= 1);
}

/**
 * Whether a Spring Boot application file sets MyBatis's executor to BATCH (mybatis-spring-boot-starter's
 * `mybatis.executor-type`, for the SqlSessionTemplate it makes; `mybatis.configuration.default-executor-type`, the
 * configuration's default for every session), as `.properties` lines or YAML keys, relaxed names (executorType) too.
 */
export function mybatisBatchIn(name: string, text: string): boolean {
  if (!/^application(?:-[\w.-]+)?\.(?:properties|ya?ml)$/.test(name) || !/mybatis/i.test(text)) return false;
  if (/\.properties$/.test(name)) return /^[ \t]*mybatis\.(?:executor-?type|executorType|configuration\.default-?executor-?type|configuration\.defaultExecutorType)[ \t]*[=:][ \t]*batch[ \t]*$/im.test(text);
  let batch = false;
  forEachYamlKey(text, (path, value) => {
    batch = /^mybatis\.(?:executor-?type|configuration\.default-?executor-?type)$/i.test(path) && /^["']?batch["']?$/i.test(value);
    return batch;
  });
  return batch;
}

/**
 * Whether a file sets the connection pool's initial autocommit off: HikariCP's `autoCommit` (Spring Boot's
 * `spring.datasource.hikari.auto-commit`, or hikari.properties' `autoCommit`), Tomcat JDBC's and Commons DBCP2's
 * `defaultAutoCommit` (`spring.datasource.tomcat.default-auto-commit`, `spring.datasource.dbcp2.default-auto-commit`),
 * as `.properties` lines or YAML keys, relaxed names (autoCommit, defaultAutoCommit) too. The pools' own defaults are
 * on; a placeholder (`${AUTO_COMMIT}`) is not taken as off.
 */
export function poolAutocommitOffIn(name: string, text: string): boolean {
  if (name === 'hikari.properties') return /^[ \t]*autoCommit[ \t]*[=:][ \t]*false[ \t]*$/im.test(text);
  if (!/^application(?:-[\w.-]+)?\.(?:properties|ya?ml)$/.test(name) || !/auto-?commit/i.test(text)) return false;
  if (/\.properties$/.test(name)) return /^[ \t]*spring\.datasource\.(?:[\w-]+\.)?(?:hikari\.auto-?commit|(?:tomcat|dbcp2)\.default-?auto-?commit)[ \t]*[=:][ \t]*false[ \t]*$/im.test(text);
  let off = false;
  forEachYamlKey(text, (path, value) => {
    off = POOL_AUTOCOMMIT_KEY.test(path) && /^["']?false["']?$/i.test(value);
    return off;
  });
  return off;
}

/** The pools' autocommit keys as a YAML walk joins them (spring.datasource.hikari.auto-commit …). */
const POOL_AUTOCOMMIT_KEY = /^spring\.datasource\.(?:[\w-]+\.)?(?:hikari\.auto-?commit|(?:tomcat|dbcp2)\.default-?auto-?commit)$/i;

/**
 * A Java file that names a connection pool's class or its configuration's (HikariCP's HikariConfig / HikariDataSource,
 * Commons DBCP's BasicDataSource and its per-user / shared pools, Tomcat JDBC's PoolProperties, PoolConfiguration or
 * org.apache.tomcat.jdbc.pool.DataSource): the only Java files whose pool set-up is project evidence
 * (cli/evidence-java.ts, with javaPoolSetUpOff).
 */
export const POOL_CLASS_NAMED = /\b(?:Hikari(?:Config|DataSource)|BasicDataSource|(?:Shared|PerUser)PoolDataSource|PoolProperties|PoolConfiguration)\b|\btomcat\.jdbc\.pool\b/;

/** A false argument: `false`, `Boolean.FALSE`. */
const OFF_ARGUMENT = String.raw`\(\s*(?:false|(?:java\.lang\.)?Boolean\s*\.\s*FALSE)\s*\)`;
const DEFAULT_AUTOCOMMIT_OFF = new RegExp(String.raw`\.\s*setDefaultAutoCommit\s*` + OFF_ARGUMENT, 'g');
const AUTOCOMMIT_OFF = new RegExp(String.raw`\.\s*setAutoCommit\s*` + OFF_ARGUMENT, 'g');
const HIKARI_TYPE = /^Hikari(?:Config|DataSource)$/;
/** A receiver cast to a Hikari type, `((HikariDataSource) ds)`, or unwrapped to one, `ds.unwrap(HikariDataSource.class)`. */
const HIKARI_CAST = /(?:\(\s*\(\s*(?:[\w$]+\s*\.\s*)*Hikari(?:Config|DataSource)\s*\)\s*[\w$.]+\s*\)|\bunwrap\s*\(\s*(?:[\w$]+\s*\.\s*)*Hikari(?:Config|DataSource)\s*\.\s*class\s*\))\s*$/;

/**
 * Whether a Java file's text sets a connection pool up with autocommit off: `setDefaultAutoCommit(false)` (or
 * `Boolean.FALSE`), a method of the pools only (Commons DBCP's BasicDataSource, Tomcat JDBC's PoolProperties and
 * DataSource), or `setAutoCommit(false)` on a HikariConfig or HikariDataSource: a variable, field or parameter declared
 * with that type (`var` too, when its initializer names the type: `new HikariConfig()`,
 * `DataSourceBuilder.create().type(HikariDataSource.class).build()`), a cast to it or an unwrap() to it.
 * setAutoCommit(false) on anything else (a Connection) is no pool's, nor is a value that is not false; a call on a line
 * that a `//` comment holds, or in a block comment's `*` line, does not count. `typeOf` gives a name's declared type
 * (java-syntax.ts declaration, by default).
 */
export function javaPoolSetUpOff(text: string, typeOf?: (name: string) => string | undefined): boolean {
  if (!text.includes('AutoCommit')) return false;
  for (const m of text.matchAll(DEFAULT_AUTOCOMMIT_OFF)) if (!commentedOut(text, m.index)) return true;
  if (!text.includes('Hikari')) return false;
  const known: DeclaredTypes = new Map();
  const declared = typeOf ?? ((name: string) => declaration(name, text, known)?.type);
  for (const m of text.matchAll(AUTOCOMMIT_OFF)) {
    if (commentedOut(text, m.index)) continue;
    const before = text.slice(Math.max(0, m.index - 300), m.index);
    if (HIKARI_CAST.test(before)) return true;
    const receiver = trailingName(before);
    if (!receiver) continue;
    if (HIKARI_TYPE.test(declared(receiver) ?? '') || hikariVar(receiver, text)) return true;
  }
  return false;
}

/** The name that ends `before` (blanks after it left out): the receiver of the call that follows; undefined: none. */
function trailingName(before: string): string | undefined {
  const text = before.trimEnd();
  let at = text.length;
  while (at > 0 && /[\w$]/.test(text[at - 1])) at--;
  const name = text.slice(at);
  return /^[A-Za-z_$]/.test(name) ? name : undefined;
}

/** `var cfg = new HikariConfig();`: a local variable whose initializer names a Hikari type. */
function hikariVar(name: string, text: string): boolean {
  const escaped = name.replace(/\$/g, '\\$');
  return new RegExp(String.raw`\bvar\s+${escaped}\s*=[^;]{0,300}?\bHikari(?:Config|DataSource)\b`).test(text);
}

/** Whether the text before `at` on its line starts a `//` comment or is a block comment's line (`* ...`, `/* ...`). */
function commentedOut(text: string, at: number): boolean {
  const line = text.slice(text.lastIndexOf('\n', at - 1) + 1, at);
  return line.includes('//') || /^\s*\/?\*/.test(line);
}

/**
 * Whether a Hibernate configuration file sets the sessions' flush mode to COMMIT or MANUAL (Hibernate's
 * `org.hibernate.flushMode` setting, read case-blind as Hibernate reads it): `<property name="org.hibernate.flushMode"
 * value="COMMIT"/>` in persistence.xml, `<property name="org.hibernate.flushMode">MANUAL</property>` in
 * hibernate.cfg.xml, `org.hibernate.flushMode=COMMIT` in hibernate.properties, and Spring Boot's
 * `spring.jpa.properties.org.hibernate.flushMode` as a `.properties` line or YAML keys (nested or dotted). AUTO,
 * ALWAYS or a placeholder (`${FLUSH_MODE}`) is not taken as off.
 */
export function hibernateFlushModeOffIn(name: string, text: string): boolean {
  if (!text.includes('flushMode')) return false;
  if (/\.xml$/.test(name)) return /<property\s+name\s*=\s*["']org\.hibernate\.flushMode["']\s*(?:value\s*=\s*["']\s*(?:commit|manual|never)\s*["']|>\s*(?:commit|manual|never)\s*<)/i.test(withoutXmlComments(text));
  if (name === 'hibernate.properties') return /^[ \t]*org\.hibernate\.flushMode[ \t]*[=:][ \t]*(?:commit|manual|never)[ \t]*$/im.test(text);
  if (!/^application(?:-[\w.-]+)?\.(?:properties|ya?ml)$/.test(name)) return false;
  if (/\.properties$/.test(name)) return /^[ \t]*spring\.jpa\.properties\.org\.hibernate\.flushMode[ \t]*[=:][ \t]*(?:commit|manual|never)[ \t]*$/im.test(text);
  let off = false;
  forEachYamlKey(text, (path, value) => {
    off = path === 'spring.jpa.properties.org.hibernate.flushMode' && /^["']?(?:commit|manual|never)["']?$/i.test(value);
    return off;
  });
  return off;
}

/** Files that may hold Hibernate's configuration (or the pool's autocommit: hikari.properties), by name. */
export const HIBERNATE_CONFIG_FILE = /^(?:persistence\.xml|hibernate\.cfg\.xml|hibernate\.properties|hikari\.properties|application(?:-[\w.-]+)?\.(?:properties|ya?ml))$/;

/** Another JPA provider than Hibernate: its batching is its own (EclipseLink, OpenJPA batch by other settings). */
const OTHER_PROVIDER = /<provider>\s*org\.(?:eclipse\.persistence|apache\.openjpa)\b|\b(?:eclipselink|openjpa)\.[\w.-]+/;

/**
 * What a configuration file says: undefined when it is not Hibernate's configuration (another provider's
 * persistence.xml, a Spring application file that configures no JPA and no data source), else the batch size it sets
 * (null: none).
 */
export function hibernateBatchSizeIn(name: string, text: string): { batchSize: number | null } | undefined {
  if (name === 'hikari.properties') return undefined;
  if (/\.xml$/.test(name)) {
    if (name === 'persistence.xml' && OTHER_PROVIDER.test(text)) return undefined;
    if (name === 'hibernate.cfg.xml' && !/<hibernate-configuration\b/.test(text)) return undefined;
    if (name === 'persistence.xml' && !/<persistence\b/.test(text)) return undefined;
    // <property name="hibernate.jdbc.batch_size" value="50"/> (persistence.xml), <property name="…">50</property> (cfg).
    const sizes: number[] = [];
    const property = /<property\s+name\s*=\s*["'](?:hibernate\.)?jdbc\.batch_size["']\s*(?:value\s*=\s*["']\s*([^"']*?)\s*["']|>\s*([^<]*?)\s*<)/g;
    const xml = withoutXmlComments(text);
    for (let m = property.exec(xml); m; m = property.exec(xml)) sizes.push(sizeOf(m[1] ?? m[2]));
    return { batchSize: largest(sizes) };
  }
  if (/\.properties$/.test(name)) {
    if (name !== 'hibernate.properties' && !/^[ \t]*spring\.(?:jpa|datasource)\./m.test(text)) return undefined;
    const sizes: number[] = [];
    for (const line of text.split(/\r?\n/)) {
      // (batch-size, which Hibernate would not read, is taken as set too: precision first.)
      const m = /^[ \t]*(?:spring\.jpa\.properties\.)?hibernate\.jdbc\.batch[_-]size[ \t]*[=:][ \t]*(\S*)/.exec(line);
      if (m) sizes.push(sizeOf(m[1]));
    }
    return { batchSize: largest(sizes) };
  }
  // YAML: the keys' nesting joined with dots (spring: jpa: properties: hibernate: jdbc: batch_size: 50, or any part
  // of it written dotted, `"[hibernate.jdbc.batch_size]"` as Spring writes a key holding dots).
  const sizes: number[] = [];
  let jpa = false;
  forEachYamlKey(text, (path, value) => {
    if (/^spring\.(?:jpa|datasource)\b/.test(path)) jpa = true;
    if (/(?:^|\.)hibernate\.jdbc\.batch[_-]size$/.test(path) && value !== '') sizes.push(sizeOf(value.replace(/^["']|["']$/g, '')));
  });
  return jpa || sizes.length > 0 ? { batchSize: largest(sizes) } : undefined;
}

/**
 * Each key of a YAML text with the keys it is nested in, joined with dots (`spring.jpa.properties.hibernate`), and its
 * value; a document separator (`---`) starts again at the top. Stops when `visit` returns true.
 */
function forEachYamlKey(text: string, visit: (path: string, value: string) => boolean | void): void {
  const stack: { indent: number; key: string }[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (/^---/.test(line)) {
      stack.length = 0;
      continue;
    }
    const entry = yamlEntry(line);
    if (!entry) continue;
    while (stack.length > 0 && stack[stack.length - 1].indent >= entry.indent) stack.pop();
    stack.push({ indent: entry.indent, key: entry.key });
    if (visit(stack.map((s) => s.key).join('.'), entry.value) === true) return;
  }
}

/**
 * A YAML line's key and value (`  jdbc:`, `batch_size: 50 # comment`, `- "[hibernate.jdbc.batch_size]": 50`), its
 * indent counted to the key; undefined for a line that holds no key (a comment, a list value, a block scalar's text).
 */
function yamlEntry(line: string): { indent: number; key: string; value: string } | undefined {
  let at = 0;
  while (at < line.length && (line[at] === ' ' || line[at] === '\t')) at++;
  if (line[at] === '-' && (line[at + 1] === ' ' || line[at + 1] === '\t')) {
    at += 2;
    while (at < line.length && (line[at] === ' ' || line[at] === '\t')) at++;
  }
  const indent = at;
  let key: string;
  let rest: number;
  const quote = line[at];
  if (quote === '"' || quote === "'") {
    const close = line.indexOf(quote, at + 1);
    if (close < 0) return undefined;
    key = line.slice(at + 1, close);
    rest = close + 1;
    while (rest < line.length && (line[rest] === ' ' || line[rest] === '\t')) rest++;
    if (line[rest] !== ':') return undefined;
  } else {
    if (at >= line.length || line[at] === '#') return undefined;
    // The key ends at the first colon followed by a blank or the end of the line (jdbc:db2://… is a value's).
    let colon = line.indexOf(':', at);
    while (colon >= 0 && colon + 1 < line.length && line[colon + 1] !== ' ' && line[colon + 1] !== '\t') colon = line.indexOf(':', colon + 1);
    if (colon < 0) return undefined;
    key = line.slice(at, colon).trim();
    if (key === '' || key.includes(' #')) return undefined;
    rest = colon;
  }
  let value = line.slice(rest + 1);
  const comment = value.search(/[ \t]#/);
  if (comment >= 0) value = value.slice(0, comment);
  return { indent, key: key.replace(/^\[/, '').replace(/\]$/, ''), value: value.trim() };
}

function withoutXmlComments(text: string): string {
  return text.replace(/<!--[\s\S]*?-->/g, (c) => ' '.repeat(c.length));
}

/** A size as written; a placeholder (${BATCH_SIZE}) is taken as set to batch (precision first: it may be). */
function sizeOf(value: string): number {
  const n = Number.parseInt(value, 10);
  return /^-?\d+$/.test(value.trim()) && Number.isFinite(n) ? n : Number.MAX_SAFE_INTEGER;
}

function largest(sizes: number[]): number | null {
  return sizes.length > 0 ? Math.max(...sizes) : null;
}
