// A loop in one file that calls a method of another file's class, on a variable declared with that class's type or
// an interface it implements (DayTrader's populate loop calling ts.createQuote(…), TradeDirect.createQuote
// preparing, inserting one row and committing): the engine lends the loop to the method (engine/cross-file.ts).
import * as assert from 'node:assert/strict';
import { brief, codeFrontEnd, INSERT_RULES, lintCode, posOf } from './helpers';
import { lintWorkspace } from '../helpers/rule-tester';

const CALLER = `public class Populate {
  @Inject TradeServices ts;
  private List<String> names;
  public void buildDB(int max) throws Exception {
    for (int i = 0; i < max; i++) {
      ts.createQuote("s:" + i, "S" + i);
      names.add("x");
    }
  }
}
`;
const CALLEE = `public class TradeDirect implements TradeServices {
  private static final String SQL = "insert into quoteejb (symbol, companyName) VALUES (?, ?)";
  public void createQuote(String symbol, String name) throws Exception {
    Connection conn = getConn();
    PreparedStatement stmt = conn.prepareStatement(SQL);
    stmt.setString(1, symbol);
    stmt.setString(2, name);
    stmt.executeUpdate();
    conn.commit();
  }
  public void add(String x) throws Exception {
    getConn().prepareStatement("insert into other (a) values (?)").executeUpdate();
  }
}
`;

