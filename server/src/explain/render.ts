// Renderers for an ExplainReport: terminal text, JSON, Markdown (pull requests) and a self-contained HTML page
// that the VS Code webview reuses as is. One module per format; this one picks.
import type { ExplainReport } from './report';
import { renderText, type TextOptions } from './render-text';
import { renderJson } from './render-json';
import { renderMarkdown } from './render-markdown';
import { renderHtml, type HtmlOptions } from './render-html';

export { renderText, type TextOptions } from './render-text';
export { renderJson, toJson } from './render-json';
export { renderMarkdown } from './render-markdown';
export { renderHtml, type HtmlOptions } from './render-html';

export type ExplainFormat = 'text' | 'json' | 'markdown' | 'html';
export const EXPLAIN_FORMATS: readonly ExplainFormat[] = ['text', 'json', 'markdown', 'html'];

export function render(report: ExplainReport, format: ExplainFormat, options: TextOptions & HtmlOptions = {}): string {
  switch (format) {
    case 'json':
      return renderJson(report);
    case 'markdown':
      return renderMarkdown(report);
    case 'html':
      return renderHtml(report, options);
    default:
      return renderText(report, options);
  }
}
