// MyBatis's XML files, read as project evidence (cli/project-evidence.ts), never linted: a mapper XML file's <insert>
// statements, by qualified id, for the engine's index of mapper statements (engine/orm-entities.ts, beside the
// @Insert ones of languages/java-mybatis.ts), and mybatis-config.xml's default executor.
//
// MyBatis semantics followed (MyBatis 3, https://mybatis.org/mybatis-3/sqlmap-xml.html and
// https://mybatis.org/mybatis-3/configuration.html):
// - "Mapper XML Files": `<mapper namespace="com.acme.OrderMapper">` holds `<insert id="insertOrder">INSERT …</insert>`;
//   the statement's id is the namespace, a dot, then the id (the interface's qualified name and method when the
//   namespace is an interface: its method without annotation runs the XML statement). `#{…}` is a parameter marker
//   (`?`), `${…}` text spliced into the SQL. `<selectKey>` is a statement of its own run before or after the INSERT
//   (not part of its text); `<include refid="…"/>` inserts an `<sql id="…">` fragment of the file. `databaseId`
//   selects a statement for a database (the provider's name for Db2: one whose id says db2 wins over one without).
// - "Dynamic SQL": `<foreach>` writes one VALUES row per element of a collection (a multi-row INSERT: not one row per
//   call); `<if>`, `<trim>`, `<choose>`, `<where>`, `<set>`, `<bind>` make the text depend on the values.
// - "Configuration", settings: `<setting name="defaultExecutorType" value="BATCH"/>` makes every session BATCH.
//
// Recorded: an INSERT whose text is settled (plain text, CDATA, entities, fragments without `${…}`), `#{…}` as `?`;
// `<if>` and `<trim>` too (MyBatis Generator's insertSelective: `<trim prefix="(" suffix=")" suffixOverrides=",">
// <if test="id != null">ID,</if>…</trim>`), read with every `<if>` taken: one INSERT per call whichever columns it
// names. Not recorded (the call stays silent, as for an id no mapper declares): <foreach> (a multi-row INSERT), other
// dynamic SQL (<choose>, <where>, <set>, <bind>: not one text), `${…}` (a splice: its finding would belong in the XML
// file, which is not linted).

/** An <insert> of a mapper XML file: its local id, and its text when settled. */
export interface MapperXmlInsert {
  id: string;
  /** The SQL MyBatis prepares (`#{…}` as `?`); undefined when not settled (foreach, other dynamic SQL, `${…}`). */
  sql?: string;
  /** Why no text: `foreach` (multi-row), `dynamic`, `spliced`. */
  unsettled?: 'foreach' | 'dynamic' | 'spliced';
}

/** Whether a text looks like a MyBatis mapper XML file (a `<mapper namespace=…>` element). */
export const MAPPER_XML = /<mapper\s[^>]{0,500}?\bnamespace\s*=\s*["']/;

const MAX_FRAGMENT_DEPTH = 4;
const MAX_STATEMENTS = 2000;

/**
 * A mapper XML file's namespace and <insert> statements, the one for Db2 of each id (databaseId); undefined when the
 * text is no mapper file.
 */
export function mapperXmlInserts(text: string): { namespace: string; inserts: MapperXmlInsert[] } | undefined {
  if (!MAPPER_XML.test(text)) return undefined;
  const xml = text.replace(/<!--[\s\S]*?-->/g, (c) => ' '.repeat(c.length));
  const root = /<mapper\s([^>]*)>/.exec(xml);
  const namespace = root ? attribute(root[1], 'namespace') : undefined;
  if (!root || !namespace || !/^[\w$.]+$/.test(namespace)) return undefined;
  const fragments = new Map<string, string>();
  for (const m of xml.matchAll(/<sql\s([^>]*)>([\s\S]*?)<\/sql\s*>/g)) {
    const id = attribute(m[1], 'id');
    if (id) fragments.set(id, m[2]);
  }
  // id → the statements of that id with their databaseId.
  const byId = new Map<string, { databaseId?: string; insert: MapperXmlInsert }[]>();
  let count = 0;
  for (const m of xml.matchAll(/<insert\s([^>]*?)(?:\/>|>([\s\S]*?)<\/insert\s*>)/g)) {
    if (++count > MAX_STATEMENTS) break;
    const id = attribute(m[1], 'id');
    if (!id || m[2] === undefined) continue;
    const databaseId = attribute(m[1], 'databaseId');
    const list = byId.get(id) ?? [];
    list.push({ databaseId, insert: { id, ...settle(m[2], fragments, namespace) } });
    byId.set(id, list);
  }
  const inserts: MapperXmlInsert[] = [];
  for (const list of byId.values()) {
    // Another database's statement is not loaded for Db2; Db2's wins over one for any database.
    const forDb2 = list.filter((s) => s.databaseId !== undefined && /db2/i.test(s.databaseId));
    const chosen = forDb2.length > 0 ? forDb2 : list.filter((s) => s.databaseId === undefined);
    // (Two of one id is an error MyBatis reports: neither is read.)
    if (chosen.length === 1) inserts.push(chosen[0].insert);
  }
  return { namespace, inserts };
}

/** An attribute's value in a start tag's attributes (`id="x"`; `databaseId` is not `id`). */
function attribute(attributes: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attributes);
  const value = m ? (m[1] ?? m[2]).trim() : undefined;
  return value ? value : undefined;
}

