// MyBatis (languages/java-mybatis.ts): a mapper method annotated @Insert called in a loop is one INSERT per call under
// the default (SIMPLE) executor; a BATCH session, a Spring SqlSessionTemplate built with BATCH, a <script> with
// <foreach> are not; ${…} is text spliced into the SQL; an interface of another file is found through the engine's
// index (engine/orm-entities.ts, OrmEntity.mapper).
import * as assert from 'node:assert/strict';
import { relative } from 'node:path';
import { brief, codeFrontEnd, INSERT_RULES, JPA_ORDER_ENTITY, lintCode, MYBATIS_XML_PROJECT, MYBATIS_XML_SERVICE, mybatisMapperXml, posOf, projectOnDisk } from './helpers';
import { mapperXmlInserts, mybatisConfigBatch } from '../../server/src/code/mybatis-xml';
import { lintPaths } from '../../server/src/cli/lint-run';
import { changedNames, dependentFiles, fileNames, schemaFacts } from '../../server/src/lsp/model-queries';
import { lintWorkspace } from '../helpers/rule-tester';
import { growthRatio } from '../robustness/support';

const MAPPER = `package com.acme.mapper;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Mapper;

@Mapper
public interface OrderMapper {
    @Insert("INSERT INTO APP.ORDERS (ID, ITEM) VALUES (#{id}, #{item})")
    int insertOrder(Order o);

    @Insert({"INSERT INTO APP.ORDER_LOG (ID, NOTE)", "VALUES (#{id}, #{note})"})
    int insertLog(Order o);

    @Insert({"<script>", "INSERT INTO APP.ORDERS (ID, ITEM) VALUES",
             "<foreach collection='list' item='o' separator=','>(#{o.id}, #{o.item})</foreach>", "</script>"})
    int insertAll(java.util.List<Order> orders);

    @Insert("INSERT INTO APP.\${table} (ID, ITEM) VALUES (#{id}, '\${item}')")
    int insertInto(Order o);
}
`;

/** A service of the same file as the mapper, calling `call` in a loop over orders. */
const sameFile = (body: string, extra = '') => `${MAPPER.replace('public interface', 'interface')}
class OrderService {
    private final OrderMapper orderMapper;
${extra}
    void load(java.util.List<Order> orders) {
${body}
    }
}
`;

