// A Java file's package and imports, and the qualified names a class it names may have: what the ORM readers
// (java-jpa.ts for entity classes, java-mybatis.ts for mapper interfaces) settle another file's class by.

export interface JavaImports {
  package?: string;
  /** Single-type imports by simple name (`Order` → `com.acme.model.Order`). */
  single: Map<string, string>;
  /** Wildcard imports' packages (`import com.acme.model.*;` → `com.acme.model`). */
  wildcards: string[];
}

export const JAVA_PACKAGE = /^[ \t]*package[ \t]+([\w.]{1,300})[ \t]*;/m;
const IMPORT = /^[ \t]*import[ \t]+([\w.]{1,300}?)(\.\*)?[ \t]*;/gm;

export function javaImports(source: string): JavaImports {
  const single = new Map<string, string>();
  const wildcards: string[] = [];
  for (const m of source.matchAll(IMPORT)) {
    if (m[2]) wildcards.push(m[1]);
    else single.set(m[1].slice(m[1].lastIndexOf('.') + 1), m[1]);
  }
  return { package: JAVA_PACKAGE.exec(source)?.[1], single, wildcards };
}

/**
 * The qualified names a class the file names by `name` may have: the class a single-type import names; else the one
 * of the file's package (`name` alone in the default package) and of each wildcard import's.
 */
export function qualifiedCandidates(name: string, imports: JavaImports): string[] {
  const imported = imports.single.get(name);
  if (imported) return [imported];
  return [imports.package ? `${imports.package}.${name}` : name, ...imports.wildcards.map((w) => `${w}.${name}`)];
}
