// Shell scripts that drive the Db2 command line processor: `db2 "INSERT …"` (also in loops),
// `db2 +c` (no autocommit for that command), `db2 "UPDATE COMMAND OPTIONS USING C OFF"`, `db2 commit`.
import type { Node } from 'web-tree-sitter';
import type { ApiEvent, CallContext, Evaluator, LanguageAdapter } from '../adapter';
import { shellAccess } from '../access';
import { emptyResult, extractTrees, type HostLanguage } from '../host-language';
import { shellTrees } from './shell-read';
import { decodeQuoted } from '../literals';
import { joinTexts, looksLikeSql, plainPiece, type HostText, type TextPiece } from '../sqltext';
import { parentOf } from '../parents';
import { appendAll } from '../../engine/append';

const EXPANSIONS = new Set(['simple_expansion', 'expansion', 'command_substitution', 'arithmetic_expansion']);

/** The variable of `$x` / `${x}` (plain forms only). */
function expansionVariable(node: Node): string | undefined {
  if (node.type === 'simple_expansion' || node.type === 'expansion') {
    const m = /^\$\{?([A-Za-z_]\w*)\}?$/.exec(node.text);
    return m ? m[1] : undefined;
  }
  return undefined;
}

function expand(node: Node, ev: Evaluator): HostText {
  const name = expansionVariable(node);
  const value = name ? ev.variable(name, node.startIndex) : undefined;
  return value ?? ev.splice(node);
}

function doubleQuoted(node: Node, ev: Evaluator): HostText {
  const pieces: TextPiece[] = [];
  let kind: HostText['kind'] = 'constant';
  let at = node.startIndex + 1;
  const end = node.endIndex - 1;
  for (const child of node.namedChildren) {
    if (!child || !EXPANSIONS.has(child.type)) continue;
    appendAll(pieces, decodeQuoted(ev.source, at, child.startIndex, 'bash'));
    const value = expand(child, ev);
    appendAll(pieces, value.pieces);
    kind = 'template';
    at = child.endIndex;
  }
  appendAll(pieces, decodeQuoted(ev.source, at, end, 'bash'));
  return { pieces, kind };
}

