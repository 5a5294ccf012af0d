// Lints host-language files through the real engine (Workspace + the tree-sitter code front end) and
// returns findings with 1-based positions, so tests can state rule ids and exact columns in host strings.
import type { ConfigFile } from '../../server/src/engine/config';
import { loadCodeFrontEnd, type TreeSitterCodeFrontEnd as CodeFrontEnd } from '../../server/src/code/frontend';
import type { FileModel } from '../../server/src/engine/types';
import { lintWorkspace, type Finding } from '../helpers/rule-tester';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A finding as the code tests state it (without its fix: the few code fixes are tested through lintWorkspace). */
export type CodeFinding = Omit<Finding, 'fix' | 'suppressed'>;

let frontEnd: CodeFrontEnd | undefined;

export async function codeFrontEnd(): Promise<CodeFrontEnd> {
  frontEnd ??= await loadCodeFrontEnd();
  return frontEnd;
}

export interface Linted {
  findings: CodeFinding[];
  models: Map<string, FileModel>;
}

/**
 * Lints files through the real engine with the tree-sitter code front end. Each rule's findings are kept
 * apart (the code tests state what each rule sees; test/engine/signal.test.ts tests the merging), and
 * literal rows count as bulk from 2 (bulkRowThreshold; a `config` may set it again).
 */
export async function lintCode(files: Record<string, string>, config?: ConfigFile): Promise<Linted> {
  const { findings, workspace } = lintWorkspace(files, { baseConfig: { bulkRowThreshold: 2 }, config, codeFrontEnd: await codeFrontEnd(), unmerged: true });
  return {
    findings: findings.map(({ fix: _fix, suppressed: _suppressed, ...finding }) => finding),
    models: new Map(workspace.paths().map((path) => [path, workspace.model(path)!])),
  };
}

/** `rule@line:col` strings of the findings of the given rules (all rules when none given), in order. */
export function brief(findings: CodeFinding[], rules?: string[]): string[] {
  return findings.filter((f) => !rules || rules.includes(f.rule)).map((f) => `${f.rule}@${f.line}:${f.column}`);
}

/** A JPA entity of APP.ORDERS with a SEQUENCE id (the Java ORM tests' loaders persist it). */
export const JPA_ORDER_ENTITY = `@Entity
@Table(name = "ORDERS", schema = "APP")
class Order {
    @Id @GeneratedValue(strategy = GenerationType.SEQUENCE) Long id;
    String item;
    Order(String item) { this.item = item; }
}
`;

/** A JPA loader of package demo persisting JPA_ORDER_ENTITY (declared in the same file) in a loop, committed once after it. */
export const JPA_LOADER = `package demo;

import jakarta.persistence.*;
import java.util.List;

${JPA_ORDER_ENTITY}
class Loader {
    @PersistenceContext EntityManager em;
    void load(List<String> items) {
        em.getTransaction().begin();
        for (String item : items) {
            em.persist(new Order(item));
        }
        em.getTransaction().commit();
    }
}
`;

/** The same loop in package com.acme.load, persisting the Order its import names (com.acme.model.Order, another file). */
export const JPA_IMPORTED_LOADER = `package com.acme.load;

import com.acme.model.Order;
import jakarta.persistence.EntityManager;

public class Loader {
    private final EntityManager em;
    void load(java.util.List<String> items) {
        em.getTransaction().begin();
        for (String item : items) {
            em.persist(new Order(item));
        }
        em.getTransaction().commit();
    }
}
`;

export const INSERT_RULES = ['prefer-parameter-markers', 'single-row-insert', 'no-autocommit', 'commit-per-row', 'prepare-in-loop'];

/** 1-based line and column of the n-th occurrence of `needle` in `text` (for readable expectations). */
export function posOf(text: string, needle: string, occurrence = 1): string {
  let at = -1;
  for (let i = 0; i < occurrence; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`"${needle}" occurs fewer than ${occurrence} times`);
  }
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  return `${line}:${at - before.lastIndexOf('\n')}`;
}

/**
 * A MyBatis project whose statements are in a mapper XML file (the usual layout): the interface's methods carry no
 * annotation, src/main/resources/com/acme/mapper/OrderMapper.xml holds them; the service calls the mapper in a loop.
 * `MYBATIS_XML_PROJECT` gives its files (a pom.xml at the top), the XML made of `inserts` (the <insert> elements).
 */
export const MYBATIS_XML_INTERFACE = `package com.acme.mapper;

import java.util.List;
import org.apache.ibatis.annotations.Mapper;

@Mapper
public interface OrderMapper {
    int insertOrder(Order o);
    int insertAll(List<Order> orders);
}
`;

