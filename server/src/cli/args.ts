// A small argv parser: `--flag value`, `--flag=value`, boolean flags, positional arguments.
import { plainLine } from '../output/escape';
import { nearest } from '../engine/spelling';

export class UsageError extends Error {}

export interface ParsedArgs {
  positional: string[];
  values: Map<string, string[]>;
  flags: Set<string>;
}

export function parseArgs(argv: string[], spec: { values: string[]; flags: string[] }): ParsedArgs {
  const out: ParsedArgs = { positional: [], values: new Map(), flags: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      out.positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || arg === '-') {
      out.positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    if (spec.flags.includes(name)) {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      out.flags.add(name);
    } else if (spec.values.includes(name)) {
      const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      out.values.set(name, [...(out.values.get(name) ?? []), value]);
    } else {
      const near = nearest(name, [...spec.values, ...spec.flags]);
      throw new UsageError(`unknown option --${plainLine(name)}${near ? `; did you mean --${near}?` : ''}`);
    }
  }
  return out;
}

export function single(args: ParsedArgs, name: string): string | undefined {
  const values = args.values.get(name);
  if (values && values.length > 1) throw new UsageError(`--${name} given more than once`);
  return values?.[0];
}

export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], name: string, fallback: T): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

/** Standard input held more than the reader's limit (it stopped reading there). */
export class InputTooLargeError extends Error {}

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** All of standard input; rejects with InputTooLargeError as soon as more than maxBytes arrived. */
  stdin(maxBytes?: number): Promise<string>;
  cwd: string;
  /** Whether standard output is a terminal (colours). */
  isTTY: boolean;
  /** False when standard input is a pipe or a file (`explain < plan.txt` reads it); undefined or true: a terminal. */
  stdinIsTTY?: boolean;
}