describe('code: MyBatis mapper inserts (Java)', () => {
  it('an @Insert mapper method called in a loop: single-row-insert with the MyBatis advice', async () => {
    const text = sameFile('        for (Order o : orders) {\n            orderMapper.insertOrder(o);\n        }');
    const { findings } = await lintCode({ 'OrderService.java': text });
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(text, 'orderMapper.insertOrder')}`]);
    const message = findings.find((f) => f.rule === 'single-row-insert')!.message;
    assert.match(message, /^One INSERT INTO APP\.ORDERS call per row in the for-each loop at line \d+\./);
    assert.match(message, /openSession\(ExecutorType\.BATCH\)/);
    assert.match(message, /flushStatements\(\)/);
    assert.match(message, /<foreach>/);
  });

  it('a String[] @Insert is its parts joined with spaces; a mapper got from session.getMapper(…) is read too', async () => {
    const text = sameFile(
      '        try (SqlSession session = factory.openSession()) {\n            OrderMapper m = session.getMapper(OrderMapper.class);\n            for (Order o : orders) m.insertLog(o);\n            session.commit();\n        }',
      '    private final org.apache.ibatis.session.SqlSessionFactory factory;',
    );
    const { findings } = await lintCode({ 'OrderService.java': text });
    assert.deepEqual(brief(findings, ['single-row-insert']), [`single-row-insert@${posOf(text, 'm.insertLog')}`]);
    assert.match(findings.find((f) => f.rule === 'single-row-insert')!.message, /INSERT INTO APP\.ORDER_LOG call/);
  });

  it('a session opened with ExecutorType.BATCH in the method is silent', async () => {
    const text = sameFile(
      '        try (SqlSession s = factory.openSession(ExecutorType.BATCH)) {\n            OrderMapper m = s.getMapper(OrderMapper.class);\n            for (Order o : orders) m.insertOrder(o);\n            s.commit();\n        }',
      '    private final org.apache.ibatis.session.SqlSessionFactory factory;',
    );
    const { findings } = await lintCode({ 'OrderService.java': text });
    assert.deepEqual(brief(findings, INSERT_RULES), []);
  });

  it('a Spring SqlSessionTemplate built with ExecutorType.BATCH in the file is silent', async () => {
    const text = sameFile(
      '        for (Order o : orders) orderMapper.insertOrder(o);',
      '    SqlSessionTemplate batch() { return new SqlSessionTemplate(sqlSessionFactory, ExecutorType.BATCH); }',
    );
    const { findings } = await lintCode({ 'OrderService.java': text });
    assert.deepEqual(brief(findings, INSERT_RULES), []);
  });

  it('a <script> with <foreach> is a multi-row insert, not a single-row one', async () => {
    const text = sameFile('        for (java.util.List<Order> chunk : chunks(orders)) {\n            orderMapper.insertAll(chunk);\n        }');
    const { findings } = await lintCode({ 'OrderService.java': text });
    assert.deepEqual(brief(findings, INSERT_RULES), []);
  });

  it('${…} is text spliced into the SQL: prefer-parameter-markers on it', async () => {
    const text = sameFile('        for (Order o : orders) {\n            orderMapper.insertInto(o);\n        }');
    const { findings } = await lintCode({ 'OrderService.java': text });
    const markers = findings.filter((f) => f.rule === 'prefer-parameter-markers');
    assert.equal(markers.length, 1, JSON.stringify(findings.map((f) => [f.rule, f.message])));
    assert.equal(`${markers[0].line}:${markers[0].column}`, posOf(text, 'orderMapper.insertInto'));
    assert.match(markers[0].message, /^Values spliced into INSERT INTO <\$\{table\}> through an interpolated string: \$\{item\}\./);
    assert.match(markers[0].message, /SQL-injection risk/);
  });

  it('a method of an interface that is no MyBatis mapper (no @Insert) is no INSERT', async () => {
    const text = `import org.apache.ibatis.session.SqlSession;
interface OrderGateway {
    int insertOrder(Order o);
}
class OrderService {
    private final OrderGateway gateway;
    void load(java.util.List<Order> orders) {
        for (Order o : orders) gateway.insertOrder(o);
    }
}
`;
    const { findings, models } = await lintCode({ 'OrderService.java': text });
    assert.deepEqual(brief(findings, INSERT_RULES), []);
    assert.deepEqual(models.get('OrderService.java')!.code?.executions.flatMap((e) => e.statements), []);
  });

  it('the mapper interface in another file (import, package): the engine names its statement', async () => {
    const service = `package com.acme.service;

import com.acme.mapper.OrderMapper;
import org.apache.ibatis.session.SqlSession;

public class OrderService {
    private final OrderMapper orderMapper;
    void load(java.util.List<Order> orders) {
        for (Order o : orders) {
            orderMapper.insertOrder(o);
        }
    }
}
`;
    const { findings } = await lintCode({ 'src/com/acme/mapper/OrderMapper.java': MAPPER, 'src/com/acme/service/OrderService.java': service });
    const reported = findings.filter((f) => f.rule === 'single-row-insert');
    assert.deepEqual(reported.map((f) => `${f.file}@${f.line}:${f.column}`), [`src/com/acme/service/OrderService.java@${posOf(service, 'orderMapper.insertOrder')}`]);
    assert.match(reported[0].message, /^One INSERT INTO APP\.ORDERS call per row/);
    assert.match(reported[0].message, /ExecutorType\.BATCH/);
  });

  it("editor: a change of a mapper's @Insert re-publishes the files calling the mapper, a comment does not", async () => {
    const service = `package com.acme.service;

import com.acme.mapper.OrderMapper;
import org.apache.ibatis.session.SqlSession;

public class OrderService {
    private final OrderMapper orderMapper;
    void load(java.util.List<Order> orders) {
        for (Order o : orders) orderMapper.insertOrder(o);
    }
}
`;
    const read = async (mapper: string) => (await lintCode({ 'mapper/OrderMapper.java': mapper, 'service/OrderService.java': service })).models;
    const before = await read(MAPPER);
    const files = [{ key: 'service/OrderService.java', names: fileNames(before.get('service/OrderService.java')) }];
    const changed = async (mapper: string) => changedNames(schemaFacts(before.get('mapper/OrderMapper.java')), schemaFacts((await read(mapper)).get('mapper/OrderMapper.java')));
    assert.deepEqual(dependentFiles(files, await changed(MAPPER.replace('APP.ORDERS (ID, ITEM)', 'APP.ORDERS2 (ID, ITEM)'))), ['service/OrderService.java']);
    assert.deepEqual([...(await changed(MAPPER.replace('int insertOrder(Order o);', 'int insertOrder(Order o); // one row')))], []);
  });

  it('a service method calling the mapper once, called in a loop of another file: the loop is lent (through save())', async () => {
    const service = `package com.acme.service;

import com.acme.mapper.OrderMapper;
import org.apache.ibatis.session.SqlSession;

public class OrderService {
    private final OrderMapper orderMapper;
    public void save(Order o) {
        orderMapper.insertOrder(o);
    }
}
`;
    const controller = `package com.acme.web;

import com.acme.service.OrderService;

public class OrderController {
    private final OrderService orderService;
    void importAll(java.util.List<Order> orders) {
        for (Order o : orders) orderService.save(o);
    }
}
`;
    const { findings } = await lintCode({ 'mapper/OrderMapper.java': MAPPER, 'service/OrderService.java': service, 'web/OrderController.java': controller });
    const reported = findings.filter((f) => f.rule === 'single-row-insert');
    assert.deepEqual(reported.map((f) => `${f.file}@${f.line}:${f.column}`), [`service/OrderService.java@${posOf(service, 'orderMapper.insertOrder')}`]);
    assert.match(reported[0].message, /^One INSERT INTO APP\.ORDERS call per row in the for-each loop at OrderController\.java:8 \(through save\(\)\)/);
  });

  it('sqlSession.insert("<namespace>.<id>", o) in a loop: the statement of the mapper of another file', async () => {
    const service = `package com.acme.service;

import org.apache.ibatis.session.SqlSession;

public class OrderService {
    private final SqlSession sqlSession;
    void load(java.util.List<Order> orders) {
        for (Order o : orders) {
            sqlSession.insert("com.acme.mapper.OrderMapper.insertLog", o);
        }
    }
}
`;
    const { findings } = await lintCode({ 'src/com/acme/mapper/OrderMapper.java': MAPPER, 'src/com/acme/service/OrderService.java': service });
    const reported = findings.filter((f) => f.rule === 'single-row-insert');
    assert.deepEqual(reported.map((f) => `${f.file}@${f.line}:${f.column}`), [`src/com/acme/service/OrderService.java@${posOf(service, 'sqlSession.insert')}`]);
    assert.match(reported[0].message, /INSERT INTO APP\.ORDER_LOG call/);
  });

  it('another file\'s mapper called in a BATCH session, or a statement id no mapper declares: silent', async () => {
    const service = `package com.acme.service;

import com.acme.mapper.OrderMapper;
import org.apache.ibatis.session.*;

public class OrderService {
    private final SqlSessionFactory factory;
    private final SqlSession sqlSession;
    void load(java.util.List<Order> orders) {
        try (SqlSession s = factory.openSession(ExecutorType.BATCH)) {
            OrderMapper m = s.getMapper(OrderMapper.class);
            for (Order o : orders) m.insertOrder(o);
            s.commit();
        }
    }
    void other(java.util.List<Order> orders) {
        for (Order o : orders) sqlSession.insert("com.acme.mapper.OrderMapper.missing", o);
    }
}
`;
    const { findings } = await lintCode({ 'src/com/acme/mapper/OrderMapper.java': MAPPER, 'src/com/acme/service/OrderService.java': service });
    assert.deepEqual(brief(findings, INSERT_RULES), []);
  });

  it('a Spring service handed its mapper names no MyBatis: its loop is read by the mapper of another file; an ObjectMapper is no mapper', async () => {
    const service = `package com.acme.service;

import com.acme.mapper.OrderMapper;
import com.fasterxml.jackson.databind.ObjectMapper;

@Service
public class OrderService {
    private final OrderMapper orderMapper;
    private final ObjectMapper objectMapper = new ObjectMapper();
    void load(java.util.List<Order> orders) {
        for (Order o : orders) {
            orderMapper.insertOrder(o);
        }
    }
    void dump(java.util.List<Order> orders) throws Exception {
        for (Order o : orders) System.out.println(objectMapper.writeValueAsString(o));
    }
}
`;
    const { findings, models } = await lintCode({ 'src/com/acme/mapper/OrderMapper.java': MAPPER, 'src/com/acme/service/OrderService.java': service });
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(service, 'orderMapper.insertOrder')}`]);
    assert.deepEqual(models.get('src/com/acme/service/OrderService.java')!.code!.executions.map((e) => e.connection?.name), ['orderMapper']);
    // Without a mapper that declares the statement (no mapper file, no mapper XML on disk), silent.
    const alone = await lintCode({ 'src/com/acme/service/OrderService.java': service });
    assert.deepEqual(brief(alone.findings, INSERT_RULES), []);
  });

  it('a file that does not name MyBatis: an @Insert interface of its own is no mapper (MyBatis\'s annotation is not imported)', async () => {
    const text = `interface OrderMapper {
    @Insert("INSERT INTO APP.ORDERS (ID, ITEM) VALUES (#{id}, #{item})")
    int insertOrder(Order o);
}
class OrderService {
    private final OrderMapper orderMapper;
    void load(java.util.List<Order> orders) {
        for (Order o : orders) orderMapper.insertOrder(o);
    }
}
`;
    const { findings, models } = await lintCode({ 'OrderService.java': text });
    assert.deepEqual(brief(findings, INSERT_RULES), []);
    assert.deepEqual((models.get('OrderService.java')!.code?.executions ?? []).filter((e) => e.statements.length > 0), []);
  });

  it('a long method of a MyBatis file (every call read) is read in time linear in its calls', async function () {
    this.timeout(120_000);
    const frontEnd = await codeFrontEnd();
    // One method with n loops, each calling the mapper and a few other methods: every call of the file is asked
    // about (the mapper's type, the method's BATCH), once per method and name, not once per call.
    const make = (n: number) => {
      const loops = Array.from({ length: n }, (_, i) => `        for (Order o : orders) { orderMapper.insertOrder(o); log.debug("row " + i${i}); list${i % 50}.add(o); }\n`).join('');
      return sameFile(loops);
    };
    const run = (text: string) => {
      const { findings } = lintWorkspace({ 'OrderService.java': text }, { codeFrontEnd: frontEnd, unmerged: true });
      assert.ok(findings.some((f) => f.rule === 'single-row-insert'));
    };
    const { ratio, smallMs, largeMs } = growthRatio(make, run, 100);
    assert.ok(ratio < 24, `8× the calls took ${ratio.toFixed(1)}× the time (${smallMs.toFixed(0)} ms → ${largeMs.toFixed(0)} ms): super-linear`);
  });

  describe('Spring Boot configuration of the executor (application.properties / .yml, read on disk)', () => {
    const SERVICE = `package com.acme.service;

import com.acme.mapper.OrderMapper;
import org.springframework.stereotype.Service;

// Inserts through the MyBatis mapper OrderMapper (a file that does not name MyBatis is not read for mapper calls).
@Service
public class OrderService {
    private final OrderMapper orderMapper;
    void load(java.util.List<Order> orders) {
        for (Order o : orders) {
            orderMapper.insertOrder(o);
        }
    }
}
`;
    const project = (config: Record<string, string>) =>
      projectOnDisk({ 'pom.xml': '<project/>', 'src/main/java/com/acme/mapper/OrderMapper.java': MAPPER, 'src/main/java/com/acme/service/OrderService.java': SERVICE, ...config }, 'insertlint-mybatis-');
    const rules = async (dir: string) => (await lintPaths({ paths: ['.'], cwd: dir })).diagnostics.map((d) => `${d.rule}@${relative(dir, d.file).replace(/\\/g, '/')}`);

    it('mybatis.executor-type=batch in application.properties: silent; =simple: reported', async () => {
      assert.deepEqual(await rules(project({ 'src/main/resources/application.properties': 'spring.datasource.url=jdbc:db2://h:50000/D\nmybatis.executor-type=batch\n' })), []);
      assert.deepEqual(await rules(project({ 'src/main/resources/application.properties': 'spring.datasource.url=jdbc:db2://h:50000/D\nmybatis.executor-type=simple\n' })), ['single-row-insert@src/main/java/com/acme/service/OrderService.java']);
    });

    it('mybatis: configuration: default-executor-type: BATCH in application.yml: silent', async () => {
      const yml = 'spring:\n  datasource:\n    url: jdbc:db2://h:50000/D\nmybatis:\n  configuration:\n    default-executor-type: BATCH\n';
      assert.deepEqual(await rules(project({ 'src/main/resources/application.yml': yml })), []);
      assert.deepEqual(await rules(project({ 'src/main/resources/application.yml': yml.replace('BATCH', 'SIMPLE') })), ['single-row-insert@src/main/java/com/acme/service/OrderService.java']);
    });

    it('mybatis-config.xml (resources, resources/mybatis) with defaultExecutorType BATCH: silent; REUSE: reported', async () => {
      const config = (executor: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE configuration PUBLIC "-//mybatis.org//DTD Config 3.0//EN" "https://mybatis.org/dtd/mybatis-3-config.dtd">\n<configuration><settings><setting name="defaultExecutorType" value="${executor}"/></settings></configuration>\n`;
      assert.deepEqual(await rules(project({ 'src/main/resources/mybatis-config.xml': config('BATCH') })), []);
      assert.deepEqual(await rules(project({ 'src/main/resources/mybatis/mybatis-config.xml': config('BATCH') })), []);
      assert.deepEqual(await rules(project({ 'src/main/resources/mybatis-config.xml': config('REUSE') })), ['single-row-insert@src/main/java/com/acme/service/OrderService.java']);
    });

    it('a file that sets only MyBatis\'s executor is no Hibernate configuration: a JPA loop flushed once stays unreported', async () => {
      const loader = `package com.acme.load;

import jakarta.persistence.*;

${JPA_ORDER_ENTITY}
public class Loader {
    private final EntityManager em;
    void load(java.util.List<String> items) {
        em.getTransaction().begin();
        for (String item : items) em.persist(new Order(item));
        em.getTransaction().commit();
    }
}
`;
      const dir = projectOnDisk({ 'pom.xml': '<project/>', 'src/main/java/com/acme/load/Loader.java': loader, 'src/main/java/com/acme/Boot.java': '// mybatis\nclass Boot {}\n', 'src/main/resources/application.properties': 'mybatis.executor-type=batch\n' }, 'insertlint-mybatis-');
      assert.deepEqual(await rules(dir), []);
    });
  });
  describe('mapper XML files (read on disk with the project, not linted)', () => {
    const SERVICE_PATH = 'src/main/java/com/acme/service/OrderService.java';
    const project = (extra: Record<string, string> = {}, inserts?: string) => projectOnDisk(MYBATIS_XML_PROJECT(extra, inserts), 'insertlint-mybatis-xml-');
    const run = async (dir: string, paths = ['.']) => (await lintPaths({ paths, cwd: dir })).diagnostics.filter((d) => INSERT_RULES.includes(d.rule));
    /** Each finding's rule, file and offset. */
    const where = (dir: string, ds: { rule: string; file: string; span: { start: number } }[]) => ds.map((d) => `${d.rule}@${relative(dir, d.file).replace(/\\/g, '/')}:${d.span.start}`);
    const CONFIG = (executor: string) => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE configuration PUBLIC "-//mybatis.org//DTD Config 3.0//EN" "https://mybatis.org/dtd/mybatis-3-config.dtd">
<configuration>
  <settings>
    <setting name="mapUnderscoreToCamelCase" value="true"/>
    <!-- <setting name="defaultExecutorType" value="BATCH"/> once -->
    <setting name="defaultExecutorType" value="${executor}"/>
  </settings>
</configuration>
`;

    it('an interface method without annotation, its <insert> in resources/…/OrderMapper.xml, called in a loop: single-row-insert naming the XML statement', async () => {
      const dir = project();
      const found = await run(dir);
      assert.deepEqual(where(dir, found), [`single-row-insert@${SERVICE_PATH}:${MYBATIS_XML_SERVICE.indexOf('orderMapper.insertOrder')}`]);
      assert.match(found[0].message, /^One INSERT INTO APP\.ORDERS call per row in the for-each loop at line \d+\./);
      assert.match(found[0].message, /openSession\(ExecutorType\.BATCH\)/);
      assert.match(found[0].message, /<foreach>/);
      // Only the service is linted (the mapper's project is found from it): the same.
      assert.deepEqual(where(dir, await run(dir, [SERVICE_PATH])), [`single-row-insert@${SERVICE_PATH}:${MYBATIS_XML_SERVICE.indexOf('orderMapper.insertOrder')}`]);
    });

    it('the XML file beside the interface (src/main/java/…/OrderMapper.xml), or in resources/mapper/: found too', async () => {
      for (const at of ['src/main/java/com/acme/mapper/OrderMapper.xml', 'src/main/resources/mapper/order/OrderMapper.xml']) {
        const files = MYBATIS_XML_PROJECT({ [at]: mybatisMapperXml() });
        delete files['src/main/resources/com/acme/mapper/OrderMapper.xml'];
        const dir = projectOnDisk(files, 'insertlint-mybatis-xml-');
        assert.deepEqual(where(dir, await run(dir)), [`single-row-insert@${SERVICE_PATH}:${MYBATIS_XML_SERVICE.indexOf('orderMapper.insertOrder')}`], at);
      }
    });

    it('MyBatis Generator\'s insertSelective (<trim> of <if>s) called in a loop: reported, with every column', async () => {
      const selective = `  <insert id="insertOrder" parameterType="com.acme.model.Order">
    insert into APP.ORDERS
    <trim prefix="(" suffix=")" suffixOverrides=","><if test="id != null">ID,</if><if test="item != null">ITEM,</if></trim>
    <trim prefix="values (" suffix=")" suffixOverrides=","><if test="id != null">#{id},</if><if test="item != null">#{item},</if></trim>
  </insert>`;
      const dir = project({}, selective);
      const found = await run(dir);
      assert.deepEqual(where(dir, found), [`single-row-insert@${SERVICE_PATH}:${MYBATIS_XML_SERVICE.indexOf('orderMapper.insertOrder')}`]);
      assert.match(found[0].message, /^One INSERT INTO APP\.ORDERS call per row/);
    });

    it('a <foreach> of rows in the <insert> is a multi-row INSERT: silent (the single-row one beside it is reported)', async () => {
      const chunked = '    void loadChunks(java.util.List<java.util.List<Order>> chunks) {\n        for (java.util.List<Order> chunk : chunks) {\n            orderMapper.insertAll(chunk);\n        }\n    }\n}\n';
      const service = MYBATIS_XML_SERVICE.replace(/\}\n$/, chunked);
      const dir = project({ [SERVICE_PATH]: service });
      assert.deepEqual(where(dir, await run(dir)), [`single-row-insert@${SERVICE_PATH}:${service.indexOf('orderMapper.insertOrder')}`]);
    });

    it('mybatis-config.xml with <setting name="defaultExecutorType" value="BATCH"/>: silent; SIMPLE: reported', async () => {
      let dir = project({ 'src/main/resources/mybatis-config.xml': CONFIG('BATCH') });
      assert.deepEqual(where(dir, await run(dir)), []);
      dir = project({ 'src/main/resources/mybatis/mybatis-config.xml': CONFIG('BATCH') });
      assert.deepEqual(where(dir, await run(dir)), []);
      dir = project({ 'src/main/resources/mybatis-config.xml': CONFIG('SIMPLE') });
      assert.equal((await run(dir)).length, 1);
    });

    it('sqlSession.insert("<namespace>.<id>", o) in a loop: the XML statement, with no interface at all', async () => {
      const service = `package com.acme.service;

import org.apache.ibatis.session.SqlSession;

public class OrderService {
    private final SqlSession sqlSession;
    void load(java.util.List<Order> orders) {
        for (Order o : orders) {
            sqlSession.insert("orders.insertOrder", o);
        }
    }
}
`;
      const dir = projectOnDisk({ 'pom.xml': '<project/>\n', [SERVICE_PATH]: service, 'src/main/resources/mapper/orders.xml': mybatisMapperXml(undefined, 'orders') }, 'insertlint-mybatis-xml-');
      const found = await run(dir);
      assert.deepEqual(where(dir, found), [`single-row-insert@${SERVICE_PATH}:${service.indexOf('sqlSession.insert')}`]);
      assert.match(found[0].message, /^One INSERT INTO APP\.ORDERS call per row/);
    });

    it('${…} in the XML statement, or a statement of another database only: not read (silent)', async () => {
      const spliced = '  <insert id="insertOrder">INSERT INTO APP.${table} (ID, ITEM) VALUES (#{id}, #{item})</insert>';
      let dir = project({}, spliced);
      assert.deepEqual(where(dir, await run(dir)), []);
      dir = project({}, '  <insert id="insertOrder" databaseId="mysql">INSERT INTO ORDERS (ID, ITEM) VALUES (#{id}, #{item})</insert>');
      assert.deepEqual(where(dir, await run(dir)), []);
    });

    it('an XML file that is no mapper (logback.xml, a Spring context) is not read for statements; no XML file is linted', async () => {
      const dir = project({ 'src/main/resources/logback.xml': '<configuration><insert id="insertOrder">INSERT INTO X VALUES (1)</insert></configuration>\n' }, '  <update id="other">UPDATE APP.ORDERS SET QTY = 0</update>');
      const result = await lintPaths({ paths: ['.'], cwd: dir });
      assert.deepEqual(result.diagnostics.filter((d) => d.file.endsWith('.xml')), []);
      assert.deepEqual(where(dir, result.diagnostics.filter((d) => INSERT_RULES.includes(d.rule))), []);
    });

    it('reads a mapper file: namespace, ids, #{…} as ?, CDATA, entities, fragments, <selectKey>; databaseId for Db2 wins', () => {
      const xml = mybatisMapperXml(`  <insert id="a" databaseId="mysql">INSERT INTO M VALUES (#{x})</insert>
  <insert id="a" databaseId="db2">
    <selectKey keyProperty="id" resultType="long" order="BEFORE">VALUES NEXT VALUE FOR APP.SEQ</selectKey>
    INSERT INTO APP.T (ID, NOTE) VALUES (#{id}, <![CDATA[ '<none>' ]]>) -- a &lt; b
  </insert>
  <insert id="b">INSERT INTO APP.T (ID) <choose><when test="x">VALUES (#{x})</when><otherwise>VALUES (0)</otherwise></choose></insert>
  <insert id="c">INSERT INTO APP.T (ID, QTY) VALUES (#{id}, <include refid="com.acme.mapper.OrderMapper.qty"/>)</insert>
  <!-- <insert id="d">INSERT INTO APP.T VALUES (1)</insert> -->`);
      const read = mapperXmlInserts(xml);
      assert.equal(read?.namespace, 'com.acme.mapper.OrderMapper');
      assert.deepEqual(read?.inserts.map((i) => [i.id, i.sql?.replace(/\s+/g, ' ') ?? i.unsettled]), [
        ['a', "INSERT INTO APP.T (ID, NOTE) VALUES (?, '<none>' ) -- a < b"],
        ['b', 'dynamic'],
        ['c', 'INSERT INTO APP.T (ID, QTY) VALUES (?, ? )'],
      ]);
      // MyBatis Generator's insertSelective: every <if> taken, each <trim> applied.
      const selective = mapperXmlInserts(mybatisMapperXml(`  <insert id="insertSelective" parameterType="com.acme.model.Order">
    insert into APP.ORDERS
    <trim prefix="(" suffix=")" suffixOverrides=",">
      <if test="id != null">ID,</if>
      <if test="item != null">ITEM,</if>
    </trim>
    <trim prefix="values (" suffix=")" suffixOverrides=",">
      <if test="id != null">#{id,jdbcType=INTEGER},</if>
      <if test="item != null">#{item,jdbcType=VARCHAR},</if>
    </trim>
  </insert>
  <insert id="unclosed">INSERT INTO APP.T (ID) <if test="x">VALUES (#{x})</insert>`));
      assert.deepEqual(selective?.inserts.map((i) => [i.id, i.sql?.replace(/\s+/g, ' ') ?? i.unsettled]), [
        ['insertSelective', 'insert into APP.ORDERS (ID, ITEM) values (?, ?)'],
        ['unclosed', 'dynamic'],
      ]);
      assert.equal(mapperXmlInserts('<configuration><insert id="x">INSERT INTO T VALUES (1)</insert></configuration>'), undefined);
      assert.equal(mybatisConfigBatch(CONFIG('BATCH')), true);
      assert.equal(mybatisConfigBatch(CONFIG('REUSE')), false);
    });
  });
});
