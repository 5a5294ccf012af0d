// The plan view's checks in a real browser: used by e2e.mjs on the webview inside code-server, and runnable
// alone on a page written by `insertlint explain --format html` (no code-server needed):
//
//   node test/e2e/plan-view.mjs FILE.html [--ops N] [--out DIR] [--width PX]
//
// Each check drives the view the way a user does (buttons, mouse, keys) and reads back what is on screen.
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mkdirSync } from 'node:fs';

const near = (a, b, tolerance) => Math.abs(a - b) <= tolerance;

/**
 * Reads `read()` until `ok(value)` holds and returns that value; after `ms` returns the last value read (the
 * caller's check then fails with it). The view redraws on its own schedule: a check reads what it shows once
 * it has settled, not right after the click.
 */
async function settled(read, ok, ms = 15000) {
  const end = Date.now() + ms;
  let value;
  for (;;) {
    try {
      value = await read();
      if (ok(value)) return value;
    } catch {
      // not drawn yet
    }
    if (Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Runs every plan-view check on `frame` (a Page or FrameLocator holding the plan page). `shot(name)` takes a
 * screenshot, `log` prints. `operators` is the plan's operator count. Throws on the first failed check.
 */
export async function checkPlanView({ page, frame, shot, log, operators, label }) {
  const viewport = frame.locator('.planview .viewport').first();
  await viewport.waitFor({ timeout: 15000 });
  // The view's toolbar at the top of the window, so that the whole drawing area is on screen.
  await frame.locator('.planview').first().evaluate((e) => e.scrollIntoView({ block: 'start' }));
  // Scrolled: the view's box stays where it is from one look to the next.
  let lastTop;
  await settled(async () => (await viewport.boundingBox())?.y, (y) => {
    const still = y !== undefined && y === lastTop;
    lastTop = y;
    return still;
  });
  const zoom = frame.locator('.planview .zoom').first();
  const button = (act) => frame.locator(`.planview button[data-act="${act}"]`).first();
  const rootBox = async () => (await frame.locator('.planview svg .node.op').first().boundingBox());
  const box = async () => await viewport.boundingBox();
  const centre = (b) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });
  const opCount = async () => frame.locator('.planview svg .node.op').count();
  const fail = (what) => {
    throw new Error(`${label}: ${what}`);
  };

  // 1. It opens centred on the root at 100%.
  const v = await box();
  const r = await rootBox();
  if (!v || !r) fail('no plan view on the page');
  const zoomText = async () => (await zoom.innerText()).trim();
  /** The zoom shown once it reads `want` (or what it reads when the limit passes). */
  const zoomShows = (want) => settled(zoomText, (z) => z === want);
  if ((await zoomShows('100%')) !== '100%') fail(`opens at ${await zoomText()}, not 100%`);
  if (!near(centre(r).x, centre(v).x, 3)) fail(`the root is at x=${centre(r).x.toFixed(0)}, the view's centre at ${centre(v).x.toFixed(0)}`);
  if (r.y < v.y || r.y > v.y + 40) fail(`the root's top is ${(r.y - v.y).toFixed(0)} px below the view's top`);
  const shown = await opCount();
  log(`${label}: opens centred on the root at 100%, ${shown} of ${operators} operator boxes drawn`);
  await shot(`${label}-opened`);

  // 2. Numbers: three significant digits with separators.
  const texts = await frame.locator('.planview svg .node.op text').allTextContents();
  const numbers = texts.join(' ').match(/-?\d[\d,]*(\.\d+)?(e-?\d+)?/g) ?? [];
  const bad = numbers.filter((n) => !/e/.test(n) && n.replace(/[^\d]/g, '').replace(/^0+/, '').replace(/0+$/, '').length > 3 && !/^\(?\d+\)?$/.test(n));
  if (bad.length) fail(`numbers with more than 3 significant digits: ${bad.slice(0, 5).join(', ')}`);
  if (numbers.some((n) => /^\d{5,}/.test(n))) fail('a number of 5 or more digits without separators');

  // 3. Zoom with the buttons, the keys and the wheel.
  await button('in').click();
  if ((await zoomShows('125%')) !== '125%') fail(`zoom in shows ${await zoomText()}`);
  await button('out').click();
  if ((await zoomShows('100%')) !== '100%') fail(`zoom out shows ${await zoomText()}`);
  await viewport.focus();
  await page.keyboard.press('+');
  if ((await zoomShows('125%')) !== '125%') fail(`the + key shows ${await zoomText()}`);
  await page.keyboard.press('-');
  if ((await zoomShows('100%')) !== '100%') fail(`the - key shows ${await zoomText()}`);
  const vc = centre(await box());
  await page.mouse.move(vc.x, vc.y);
  await page.mouse.wheel(0, 300);
  const wheeled = parseInt(await settled(zoomText, (z) => parseInt(z, 10) < 100), 10);
  if (!(wheeled < 100)) fail(`the wheel did not zoom out (${wheeled}%)`);
  log(`${label}: zoom buttons, +/− keys and the wheel work (wheel: ${wheeled}%)`);

  // 4. Pan: with the mouse (drag on the background) and with the arrow keys.
  await button('root').click();
  // Back at 100% on the root (the wheel zoomed out): the drag below is measured at that scale.
  await zoomShows('100%');
  let lastRoot;
  const before = await settled(rootBox, (b) => {
    const still = b && lastRoot && b.x === lastRoot.x && b.y === lastRoot.y;
    lastRoot = b;
    return still;
  });
  const start = { x: v.x + 12, y: v.y + v.height - 12 };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x + 60, start.y - 20, { steps: 4 });
  await page.mouse.move(start.x + 120, start.y - 40, { steps: 4 });
  await page.mouse.up();
  const dragged = await settled(rootBox, (b) => near(b.x - before.x, 120, 3) && near(b.y - before.y, -40, 3));
  if (!near(dragged.x - before.x, 120, 3) || !near(dragged.y - before.y, -40, 3)) fail(`a drag of (120, -40) moved the root by (${dragged.x - before.x}, ${dragged.y - before.y})`);
  await viewport.focus();
  await page.keyboard.press('ArrowLeft');
  const keyed = await settled(rootBox, (b) => near(b.x - dragged.x, 60, 2));
  if (!near(keyed.x - dragged.x, 60, 2)) fail(`ArrowLeft moved the root by ${keyed.x - dragged.x}`);
  log(`${label}: pans with a mouse drag and with the arrow keys`);

  // 5. Fit: everything drawn is inside the view.
  await button('fit').click();
  const fitted = await box();
  const frameOffset = (await viewport.evaluate((e) => e.getBoundingClientRect().x)) - fitted.x;
  const nodeBoxes = () => frame.locator('.planview svg .node').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((b) => ({ x: b.x, y: b.y, r: b.right, b: b.bottom })));
  const outsideOf = (boxes) => boxes.filter((b) => b.x - frameOffset < fitted.x - 2 || b.r - frameOffset > fitted.x + fitted.width + 2);
  const boxes = await settled(nodeBoxes, (all) => all.length > 0 && outsideOf(all).length === 0);
  const outside = outsideOf(boxes);
  if (outside.length) fail(`${outside.length} boxes outside the view after Fit`);
  log(`${label}: Fit shows all ${boxes.length} boxes at ${await zoom.innerText()}`);
  await shot(`${label}-fit`);
  await button('root').click();

  // 6. Collapse and expand a subtree with its toggle.
  const inView = async (locator) => {
    const b = await locator.boundingBox();
    const w = await box();
    return b && b.x > w.x && b.x + b.width < w.x + w.width && b.y > w.y && b.y + b.height < w.y + w.height;
  };
  const toggles = frame.locator('.planview svg .toggle:not(.folded)');
  let toggle;
  for (let k = 1; k < Math.min(20, await toggles.count()) && !toggle; k++) if (await inView(toggles.nth(k))) toggle = toggles.nth(k);
  if (!toggle) fail('no subtree toggle on screen');
  const all = await opCount();
  await toggle.click();
  const folded = frame.locator('.planview svg .toggle.folded').first();
  await folded.waitFor({ timeout: 15000 });
  const hiddenText = await folded.textContent();
  const fewer = await settled(opCount, (n) => n < all);
  if (!(fewer < all) || !/^\+\d+$/.test(hiddenText.trim())) fail(`collapsing left ${fewer} of ${all} boxes (toggle "${hiddenText}")`);
  // The fold counts every operator under it, those already folded deeper down too.
  if (all - fewer > Number(hiddenText.trim().slice(1))) fail(`the fold says ${hiddenText} but ${all - fewer} boxes went away`);
  await folded.click();
  if ((await settled(opCount, (n) => n === all)) !== all) fail('expanding did not bring the subtree back');
  log(`${label}: a subtree folds (${hiddenText.trim()} operators) and unfolds`);

  // 7. Selecting an operator shows its details beside the tree, in a colour no hidden work uses.
  const hiddenOps = frame.locator('.planview svg .node.op.hidden');
  let node;
  for (let k = 0; k < Math.min(20, await hiddenOps.count()) && !node; k++) if (await inView(hiddenOps.nth(k))) node = hiddenOps.nth(k);
  const hasHidden = node !== undefined;
  node = node ?? frame.locator('.planview svg .node.op').nth(1);
  const opLabel = (await node.locator('text.name').textContent()).trim();
  await node.click();
  const details = frame.locator('.planview .details').first();
  await details.locator('h3', { hasText: opLabel }).waitFor({ timeout: 15000 });
  const d = await details.boundingBox();
  const vv = await box();
  // Beside the drawing, or floating over its right side when the editor is narrow.
  const besideRight = d.x >= vv.x + vv.width - 2 || (d.x > vv.x + 40 && Math.abs(d.x + d.width - (vv.x + vv.width)) < 24);
  if (!(besideRight && d.y < vv.y + 12 && d.y >= vv.y - 2)) fail(`the details are not beside the tree (details at ${d.x},${d.y}; view ${vv.x}+${vv.width},${vv.y})`);
  const colours = await frame.locator('.planview svg').first().evaluate((svg) => {
    const selected = svg.querySelector('.node.selected .box');
    const stroke = (el) => (el ? getComputedStyle(el).stroke : null);
    const probe = {};
    for (const cls of ['fk', 'trigger', 'mqt', 'trigger-or-mqt', 'cascade', 'check', 'main']) {
      const g = document.createElementNS('http://www.w3.org/2000/svg', 'g');
      g.setAttribute('class', `node op hidden ${cls}`);
      const rect = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
      rect.setAttribute('class', 'box');
      g.appendChild(rect);
      svg.appendChild(g);
      probe[cls] = stroke(rect);
      g.remove();
    }
    return { selected: stroke(selected), probe };
  });
  const clash = Object.entries(colours.probe).filter(([, c]) => c === colours.selected);
  if (!colours.selected || clash.length) fail(`the selection colour ${colours.selected} is also used for ${clash.map(([k]) => k).join(', ')}`);
  const words = await details.innerText();
  if (hasHidden && /foreign-key-check|mqt-maintenance|ri-cascade|trigger-or-mqt/.test(words)) fail(`the details name hidden work by its id, not in words: ${words}`);
  log(`${label}: selecting ${opLabel} shows its details beside the tree; selection ${colours.selected}, hidden-work colours ${Object.values(colours.probe).join(' ')}`);
  await shot(`${label}-selected`);

  // 8. Keyboard: arrows walk the tree from the selected operator, Enter selects.
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  const parentLabel = await settled(async () => (await details.locator('h3').innerText()).trim(), (label) => label !== opLabel);
  if (parentLabel === opLabel) fail('ArrowUp + Enter did not select the parent');
  log(`${label}: ArrowUp + Enter selected ${parentLabel}`);

  // 9. A hidden-work row lights up its operators in the tree.
  const row = frame.locator('tr.piece').first();
  if ((await row.count()) > 0) {
    const ops = (await row.getAttribute('data-ops')).split(' ').map(Number);
    await row.hover();
    const lit = await settled(() => frame.locator('.planview svg .node.lit').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-op')))), (ids) => ids.length > 0);
    const expected = ops.filter((id) => lit.includes(id));
    if (lit.length === 0 || lit.some((id) => !ops.includes(id))) fail(`hovering the row of operators ${ops} lit ${lit}`);
    await row.click();
    await shot(`${label}-hidden-work-row`);
    log(`${label}: the hidden-work row of operators ${ops.join(', ')} lights ${expected.length} drawn boxes and brings them into view`);
    await row.click();
  }
  // 10. A large plan: every box can be drawn and fitted; then folded back. The time it takes is reported, not
  // asserted (on a busy machine it says more about the machine than about the view).
  if (operators > 60) {
    const started = Date.now();
    await button('expand').click();
    const drawn = await settled(opCount, (n) => n === operators, 30000);
    const ms = Date.now() - started;
    if (drawn !== operators) fail(`Expand all drew ${drawn} of ${operators} operators`);
    await button('fit').click();
    log(`${label}: Expand all draws all ${drawn} operators in ${ms} ms; Fit shows them at ${await zoom.innerText()}`);
    await shot(`${label}-all-${drawn}-fit`);
    await button('in').click();
    await button('in').click();
    await button('in').click();
    await shot(`${label}-all-zoomed`);
    await button('collapse').click();
    if ((await settled(opCount, (n) => n < drawn)) >= drawn) fail('Collapse all left every operator drawn');
  }
  await button('root').click();
  return { shown, all };
}

// Run alone on an HTML file.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const file = resolve(args[0]);
  const operators = Number(args[args.indexOf('--ops') + 1] ?? 0) || 0;
  const out = args.includes('--out') ? resolve(args[args.indexOf('--out') + 1]) : join(dirname(file), 'plan-view-shots');
  mkdirSync(out, { recursive: true });
  const require = createRequire(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'package.json'));
  const { chromium } = require('playwright-core');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const width = args.includes('--width') ? Number(args[args.indexOf('--width') + 1]) : 1440;
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(pathToFileURL(file).href);
  await page.locator('.planview').first().scrollIntoViewIfNeeded();
  let n = 0;
  try {
    await checkPlanView({ page, frame: page, operators, label: 'plan', log: (m) => console.log(m), shot: (name) => page.screenshot({ path: join(out, `${String(++n).padStart(2, '0')}-${name}.png`) }) });
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    console.log('all plan-view checks passed');
  } catch (e) {
    console.error(`FAILED: ${e.message}`);
    process.exitCode = 1;
  } finally {
    await browser.close();
  }
}
