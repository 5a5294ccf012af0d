// The InsertLint-specific messages between the VS Code client and the language server, on top of LSP.
// Shared by both sides (no vscode imports here); other editors can ignore them.
import type { SealedSecret } from './secret-channel';

/** Server → client notification: indexing state and the number of findings shown. */
export const STATUS_NOTIFICATION = 'insertlint/status';
export interface StatusParams {
  /** 'disabled': insertlint.enable is false (nothing is published). */
  state: 'starting' | 'indexing' | 'idle' | 'disabled';
  /** Files in the engine (open and indexed). */
  files: number;
  /** While indexing: files read so far and files found. */
  indexed?: number;
  total?: number;
  /** Unsuppressed findings published, all files, without hints (VS Code's Problems panel does not list hints). */
  findings: number;
}

/** Client → server: the statement at a position or selection, for "Explain this INSERT". */
export const STATEMENT_AT_REQUEST = 'insertlint/statementAt';
export interface StatementAtParams {
  uri: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
}
export interface StatementAtResult {
  sql: string;
  kind: string;
  range: StatementAtParams['range'];
}

/** Client → server: a rule's Markdown documentation. */
export const RULE_DOC_REQUEST = 'insertlint/ruleDoc';
export interface RuleDocParams {
  id: string;
}
export interface RuleDocResult {
  id: string;
  markdown: string;
  url: string;
}

/** Client → server: the rule catalogue with the severity in force, for "Show rules". */
export const RULES_REQUEST = 'insertlint/rules';
export interface RuleSummary {
  id: string;
  description: string;
  /** The severity in force here, or 'off'. */
  severity: string;
  fixable: boolean;
}

/** Client → server: render a db2exfmt text as the plan HTML (issue 4's renderer). */
export const RENDER_PLAN_REQUEST = 'insertlint/renderPlan';
export interface RenderPlanParams {
  /** The db2exfmt output. */
  text: string;
  /** Shown in messages. */
  name: string;
  /** CSP nonce for the inline script and style the HTML carries. */
  nonce: string;
}
export type RenderPlanResult = { html: string; title: string } | { error: string };

/** Client → server: run Explain for a statement on a live connection (trusted workspaces only). */
export const EXPLAIN_REQUEST = 'insertlint/explain';
export interface ExplainParams {
  sql: string;
  connection: { host: string; port: number; database: string; user: string };
  /** Sealed for the server's secretKey (secret-channel.ts): editors trace requests, so never plain text. */
  password: SealedSecret;
  nonce: string;
  /** Where the optional ibm_db driver is installed (setting insertlint.explain.ibmDbPath). */
  ibmDbPath?: string;
}
export type ExplainResult = RenderPlanResult;

/** Client → server: read the live catalog of schemas as DDL for a schema file (trusted workspaces only). */
export const PULL_SCHEMA_REQUEST = 'insertlint/pullSchema';
export interface PullSchemaParams {
  connection: ExplainParams['connection'];
  /** Sealed like the Explain password (secret-channel.ts). */
  password: SealedSecret;
  /** Schema names as the user typed them ("APP, sales"). */
  schemas: string;
  ibmDbPath?: string;
}
/** `ddl` is written by the client where the user chose; `summary` says what was read. */
export type PullSchemaResult = { ddl: string; summary: string; warnings: string[] } | { error: string };

/** What the server adds to InitializeResult.capabilities.experimental. */
export interface ExperimentalServerCapabilities {
  insertlint: {
    /** The public key to seal the Explain password with (sealSecret in secret-channel.ts). */
    secretKey: string;
  };
}

/** Client command ids the server refers to in code lenses and code actions. */
export const CLIENT_COMMANDS = {
  explainInsert: 'insertlint.explainInsert',
  showRuleDocumentation: 'insertlint.showRuleDocumentation',
} as const;

/** Commands the server executes itself (workspace/executeCommand); distinct from the client's ids. */
export const SERVER_COMMANDS = {
  lintWorkspace: 'insertlint.server.lintWorkspace',
  openRuleDocumentation: 'insertlint.server.openRuleDocumentation',
  /** [ruleId]: "off" in the workspace's .insertlintrc.json (created if needed); returns ConfigFileResult. */
  disableRuleInWorkspace: 'insertlint.server.disableRuleInWorkspace',
  /** Writes a starter .insertlintrc.json in the first workspace folder unless one exists; returns ConfigFileResult. */
  createConfiguration: 'insertlint.server.createConfiguration',
} as const;

/** Where the configuration file is, and whether the command created it; or why nothing was written. */
export type ConfigFileResult = { path: string; uri: string; created: boolean } | { error: string };

/** The code action kind of "Fix all" (editor.codeActionsOnSave: { "source.fixAll.insertlint": "explicit" }). */
export const FIX_ALL_KIND = 'source.fixAll.insertlint';

/** What the client passes in initializationOptions. */
export interface InitializationOptions {
  /** False in an untrusted workspace: lint only, never connect or run db2exfmt. Default true. */
  trusted?: boolean;
  /** Client commands that exist (others get server-side fallbacks). */
  clientCommands?: string[];
  /**
   * 'command': a diagnostic's rule id links to the client's showRuleDocumentation command (the docs shipped
   * with the extension, opened in the editor); otherwise to the documentation URL.
   */
  ruleDocs?: 'command' | 'url';
  /** Settings for clients that do not answer workspace/configuration. */
  settings?: unknown;
}
