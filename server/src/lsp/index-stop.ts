// When the workspace index stops before the end of the workspace (insertlint.index.maxFiles, maxTotalMegabytes), the
// user is told in a message box, not only in the log: findings that depend on the files not read (tables defined
// there, inserts made there) may be missing. Once per outcome: indexing again with the same cap in force says nothing
// new (no message on every "Lint workspace" or settings change). One message, not a file-skipped notice per file left
// out: there may be thousands. A raised cap indexes the workspace again (language-server.ts asks `raised`).
import { countText } from '../engine/count-text';
import type { ServerSettings } from './settings';

/** Why an indexing pass stopped early. */
export interface IndexStop {
  /** The setting whose cap stopped the pass. */
  setting: 'maxFiles' | 'maxTotalMegabytes';
  /** The cap in force: files, or bytes of source text. */
  limit: number;
  /** Files the pass went through before it stopped. */
  indexed: number;
  /** Files to lint in the workspace folders. */
  total: number;
}

/** The cap of `setting` in the settings (files, or bytes). */
function capOf(settings: ServerSettings, setting: IndexStop['setting']): number {
  return setting === 'maxFiles' ? settings.index.maxFiles : settings.index.maxTotalBytes;
}

/** What the message box says: how many files were read of how many, the setting to raise, what may be missing. */
export function indexStopMessage(stop: IndexStop): string {
  const name = `insertlint.index.${stop.setting}`;
  const left = stop.total - stop.indexed;
  const cap = stop.setting === 'maxFiles' ? `${name} is ${stop.limit}` : `it read ${Math.round(stop.limit / 1048576)} MB of source text, ${name}`;
  return (
    `InsertLint indexed ${countText(stop.indexed)} of the workspace's ${countText(stop.total)} files and stopped: ${cap}. ` +
    `Findings that depend on ${left === 1 ? 'the other file' : `the other ${countText(left)} files`} (tables defined there, inserts made there) may be missing. ` +
    `Raise ${name} to index them (the workspace is indexed again at once).`
  );
}

export class IndexStopNotice {
  /** How the last pass ended: its stop, or undefined when it read the whole workspace. */
  private last: IndexStop | undefined;

  constructor(private readonly show: (message: string) => void) {}

  /** An indexing pass ended (not cancelled): `stop` when it stopped early. Said unless the last pass stopped so too. */
  passEnded(stop: IndexStop | undefined): void {
    const same = stop !== undefined && this.last?.setting === stop.setting && this.last.limit === stop.limit;
    this.last = stop;
    if (stop && !same) this.show(indexStopMessage(stop));
  }

  /** Whether the settings raise the cap that stopped the last pass: the workspace is to be indexed again. */
  raised(settings: ServerSettings): boolean {
    return this.last !== undefined && settings.index.enabled && capOf(settings, this.last.setting) > this.last.limit;
  }
}