/** The statement's text with fragments included and `#{…}` as `?`, or why it is not settled. */
function settle(body: string, fragments: ReadonlyMap<string, string>, namespace: string): Omit<MapperXmlInsert, 'id'> {
  let unsettled: MapperXmlInsert['unsettled'];
  const expand = (content: string, depth: number): string => {
    // The text written so far of each open <if> / <trim> (innermost last), below the statement's own.
    const open: { tag: string; attributes: string; out: string }[] = [{ tag: '', attributes: '', out: '' }];
    const write = (text: string) => (open[open.length - 1].out += text);
    // CDATA, a start or end tag, or text.
    for (const m of content.matchAll(/<!\[CDATA\[([\s\S]*?)\]\]>|<(\/?)([\w:-]+)([^>]*?)(\/?)>|[^<]+|</g)) {
      if (m[1] !== undefined) {
        write(m[1]);
        continue;
      }
      const tag = m[3];
      if (!tag) {
        write(decode(m[0]));
        continue;
      }
      if (tag === 'selectKey' || tag === 'property') continue;
      if (tag === 'include') {
        if (m[2] || depth >= MAX_FRAGMENT_DEPTH) continue;
        const refid = attribute(m[4], 'refid');
        const local = refid?.startsWith(`${namespace}.`) ? refid.slice(namespace.length + 1) : refid;
        const fragment = local !== undefined ? fragments.get(local) : undefined;
        if (fragment === undefined) unsettled ??= 'dynamic';
        else write(` ${expand(fragment, depth + 1)} `);
        continue;
      }
      if (tag === 'if' || tag === 'trim') {
        // Every <if> taken (the statement with all its optional columns, MyBatis Generator's insertSelective), each
        // <trim> applied to what it holds.
        if (m[5]) continue;
        if (!m[2]) open.push({ tag, attributes: m[4], out: '' });
        else if (open.length > 1 && open[open.length - 1].tag === tag) {
          const done = open.pop()!;
          write(done.tag === 'trim' ? trimmed(done.out, done.attributes) : done.out);
        } else unsettled ??= 'dynamic';
        continue;
      }
      if (tag === 'foreach') unsettled = 'foreach';
      else unsettled ??= 'dynamic';
    }
    if (open.length > 1) unsettled ??= 'dynamic';
    return open[0].out;
  };
  // <selectKey>…</selectKey>: a statement of its own.
  const text = expand(body.replace(/<selectKey\b[^>]*?(?:\/>|>[\s\S]*?<\/selectKey\s*>)/g, ' '), 0);
  if (unsettled) return { unsettled };
  if (text.includes('${')) return { unsettled: 'spliced' };
  return { sql: text.replace(/#\{[^{}]{0,200}\}/g, '?').trim() };
}

/** What a <trim> writes: its text with prefixOverrides / suffixOverrides taken off, prefix and suffix added (when any). */
function trimmed(text: string, attributes: string): string {
  let inner = text.trim();
  const overrides = (name: string) => (attributeRaw(attributes, name) ?? '').split('|').map((o) => o.trim()).filter((o) => o !== '');
  for (const o of overrides('prefixOverrides')) {
    if (inner.toUpperCase().startsWith(o.toUpperCase())) {
      inner = inner.slice(o.length).trim();
      break;
    }
  }
  for (const o of overrides('suffixOverrides')) {
    if (inner.toUpperCase().endsWith(o.toUpperCase())) {
      inner = inner.slice(0, inner.length - o.length).trim();
      break;
    }
  }
  if (inner === '') return ' ';
  return ` ${attributeRaw(attributes, 'prefix') ?? ''}${inner}${attributeRaw(attributes, 'suffix') ?? ''} `;
}

/** An attribute's value as written, entities decoded (`prefixOverrides="AND |OR "`: spaces kept). */
function attributeRaw(attributes: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attributes);
  return m ? decode(m[1] ?? m[2]) : undefined;
}

function decode(text: string): string {
  return text.replace(/&(?:lt|gt|amp|quot|apos|#(\d{1,7})|#x([\da-fA-F]{1,6}));/g, (e, dec?: string, hex?: string) => {
    if (dec !== undefined || hex !== undefined) {
      const code = dec !== undefined ? Number(dec) : parseInt(hex!, 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : e;
    }
    return { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&apos;': "'" }[e] ?? e;
  });
}

/** A MyBatis configuration file's name (mybatis-config.xml, mybatis/config.xml is not read; SqlMapConfig.xml). */
export const MYBATIS_CONFIG_FILE = /^(?:mybatis[\w.-]{0,100}|[\w-]{0,100}sql-?map-?config)\.xml$/i;

/** Whether a MyBatis configuration file sets `<setting name="defaultExecutorType" value="BATCH"/>`. */
export function mybatisConfigBatch(text: string): boolean {
  if (!/<configuration\b/.test(text) || !/defaultExecutorType/.test(text)) return false;
  const xml = text.replace(/<!--[\s\S]*?-->/g, ' ');
  for (const m of xml.matchAll(/<setting\s([^>]*?)\/?>/g)) {
    if (attribute(m[1], 'name') === 'defaultExecutorType' && /^batch$/i.test(attribute(m[1], 'value') ?? '')) return true;
  }
  return false;
}
