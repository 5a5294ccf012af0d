// The order of versioned migration scripts, from their names: a DDL statement in a later step of the same
// sequence than an INSERT was not in force when that INSERT ran (an index added by the 6.2.1 upgrade costs the
// rows copied by the 6.0.0.1 upgrade nothing). Only names that say they are steps are read; others stay unordered.

/** A migration script's sequence (what its name says before the version) and its version. */
interface MigrationStep {
  sequence: string;
  version: number[];
}

/**
 * `flowable.db2.upgradestep.6001.to.6002.engine.sql` → sequence `flowable.db2.upgradestep.`, version [6001];
 * `upgrade_7.1_to_7.2.sql` → `upgrade_`, [7, 1]; Flyway `V2_1__add_index.sql` → its folder + `V`, [2, 1].
 * Undefined for any other name.
 */
function migrationStep(path: string): MigrationStep | undefined {
  const cached = steps.get(path);
  if (cached !== undefined || steps.has(path)) return cached;
  if (steps.size >= 10_000) steps.clear();
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const name = path.slice(slash + 1);
  let step: MigrationStep | undefined;
  const flyway = /^V(\d+(?:[._]\d+)*)__/.exec(name);
  const named = /^(.*?(?:upgrade|migrat)[a-z]*[^0-9]*?)(\d+(?:[._]\d+)*)/i.exec(name);
  if (flyway) step = { sequence: `${path.slice(0, slash + 1)}V`, version: versionOf(flyway[1]) };
  else if (named) step = { sequence: named[1].toLowerCase(), version: versionOf(named[2]) };
  steps.set(path, step);
  return step;
}

const steps = new Map<string, MigrationStep | undefined>();

function versionOf(text: string): number[] {
  return text.split(/[._]/).map(Number);
}

/** True when the file at `later` is a step of the same migration sequence as `earlier`, with a higher version. */
export function laterMigrationStep(later: string, earlier: string): boolean {
  const a = migrationStep(later);
  const b = migrationStep(earlier);
  if (!a || !b || a.sequence !== b.sequence) return false;
  for (let i = 0; i < Math.max(a.version.length, b.version.length); i++) {
    const x = a.version[i] ?? 0;
    const y = b.version[i] ?? 0;
    if (x !== y) return x > y;
  }
  return false;
}