export const shellAdapter: LanguageAdapter = {
  grammar: 'bash',
  loops: { for_statement: 'for', c_style_for_statement: 'for', while_statement: 'while' },
  functions: new Set(['function_definition']),
  lambdas: new Set(),
  ifs: new Set(['if_statement', 'list']),
  comments: new Set(['comment']),
  calls: new Set(['command']),
  assignmentTypes: new Set(['variable_assignment']),
  loopMethods: new Set(),

  calleeName(node) {
    return node.childForFieldName('name')?.text.replace(/^.*\//, '');
  },
  interestingCall(name) {
    return name === 'db2';
  },
  callSite(node) {
    const name = node.childForFieldName('name');
    if (!name) return undefined;
    const args = node.childrenForFieldName('argument').filter((n): n is Node => !!n);
    return { node, name: name.text.replace(/^.*\//, ''), args, keywords: new Map() };
  },

  assignments(node) {
    const name = node.childForFieldName('name');
    const value = node.childForFieldName('value');
    if (!name || !value) return [];
    return [{ name: name.text, value, append: /^\w+\+=/.test(node.text) }];
  },

  evaluate(node, ev) {
    switch (node.type) {
      case 'string':
        return doubleQuoted(node, ev);
      case 'raw_string':
        return { pieces: [plainPiece(node.text.slice(1, -1), node.startIndex + 1)], kind: 'constant' };
      case 'word':
      case 'number':
        return { pieces: [plainPiece(node.text, node.startIndex)], kind: 'constant' };
      case 'concatenation': {
        const parts = node.namedChildren.filter((c): c is Node => !!c).map((c) => (EXPANSIONS.has(c.type) ? expand(c, ev) : ev.evaluate(c) ?? ev.splice(c)));
        return joinTexts(parts, 'concatenation');
      }
      case 'simple_expansion':
      case 'expansion': {
        const name = expansionVariable(node);
        return name ? ev.variable(name, node.startIndex) : undefined;
      }
      default:
        return undefined;
    }
  },

  classify(ctx, ev) {
    return classifyDb2(ctx, ev);
  },

  commentText(raw) {
    return raw.replace(/^#/, '');
  },

  defaultAutocommit() {
    return 'unknown';
  },

  fixedAutocommit(api) {
    // The CLP commits every statement unless told otherwise (+c, UPDATE COMMAND OPTIONS USING C OFF).
    return api === 'clp' ? 'on' : undefined;
  },
};

export const shellLanguage: HostLanguage = {
  languages: ['shell'],
  grammars: ['bash'],
  read(source, env) {
    const leftOut = shellAccess(source.text);
    if (leftOut) return emptyResult(leftOut);
    const parser = env.parser('bash');
    if (!parser) return emptyResult(env.unavailable('bash'));
    // One tree, or a broken script's pieces (shell-read.ts): linear in the script, broken or not.
    const trees = shellTrees(parser, source.text);
    if (!trees) return emptyResult();
    try {
      return extractTrees(trees, source, shellAdapter);
    } finally {
      for (const tree of trees) tree.delete();
    }
  },
};

/** The here-document body fed to a command (`db2 -tv <<EOF … EOF`), if any. */
function hereDocument(command: Node): { body: Node; quoted: boolean } | undefined {
  const parent = parentOf(command);
  if (parent?.type !== 'redirected_statement') return undefined;
  for (const r of parent.namedChildren) {
    if (r?.type !== 'heredoc_redirect') continue;
    const body = r.namedChildren.find((c) => c?.type === 'heredoc_body');
    const start = r.namedChildren.find((c) => c?.type === 'heredoc_start');
    if (body) return { body, quoted: !!start && /['"\\]/.test(start.text) };
  }
  return undefined;
}

/**
 * The text that an earlier command of the same block writes to `file` (`echo $sql > f`, `printf '%s\n' "$sql" > f`,
 * `cat > f <<EOF … EOF`), for a `db2 -tvf f` that runs it; undefined when no such write is in sight.
 */
function textWrittenTo(command: Node, file: string, ev: Evaluator): HostText | undefined {
  const parent = parentOf(command);
  let prev = (parent?.type === 'redirected_statement' ? parent : command).previousNamedSibling;
  for (; prev; prev = prev.previousNamedSibling) {
    if (prev.type !== 'redirected_statement') continue;
    const writes = prev.childrenForFieldName('redirect').some((r) => r?.type === 'file_redirect' && r.child(0)?.text === '>' && r.childForFieldName('destination')?.text === file);
    const body = prev.childForFieldName('body');
    if (!writes || body?.type !== 'command') continue;
    const name = body.childForFieldName('name')?.text;
    if (name === 'cat') {
      const heredoc = hereDocument(body);
      return heredoc && heredocText(heredoc, ev);
    }
    let args = body.childrenForFieldName('argument').filter((n): n is Node => !!n);
    if (name === 'echo') args = args.filter((a, k) => k > 0 || !/^-[neE]+$/.test(a.text));
    // printf with a format that only places its arguments: the arguments are the text.
    else if (name === 'printf' && args.length > 1 && /^["']?%s(?:\\n)?["']?$/.test(args[0].text)) args = args.slice(1);
    else return undefined;
    return args.length > 0 ? argumentsText(args, ev) : undefined;
  }
  return undefined;
}

/** A command's arguments as the one text the shell passes on, joined by spaces (`db2 INSERT INTO … "$v"`, `echo $sql`). */
function argumentsText(args: readonly Node[], ev: Evaluator): HostText {
  const parts: HostText[] = [];
  args.forEach((arg, k) => {
    if (k > 0) parts.push({ pieces: [plainPiece(' ', arg.startIndex - 1)], kind: 'constant' });
    parts.push(ev.evaluate(arg) ?? ev.splice(arg));
  });
  return parts.length === 1 ? parts[0] : joinTexts(parts, parts.some((p) => p.kind !== 'constant') ? 'template' : 'constant');
}

/** A here-document's text: expansions are spliced unless the delimiter was quoted. */
function heredocText(heredoc: { body: Node; quoted: boolean }, ev: Evaluator): HostText {
  const { body, quoted } = heredoc;
  if (quoted) return { pieces: [plainPiece(ev.source.slice(body.startIndex, body.endIndex), body.startIndex)], kind: 'constant' };
  const pieces: TextPiece[] = [];
  let at = body.startIndex;
  let kind: HostText['kind'] = 'constant';
  for (const child of body.namedChildren) {
    if (!child || !EXPANSIONS.has(child.type)) continue;
    appendAll(pieces, decodeQuoted(ev.source, at, child.startIndex, 'bash'));
    appendAll(pieces, expand(child, ev).pieces);
    kind = 'template';
    at = child.endIndex;
  }
  appendAll(pieces, decodeQuoted(ev.source, at, body.endIndex, 'bash'));
  return { pieces, kind };
}

function classifyDb2(ctx: CallContext, ev: Evaluator): ApiEvent[] {
  const { call } = ctx;
  if (call.name !== 'db2') return [];
  let noAutocommit = false;
  let i = 0;
  for (; i < call.args.length; i++) {
    const t = call.args[i].text;
    if (!/^[-+][a-zA-Z]/.test(t)) break;
    if (/^\+[a-z]*c/.test(t)) noAutocommit = true;
    // -f FILE / -tvf FILE run a script file: its statements are linted where that file is, unless this script
    // has just written it (echo "$sql" > temp.sql; db2 -tvf temp.sql, once per line of a CSV).
    if (/^-[a-z@;!]*f$/i.test(t)) {
      const file = call.args[i + 1];
      const text = file && textWrittenTo(call.node, file.text, ev);
      return text ? [{ kind: 'execute', api: 'clp', action: 'executeDirect', sql: text, connection: 'clp', autocommitOff: noAutocommit, script: true }] : [];
    }
  }
  const rest = call.args.slice(i);
  const heredoc = hereDocument(call.node);
  if (heredoc) {
    const text = heredocText(heredoc, ev);
    return [{ kind: 'execute', api: 'clp', action: 'executeDirect', sql: text, connection: 'clp', autocommitOff: noAutocommit, script: true }];
  }
  if (rest.length === 0) return [];
  const text = argumentsText(rest, ev);
  const plain = text.pieces.map((p) => (p.kind === 'text' ? p.text : '0')).join('').trim();
  const upper = plain.toUpperCase();
  if (/^CONNECT\s+TO\b/.test(upper)) return [{ kind: 'connect', api: 'clp', connection: 'clp' }];
  const options = /^UPDATE\s+COMMAND\s+OPTIONS\s+USING\b(.*)$/s.exec(upper);
  if (options) {
    const c = /\bC\s+(ON|OFF)\b/.exec(options[1]);
    return c ? [{ kind: 'autocommit', api: 'clp', on: c[1] === 'ON', connection: 'clp' }] : [];
  }
  if (/^COMMIT\b/.test(upper)) return [{ kind: 'commit', api: 'clp', connection: 'clp' }];
  if (!looksLikeSql(plain) || /^(?:CONNECT|TERMINATE|QUIT)\b/.test(upper)) return [];
  return [{ kind: 'execute', api: 'clp', action: 'executeDirect', sql: text, connection: 'clp', autocommitOff: noAutocommit }];
}
