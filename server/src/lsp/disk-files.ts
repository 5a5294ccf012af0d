// Files the engine reads from disk rather than from the editor: closed documents that stay indexed,
// and watcher events (created, changed, deleted files; the configuration file; schema files).
import { statSync } from 'node:fs';
import { relative, sep, dirname, basename } from 'node:path';
import ignore from 'ignore';
import { FileChangeType, type TextDocumentChangeEvent } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CONFIG_FILE_NAME } from '../engine/config';
import { readSourceFile } from '../cli/files';
import { RememberedLook } from '../cli/project-evidence';
import { djangoDb2Folders, sqlalchemyEvidence, type AutoflushEvidence } from '../cli/evidence-python';
import { hibernateBatchingFolders, mybatisMapperStatements, namesPoolSetUp } from '../cli/evidence-java';
import { sequelizeDb2Folders } from '../cli/evidence-javascript';
import { mayChangeEvidence } from '../cli/evidence-watch';
import { usesDjango } from '../code/languages/python-django-project';
import type { DjangoProject, HibernateBatching } from '../code-model/types';
import { usesSequelizeModels, usesSqlalchemy } from '../code/access';
import { isSchemaEntryMatch } from '../schema/schema-files';
import { changedNames, schemaFacts } from './model-queries';
import { diskSkipReason, isNoFile } from './skip-notices';
import type { ServerState } from './server-state';
import type { Diagnostics } from './diagnostics';
import type { Configuration } from './configuration';

/**
 * A cheap first look at application code before keeping it in memory: every finding on code involves an
 * INSERT/MERGE text, a commit, or a driver call that runs SQL (shell scripts run `db2`). Generic words
 * such as import or load are left out: nearly every source file has them. Literal alternation, no backtracking.
 */
const SQL_HINT = /\b(?:insert|merge|commit|db2|ibm_db|jdbc|executeUpdate|executeBatch|executemany|execute_many|exec_immediate|addBatch|prepareStatement|SQLExecDirect|SQLExecute|SQLPrepare|EXEC\s+SQL)\b/i;

/**
 * Code that has findings without naming SQL: an ORM's inserts (`em.persist`, `session.add`, `Order.create` of a
 * Sequelize model imported from `../models`), the entity and model classes other files' inserts are named by
 * (`@Entity`, `__tablename__`), and a service layer whose loops call a data-access object of another file
 * (`OrderDao dao`, `from app.dao import save_row`). The front ends decide; this only keeps such files in the index
 * (without it the editor never saw a Sequelize loader or a JPA loop that flushes without a commit).
 */
const ORM_HINT = /\b(?:sqlalchemy|flask_sqlalchemy|__tablename__|sequelize|bulkCreate|models|persist|EntityManager|MappedSuperclass|hibernate|saveAll|crud)\b|@Entity\b|(?:dao|repository|repositories|repo|services?|mappers?|stores?|gateways?)\b|\b(?:from|import)[ \t]+[\w.]{0,200}\bdb\b/i;

/** A Java file that may use an ORM or a DataSource (the files a change of Hibernate's or the pool's configuration may read otherwise). */
const usesJavaOrm = (text: string): boolean => /\b(?:javax|jakarta)\.persistence\b|\borg\.hibernate\b|\borg\.springframework\b|\bEntityManager\b|\borg\.apache\.ibatis\b|\b[Mm]y[Bb]atis\b|\bDataSource\b/.test(text);

