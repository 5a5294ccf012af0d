// The language server and ORM entity classes of other files (engine/orm-entities.ts): an edit of Order.java's
// @GeneratedValue or @Table re-publishes Loader.java, which persists Order entities in a loop (lsp/model-queries.ts:
// the entity's facts under its class, the loader mentioning the class it inserts).
import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempWorkspace, uriOf } from './harness';
import { JPA_IMPORTED_LOADER } from '../code/helpers';

const ORDER = `package com.acme.model;

import jakarta.persistence.*;

@Entity
@Table(name = "ORDERS", schema = "APP")
public class Order {
    @Id @GeneratedValue(strategy = GenerationType.SEQUENCE) Long id;
    String item;
}
`;

const LOADER = JPA_IMPORTED_LOADER;

describe('language server: ORM entities of other files', function () {
  this.timeout(60000);
  const ws = tempWorkspace('insertlint-ws-orm-');

  it("an edit of the entity's id strategy and table re-publishes the loader (not open) that persists it", async () => {
    mkdirSync(join(ws.dir, 'model'));
    mkdirSync(join(ws.dir, 'load'));
    writeFileSync(join(ws.dir, 'model', 'Order.java'), ORDER);
    writeFileSync(join(ws.dir, 'load', 'Loader.java'), LOADER);
    const s = await ws.start({ debounceMs: 0 });
    await s.waitIdle();
    const order = uriOf(join(ws.dir, 'model', 'Order.java'));
    const loader = uriOf(join(ws.dir, 'load', 'Loader.java'));
    const single = () => (s.diagnostics.get(loader) ?? []).filter((d) => d.code === 'single-row-insert');
    assert.deepEqual(single(), []);
    s.open(order, ORDER, 'java');
    const editor = s.editor(order, ORDER);
    editor.edit('GenerationType.SEQUENCE', 'GenerationType.IDENTITY');
    await s.waitFor('Loader.java re-published with the IDENTITY finding', () => single().some((d) => /^One INSERT INTO APP\.ORDERS call per row/.test(d.message)));
    editor.edit('"ORDERS"', '"ORDERS2"');
    await s.waitFor('Loader.java re-published with the new table', () => single().some((d) => /^One INSERT INTO APP\.ORDERS2 call per row/.test(d.message)));
    editor.edit('GenerationType.IDENTITY', 'GenerationType.SEQUENCE');
    await s.waitFor('Loader.java re-published without it', () => single().length === 0);
  });
});
