// SARIF 2.1.0 output for code-scanning services: the rule catalogue in tool.driver.rules, one result per
// finding with a relative location and a stable partial fingerprint; suppressed findings are kept and
// marked as suppressed (SARIF consumers show them as dismissed instead of losing them).
import { pathToFileURL } from 'node:url';
import type { RegisteredRule, Severity } from '../engine/types';
import { DOCS_BASE_URL, ruleDocUrl } from '../engine/registry';
import { UNUSED_SUPPRESSION_RULE } from '../engine/suppressions';
import type { PositionedDiagnostic } from './text';
import { FINGERPRINT_KEY } from './fingerprint';
import { sarifText } from './escape';

export const SARIF_SCHEMA_URI = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
export const INFORMATION_URI = DOCS_BASE_URL.replace(/\/blob\/.*$/, '');
export const SRCROOT = '%SRCROOT%';

export type SarifLevel = 'error' | 'warning' | 'note';

export function sarifLevel(severity: Severity): SarifLevel {
  return severity === 'error' ? 'error' : severity === 'warning' ? 'warning' : 'note';
}

export interface SarifFinding extends PositionedDiagnostic {
  fingerprint: string;
  /** Set when the run compared against a baseline. */
  baselineState?: 'new' | 'unchanged';
}

export interface SarifInput {
  findings: readonly SarifFinding[];
  rules: readonly RegisteredRule[];
  /** The folder relative paths are relative to (becomes %SRCROOT%). */
  cwd: string;
  version: string;
  /** Where rule documentation is hosted (see ruleDocUrl); the repository by default. */
  docsBaseUrl?: string;
  /** Problems with the run itself (skipped files, failing rules), as tool notifications. */
  notifications?: { message: string; level: 'error' | 'warning' | 'note' }[];
}

