// Java projects' evidence (project-evidence.ts): Hibernate's batching and flush mode, MyBatis's executor and a
// connection pool's autocommit in the project's configuration or in the Java file that sets the pool up
// (hibernateBatchingFolders), and MyBatis's mapper XML files (mybatisMapperStatements): XML files are evidence here,
// never linted.
import { dirname, join, relative, sep } from 'node:path';
import { HIBERNATE_CONFIG_FILE, hibernateBatchSizeIn, hibernateFlushModeOffIn, javaPoolSetUpOff, mybatisBatchIn, POOL_CLASS_NAMED, poolAutocommitOffIn, type HibernateBatching } from '../code/hibernate-config';
import { MAPPER_XML, mapperXmlInserts, MYBATIS_CONFIG_FILE, mybatisConfigBatch } from '../code/mybatis-xml';
import { MAPPER_VARIABLE } from '../code/languages/java-mybatis';
import { AS_IS, listedOnce, MAX_FILES_PER_FOLDER, nearestUp, type EvidenceDisk, type LookInputs, type PartOf } from './project-evidence';

// ---- Hibernate's batching in a Java project (FrontEndOptions.hibernateBatching) ----------------------------------

/** A Java project's top: the nearest folder up that holds a build file (Maven, Gradle) or a .git. */
export const JAVA_PROJECT_TOP = /^(?:pom\.xml|build\.gradle(?:\.kts)?|settings\.gradle(?:\.kts)?|build\.xml|\.git)$/;
/** Where a project's configuration lies, below its top (the class path's resources, Spring Boot's ./config). */
const JAVA_CONFIG_FOLDERS = ['', 'config', 'src/main/resources', 'src/main/resources/META-INF', 'src/main/resources/config', 'src/main/resources/mybatis', 'src/main/webapp/WEB-INF/classes', 'src/main/webapp/WEB-INF/classes/META-INF'];
/**
 * A Java file of a JPA / Hibernate / Spring Data or MyBatis application (the files the ORM readings read), or one that
 * gets JDBC connections from a DataSource (the pool's configured autocommit: java.ts getConnection).
 */
const JAVA_ORM_FILE = /\b(?:javax|jakarta)\.persistence\b|\borg\.hibernate\b|\borg\.springframework\.data\b|\borg\.apache\.ibatis\b|\b[Mm]y[Bb]atis\b|\bDataSource\b/;

/**
 * Whether a Java file's text names a connection pool's class and an autocommit setter (setAutoCommit,
 * setDefaultAutoCommit): the files whose pool set-up the Hibernate look reads (the language server keeps them in its
 * index though they name no SQL).
 */
export function namesPoolSetUp(text: string): boolean {
  return text.includes('AutoCommit') && POOL_CLASS_NAMED.test(text);
}

/**
 * A Java file's part in the Hibernate look: a JPA / Hibernate / Spring Data file's folder; and whether the file sets a
 * connection pool up with autocommit off (a @Bean method's `HikariConfig config = new HikariConfig();
 * config.setAutoCommit(false);`, DBCP2's or Tomcat JDBC's `setDefaultAutoCommit(false)`: hibernate-config.ts
 * javaPoolSetUpOff). Only a file that names a pool's class and one of the setters is read for that.
 */
export const hibernatePart: PartOf = (path, text) => {
  if (!path.endsWith('.java')) return undefined;
  const poolOff = namesPoolSetUp(text) && javaPoolSetUpOff(text);
  if (poolOff) return { dir: dirname(path), poolAutocommitOff: true };
  return JAVA_ORM_FILE.test(text) ? { dir: dirname(path) } : undefined;
};

/**
 * Hibernate's batching by the projects' top folders: the Java files' projects whose configuration was found. A Java
 * file of the project that sets a pool up with autocommit off (hibernatePart) counts as the configuration's
 * `spring.datasource.hikari.auto-commit=false` does: the project's pooled connections start with autocommit off.
 */
