// Lints host-language files through the real engine (Workspace + the tree-sitter code front end) and
// returns findings with 1-based positions, so tests can state rule ids and exact columns in host strings.
import type { ConfigFile } from '../../server/src/engine/config';
import { loadCodeFrontEnd, type TreeSitterCodeFrontEnd as CodeFrontEnd } from '../../server/src/code/frontend';
import type { FileModel } from '../../server/src/engine/types';
import { lintWorkspace, type Finding } from '../helpers/rule-tester';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A finding as the code tests state it (no fix: none of the code rules has one). */
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

/** A project folder on disk (a new temporary one, named from `prefix`) holding these files, by relative path. */
export function projectOnDisk(files: Record<string, string>, prefix = 'insertlint-project-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

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