/** The first prose paragraph of a Markdown doc: headings, code fences and front matter skipped. */
export function firstParagraph(markdown: string): string | undefined {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const paragraph: string[] = [];
  let fenced = false;
  for (const line of lines) {
    const trimmed = line.trim();
    if (/^(```|~~~)/.test(trimmed)) {
      fenced = !fenced;
      if (paragraph.length) break;
      continue;
    }
    if (fenced) continue;
    if (!trimmed) {
      if (paragraph.length) break;
      continue;
    }
    if (/^#{1,6}\s/.test(trimmed) || /^(---|\||<!--)/.test(trimmed)) {
      if (paragraph.length) break;
      continue;
    }
    paragraph.push(trimmed.replace(/^>\s?/, ''));
  }
  return paragraph.length ? plainText(paragraph.join(' ')) : undefined;
}

/** Markdown inline syntax removed: links keep their text, emphasis and code marks go. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|\W)[*_]([^*_]+)[*_](?=\W|$)/g, '$1$2')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A whole doc as plain text: paragraphs kept apart, inline Markdown removed, code blocks as they are. */
export function plainParagraphs(markdown: string): string {
  const out: string[] = [];
  let fenced = false;
  for (const block of markdown.replace(/\r\n?/g, '\n').split(/\n{2,}/)) {
    const fences = (block.match(/^(```|~~~)/gm) ?? []).length;
    if (fenced || /^(```|~~~)/.test(block.trim())) out.push(block.replace(/^\n+/, '').trimEnd());
    else out.push(plainText(block.replace(/^#{1,6}\s+/gm, '')));
    if (fences % 2 === 1) fenced = !fenced;
  }
  return out.filter(Boolean).join('\n\n');
}

/** "identity-cache" → "IdentityCache": SARIF rule names are identifiers, ids stay kebab-case. */
export function ruleName(id: string): string {
  return id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join('');
}

function descriptor(registered: RegisteredRule, docsBaseUrl?: string) {
  const { meta } = registered.rule;
  const full = firstParagraph(registered.doc) ?? meta.description;
  return {
    id: meta.id,
    name: ruleName(meta.id),
    shortDescription: { text: meta.description },
    fullDescription: { text: full },
    helpUri: ruleDocUrl(meta.id, docsBaseUrl),
    ...(registered.doc ? { help: { text: plainParagraphs(registered.doc), markdown: registered.doc } } : {}),
    defaultConfiguration: { level: sarifLevel(meta.defaultSeverity) },
    properties: { tags: ['db2', 'performance', 'insert'], evidence: meta.evidence, ...(meta.fixable ? { fixable: true } : {}) },
  };
}

/** Findings of rules outside the catalogue (the engine's own unused-suppression check) still need a descriptor. */
function syntheticDescriptor(id: string, severity: Severity) {
  const description =
    id === UNUSED_SUPPRESSION_RULE ? 'An insertlint-disable comment that suppresses nothing, names an unknown rule, or is no directive' : `Findings reported as ${id}`;
  return {
    id,
    name: ruleName(id),
    shortDescription: { text: description },
    fullDescription: { text: description },
    defaultConfiguration: { level: sarifLevel(severity) },
  };
}

/** A relative display path as a URI reference (each segment percent-encoded); absolute paths as file: URIs. */
export function artifactLocation(displayPath: string): { uri: string; uriBaseId?: string } {
  if (displayPath.startsWith('/') || /^[A-Za-z]:[\\/]/.test(displayPath)) return { uri: pathToFileURL(displayPath).href };
  return { uri: displayPath.split('/').map(encodeURIComponent).join('/'), uriBaseId: SRCROOT };
}

function directoryUri(path: string): string {
  const href = pathToFileURL(path).href;
  return href.endsWith('/') ? href : href + '/';
}

export function toSarif(input: SarifInput): object {
  const descriptors: object[] = input.rules.map((r) => descriptor(r, input.docsBaseUrl));
  const indexById = new Map(input.rules.map((r, i) => [r.rule.meta.id, i]));
  for (const f of input.findings) {
    if (!indexById.has(f.rule)) {
      indexById.set(f.rule, descriptors.length);
      descriptors.push(syntheticDescriptor(f.rule, f.severity));
    }
  }
  const results = input.findings.map((f) => {
    const region: Record<string, number> = { startLine: f.line, startColumn: f.column, endLine: f.endLine, endColumn: f.endColumn };
    if (f.endLine === f.line && f.endColumn <= f.column) region.endColumn = f.column;
    return {
      ruleId: f.rule,
      ruleIndex: indexById.get(f.rule)!,
      level: sarifLevel(f.severity),
      message: { text: sarifText(f.message) },
      locations: [{ physicalLocation: { artifactLocation: artifactLocation(f.displayPath), region } }],
      ...(f.relatedPositions?.length
        ? {
            relatedLocations: f.relatedPositions.map((r, i) => ({
              id: i + 1,
              physicalLocation: { artifactLocation: artifactLocation(r.displayPath), region: { startLine: r.line, startColumn: r.column, endLine: r.endLine, endColumn: Math.max(r.endColumn, r.column) } },
              message: { text: sarifText(r.message) },
            })),
          }
        : {}),
      partialFingerprints: { [FINGERPRINT_KEY]: f.fingerprint },
      ...(f.baselineState ? { baselineState: f.baselineState } : {}),
      ...(f.fix
        ? {
            fixes: [
              {
                description: { text: sarifText(f.fix.title) },
                artifactChanges: [
                  {
                    artifactLocation: artifactLocation(f.displayPath),
                    replacements: f.fix.edits.map((e) => ({
                      deletedRegion: { charOffset: e.span.start, charLength: e.span.end - e.span.start },
                      insertedContent: { text: e.newText },
                    })),
                  },
                ],
              },
            ],
          }
        : {}),
      ...(f.suppressed
        ? {
            suppressions: [
              {
                // Suppressed by a comment in the file, or by configuration outside it.
                kind: f.suppressed.kind === 'config' ? 'external' : 'inSource',
                ...(f.suppressed.justification ? { justification: f.suppressed.justification } : {}),
              },
            ],
          }
        : {}),
    };
  });
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'InsertLint', version: input.version, semanticVersion: input.version, informationUri: INFORMATION_URI, rules: descriptors } },
        originalUriBaseIds: { [SRCROOT]: { uri: directoryUri(input.cwd) } },
        invocations: [
          {
            executionSuccessful: true,
            toolExecutionNotifications: (input.notifications ?? []).map((n) => ({ level: n.level, message: { text: sarifText(n.message) } })),
          },
        ],
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
}
