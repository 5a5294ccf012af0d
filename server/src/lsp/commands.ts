// Commands the server runs (workspace/executeCommand) and the InsertLint requests behind the client's
// commands: the statement to explain, a rule's documentation, live Explain and schema import.
import { ResponseError, ErrorCodes } from 'vscode-languageserver/node';
import { findRule, ruleDocUrl } from '../engine/registry';
import { statementAt, statementText, fileSpan } from './model-queries';
import { lspRange, offsetOf } from './lsp-convert';
import { explainStatement } from './plans';
import { pullSchemaRequest } from './schema-pull';
import { SERVER_COMMANDS, type ExplainParams, type PullSchemaParams, type StatementAtParams } from './protocol';
import type { ServerState } from './server-state';
import type { Diagnostics } from './diagnostics';
import type { Indexer } from './indexer';
import type { Configuration } from './configuration';
import { configFilePath, createConfigFile, disableRuleInConfigFile } from './config-file';
import type { RuleSummary } from './protocol';

const UNTRUSTED = 'This workspace is not trusted: InsertLint only lints here and never connects to a database.';

export class Commands {
  constructor(
    private readonly state: ServerState,
    private readonly diagnostics: Diagnostics,
    private readonly indexer: Indexer,
    private readonly configuration: Configuration,
  ) {}

  async execute(command: string, args: unknown[]): Promise<unknown> {
    switch (command) {
      case SERVER_COMMANDS.lintWorkspace:
        return this.indexer.relint();
      case SERVER_COMMANDS.openRuleDocumentation: {
        const id = args[0];
        if (typeof id !== 'string' || !findRule(id)) return null;
        await this.state.connection.window.showDocument({ uri: ruleDocUrl(id), external: true });
        return null;
      }
      case SERVER_COMMANDS.disableRuleInWorkspace: {
        const id = args[0];
        if (typeof id !== 'string' || !findRule(id)) throw new ResponseError(ErrorCodes.InvalidParams, 'the argument must be a rule id');
        const result = this.writeConfig(() => disableRuleInConfigFile(configFilePath(this.state.fileConfigPath, this.state.folders), id));
        if (!('error' in result)) this.state.showMessage('info', `InsertLint: ${id} is now off in ${result.path}`);
        return result;
      }
      case SERVER_COMMANDS.createConfiguration:
        return this.writeConfig(() => createConfigFile(configFilePath(this.state.fileConfigPath, this.state.folders)));
      default:
        throw new ResponseError(ErrorCodes.InvalidParams, `unknown command ${command}`);
    }
  }

  /** Writes the configuration file, then applies it at once (the file watcher's event comes later, or never). */
  private writeConfig(write: () => ReturnType<typeof createConfigFile>) {
    const result = write();
    if ('error' in result) {
      this.state.showMessage('warning', `InsertLint: ${result.error}`);
      return result;
    }
    this.state.log('info', `wrote ${result.path}`);
    this.configuration.loadFileConfig();
    this.configuration.apply(true);
    return result;
  }

  rules(): RuleSummary[] {
    const config = this.state.config;
    return this.state.rules.map(({ rule }) => {
      const resolved = config.rules.get(rule.meta.id);
      const severity = resolved === undefined || resolved === 'off' ? 'off' : resolved.severity;
      return { id: rule.meta.id, description: rule.meta.description, severity, fixable: Boolean(rule.meta.fixable) };
    });
  }

  statementAt(params: StatementAtParams) {
    const cur = this.diagnostics.current(params?.uri);
    if (!cur) return null;
    const start = offsetOf(cur.lines, params.range?.start);
    const stmt = statementAt(cur.model, start);
    if (!stmt) return null;
    return { sql: statementText(cur.model, stmt), kind: stmt.kind, range: lspRange(cur.lines, fileSpan(stmt, stmt.span)) };
  }

  ruleDoc(id: unknown) {
    if (typeof id !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, 'id must be a rule id');
    const rule = findRule(id);
    if (!rule) return null;
    return { id, markdown: rule.doc || `# ${id}\n\n${rule.rule.meta.description}\n`, url: ruleDocUrl(id) };
  }

  async explain(params: ExplainParams) {
    if (!this.state.trusted) return { error: UNTRUSTED };
    return explainStatement(params, () => this.state.workspace.schema, this.state.secrets);
  }

  async pullSchema(params: PullSchemaParams) {
    if (!this.state.trusted) return { error: UNTRUSTED };
    return pullSchemaRequest(params, this.state.secrets);
  }
}