describe('code: loops of another file lent to the methods they call', () => {
  it("Java: a method called in another file's loop on a variable of an interface its class implements", async () => {
    const { findings } = await lintCode({ 'Populate.java': CALLER, 'TradeDirect.java': CALLEE });
    assert.deepEqual(brief(findings, INSERT_RULES), [
      `prepare-in-loop@${posOf(CALLEE, 'conn.prepareStatement')}`,
      `single-row-insert@${posOf(CALLEE, 'stmt.executeUpdate')}`,
      `commit-per-row@${posOf(CALLEE, 'conn.commit')}`,
    ]);
    const single = findings.find((f) => f.rule === 'single-row-insert')!;
    assert.match(single.message, /^One INSERT INTO QUOTEEJB call per row in the for loop at Populate\.java:5 \(through createQuote\(\)\)\./);
    // The INSERT's own method sees one row per call: the batch advice says where a batch can be built.
    assert.match(single.message, /addBatch\(\) per row and executeBatch\(\) every few hundred rows, in a method that receives the rows together \(a list\): the loop calls createQuote\(\) once per row, and each call can only send its own\.$/);
  });

  it("follows the callee's own calls down a few levels (DayTrader's buy() creating an order and, through completeOrder(), a holding)", async () => {
    const caller = CALLER.replace('ts.createQuote("s:" + i, "S" + i);', 'ts.buy("u:" + i, "s:" + i);');
    const callee = `public class TradeDirect implements TradeServices {
  public void buy(String user, String symbol) throws Exception {
    createOrder(user, symbol);
    this.completeOrder(user);
  }
  private void completeOrder(String user) throws Exception {
    createHolding(user);
  }
  public void createOrder(String user, String symbol) throws Exception {
    PreparedStatement stmt = getConn().prepareStatement("insert into orderejb (userid, symbol) values (?, ?)");
    stmt.setString(1, user);
    stmt.executeUpdate();
  }
  private void createHolding(String user) throws Exception {
    PreparedStatement stmt = getConn().prepareStatement("insert into holdingejb (userid) values (?)");
    stmt.setString(1, user);
    stmt.executeUpdate();
  }
  public void lonely(String user) throws Exception {
    PreparedStatement stmt = getConn().prepareStatement("insert into other (userid) values (?)");
    stmt.setString(1, user);
    stmt.executeUpdate();
  }
}
`;
    const { findings } = await lintCode({ 'Populate.java': caller, 'TradeDirect.java': callee });
    const single = findings.filter((f) => f.rule === 'single-row-insert').map((f) => f.message.replace(/\. .*/, ''));
    // One loop, one finding, whatever the calls that lead to each INSERT: named through the call they share.
    assert.deepEqual(single, ['One INSERT call into each of ORDEREJB and HOLDINGEJB per row in the for loop at Populate.java:5 (through buy())']);
    // The rows reach the INSERT one call of buy() at a time, the method the loop calls.
    for (const f of findings.filter((f) => f.rule === 'single-row-insert')) assert.match(f.message, /the loop calls buy\(\) once per row, and each call can only send its own\.$/);
  });

  it("one single-row-insert for a lent loop whose method inserts into two tables (DayTrader's register(): an account and its profile), both prepares a part of it", async () => {
    const caller = CALLER.replace('ts.createQuote("s:" + i, "S" + i);', 'ts.register("u:" + i);');
    const callee = `public class TradeDirect implements TradeServices {
  public void register(String user) throws Exception {
    Connection conn = getConn();
    PreparedStatement stmt = conn.prepareStatement("insert into accountejb (userid) values (?)");
    stmt.setString(1, user);
    stmt.executeUpdate();
    stmt.close();
    stmt = conn.prepareStatement("insert into accountprofileejb (userid) values (?)");
    stmt.setString(1, user);
    stmt.executeUpdate();
  }
}
`;
    const merged = lintWorkspace({ 'Populate.java': caller, 'TradeDirect.java': callee }, { codeFrontEnd: await codeFrontEnd() });
    const singles = merged.workspace.diagnostics('TradeDirect.java').filter((d) => d.rule === 'single-row-insert');
    assert.equal(singles.length, 1);
    assert.match(singles[0].message, /^One INSERT call into each of ACCOUNTEJB and ACCOUNTPROFILEEJB per row in the for loop at Populate\.java:5 \(through register\(\)\)\. Each row pays/);
    assert.deepEqual(singles[0].mergedRules, ['prepare-in-loop']);
    assert.equal(singles[0].related?.filter((r) => r.message.startsWith('also prepare-in-loop')).length, 2, 'both prepares');
    assert.deepEqual(merged.findings.filter((f) => f.file === 'TradeDirect.java').map((f) => `${f.rule}@${f.line}`), [`single-row-insert@${posOf(callee, 'stmt.executeUpdate').split(':')[0]}`]);
  });

  it("reaches the commit helper the method calls (DayTrader's register() ending with commit(conn)): one commit-per-row per loop", async () => {
    const caller = CALLER.replace('ts.createQuote("s:" + i, "S" + i);', 'ts.register("u:" + i);');
    const callee = `public class TradeDirect implements TradeServices {
  private boolean inSession;
  public void register(String user) throws Exception {
    Connection conn = getConn();
    PreparedStatement stmt = conn.prepareStatement("insert into accountejb (userid) values (?)");
    stmt.setString(1, user);
    stmt.executeUpdate();
    if (inGlobalTxn()) {
      txn.commit();
    } else {
      commit(conn);
    }
  }
  private void commit(Connection conn) throws Exception {
    if (!inSession && conn != null) {
      conn.commit();
    }
  }
}
`;
    const { findings } = await lintCode({ 'Populate.java': caller, 'TradeDirect.java': callee });
    const commits = findings.filter((f) => f.rule === 'commit-per-row');
    assert.equal(commits.length, 1, JSON.stringify(commits.map((f) => f.line)));
    assert.match(commits[0].message, /^Commit on every pass of the for loop at Populate\.java:5 \(through register\(\)\) that inserts into ACCOUNTEJB\./);
    // register() cannot count rows across calls: the commit moves to the caller's loop.
    assert.match(commits[0].message, /The loop calls register\(\) once per row and each call commits: leave the commit to the caller, which can commit every 1000 rows or so with a counter \(if \(\+\+n % 1000 == 0\)\) and once after the loop\.$/);
    // One remedy (a method that takes the rows together): shown as a part of single-row-insert's finding on the INSERT.
    const merged = lintWorkspace({ 'Populate.java': caller, 'TradeDirect.java': callee }, { baseConfig: { bulkRowThreshold: 2 }, codeFrontEnd: await codeFrontEnd() });
    assert.deepEqual(merged.findings.filter((f) => f.file === 'TradeDirect.java' && f.severity === 'warning').map((f) => `${f.rule}@${f.line}`), [`single-row-insert@${posOf(callee, 'stmt.executeUpdate').split(':')[0]}`]);
    const [single] = merged.workspace.diagnostics('TradeDirect.java').filter((d) => d.rule === 'single-row-insert');
    assert.ok(single.mergedRules?.includes('commit-per-row'), JSON.stringify(single.mergedRules));
    // The helper alone (no commit in register itself) is reached too.
    const helperOnly = callee.replace(/    if \(inGlobalTxn\(\)\) \{\n      txn\.commit\(\);\n    \} else \{\n      commit\(conn\);\n    \}\n/, '    commit(conn);\n');
    assert.notEqual(helperOnly, callee);
    const viaHelper = (await lintCode({ 'Populate.java': caller, 'TradeDirect.java': helperOnly })).findings.filter((f) => f.rule === 'commit-per-row');
    // On the call of the helper in register(): the helper's own commit line serves every loop that reaches it.
    assert.deepEqual(brief(viaHelper), [`commit-per-row@${posOf(helperOnly, 'commit(conn);')}`]);
    assert.match(viaHelper[0].message, /\(through register\(\), then commit\(\)\) that inserts into ACCOUNTEJB/);
    // DayTrader's buy(): the global transaction commits under two conditions, else the connection through the
    // helper: the finding names the plainer path, the helper's call (the global one runs in one processing mode only).
    const twoPhase = callee.replace('      txn.commit();\n', '      if (!inSession && twoPhase) {\n        txn.commit();\n      }\n');
    assert.notEqual(twoPhase, callee);
    const plainer = (await lintCode({ 'Populate.java': caller, 'TradeDirect.java': twoPhase })).findings.filter((f) => f.rule === 'commit-per-row');
    assert.deepEqual(brief(plainer), [`commit-per-row@${posOf(twoPhase, 'commit(conn);')}`]);
  });

  it("DayTrader's populate loops each commit through the one commit helper: a finding per loop, on each method's call of it", async () => {
    const caller = `public class Populate {
  @Inject TradeServices ts;
  public void buildDB(int quotes, int users) throws Exception {
    for (int i = 0; i < quotes; i++) {
      ts.createQuote("s:" + i);
    }
    for (int i = 0; i < users; i++) {
      ts.register("uid:" + i);
      for (int j = 0; j < i % 5 + 20; j++) {
        ts.buy("uid:" + i, "s:" + j);
      }
    }
  }
}
`;
    const callee = `public class TradeDirect implements TradeServices {
  private boolean inSession;
  public void createQuote(String symbol) throws Exception {
    Connection conn = getConn();
    PreparedStatement stmt = conn.prepareStatement("insert into quoteejb (symbol) values (?)");
    stmt.setString(1, symbol);
    stmt.executeUpdate();
    commit(conn);
  }
  public void register(String user) throws Exception {
    Connection conn = getConn();
    PreparedStatement stmt = conn.prepareStatement("insert into accountejb (userid) values (?)");
    stmt.setString(1, user);
    stmt.executeUpdate();
    commit(conn);
  }
  public void buy(String user, String symbol) throws Exception {
    Connection conn = getConn();
    createOrder(conn, user, symbol);
    commit(conn);
  }
  private void createOrder(Connection conn, String user, String symbol) throws Exception {
    PreparedStatement stmt = conn.prepareStatement("insert into orderejb (userid, symbol) values (?, ?)");
    stmt.setString(1, user);
    stmt.executeUpdate();
  }
  public QuoteDataBean getQuote(String symbol) throws Exception {
    Connection conn = getConn();
    commit(conn);
    return null;
  }
  private void commit(Connection conn) throws Exception {
    if (!inSession && conn != null) {
      conn.commit();
    }
  }
}
`;
    const { findings } = await lintCode({ 'Populate.java': caller, 'TradeDirect.java': callee });
    const commits = findings.filter((f) => f.rule === 'commit-per-row');
    assert.deepEqual(brief(commits), [1, 2, 3].map((n) => `commit-per-row@${posOf(callee, 'commit(conn);', n)}`));
    assert.deepEqual(
      commits.map((f) => f.message.replace(/ that inserts into (\w+)\..*/, ' $1')),
      [
        'Commit on every pass of the for loop at Populate.java:4 (through createQuote(), then commit()) QUOTEEJB',
        'Commit on every pass of the for loop at Populate.java:7 (through register(), then commit()) ACCOUNTEJB',
        'Commit on every pass of the for loop at Populate.java:9 (through buy(), then commit()) ORDEREJB',
      ],
    );
  });

  it('reads a service layer that touches no JDBC for its loops, when it holds a data-access type (OrderDao dao)', async () => {
    const service = `public class OrderService {
  private final OrderDao dao;
  public void importAll(List<Order> orders) {
    for (Order o : orders) dao.insert(o);
  }
}
`;
    const daoFile = `public class OrderDao {
  public void insert(Order o) throws Exception {
    PreparedStatement ps = conn.prepareStatement("INSERT INTO APP.ORDERS (ID) VALUES (?)");
    ps.setLong(1, o.id);
    ps.executeUpdate();
  }
}
`;
    const { findings, models } = await lintCode({ 'OrderService.java': service, 'OrderDao.java': daoFile });
    assert.equal(models.get('OrderService.java')!.leftOut, undefined);
    assert.deepEqual(brief(findings, ['single-row-insert']), [`single-row-insert@${posOf(daoFile, 'ps.executeUpdate')}`]);
    // A class with no such field is still left out before it is parsed.
    const plain = await lintCode({ 'Util.java': 'public class Util { static int twice(int x) { return 2 * x; } }\n' });
    assert.match(plain.models.get('Util.java')!.leftOut!, /^no Db2 access found/);
  });

  it('not on a method name alone: names.add(…) on a List lends nothing to TradeDirect.add; nor without the caller', async () => {
    const alone = await lintCode({ 'TradeDirect.java': CALLEE });
    assert.deepEqual(brief(alone.findings, INSERT_RULES), []);
    const untyped = await lintCode({ 'Populate.java': CALLER.replace('@Inject TradeServices ts;', '@Inject Object ts;'), 'TradeDirect.java': CALLEE });
    assert.deepEqual(brief(untyped.findings, INSERT_RULES), []);
  });
});
