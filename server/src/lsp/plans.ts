// The plan view's server side: db2exfmt text or a live Explain → issue 4's HTML rendering.
// Issue 4's renderer is not in the tree yet; until it is, both requests answer with a clear message.
import type { ExplainParams, RenderPlanParams, RenderPlanResult } from './protocol';

export const PLAN_RENDERER_MISSING = 'The plan renderer (issue 4) is not part of this build yet, so plans cannot be shown.';

export async function renderPlan(params: RenderPlanParams): Promise<RenderPlanResult> {
  if (typeof params?.text !== 'string') return { error: 'renderPlan needs the db2exfmt text' };
  return { error: PLAN_RENDERER_MISSING };
}

export async function explainStatement(params: ExplainParams): Promise<RenderPlanResult> {
  if (typeof params?.sql !== 'string') return { error: 'explain needs the SQL statement' };
  return { error: PLAN_RENDERER_MISSING };
}
