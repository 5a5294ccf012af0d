// Members that files include (COBOL `COPY name`, `EXEC SQL INCLUDE name`): a copybook or DCLGEN member is
// found among the files the engine holds by its name without extension, nearest folder first, and a file is
// read again when a member it includes appears, changes or goes (its loops and SQL may come from there).

/** The member name of a path: its file name without extension, upper case (`cpy/CSDB2RWY.cpy` → `CSDB2RWY`). */
export function memberName(path: string): string {
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return (dot > 0 ? base.slice(0, dot) : base).toUpperCase();
}

function folderOf(path: string): string {
  return path.slice(0, Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'), 0));
}

const NOTHING_STALE: readonly string[] = [];

/** Copybook extensions come before programs of the same name. */
const COPYBOOK = /\.(?:cpy|dcl|copy)$/i;

export class MemberIndex {
  private readonly byName = new Map<string, Set<string>>();
  /** Member name -> files that include it. */
  private readonly includers = new Map<string, Set<string>>();
  private readonly stale = new Set<string>();

  /** A file was added, changed (`present`) or removed: files that include its member name are stale. */
  changed(path: string, present: boolean): void {
    const name = memberName(path);
    let paths = this.byName.get(name);
    if (present) {
      if (!paths) this.byName.set(name, (paths = new Set()));
      paths.add(path);
    } else paths?.delete(path);
    for (const includer of this.includers.get(name) ?? []) if (includer !== path) this.stale.add(includer);
  }

  /** What each file included when last read (track undoes it before recording the new list). */
  private readonly included = new Map<string, readonly string[]>();

  /** Records what a file includes (after each read). */
  track(path: string, members: readonly string[] | undefined): void {
    // Only the sets of what the file included before: a loop over every member name per file read was
    // members × files in a run (and work for nothing for the scripts and code files that include none).
    const before = this.included.get(path);
    if (before) for (const member of before) this.includers.get(member)?.delete(path);
    if (!members || members.length === 0) {
      if (before) this.included.delete(path);
      return;
    }
    this.included.set(path, members);
    for (const member of members) {
      let set = this.includers.get(member);
      if (!set) this.includers.set(member, (set = new Set()));
      set.add(path);
    }
  }

  /** Files to read again, once each. */
  takeStale(): readonly string[] {
    // Asked before every file's rules: no list made when there is nothing to read again (the usual case).
    if (this.stale.size === 0) return NOTHING_STALE;
    const out = [...this.stale];
    this.stale.clear();
    return out;
  }

  /** The file of member `name` nearest to `from` (same folder, then a sibling folder, then anywhere). */
  find<T>(name: string, from: string, get: (path: string) => T | undefined): T | undefined {
    const paths = [...(this.byName.get(name.toUpperCase()) ?? [])].filter((p) => p !== from);
    if (paths.length === 0) return undefined;
    const here = folderOf(from);
    const parent = folderOf(here);
    const rank = (p: string) => (folderOf(p) === here ? 0 : folderOf(folderOf(p)) === parent ? 1 : 2) * 2 + (COPYBOOK.test(p) ? 0 : 1);
    paths.sort((a, b) => rank(a) - rank(b) || a.length - b.length || a.localeCompare(b));
    return get(paths[0]);
  }
}