/** A file's size on disk in bytes; undefined when it cannot be looked at (gone: reading it says so). */
function sizeOnDisk(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

export class DiskFiles {
  /** Source text read from disk so far (insertlint.index.maxTotalMegabytes). */
  indexedBytes = 0;
  /** Application files left out because they never mention SQL. */
  codeWithoutSql = 0;
  /**
   * What the project-evidence look read, kept between looks (cli/project-evidence.ts RememberedLook): a watched change
   * forgets what it can have changed (watchedFilesChanged), an index pass all of it (refreshProjectEvidence).
   */
  readonly evidenceInputs = new RememberedLook();

  constructor(
    private readonly state: ServerState,
    private readonly diagnostics: Diagnostics,
    private readonly configuration: Configuration,
  ) {}

  /**
   * Reads a file into the engine from disk; false (with a log line) when it is skipped. Skipped for its size, as binary,
   * for its encoding or for an I/O error (permission denied), it also gets a file-skipped notice in the Problems panel
   * (skip-notices.ts), until it is read. No file there (deleted since it was listed, a folder): it leaves, findings and all.
   */
  readFromDisk(path: string): boolean {
    const s = this.state;
    const notices = this.diagnostics.notices;
    const read = readSourceFile(path, s.config.maxFileBytes, s.settings.encoding);
    if ('skip' in read && isNoFile(read)) {
      s.log('info', `skipped ${path}: ${read.skip}`);
      this.gone(path);
      return false;
    }
    if ('skip' in read) {
      const why = diskSkipReason(read);
      s.log('info', `skipped ${path}: ${why}`);
      if (s.workspace.hasFile(path) && s.onDisk.has(path)) s.workspace.removeFile(path);
      s.onDisk.delete(path);
      notices.diskSkipped(path, read, why);
      return false;
    }
    // COBOL copybooks and LOAD control cards matter without naming SQL (paragraphs of loops, LOAD DATA).
    const language = s.workspace.languageOf(path);
    // (A Java file that sets a connection pool up is project evidence, read by refreshProjectEvidence from the index.)
    if (language !== 'sql' && language !== 'cobol' && language !== 'jcl' && !SQL_HINT.test(read.text) && !ORM_HINT.test(read.text) && !(language === 'java' && namesPoolSetUp(read.text))) {
      // Application code that never mentions SQL cannot have findings: keep it out of memory.
      if (s.workspace.hasFile(path) && s.onDisk.has(path)) s.workspace.removeFile(path);
      s.onDisk.delete(path);
      this.codeWithoutSql++;
      notices.forget(path);
      return false;
    }
    if (!s.onDisk.has(path)) this.indexedBytes += read.text.length;
    s.workspace.setFile(path, read.text);
    s.onDisk.add(path);
    notices.read(path);
    return true;
  }

  /**
   * Looks again for the project evidence that SQLAlchemy runs on Db2, and whether its sessions autoflush
   * (cli/project-evidence.ts): in the workspace's Python files and on disk above those that use SQLAlchemy. When it changed, the Python files it concerns are read
   * again and every file is published again (their loops may be lent to others). After an index pass (`afresh`: all
   * read again), and when a watched Python, requirements or configuration file changed (only what the change can have
   * changed is read again: evidenceInputs); not on each keystroke in an open document.
   */
  refreshProjectEvidence(afresh = false): void {
    const s = this.state;
    const inputs = this.evidenceInputs;
    if (afresh) inputs.clear();
    const sources = s.workspace.sourcesOf('python');
    const sqlalchemy = sources.length > 0 ? sqlalchemyEvidence(sources, inputs) : { db2: new Map<string, string>(), autoflush: new Map<string, AutoflushEvidence>() };
    const reread = [
      ...s.workspace.setSqlalchemyDb2Folders(new Set(sqlalchemy.db2.keys()), usesSqlalchemy),
      ...s.workspace.setSqlalchemyAutoflushOff(new Map([...sqlalchemy.autoflush].map(([top, a]) => [top, a.off])), usesSqlalchemy),
    ];
    for (const [folder, why] of sqlalchemy.db2) s.log('info', `SQLAlchemy on Db2 in ${folder}: ${why}`);
    for (const [folder, a] of sqlalchemy.autoflush) s.log('info', `SQLAlchemy sessions of ${folder} ${a.off ? 'do not autoflush' : 'autoflush'}: ${a.why}`);
    // Django on Db2 as the Python projects' settings show it (ENGINE ibm_db_django).
    const django = sources.length > 0 ? djangoDb2Folders(sources, inputs) : new Map<string, DjangoProject>();
    const rereadDjango = s.workspace.setDjangoDb2Folders(django, usesDjango);
    for (const [folder, p] of django) s.log('info', `Django on Db2 in ${folder}: ${p.why}${p.atomicRequests ? ' (ATOMIC_REQUESTS)' : ''}`);
    // Hibernate's batching as the Java projects' configuration sets it (persistence.xml, application.properties …).
    const java = s.workspace.sourcesOf('java');
    const batching = java.length > 0 ? hibernateBatchingFolders(java, inputs) : new Map<string, HibernateBatching>();
    const rereadJava = s.workspace.setHibernateBatching(batching, usesJavaOrm);
    for (const [folder, b] of batching) {
      if (!b.mybatisOnly) s.log('info', `Hibernate configuration of ${folder}: ${b.file}, hibernate.jdbc.batch_size ${b.batchSize ?? 'not set'}`);
      if (b.mybatisBatch) s.log('info', `MyBatis configuration of ${folder}: ${b.mybatisBatch} sets the BATCH executor`);
      if (b.poolAutocommitOff) s.log('info', `Connection pool configuration of ${folder}: ${b.poolAutocommitOff} sets autocommit off`);
      if (b.flushModeOff) s.log('info', `Hibernate configuration of ${folder}: ${b.flushModeOff} sets the flush mode to COMMIT or MANUAL`);
    }
    // MyBatis's mapper XML files: their <insert> statements by id (no file read again: the index of statements only).
    const statements = java.length > 0 ? mybatisMapperStatements(java, inputs) : new Map<string, (string | null)[]>();
    const mybatisChanged = s.workspace.setMybatisStatements(statements);
    if (mybatisChanged) s.log('info', `MyBatis mapper XML: ${statements.size} INSERT statement id(s) found`);
    // Sequelize on Db2 as the JavaScript/TypeScript projects show it (package.json, config/config.json, .env).
    const js = [...s.workspace.sourcesOf('javascript'), ...s.workspace.sourcesOf('typescript')];
    const sequelize = js.length > 0 ? sequelizeDb2Folders(js, inputs) : new Map<string, string>();
    const rereadJs = s.workspace.setSequelizeDb2Folders(new Set(sequelize.keys()), usesSequelizeModels);
    for (const [folder, why] of sequelize) s.log('info', `Sequelize on Db2 in ${folder}: ${why}`);
    if (reread.length > 0 || rereadDjango.length > 0 || rereadJava.length > 0 || rereadJs.length > 0 || mybatisChanged) this.diagnostics.markDirty(s.publishablePaths());
  }

  /** A file is no longer on disk (or never was a file): out of the engine, its findings or notice cleared. */
  private gone(path: string): void {
    const s = this.state;
    if (s.onDisk.has(path)) s.workspace.removeFile(path);
    s.onDisk.delete(path);
    this.diagnostics.notices.forget(path);
    this.diagnostics.publishEmpty(path);
  }

  /**
   * The settings or .insertlintrc.json changed (not files.encoding: then every file is read again, Indexer.relint):
   * files skipped for their size that a raised limit now admits are read; the other skipped files' notices follow the
   * settings (the limit in their words; gone when the file is now ignored or the index is off, hidden when their
   * findings would be); files read under a higher limit that a lowered one no longer admits are skipped (readOverLimit).
   */
  settingsChanged(): void {
    const s = this.state;
    const notices = this.diagnostics.notices;
    for (const path of notices.diskSkips().keys()) {
      if (!s.settings.index.enabled || this.isIgnored(path) || s.schemaPaths.has(path)) notices.forget(path);
      else if (!notices.nowWithinLimit(path)) notices.reshow(path);
      else if (this.readFromDisk(path)) this.diagnostics.markDirty([path]);
    }
    this.readOverLimit();
  }

  /**
   * A lowered size limit per file: files read from disk under a higher one and over this one are read again, so
   * skipped as the index would skip them now: their findings go, the file-skipped notice comes, their DDL leaves the
   * schema (every shown file is re-published after a settings change). Only files whose text could be over the limit
   * are looked at on disk: a character is at most 3 bytes on disk (UTF-8; UTF-16 2), and a byte-order mark 3.
   */
  private readOverLimit(): void {
    const s = this.state;
    const limit = s.config.maxFileBytes;
    for (const path of [...s.onDisk]) {
      const text = s.workspace.model(path)?.source.text;
      if (text === undefined || text.length * 3 + 3 <= limit) continue;
      const size = sizeOnDisk(path);
      if (size === undefined || size > limit) this.readFromDisk(path);
    }
  }

  isInWorkspace(path: string): boolean {
    return this.state.folders.some((f) => {
      const rel = relative(f, path);
      return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep);
    });
  }

  isIgnored(path: string): boolean {
    const s = this.state;
    const folder = s.folders.find((f) => !relative(f, path).startsWith('..'));
    if (!folder) return true;
    const rel = relative(folder, path).split(sep).join('/');
    if (rel.split('/').some((part) => part === 'node_modules' || part === '.git')) return true;
    const base = s.fileConfigPath ? dirname(s.fileConfigPath) : folder;
    const relToBase = relative(base, path).split(sep).join('/');
    return !relToBase.startsWith('..') && s.config.ignore.length > 0 && ignore().add(s.config.ignore).ignores(relToBase);
  }

  /** A document was closed: the saved file (if indexed) replaces the buffer; unsaved edits no longer count. */
  closed(e: TextDocumentChangeEvent<TextDocument>): void {
    const s = this.state;
    const doc = e.document;
    this.diagnostics.closed(doc.uri);
    const path = s.pathOf(doc.uri);
    if (s.schemaPaths.has(path)) {
      const read = readSourceFile(path, s.config.maxFileBytes, s.settings.encoding);
      this.diagnostics.schemaFileChanged(path, 'text' in read ? read.text : undefined);
      return;
    }
    const before = schemaFacts(s.workspace.model(path));
    const keep = doc.uri.startsWith('file:') && s.settings.index.enabled && this.isInWorkspace(path) && !this.isIgnored(path) && this.readFromDisk(path);
    if (!keep) s.workspace.removeFile(path);
    if (keep && s.settings.diagnosticsScope === 'workspace') this.diagnostics.markDirty([path]);
    // Skipped when read back from disk: its file-skipped notice (readFromDisk) is what is shown.
    else if (!this.diagnostics.notices.holds(path)) this.diagnostics.publishEmpty(path);
    this.diagnostics.markDependentsDirty(path, changedNames(before, schemaFacts(s.workspace.model(path))));
  }

  watchedFilesChanged(changes: { uri: string; type: number }[]): void {
    const s = this.state;
    let configChanged = false;
    let schemaChanged = false;
    let evidenceChanged = false;
    for (const change of changes) {
      if (!change?.uri?.startsWith('file:')) continue;
      const path = s.pathOf(change.uri);
      // Whatever the project-evidence look read of it, or under it (a folder), and its folder's names, are read again.
      this.evidenceInputs.forget(path);
      // Requirements, .env, settings: what SQLAlchemy's database is (refreshProjectEvidence, after the loop).
      // persistence.xml, application.properties: Hibernate's batch size; package.json, .sequelizerc, config/*.json:
      // Sequelize's database; a Python, Java, JavaScript/TypeScript file; pom.xml, a .git: a project's top.
      if (mayChangeEvidence(path)) evidenceChanged = true;
      if (basename(path) === CONFIG_FILE_NAME) {
        configChanged = true;
        continue;
      }
      // The editor's buffer wins over the disk while the file is open.
      if (s.documents.get(s.uriOfPath.get(path) ?? change.uri)) continue;
      if (s.schemaPaths.has(path) || (change.type === FileChangeType.Created && isSchemaEntryMatch(path, s.config.schema))) {
        // A schema file changed or appeared: the schema files are read again once, after the loop.
        schemaChanged = true;
        continue;
      }
      if (!s.workspace.languageOf(path) || this.isIgnored(path)) continue;
      const before = schemaFacts(s.workspace.model(path));
      if (change.type === FileChangeType.Deleted) {
        s.workspace.removeFile(path);
        s.onDisk.delete(path);
        this.diagnostics.notices.forget(path);
        this.diagnostics.publishEmpty(path);
      } else if (this.readFromDisk(path)) {
        this.diagnostics.markDirty([path]);
      }
      this.diagnostics.markDependentsDirty(path, changedNames(before, schemaFacts(s.workspace.model(path))));
    }
    if (evidenceChanged) this.refreshProjectEvidence();
    if (configChanged) {
      this.configuration.loadFileConfig();
      this.configuration.apply(true);
      this.settingsChanged();
    } else if (schemaChanged) {
      this.configuration.loadSchema();
      this.diagnostics.markDirty(s.publishablePaths());
    }
  }
}
