// Generates small application loaders (Java/JDBC, Python/ibm_db_dbi, JavaScript/ibm_db) that insert rows
// in loops, for the code-analysis throughput benchmark. Each file differs (table names, batch sizes) so no
// cache can serve one file's result for another.
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

function java(i) {
  return `package bench.loaders;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;

/** Generated loader ${i}. */
public class Loader${i} {
    private final Connection conn;

    public Loader${i}(Connection conn) {
        this.conn = conn;
    }

    public void loadOrders(List<Order> orders) throws Exception {
        conn.setAutoCommit(false);
        try (PreparedStatement ps = conn.prepareStatement(
                "INSERT INTO APP.ORDERS_${i} (CUSTOMER_ID, AMOUNT, NOTE) VALUES (?, ?, ?)")) {
            int n = 0;
            for (Order o : orders) {
                ps.setInt(1, o.customerId);
                ps.setBigDecimal(2, o.amount);
                ps.setString(3, o.note);
                ps.addBatch();
                if (++n % ${100 + (i % 900)} == 0) {
                    ps.executeBatch();
                    conn.commit();
                }
            }
            ps.executeBatch();
            conn.commit();
        }
    }

    public void loadEvents(List<String> names) throws Exception {
        try (Statement st = conn.createStatement()) {
            for (String name : names) {
                // literal SQL built per row: the pattern prefer-parameter-markers exists for
                st.executeUpdate("INSERT INTO APP.EVENTS_${i} (NAME) VALUES ('" + name + "')");
                conn.commit();
            }
        }
    }

    public void copyArchive() throws Exception {
        try (Statement st = conn.createStatement()) {
            st.executeUpdate("INSERT INTO APP.ARCHIVE_${i} (ID, AMOUNT) SELECT ID, AMOUNT FROM APP.ORDERS_${i} WHERE AMOUNT > ${i}");
        }
    }

    static final class Order {
        int customerId;
        java.math.BigDecimal amount;
        String note;
    }
}
`;
}

function python(i) {
  return `"""Generated loader ${i}."""
import ibm_db_dbi


def load_orders(conn, orders):
    cur = conn.cursor()
    for n, order in enumerate(orders):
        cur.execute(
            "INSERT INTO APP.ORDERS_${i} (CUSTOMER_ID, AMOUNT, NOTE) VALUES (?, ?, ?)",
            (order.customer_id, order.amount, order.note),
        )
        if n % ${100 + (i % 900)} == 0:
            conn.commit()
    conn.commit()


def load_events(conn, names):
    cur = conn.cursor()
    for name in names:
        cur.execute("INSERT INTO APP.EVENTS_${i} (NAME) VALUES ('%s')" % name)
        conn.commit()


def load_batch(conn, rows):
    cur = conn.cursor()
    cur.executemany("INSERT INTO APP.BATCH_${i} (A, B) VALUES (?, ?)", rows)
    conn.commit()
`;
}

function javascript(i) {
  return `// Generated loader ${i}.
const ibmdb = require('ibm_db');

async function loadOrders(conn, orders) {
  const stmt = conn.prepareSync('INSERT INTO APP.ORDERS_${i} (CUSTOMER_ID, AMOUNT, NOTE) VALUES (?, ?, ?)');
  for (const order of orders) {
    stmt.executeSync([order.customerId, order.amount, order.note]);
  }
  conn.commitTransactionSync();
}

function loadEvents(conn, names) {
  for (const name of names) {
    conn.querySync(\`INSERT INTO APP.EVENTS_${i} (NAME) VALUES ('\${name}')\`);
  }
}

function copyArchive(conn) {
  conn.querySync('INSERT INTO APP.ARCHIVE_${i} (ID, AMOUNT) SELECT ID, AMOUNT FROM APP.ORDERS_${i} WHERE AMOUNT > ${i}');
}

module.exports = { loadOrders, loadEvents, copyArchive, ibmdb };
`;
}

/** Writes `perLanguage` loaders of each language under `dir` (once); returns their paths. */
export function generateLoaders(dir, perLanguage) {
  const files = [];
  for (const [ext, make] of [['java', java], ['py', python], ['js', javascript]]) {
    const sub = join(dir, ext);
    mkdirSync(sub, { recursive: true });
    for (let i = 0; i < perLanguage; i++) {
      const file = join(sub, ext === 'java' ? `Loader${i}.java` : `loader_${i}.${ext}`);
      if (!existsSync(file)) writeFileSync(file, make(i));
      files.push(file);
    }
  }
  return files;
}