export function hibernateBatchingFolders(files: Iterable<{ path: string; text: string }>, inputs: LookInputs = AS_IS): Map<string, HibernateBatching> {
  const read = new Map<string, HibernateBatching | undefined>();
  const poolFiles = new Map<string, string>();
  const tops = new Map<string, string | null>();
  const list = listedOnce(inputs);
  for (const { path, text } of files) {
    const part = inputs.part(hibernatePart, path, text);
    if (!part) continue;
    const start = part.dir;
    let top = tops.get(start);
    if (top === undefined) {
      // Up to the project's top; without one (a lone file), the file's own folder.
      top = nearestUp(start, (dir) => list(dir).some((n) => JAVA_PROJECT_TOP.test(n)));
      tops.set(start, top);
    }
    const root = top ?? start;
    if (part.poolAutocommitOff) {
      // (The first by path names it: the same whichever order the files come in.)
      const shown = relative(root, path).split(sep).join('/');
      const known = poolFiles.get(root);
      if (known === undefined || shown < known) poolFiles.set(root, shown);
    }
    if (!read.has(root)) read.set(root, readHibernateConfiguration(root, list, inputs.disk));
  }
  const found = new Map<string, HibernateBatching>();
  for (const [root, config] of read) {
    const pool = poolFiles.get(root);
    if (config) found.set(root, pool === undefined || config.poolAutocommitOff !== undefined ? config : { ...config, poolAutocommitOff: pool });
    else if (pool !== undefined) found.set(root, { file: pool, mybatisOnly: true, poolAutocommitOff: pool });
  }
  return found;
}

/** What the configuration files under a project's top say, combined: set anywhere wins (precision first). */
function readHibernateConfiguration(top: string, list: (dir: string) => string[], disk: EvidenceDisk): HibernateBatching | undefined {
  let first: string | undefined;
  let size: number | null = null;
  let sizeFile: string | undefined;
  let mybatis: string | undefined;
  let poolOff: string | undefined;
  let flushOff: string | undefined;
  for (const folder of JAVA_CONFIG_FOLDERS) {
    const dir = folder ? join(top, ...folder.split('/')) : top;
    let read = 0;
    // application.properties before application-dev.properties: a message names the main file.
    const names = list(dir).filter((n) => HIBERNATE_CONFIG_FILE.test(n) || MYBATIS_CONFIG_FILE.test(n)).sort((a, b) => Number(a.includes('-')) - Number(b.includes('-')) || (a < b ? -1 : 1));
    for (const name of names) {
      if (read >= MAX_FILES_PER_FOLDER) continue;
      const text = disk.read(join(dir, name));
      if (text === undefined) continue;
      read++;
      const shown = folder ? `${folder}/${name}` : name;
      // (MyBatis's executor, in a Spring Boot file or MyBatis's own configuration: java-mybatis.ts.)
      if (mybatis === undefined && (MYBATIS_CONFIG_FILE.test(name) ? mybatisConfigBatch(text) : mybatisBatchIn(name, text))) mybatis = shown;
      if (!HIBERNATE_CONFIG_FILE.test(name)) continue;
      // (The pool's autocommit off anywhere: a connection got from a DataSource starts with it off. Precision first.)
      if (poolOff === undefined && poolAutocommitOffIn(name, text)) poolOff = shown;
      const said = hibernateBatchSizeIn(name, text);
      if (!said) continue;
      first ??= shown;
      // (A flush mode of COMMIT or MANUAL anywhere: no query flushes the session before it runs. Precision first.)
      if (flushOff === undefined && hibernateFlushModeOffIn(name, text)) flushOff = shown;
      if (said.batchSize !== null && (size === null || said.batchSize > size)) {
        size = said.batchSize;
        sizeFile = shown;
      }
    }
  }
  const batch = { ...(mybatis !== undefined ? { mybatisBatch: mybatis } : {}), ...(poolOff !== undefined ? { poolAutocommitOff: poolOff } : {}), ...(flushOff !== undefined ? { flushModeOff: flushOff } : {}) };
  if (first === undefined) return mybatis !== undefined || poolOff !== undefined ? { file: (mybatis ?? poolOff)!, mybatisOnly: true, ...batch } : undefined;
  return size === null ? { file: first, ...batch } : { file: sizeFile ?? first, batchSize: size, ...batch };
}

// ---- MyBatis mapper XML files of a Java project (Workspace.setMybatisStatements) -------------------------------------

/** Folders listed below a project's src/main/resources, and XML files read, per run of the look (bounds). */
const MAX_RESOURCE_FOLDERS = 400;
const MAX_MAPPER_FILES = 2000;
const MAX_RESOURCE_DEPTH = 12;

