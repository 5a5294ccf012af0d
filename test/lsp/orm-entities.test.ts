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

  it("an edit of the repository interface's flush mode hint re-publishes the service (not open) whose loop calls the method", async () => {
    const repository = `package com.acme.repo;

import com.acme.model.Order;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.QueryHints;
import jakarta.persistence.QueryHint;

public interface OrderRepository extends JpaRepository<Order, Long> {
    boolean existsByItem(String item);
}
`;
    const importer = `package com.acme.load;

import com.acme.model.Order;
import com.acme.repo.OrderRepository;
import org.springframework.transaction.annotation.Transactional;

public class Importer {
    private final OrderRepository orders;
    @Transactional
    void load(java.util.List<String> items) {
        for (String item : items) {
            if (orders.existsByItem(item)) continue;
            orders.save(new Order(item));
        }
    }
}
`;
    for (const dir of ['model', 'repo', 'load']) mkdirSync(join(ws.dir, 'spring', dir), { recursive: true });
    writeFileSync(join(ws.dir, 'spring', 'model', 'Order.java'), ORDER);
    writeFileSync(join(ws.dir, 'spring', 'repo', 'OrderRepository.java'), repository);
    writeFileSync(join(ws.dir, 'spring', 'load', 'Importer.java'), importer);
    const s = await ws.start({ debounceMs: 0 });
    await s.waitIdle();
    const repo = uriOf(join(ws.dir, 'spring', 'repo', 'OrderRepository.java'));
    const service = uriOf(join(ws.dir, 'spring', 'load', 'Importer.java'));
    const autoflushed = () => (s.diagnostics.get(service) ?? []).some((d) => d.code === 'single-row-insert' && /orders\.existsByItem\(item\) runs on every pass/.test(d.message));
    await s.waitFor('Importer.java reported', autoflushed);
    s.open(repo, repository, 'java');
    const editor = s.editor(repo, repository);
    editor.edit('    boolean existsByItem', '    @QueryHints(@QueryHint(name = "org.hibernate.flushMode", value = "COMMIT"))\n    boolean existsByItem');
    await s.waitFor('Importer.java re-published without it', () => !(s.diagnostics.get(service) ?? []).some((d) => d.code === 'single-row-insert'));
    editor.edit('value = "COMMIT"', 'value = "AUTO"');
    await s.waitFor('Importer.java re-published with it again', autoflushed);
  });
});
