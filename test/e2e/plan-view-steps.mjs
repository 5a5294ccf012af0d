// The plan view's steps in the end-to-end test: plans of 15 and 500 operators opened in the VS Code webview,
// driven with buttons, mouse and keys (plan-view.mjs), with screenshots; then the view re-centres on the
// root when the editor gets narrower.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { checkPlanView } from './plan-view.mjs';
import { until } from './editor-steps.mjs';

const PLANS = [
  { operators: 15, fixture: 'insert-15-operators.exfmt.txt', file: 'plan-15.exfmt' },
  { operators: 500, fixture: 'insert-500-operators.exfmt.txt', file: 'plan-500.exfmt' },
];

/** Copies the plans into the test workspace (before code-server starts, so that quick open finds them). */
export function copyPlanViewPlans(root, workspace) {
  for (const p of PLANS) cpSync(join(root, 'test', 'fixtures', 'exfmt', p.fixture), join(workspace, p.file));
}

export async function planViewSteps({ page, step, shot, command, openFile, log }) {
  for (const plan of PLANS) {
    await step(`plan-view-${plan.operators}`, async () => {
      await command('View: Close All Editors');
      await openFile(plan.file);
      await command('InsertLint: Open db2exfmt file as plan');
      const frame = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
      await frame.locator('h1', { hasText: `Plan: ${plan.file}` }).waitFor({ timeout: 30000 });
      await frame.locator('.planview .viewport.live').first().waitFor({ timeout: 15000 });
      // The webview opens beside the editor: give it the whole window.
      await command('View: Close Editors in Other Groups');
      // Settled: one editor group, the drawing area the same width twice running, the root centred in it.
      let lastWidth = -1;
      await until('the plan alone in the window, centred on its root', async () => {
        if ((await page.locator('.editor-group-container').count()) !== 1) return false;
        const v = await frame.locator('.planview .viewport').first().boundingBox();
        const r = await frame.locator('.planview svg .node.op').first().boundingBox();
        const steady = v.width === lastWidth;
        lastWidth = v.width;
        return steady && Math.abs(r.x + r.width / 2 - (v.x + v.width / 2)) <= 3;
      }, 30000);
      await checkPlanView({ page, frame, operators: plan.operators, label: `plan-view-${plan.operators}`, log, shot: (name) => shot(name) });

      // Any editor width: narrower, then back; the root stays centred until the user moves the view.
      for (const width of [1000, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        // The view re-centres when it sees its new size: wait for that, and say how far off it stayed if never.
        let off = Infinity;
        const offCentre = async () => {
          const v = await frame.locator('.planview .viewport').first().boundingBox();
          const r = await frame.locator('.planview svg .node.op').first().boundingBox();
          off = r.x + r.width / 2 - (v.x + v.width / 2);
          return Math.abs(off) <= 3 && v.width < width;
        };
        await until(`the root centred at ${width} px`, offCentre, 15000).catch(() => {
          throw new Error(`at ${width} px the root is ${off.toFixed(0)} px off the view's centre`);
        });
        log(`plan-view-${plan.operators}: at a ${width} px window the root is centred (${off.toFixed(1)} px)`);
        if (width === 1000) await shot(`plan-view-${plan.operators}-narrow`);
      }
    });
  }
}