/** Per language server look (RememberedLook): each mapper XML file's statements, by path, while its text is the same. */
const parsedMappers = new WeakMap<LookInputs, Map<string, { text: string; mapper: ReturnType<typeof mapperXmlInserts> }>>();

/**
 * A Java file's part in the MyBatis mapper look: a file that names MyBatis, holds a variable of a mapper type, or is
 * named like a mapper interface (OrderMapper.java, OrderDao.java: its XML file often lies beside it).
 */
export const mybatisPart: PartOf = (path, text) =>
  path.endsWith('.java') && (/(?:Mapper|Dao|DAO)\.java$/.test(path) || /\borg\.apache\.ibatis\b|\b[Mm]y[Bb]atis\b/.test(text) || MAPPER_VARIABLE.test(text)) ? { dir: dirname(path) } : undefined;

/**
 * The <insert> statements of the MyBatis mapper XML files of the projects of `files` (code/mybatis-xml.ts), by
 * qualified id (`com.acme.mapper.OrderMapper.insertOrder`): the SQL text MyBatis prepares (`#{…}` as `?`), or null
 * for a statement whose text is not settled (a <foreach> of rows, other dynamic SQL, `${…}`). Looked for in each
 * project's src/main/resources, every folder down (the class path's resources: resources/mapper/*.xml,
 * resources/com/acme/mapper/OrderMapper.xml), and in the folders of the MyBatis Java files (an XML file beside its
 * interface); each XML file of 256 KB at most is read once, only one with a `<mapper namespace=…>` is parsed.
 * Bounded: 400 folders below the resources and 2,000 XML files per look.
 */
export function mybatisMapperStatements(files: Iterable<{ path: string; text: string }>, inputs: LookInputs = AS_IS): Map<string, (string | null)[]> {
  const found = new Map<string, (string | null)[]>();
  const dirs = new Set<string>();
  const tops = new Set<string>();
  const list = listedOnce(inputs);
  for (const { path, text } of files) {
    const part = inputs.part(mybatisPart, path, text);
    if (!part || dirs.has(part.dir)) continue;
    dirs.add(part.dir);
    const top = nearestUp(part.dir, (dir) => list(dir).some((n) => JAVA_PROJECT_TOP.test(n)));
    if (top) tops.add(top);
  }
  if (dirs.size === 0) return found;
  const xmlFiles = new Set<string>();
  const addXml = (dir: string, names: string[]) => {
    for (const name of names) if (/\.xml$/i.test(name) && xmlFiles.size < MAX_MAPPER_FILES) xmlFiles.add(join(dir, name));
  };
  let folders = 0;
  const walk = (dir: string, depth: number) => {
    if (folders >= MAX_RESOURCE_FOLDERS) return;
    folders++;
    const names = list(dir);
    addXml(dir, names);
    // (A name without a dot is taken for a folder: listing a file gives nothing.)
    if (depth < MAX_RESOURCE_DEPTH) for (const name of names) if (!name.includes('.')) walk(join(dir, name), depth + 1);
  };
  for (const top of [...tops].sort()) walk(join(top, 'src', 'main', 'resources'), 0);
  for (const dir of [...dirs].sort()) addXml(dir, list(dir));
  // (The language server's look keeps each file's statements while its text stays the same: a save parses none again.)
  const parsed = inputs === AS_IS ? undefined : (parsedMappers.get(inputs) ?? new Map<string, { text: string; mapper: ReturnType<typeof mapperXmlInserts> }>());
  if (parsed) parsedMappers.set(inputs, parsed);
  if (parsed) for (const path of parsed.keys()) if (!xmlFiles.has(path)) parsed.delete(path);
  for (const path of xmlFiles) {
    const text = inputs.disk.read(path);
    if (text === undefined) continue;
    const known = parsed?.get(path);
    const mapper = known?.text === text ? known.mapper : MAPPER_XML.test(text) ? mapperXmlInserts(text) : undefined;
    parsed?.set(path, { text, mapper });
    if (!mapper) continue;
    for (const insert of mapper.inserts) {
      const id = `${mapper.namespace}.${insert.id}`;
      const texts = found.get(id);
      if (texts) texts.push(insert.sql ?? null);
      else found.set(id, [insert.sql ?? null]);
    }
  }
  return found;
}

