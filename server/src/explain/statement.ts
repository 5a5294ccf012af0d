// What an explained statement is (INSERT, UPDATE, DELETE, MERGE, a query) and which table it changes, from
// the "Statement Type:" line, the statement text and, failing both, the plan's own DML operators.
import { DML_OPERATORS, type PlanOperator } from './model';

export type StatementKind = 'insert' | 'update' | 'delete' | 'merge' | 'query';

export function sameObject(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const [sa, na] = splitKey(a);
  const [sb, nb] = splitKey(b);
  if (na !== nb) return false;
  return sa === '' || sb === '' || sa === sb;
}

function splitKey(key: string): [string, string] {
  const k = key.replace(/"/g, '').toUpperCase();
  const dot = k.lastIndexOf('.');
  return dot < 0 ? ['', k] : [k.slice(0, dot).trim(), k.slice(dot + 1).trim()];
}

/** `schema . "Name"` → ['SCHEMA', 'Name']: unquoted parts upper-cased, quotes removed, dots inside quotes kept. */
export function splitQualifiedName(text: string): string[] {
  const parts: string[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i])) i++;
    if (text[i] === '"') {
      const end = text.indexOf('"', i + 1);
      const stop = end < 0 ? text.length : end;
      parts.push(text.slice(i + 1, stop));
      i = stop + 1;
    } else {
      let j = i;
      while (j < text.length && text[j] !== '.' && !/\s/.test(text[j])) j++;
      if (j > i) parts.push(text.slice(i, j).toUpperCase());
      i = j;
    }
    while (i < text.length && /\s/.test(text[i])) i++;
    if (text[i] === '.') i++;
    else if (i < text.length) break;
  }
  return parts;
}

const NAME = String.raw`(?:"[^"]{1,128}"|[A-Za-z_$#@][\w$#@]{0,127})`;
const QUALIFIED = String.raw`(${NAME}(?:\s*\.\s*${NAME})?)`;
const TARGETS: [StatementKind, RegExp][] = [
  ['insert', new RegExp(String.raw`\bINSERT\s+INTO\s+${QUALIFIED}`, 'i')],
  ['merge', new RegExp(String.raw`\bMERGE\s+INTO\s+${QUALIFIED}`, 'i')],
  ['update', new RegExp(String.raw`\bUPDATE\s+${QUALIFIED}\s+(?:AS\s+)?(?:${NAME}\s+)?SET\b`, 'i')],
  ['delete', new RegExp(String.raw`\bDELETE\s+FROM\s+${QUALIFIED}`, 'i')],
];

function keyOf(name: string): string {
  const parts = splitQualifiedName(name);
  return parts.length === 2 ? `${parts[0]}.${parts[1]}` : `.${parts[0]}`;
}

/** The target of `INSERT INTO x` in a statement text (quotes removed, unquoted parts upper-cased). */
export function insertTargetOf(text: string | undefined): string | undefined {
  const m = text ? TARGETS[0][1].exec(text) : null;
  return m ? keyOf(m[1]) : undefined;
}

/** The statement's kind and the table it changes, from its text: the first DML keyword wins (a WITH … INSERT too). */
export function dmlOfText(text: string | undefined): { kind: StatementKind; target?: string } | undefined {
  if (!text) return undefined;
  let best: { kind: StatementKind; target: string; at: number } | undefined;
  for (const [kind, re] of TARGETS) {
    const m = re.exec(text);
    if (m && (!best || m.index < best.at)) best = { kind, target: keyOf(m[1]), at: m.index };
  }
  if (best) return { kind: best.kind, target: best.target };
  return /^\s*(?:WITH|SELECT|VALUES)\b/i.test(text) ? { kind: 'query' } : undefined;
}

/** "Statement Type:" of db2exfmt (Insert, Update, Delete, Merge, Select, …) or EXPLAIN_STATEMENT's type letter. */
function kindOfStatementType(type: string | undefined): StatementKind | undefined {
  const t = type?.trim().toUpperCase() ?? '';
  if (t.startsWith('INSERT') || t === 'I') return 'insert';
  if (t.startsWith('UPDATE') || t === 'U' || t === 'UC') return 'update';
  if (t.startsWith('DELETE') || t === 'D' || t === 'DC') return 'delete';
  if (t.startsWith('MERGE') || t === 'M') return 'merge';
  if (t.startsWith('SELECT') || t === 'S') return 'query';
  return undefined;
}

export function statementKindOf(type: string | undefined, text: string | undefined, dmls: PlanOperator[]): StatementKind {
  const fromText = dmlOfText(text)?.kind;
  if (fromText && fromText !== 'query') return fromText;
  const declared = kindOfStatementType(type);
  if (declared) return declared;
  if (fromText) return fromText;
  const first = dmls.find((op) => DML_OPERATORS.has(op.type));
  return first ? (first.type.toLowerCase() as StatementKind) : 'query';
}

const KIND_WORDS: Record<StatementKind, string> = { insert: 'INSERT', update: 'UPDATE', delete: 'DELETE', merge: 'MERGE', query: 'query' };

/** INSERT, UPDATE, DELETE, MERGE or "query", for sentences about the statement itself. */
export function statementWord(kind: StatementKind | undefined): string {
  return kind ? KIND_WORDS[kind] : 'statement';
}
