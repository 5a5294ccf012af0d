// Django's ORM on Db2 (languages/python-django.ts): model inserts in loops of a project whose settings name
// ibm_db_django as ENGINE (cli/project-evidence.ts djangoDb2Folders). Autocommit per call outside transaction.atomic().
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lintPaths } from '../../server/src/cli/lint-run';
import { djangoDb2Folders } from '../../server/src/cli/evidence-python';
import { NO_DB2_ACCESS } from '../../server/src/code/access';
import { djangoDb2Evidence, usesDjango } from '../../server/src/code/languages/python-django-project';
import { appLabelOf } from '../../server/src/code/languages/python-django';
import type { DjangoProject } from '../../server/src/code-model/types';
import { lintWorkspace } from '../helpers/rule-tester';
import { brief, codeFrontEnd, DJANGO_DB2_SETTINGS, DJANGO_MODELS, INSERT_RULES, posOf, projectOnDisk, type CodeFinding } from './helpers';

/** Lints files of a Django project at /app whose settings (found on disk by the CLI) show Db2. */
async function lintDjango(files: Record<string, string>, project: DjangoProject | null = { why: 'ENGINE ibm_db_django in settings.py' }) {
  const { workspace } = lintWorkspace(files, { codeFrontEnd: await codeFrontEnd(), baseConfig: { bulkRowThreshold: 2 }, unmerged: true });
  if (project) workspace.setDjangoDb2Folders(new Map([['/app', project]]), usesDjango);
  const path = Object.keys(files)[0];
  const lines = workspace.lines(path)!;
  const findings: CodeFinding[] = workspace.diagnostics(path).map((d) => {
    const start = lines.position(d.span.start);
    const end = lines.position(d.span.end);
    return { file: d.file, rule: d.rule, severity: d.severity, message: d.message, line: start.line + 1, column: start.column + 1, endLine: end.line + 1, endColumn: end.column + 1 };
  });
  return { findings, model: workspace.model(path)! };
}

const LOAD = `from django.db import transaction
from shop.models import Order


def load(rows):
    for r in rows:
        Order.objects.create(item=r["item"], qty=r["qty"])
`;

