// Public surface of "Explain this INSERT" for the CLI, the language server and the VS Code webview.
export * from './model';
export { parseExfmt, MAX_EXFMT_BYTES } from './exfmt';
export { classifyHiddenWork, hiddenKindLabel, insertTargetOf, sameObject } from './classify';
export type { ExplainContext, ForeignKeyFact, TriggerFact, MqtFact, IndexFact, HiddenPiece, HiddenWorkReport } from './classify';
export { schemaExplainContext, factsExplainContext, type ContextFacts } from './schema-context';
export { explainDocument, hasPlan, type ExplainReport, type ExplainedStatement } from './report';
export { render, renderText, renderJson, renderMarkdown, renderHtml, toJson, EXPLAIN_FORMATS, type ExplainFormat, type HtmlOptions, type TextOptions } from './render';
export { IbmDbDriver, loadIbmDb, buildConnection, describeDb2Error, redactSecrets, Db2Error, PASSWORD_ENV, IBM_DB_PATH_ENV } from './driver';
export type { Db2Driver, Row, ConnectionInfo, ConnectionOptions, Db2ErrorKind } from './driver';
export { explainLive, findDb2exfmt, prepareExplainable, catalogContext, type LiveExplainOptions, type LiveExplainResult, type ProcessRunner } from './live';
export { buildPlanFromExplainTables, type ExplainTableRows } from './explain-tables';
