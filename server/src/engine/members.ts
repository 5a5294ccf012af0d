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

  /** Records what a file includes (after each read). */
  track(path: string, members: readonly string[] | undefined): void {
    for (const set of this.includers.values()) set.delete(path);
    for (const member of members ?? []) {
      let set = this.includers.get(member);
      if (!set) this.includers.set(member, (set = new Set()));
      set.add(path);
    }
  }

  /** Files to read again, once each. */
  takeStale(): string[] {
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