describe('Django on Db2 (python-django.ts)', () => {
  it('Order.objects.create per pass, outside transaction.atomic(): single-row-insert and no-autocommit, in Django terms', async () => {
    const { findings, model } = await lintDjango({ '/app/shop/load.py': LOAD, '/app/shop/models.py': DJANGO_MODELS });
    assert.deepEqual(model.code!.executions.map((e) => [e.api, e.construct, e.connection?.autocommit]), [['django', 'orm', 'on']]);
    const at = posOf(LOAD, 'Order.objects.create');
    assert.deepEqual(brief(findings, INSERT_RULES).sort(), [`no-autocommit@${at}`, `single-row-insert@${at}`]);
    const single = findings.find((f) => f.rule === 'single-row-insert')!.message;
    // The table of shop/models.py's Order: Django's default <app_label>_<modelname>.
    assert.match(single, /^One INSERT INTO SHOP_ORDER call per row in the for loop at line 6\./);
    assert.match(single, /92\.1 s .*Model\.objects\.bulk_create\(objs, batch_size=1000\).*multi-row INSERT.*Django's autocommit also commits every row/);
    const auto = findings.find((f) => f.rule === 'no-autocommit')!.message;
    assert.match(auto, /^Django's autocommit commits each save\(\) or create\(\) of the for loop at line 6 into SHOP_ORDER on its own\. Outside transaction\.atomic\(\) every INSERT is its own transaction .*92\.1 s .*with transaction\.atomic\(\): around it, or @transaction\.atomic on its function/);
  });

  it('inside transaction.atomic() (a block around the loop, a decorated function): single-row-insert only', async () => {
    const block = LOAD.replace('    for r in rows:\n        Order', '    with transaction.atomic():\n        for r in rows:\n            Order');
    const { findings } = await lintDjango({ '/app/shop/load.py': block, '/app/shop/models.py': DJANGO_MODELS });
    assert.deepEqual(brief(findings, INSERT_RULES), [`single-row-insert@${posOf(block, 'Order.objects.create')}`]);
    assert.doesNotMatch(findings[0].message, /autocommit also commits/);
    const decorated = LOAD.replace('def load(', '@transaction.atomic\ndef load(');
    assert.deepEqual(brief((await lintDjango({ '/app/shop/load.py': decorated })).findings, INSERT_RULES), [`single-row-insert@${posOf(decorated, 'Order.objects.create')}`]);
  });

  it('a helper called once per row from a loop held in transaction.atomic(): in that transaction', async () => {
    const helper = `from django.db import transaction\nfrom shop.models import Order\n\n\nclass Loader:\n    def run(self, rows):\n        with transaction.atomic():\n            for r in rows:\n                self.add(r)\n\n    def add(self, r):\n        Order.objects.create(item=r)\n`;
    const at = posOf(helper, 'Order.objects.create');
    assert.deepEqual(brief((await lintDjango({ '/app/shop/load.py': helper })).findings, INSERT_RULES), [`single-row-insert@${at}`]);
    const unheld = helper.replace('        with transaction.atomic():\n            for r in rows:\n                self.add(r)', '        for r in rows:\n            self.add(r)');
    assert.deepEqual(brief((await lintDjango({ '/app/shop/load.py': unheld })).findings, INSERT_RULES).sort(), [`no-autocommit@${posOf(unheld, 'Order.objects.create')}`, `single-row-insert@${posOf(unheld, 'Order.objects.create')}`]);
  });

  it('an atomic block opened on every pass commits every row: commit-per-row with Django advice', async () => {
    const perPass = LOAD.replace('        Order.objects.create', '        with transaction.atomic():\n            Order.objects.create');
    const { findings } = await lintDjango({ '/app/shop/load.py': perPass });
    assert.deepEqual(brief(findings, INSERT_RULES).sort(), [`commit-per-row@${posOf(perPass, 'transaction.atomic()')}`, `single-row-insert@${posOf(perPass, 'Order.objects.create')}`]);
    assert.match(findings.find((f) => f.rule === 'commit-per-row')!.message, /Open the transaction\.atomic\(\) block around the loop rather than inside it/);
    // A nested block is a savepoint: no commit of its own.
    const nested = `from django.db import transaction\nfrom shop.models import Order\n\n\n@transaction.atomic\ndef load(rows):\n    for r in rows:\n        with transaction.atomic():\n            Order.objects.create(item=r)\n`;
    assert.deepEqual(brief((await lintDjango({ '/app/shop/load.py': nested })).findings, INSERT_RULES), [`single-row-insert@${posOf(nested, 'Order.objects.create')}`]);
  });

  it('bulk_create is batched (silent); a bulk_create of a one-element list per pass is one row per call', async () => {
    const bulk = LOAD.replace('    for r in rows:\n        Order.objects.create(item=r["item"], qty=r["qty"])', '    objs = [Order(item=r["item"], qty=r["qty"]) for r in rows]\n    for chunk in chunks(objs):\n        Order.objects.bulk_create(chunk, batch_size=1000)');
    assert.deepEqual(brief((await lintDjango({ '/app/shop/load.py': bulk })).findings, INSERT_RULES), []);
    const one = LOAD.replace('Order.objects.create(item=r["item"], qty=r["qty"])', 'Order.objects.bulk_create([Order(item=r["item"], qty=r["qty"])])');
    assert.deepEqual(brief((await lintDjango({ '/app/shop/load.py': one })).findings, ['single-row-insert']), [`single-row-insert@${posOf(one, 'Order.objects.bulk_create')}`]);
  });

  it("a new instance's save() is an INSERT; a loaded one's (an UPDATE) and a non-model class's save are silent", async () => {
    const saved = LOAD.replace('        Order.objects.create(item=r["item"], qty=r["qty"])', '        o = Order(item=r["item"], qty=r["qty"])\n        o.save()');
    assert.deepEqual(brief((await lintDjango({ '/app/shop/load.py': saved })).findings, ['single-row-insert']), [`single-row-insert@${posOf(saved, 'o.save()')}`]);
    const chained = LOAD.replace('Order.objects.create(item=r["item"], qty=r["qty"])', 'Order(item=r["item"]).save()');
    assert.deepEqual(brief((await lintDjango({ '/app/shop/load.py': chained })).findings, ['single-row-insert']), [`single-row-insert@${posOf(chained, 'Order(item')}`]);
    const loaded = LOAD.replace('        Order.objects.create(item=r["item"], qty=r["qty"])', '        o = Order.objects.get(pk=r["id"])\n        o.qty = r["qty"]\n        o.save()');
    assert.deepEqual(brief((await lintDjango({ '/app/shop/load.py': loaded })).findings, INSERT_RULES), []);
    const report = 'from django.db import models\nfrom reports import Report\n\n\ndef load(rows):\n    for r in rows:\n        Report(r).save()\n';
    assert.deepEqual(brief((await lintDjango({ '/app/shop/load.py': report })).findings, INSERT_RULES), []);
  });

  it('the async forms: await acreate() and a new instance\'s await asave() per pass, in async for and in for of an async def', async () => {
    const acreate = `from django.db import transaction\nfrom shop.models import Order\n\n\nasync def load(rows):\n    async for r in rows:\n        await Order.objects.acreate(item=r["item"], qty=r["qty"])\n`;
    const { findings } = await lintDjango({ '/app/shop/load.py': acreate, '/app/shop/models.py': DJANGO_MODELS });
    const at = posOf(acreate, 'Order.objects.acreate');
    assert.deepEqual(brief(findings, INSERT_RULES).sort(), [`no-autocommit@${at}`, `single-row-insert@${at}`]);
    assert.match(findings.find((f) => f.rule === 'single-row-insert')!.message, /^One INSERT INTO SHOP_ORDER call per row in the for loop at line 6\..*Model\.objects\.bulk_create\(objs, batch_size=1000\)/);
    const asave = acreate.replace('    async for r in rows:\n        await Order.objects.acreate(item=r["item"], qty=r["qty"])', '    for r in rows:\n        o = Order(item=r["item"], qty=r["qty"])\n        await o.asave()');
    assert.deepEqual(brief((await lintDjango({ '/app/shop/load.py': asave })).findings, ['single-row-insert']), [`single-row-insert@${posOf(asave, 'o.asave()')}`]);
    // A loaded instance's asave is an UPDATE; abulk_create is the batched form; one acreate outside a loop: silent.
    const loaded = asave.replace('o = Order(item=r["item"], qty=r["qty"])', 'o = await Order.objects.aget(pk=r["id"])');
    assert.deepEqual(brief((await lintDjango({ '/app/shop/load.py': loaded })).findings, INSERT_RULES), []);
    const abulk = acreate.replace('    async for r in rows:\n        await Order.objects.acreate(item=r["item"], qty=r["qty"])', '    objs = [Order(item=r["item"]) async for r in rows]\n    await Order.objects.abulk_create(objs, batch_size=1000)');
    assert.deepEqual(brief((await lintDjango({ '/app/shop/load.py': abulk })).findings, INSERT_RULES), []);
    const once = `from shop.models import Order\n\n\nasync def add(r):\n    await Order.objects.acreate(item=r)\n`;
    assert.deepEqual(brief((await lintDjango({ '/app/shop/load.py': once })).findings, INSERT_RULES), []);
    // Inside transaction.atomic(): single-row-insert only, as for create.
    const held = acreate.replace('async def load(', '@transaction.atomic\nasync def load(');
    assert.deepEqual(brief((await lintDjango({ '/app/shop/load.py': held })).findings, INSERT_RULES), [`single-row-insert@${posOf(held, 'Order.objects.acreate')}`]);
  });

  it('get_or_create / update_or_create per pass: reported as create, the message naming the query and the bulk_create conflict options', async () => {
    for (const call of ['get_or_create', 'update_or_create', 'aget_or_create']) {
      const text = LOAD.replace('Order.objects.create(item=r["item"], qty=r["qty"])', `Order.objects.${call}(item=r["item"], defaults={"qty": r["qty"]})`);
      const { findings } = await lintDjango({ '/app/shop/load.py': text, '/app/shop/models.py': DJANGO_MODELS });
      const at = posOf(text, `Order.objects.${call}`);
      assert.deepEqual(brief(findings, INSERT_RULES).sort(), [`no-autocommit@${at}`, `single-row-insert@${at}`], call);
      const single = findings.find((f) => f.rule === 'single-row-insert')!.message;
      assert.match(single, new RegExp(`^One INSERT INTO SHOP_ORDER call per row in the for loop at line 6\\. Order\\.objects\\.${call}\\(\\) first queries for the row: one SELECT per row`), call);
      assert.match(single, /an INSERT for every row it does not find\..*look the existing keys up with one query before the loop.*bulk_create\(objs, batch_size=1000\) after the loop/, call);
      assert.doesNotMatch(single, /ignore_conflicts|update_conflicts/, call);
      assert.match(findings.find((f) => f.rule === 'no-autocommit')!.message, new RegExp(`^Django's autocommit commits each Order\\.objects\\.${call}\\(\\) \\(a SELECT, then an INSERT for a row it does not find\\) of the for loop at line 6`), call);
    }
    const update = LOAD.replace('Order.objects.create(', 'Order.objects.update_or_create(');
    assert.match((await lintDjango({ '/app/shop/load.py': update })).findings.find((f) => f.rule === 'single-row-insert')!.message, /one SELECT per row \(FOR UPDATE, then an UPDATE of a row it finds\)/);
    // Inside transaction.atomic(): single-row-insert only, as for create; outside a loop: silent.
    const block = LOAD.replace('    for r in rows:\n        Order.objects.create(', '    with transaction.atomic():\n        for r in rows:\n            Order.objects.get_or_create(');
    assert.deepEqual(brief((await lintDjango({ '/app/shop/load.py': block })).findings, INSERT_RULES), [`single-row-insert@${posOf(block, 'Order.objects.get_or_create')}`]);
    for (const call of ['get_or_create', 'update_or_create', 'aupdate_or_create']) {
      const once = `from shop.models import Order\n\n\ndef add(r):\n    Order.objects.${call}(item=r)\n`;
      assert.deepEqual(brief((await lintDjango({ '/app/shop/load.py': once })).findings, INSERT_RULES), [], call);
    }
  });

  it('Meta.db_table of a model of the file names the table; ATOMIC_REQUESTS makes a view one transaction', async () => {
    const own = `from django.db import models\n\n\nclass Order(models.Model):\n    item = models.CharField(max_length=40)\n\n    class Meta:\n        db_table = "orders"\n\n\ndef import_view(request):\n    for r in request.POST.getlist("item"):\n        Order.objects.create(item=r)\n`;
    const { findings } = await lintDjango({ '/app/shop/views.py': own });
    assert.deepEqual(brief(findings, INSERT_RULES).sort(), [`no-autocommit@${posOf(own, 'Order.objects')}`, `single-row-insert@${posOf(own, 'Order.objects')}`]);
    assert.match(findings.find((f) => f.rule === 'single-row-insert')!.message, /^One INSERT INTO ORDERS call per row/);
    const atomic = await lintDjango({ '/app/shop/views.py': own }, { why: 'ENGINE ibm_db_django in settings.py', atomicRequests: true });
    assert.deepEqual(brief(atomic.findings, INSERT_RULES), [`single-row-insert@${posOf(own, 'Order.objects')}`]);
  });

  it('without the evidence that the project is on Db2, a Django file is not read', async () => {
    const { findings, model } = await lintDjango({ '/app/shop/load.py': LOAD }, null);
    assert.equal(model.leftOut, NO_DB2_ACCESS);
    assert.deepEqual(brief(findings, INSERT_RULES), []);
  });

  it('evidence: ENGINE ibm_db_django in a settings file or .env, with ATOMIC_REQUESTS; the app label of a models module', () => {
    assert.deepEqual(djangoDb2Evidence('settings.py', DJANGO_DB2_SETTINGS), { why: 'ENGINE ibm_db_django in settings.py' });
    assert.deepEqual(djangoDb2Evidence('base.py', DJANGO_DB2_SETTINGS.replace('"PORT": "50000",', '"PORT": "50000",\n        "ATOMIC_REQUESTS": True,')), { why: 'ENGINE ibm_db_django in base.py', atomicRequests: true });
    assert.deepEqual(djangoDb2Evidence('.env', 'DB_ENGINE=ibm_db_django\n'), { why: 'ENGINE ibm_db_django in .env' });
    assert.equal(djangoDb2Evidence('settings.py', DJANGO_DB2_SETTINGS.replace('ibm_db_django', 'django.db.backends.postgresql')), undefined);
    assert.equal(djangoDb2Evidence('README.md', 'pip install ibm_db_django'), undefined);
    // Db2 as a second alias only: the models' inserts go to the default database.
    const second = `DATABASES = {\n    "default": {"ENGINE": "django.db.backends.postgresql", "NAME": "app"},\n    "legacy": {"ENGINE": "ibm_db_django", "NAME": "SAMPLE"},\n}\n`;
    assert.equal(djangoDb2Evidence('settings.py', second), undefined);
    assert.deepEqual(djangoDb2Evidence('settings.py', second.replace('"default"', '"reports"').replace('"legacy"', '"default"')), { why: 'ENGINE ibm_db_django in settings.py' });
    assert.equal(djangoDb2Evidence('settings.py', `DATABASES = {\n    "db2": {"ENGINE": "ibm_db_django"},\n}\n`), undefined);
    // A default's OPTIONS before its ENGINE; a Db2 default left commented out.
    assert.deepEqual(djangoDb2Evidence('settings.py', `DATABASES = {"default": {"OPTIONS": {"x": 1}, "ENGINE": "ibm_db_django"}}\n`), { why: 'ENGINE ibm_db_django in settings.py' });
    assert.equal(djangoDb2Evidence('settings.py', DJANGO_DB2_SETTINGS.replace(/^/gm, '# ')), undefined);
    assert.equal(appLabelOf('/p/shop/models.py'), 'shop');
    assert.equal(appLabelOf('/p/shop/models/order.py'), 'shop');
  });
});

describe('Django on Db2: the project on disk (insertlint check)', () => {
  const COMMAND = `from django.core.management.base import BaseCommand\nfrom shop.models import Order\n\n\nclass Command(BaseCommand):\n    def handle(self, *args, **options):\n        for line in open(options["path"]):\n            Order.objects.create(item=line.strip(), qty=1)\n`;
  const files = (settings: Record<string, string>) => ({
    'manage.py': 'import os\nimport sys\n\nif __name__ == "__main__":\n    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mysite.settings")\n',
    ...settings,
    'shop/__init__.py': '',
    'shop/models.py': DJANGO_MODELS,
    'shop/management/commands/load_orders.py': COMMAND,
  });

  it('settings.py with ibm_db_django: the command is reported, the table from shop/models.py; postgresql: silent', async () => {
    const dir = projectOnDisk(files({ 'mysite/settings.py': DJANGO_DB2_SETTINGS }), 'insertlint-django-');
    assert.deepEqual([...djangoDb2Folders([{ path: join(dir, 'shop/models.py'), text: DJANGO_MODELS }]).values()], [{ why: `ENGINE ibm_db_django in settings.py (${join(dir, 'mysite/settings.py')})` }]);
    const run = await lintPaths({ paths: ['.'], cwd: dir });
    const path = join(dir, 'shop/management/commands/load_orders.py');
    const mine = run.diagnostics.filter((d) => d.file === path);
    // (One cause, one finding: single-row-insert merged into no-autocommit's.)
    assert.deepEqual(mine.map((d) => [d.rule, d.mergedRules]), [['no-autocommit', ['single-row-insert']]]);
    assert.match(mine[0].message, /^Django's autocommit commits each save\(\) or create\(\) of the for loop at line 7 into SHOP_ORDER on its own\./);
    writeFileSync(join(dir, 'mysite/settings.py'), DJANGO_DB2_SETTINGS.replace('ibm_db_django', 'django.db.backends.postgresql'));
    const pg = await lintPaths({ paths: ['.'], cwd: dir });
    assert.deepEqual(pg.diagnostics.filter((d) => d.file === path), []);
    assert.equal(pg.workspace.model(path)!.leftOut, NO_DB2_ACCESS);
  });

  it('a settings/ package (config/settings/production.py) or .env at the top shows Db2 too', async () => {
    const pkg = projectOnDisk(files({ 'config/settings/__init__.py': '', 'config/settings/base.py': 'DEBUG = False\n', 'config/settings/production.py': DJANGO_DB2_SETTINGS }), 'insertlint-django-');
    const run = await lintPaths({ paths: ['shop'], cwd: pkg });
    assert.deepEqual(run.diagnostics.map((d) => [d.rule, d.mergedRules]), [['no-autocommit', ['single-row-insert']]]);
    const env = projectOnDisk(files({ '.env': 'DJANGO_DB_ENGINE=ibm_db_django\n' }), 'insertlint-django-');
    assert.deepEqual((await lintPaths({ paths: ['shop'], cwd: env })).diagnostics.map((d) => [d.rule, d.mergedRules]), [['no-autocommit', ['single-row-insert']]]);
  });
});