export const MYBATIS_XML_SERVICE = `package com.acme.service;

import com.acme.mapper.OrderMapper;
import org.springframework.stereotype.Service;

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

/** The <insert> elements of the mapper XML file by default: one row per call, and a <foreach> of rows. */
export const MYBATIS_XML_INSERTS = `  <insert id="insertOrder" parameterType="com.acme.model.Order" useGeneratedKeys="true" keyProperty="id">
    INSERT INTO APP.ORDERS (ID, ITEM, QTY)
    VALUES (#{id}, #{item,jdbcType=VARCHAR}, <include refid="qty"/>)
  </insert>
  <insert id="insertAll">
    INSERT INTO APP.ORDERS (ID, ITEM, QTY) VALUES
    <foreach collection="list" item="o" separator=",">(#{o.id}, #{o.item}, #{o.qty})</foreach>
  </insert>`;

export const mybatisMapperXml = (inserts = MYBATIS_XML_INSERTS, namespace = 'com.acme.mapper.OrderMapper') => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE mapper PUBLIC "-//mybatis.org//DTD Mapper 3.0//EN" "https://mybatis.org/dtd/mybatis-3-mapper.dtd">
<mapper namespace="${namespace}">
  <sql id="qty"><![CDATA[ #{qty} ]]></sql>
${inserts}
</mapper>
`;

export const MYBATIS_XML_PROJECT = (extra: Record<string, string> = {}, inserts?: string): Record<string, string> => ({
  'pom.xml': '<project/>\n',
  'src/main/java/com/acme/mapper/OrderMapper.java': MYBATIS_XML_INTERFACE,
  'src/main/java/com/acme/service/OrderService.java': MYBATIS_XML_SERVICE,
  'src/main/resources/com/acme/mapper/OrderMapper.xml': mybatisMapperXml(inserts),
  ...extra,
});

/** A project folder on disk (a new temporary one, named from `prefix`) holding these files, by relative path. */
export function projectOnDisk(files: Record<string, string>, prefix = 'insertlint-project-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/**
 * A FastAPI project's database.py: a Db2 engine and the SessionLocal factory, made with `autoflush` as given (the
 * keyword left out when undefined, SQLAlchemy's default: on), and get_db for Depends.
 */
export const fastapiDatabase = (autoflush?: boolean): string => `from sqlalchemy import create_engine
from sqlalchemy.orm import sessionmaker

SQLALCHEMY_DATABASE_URL = "db2+ibm_db://user:pw@host:50000/SAMPLE"
engine = create_engine(SQLALCHEMY_DATABASE_URL)
SessionLocal = sessionmaker(autocommit=False, ${autoflush === undefined ? '' : `autoflush=${autoflush ? 'True' : 'False'}, `}bind=engine)


def get_db():
    db = SessionLocal()
    try:
        yield db
    finally:
        db.close()
`;

/**
 * A FastAPI project's crud.py that builds no session: loops that look a customer up and add an order on every pass,
 * one commit after the loop, with a session given as a parameter, by Depends(get_db) and from database.py's
 * SessionLocal(). Each add autoflushes where the sessions autoflush (SQLAlchemy's default).
 */
export const FASTAPI_CRUD = `from fastapi import Depends
from sqlalchemy.orm import Session

from . import models
from .database import SessionLocal, get_db


def load_orders(session: Session, rows):
    for row in rows:
        customer = session.query(models.Customer).filter(models.Customer.code == row.code).first()
        session.add(models.Order(id=row.id, customer_id=customer.id))
    session.commit()


def import_orders(rows, db_session: Session = Depends(get_db)):
    for row in rows:
        customer = db_session.query(models.Customer).filter_by(code=row.code).first()
        db_session.add(models.Order(id=row.id, customer_id=customer.id))
    db_session.commit()


def nightly(rows):
    with SessionLocal() as session:
        for row in rows:
            customer = session.query(models.Customer).filter_by(code=row.code).one()
            session.add(models.Order(id=row.id, customer_id=customer.id))
        session.commit()
`;

/** A Django project's settings naming IBM's Db2 backend (ibm_db_django) as the default database's ENGINE. */
export const DJANGO_DB2_SETTINGS = `INSTALLED_APPS = ["shop"]

DATABASES = {
    "default": {
        "ENGINE": "ibm_db_django",
        "NAME": "SAMPLE",
        "HOST": "db2.example.com",
        "PORT": "50000",
    }
}
`;

/** A Django app's models module (shop/models.py): Order maps Django's default table, shop_order. */
export const DJANGO_MODELS = `from django.db import models


class Order(models.Model):
    item = models.CharField(max_length=40)
    qty = models.IntegerField()
`;

/**
 * A JDBC loader that gets its connection from a DataSource (`dataSource.getConnection()`, or `receiver` as given)
 * and runs one INSERT per row in a loop, switching no autocommit: no-autocommit reports it unless the project's pool
 * configuration turns autocommit off (spring.datasource.hikari.auto-commit=false …).
 */
export const jdbcDataSourceLoader = (receiver = 'dataSource', declaration = '    private final DataSource dataSource;\n', setup = ''): string => `package demo;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.List;
import javax.sql.DataSource;

public class Loader {
${declaration}
    public Loader(DataSource dataSource) { this.dataSource = dataSource; }
${setup}
    public void load(List<Integer> ids) throws Exception {
        try (Connection c = ${receiver}.getConnection(); PreparedStatement st = c.prepareStatement("INSERT INTO APP.ORDERS (ID) VALUES (?)")) {
            for (Integer id : ids) {
                st.setInt(1, id);
                st.executeUpdate();
            }
        }
    }
}
`;

/**
 * A Spring @Configuration class of package demo.config whose @Bean method builds the project's DataSource with `body`
 * (the method's statements, returning it), importing HikariCP's, Commons DBCP2's and Tomcat JDBC's pool classes as
 * `imports` lists them: a pool set up in another file than the loader (jdbcDataSourceLoader).
 */
export const poolConfigClass = (body: string, imports: string[] = ['com.zaxxer.hikari.HikariConfig', 'com.zaxxer.hikari.HikariDataSource']): string => `package demo.config;

${imports.map((i) => `import ${i};\n`).join('')}import javax.sql.DataSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration
public class DataSourceConfig {
    @Bean
    public DataSource dataSource() {
${body.replace(/^/gm, '        ')}
    }
}
`;
