// The plan webview: shows issue 4's HTML rendering of a plan. The HTML carries its own strict
// Content-Security-Policy (default-src 'none'; style and script only with this panel's nonce; no
// remote resources) and styles itself with VS Code's theme colours (--vscode-* CSS variables).
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';

export function newNonce(): string {
  return randomBytes(24).toString('base64');
}

let current: vscode.WebviewPanel | undefined;

/** Shows `html` (rendered with `nonce`) in the plan panel, reusing the open one. */
export function showPlan(title: string, html: string, nonce: string): vscode.WebviewPanel {
  if (!html.includes(`nonce-${nonce}`) && !html.includes(`nonce="${nonce}"`)) {
    // Never show a page whose CSP was not made for this panel's nonce.
    html = messagePage('The plan could not be shown safely (its Content-Security-Policy does not match this view).', newNonce());
  }
  if (!current) {
    current = vscode.window.createWebviewPanel('insertlint.plan', title, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false }, {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: [],
      retainContextWhenHidden: false,
    });
    current.onDidDispose(() => (current = undefined));
  }
  current.title = title;
  current.webview.html = html;
  current.reveal(undefined, false);
  return current;
}

/** A small page for messages in the plan panel (same CSP rules). */
export function messagePage(text: string, nonce: string): string {
  const esc = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${nonce}';">
<style nonce="${nonce}">body{font-family:var(--vscode-font-family);color:var(--vscode-foreground);background:var(--vscode-editor-background);padding:1em}</style>
</head><body><p>${esc}</p></body></html>`;
}
