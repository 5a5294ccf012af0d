// Manual check, not a unit test: every db2exfmt text of the folders given (e.g. ../shared/corpus/exfmt) pasted
// wrapped, quoted in a mail reply, or both, in the common ways (test/explain/helpers/quote-paste.ts), and read
// back: counts the values read wrong (wrongValues: a value that is neither the one of the text as written nor
// missing) and the values refused, per way of pasting. The target is no wrong value.
// Build and run: npx esbuild test/explain/helpers/paste-corpus.ts --bundle --platform=node --outfile=/tmp/paste-corpus.js && node /tmp/paste-corpus.js [--verbose] DIR...
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseExfmt } from '../../../server/src/explain/exfmt';
import type { ExfmtDocument } from '../../../server/src/explain/model';
import { wrapPaste, WRAP_MODES, wrongDocumentValues } from './wrap-paste';
import { quotePaste, QUOTE_STYLES, type QuoteStep } from './quote-paste';

function files(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((n) => files(join(path, n)));
}

interface Paste {
  name: string;
  paste: (text: string) => string;
}

/** The ways of pasting measured: wrapped alone, quoted alone, quoted once and twice with a wrap before or after. */
export function pasteWays(): Paste[] {
  const ways: Paste[] = [];
  const widths = [60, 64, 68, 72, 76, 78, 80, 100, 132];
  for (const width of widths) for (const mode of WRAP_MODES) ways.push({ name: `wrap ${width} ${mode}`, paste: (t) => wrapPaste(t, width, mode) });
  ways.push({ name: 'quote', paste: (t) => quotePaste(t, [{ style: 'wrap-then-quote', prefix: '> ', width: 100000, mode: 'words' }]) });
  for (const style of QUOTE_STYLES) {
    for (const width of widths) {
      for (const mode of WRAP_MODES) {
        for (const bareEmptyLines of [false, true]) {
          const step: QuoteStep = { style, prefix: '> ', width, mode, bareEmptyLines };
          ways.push({ name: `${style} ${width} ${mode}${bareEmptyLines ? ' bare-empty' : ''}`, paste: (t) => quotePaste(t, [step]) });
        }
      }
    }
  }
  for (const first of QUOTE_STYLES) {
    for (const second of QUOTE_STYLES) {
      for (const prefix of ['> ', '>'] as const) {
        for (const mode of WRAP_MODES) {
          for (const [w1, w2] of [[76, 72], [72, 76], [80, 80], [72, 72]]) {
            const steps: QuoteStep[] = [
              { style: first, prefix: '> ', width: w1, mode, bareEmptyLines: true },
              { style: second, prefix, width: w2, mode, bareEmptyLines: true },
            ];
            ways.push({ name: `${first} ${w1} then ${second} ${w2} "${prefix}" ${mode}`, paste: (t) => quotePaste(t, steps) });
          }
        }
      }
    }
  }
  return ways;
}

/** How many values of `got` are wrong, and how many the text as written has that `got` lacks (refused or lost). */
export function compare(truth: ExfmtDocument, got: ExfmtDocument): { wrong: string[]; missing: number } {
  const wrong = wrongDocumentValues(truth, got);
  const count = (d: ExfmtDocument) =>
    Object.keys(d.header.fields).length +
    d.statements.reduce((n, s) => n + (s.originalText ? 1 : 0) + (s.optimizedText ? 1 : 0) + s.diagnostics.length + (s.plan?.operators.length ?? 0), 0);
  return { wrong, missing: Math.max(0, count(truth) - count(got)) };
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const verbose = args.includes('--verbose');
  const texts = args
    .filter((a) => !a.startsWith('--'))
    .flatMap(files)
    .filter((f) => /\.txt$/.test(f))
    .map((f) => ({ f, text: readFileSync(f, 'utf8') }));
  const ways = pasteWays();
  let wrongTotal = 0;
  let pastes = 0;
  const byFamily = new Map<string, { wrong: number; pastes: number; missing: number }>();
  for (const { f, text } of texts) {
    const truth = parseExfmt(text);
    for (const way of ways) {
      const got = parseExfmt(way.paste(text));
      const { wrong, missing } = compare(truth, got);
      pastes++;
      wrongTotal += wrong.length;
      const family = way.name.replace(/ \d+/g, '').replace(/ (cut-chars|cut-columns-trimmed|cut-columns|words-columns|words)/, '');
      const fam = byFamily.get(family) ?? { wrong: 0, pastes: 0, missing: 0 };
      fam.wrong += wrong.length;
      fam.pastes++;
      fam.missing += missing;
      byFamily.set(family, fam);
      if (wrong.length && verbose) console.log(`${f} [${way.name}]: ${wrong.slice(0, 5).join('; ')}`);
    }
  }
  for (const [family, n] of [...byFamily].sort()) console.log(`${family.padEnd(60)} pastes ${String(n.pastes).padStart(5)}  wrong ${String(n.wrong).padStart(5)}  missing ${n.missing}`);
  console.log(`${texts.length} texts, ${ways.length} ways, ${pastes} pastes: ${wrongTotal} wrong values`);
}
