// Which tree a statement gets, from what its sections gave: the Access Plan drawing when it reads cleanly (Plan
// Details then add full-precision costs, arguments and predicates), Plan Details' input streams when the drawing is
// damaged or missing and the details describe every operator, otherwise no tree and an error with the reasons:
// a wrong tree is never shown.
import { finishPlan, type AccessPlan, type ExplainMessage, type ExplainStatement, type GraphResult, type ObjectInfo, type PlanOperator } from './model';
import { parseGraph } from './exfmt-graph';
import { flagsFromArguments, labelFromFlags } from './symbols';
import { applyObjectInfo } from './exfmt-objects';

/** Graph warnings that describe a repair, not a doubt about the tree. */
const INFORMATIONAL_GRAPH_WARNINGS = new Set(['rejoined-wrapped-lines', 'damaged-graph-chain', 'damaged-graph-levels']);

/** Operators that read at least this many inputs (operators or objects); a join reads two. */
const INPUTS_NEEDED: Record<string, number> = {
  NLJOIN: 2, HSJOIN: 2, MSJOIN: 2, ZZJOIN: 2, IXAND: 2,
  RETURN: 1, INSERT: 1, UPDATE: 1, DELETE: 1, FETCH: 1, FILTER: 1, SORT: 1, TEMP: 1, GRPBY: 1, UNIQUE: 1, TQ: 1, TBSCAN: 1, IXSCAN: 1, RIDSCN: 1,
};

/** The lines of the Access Plan drawing (`end` exclusive), and the "Total Cost:" above it. */
export interface GraphLines {
  start: number;
  end: number;
  totalCost?: number;
}

/** What a statement's sections gave towards its tree. */
export interface PlanSources {
  graph?: GraphLines;
  /** Whether the text has Plan Details (under their heading or not). */
  hasDetails: boolean;
  /** Plan Details' operators by number (empty without Plan Details). */
  details: Map<number, PlanOperator>;
  objects: ObjectInfo[];
  /** Whether the statement has an "Access Plan:" heading (an empty section is said to be empty). */
  hasAccessPlanSection: boolean;
  /** Operators whose Plan Details block a wrap left unreadable: the details describe the plan only in part. */
  refusedDetails?: ReadonlySet<number>;
  /**
   * Lines of the drawing (0-based, in `lines`) that may be the rest of the line before them beginning with ">", taken
   * for a quote (PasteCuts.doubtful): a `>` of an operator's name (`>NLJOIN`) may be lost there.
   */
  doubtfulGraphLines?: readonly number[];
  /** The lines with the quote taken off a level whose rests a wrap left unquoted put back as blanks (PasteCuts.shift). */
  shiftedLines?: string[];
  /** Lines that are the rest of the line before them, cut at the width of a level of quoting (PasteCuts.joins). */
  joins?: readonly boolean[];
  /** Lines of the text may have been wrapped when it was pasted (PasteCuts): the refusals say so, and what to do. */
  wrapped?: boolean;
}

/** What a user whose paste cannot be read whole can do. */
const PASTE_AS_WRITTEN = 'paste the db2exfmt output as it was written (from the file itself, not from a mail, a chat or a terminal window), or attach the file';

/** The refusal's problems named in a message: the first few, then how many more. */
const PROBLEMS_NAMED = 3;

/** Sets `stmt.plan`, or adds the errors that say why the statement has no tree. */
export function settlePlan(stmt: ExplainStatement, lines: string[], sources: PlanSources): void {
  const { graph, details } = sources;
  const detailsProblem = sources.hasDetails ? incompleteDetails(details, sources.refusedDetails) : 'there are no Plan Details';
  let plan: AccessPlan | undefined;
  if (graph && graph.end > graph.start) {
    plan = planFromGraph(stmt, lines, graph, sources, detailsProblem);
  } else if (details.size > 0) {
    if (!detailsProblem) plan = planFromDetails(details, undefined, sources.objects);
    else {
      const todo = sources.wrapped ? ` The lines of the paste were wrapped when it was copied: ${PASTE_AS_WRITTEN}.` : '';
      stmt.errors.push({ code: 'no-graph', message: `The text has Plan Details but no Access Plan graph, and the operator tree cannot be rebuilt from the details: ${detailsProblem}.${todo}` });
    }
  } else if (sources.hasAccessPlanSection) {
    stmt.errors.push({ code: 'empty-graph', message: 'The "Access Plan:" section is empty or cut off before the graph.' });
  } else if (stmt.statementNumber !== undefined) {
    stmt.errors.push({ code: 'no-access-plan', message: `Statement ${stmt.statementNumber} has no "Access Plan:" section (the text may be cut off).` });
  }
  if (!plan) return;
  for (const info of sources.objects) applyObjectInfo(plan, info);
  fillRoot(plan);
  stmt.plan = finishPlan(plan, (op, missing) =>
    stmt.warnings.push({ code: 'missing-input', message: `Operator ${op.label} (${op.id}) names operator ${missing} as an input, but the plan has no operator ${missing}; that input was left out.` }),
  );
}

/**
 * The tree of a statement with a drawing: the drawing's when it reads cleanly and is undamaged (or Plan Details
 * cannot stand in), Plan Details' when they can stand in for it; otherwise undefined, the reasons in `stmt.errors`.
 */
function planFromGraph(stmt: ExplainStatement, lines: string[], graph: GraphLines, sources: PlanSources, detailsProblem: string | undefined): AccessPlan | undefined {
  const { details, objects } = sources;
  const g = readDrawing(lines, graph, sources);
  const repaired = g.warnings.filter((w) => INFORMATIONAL_GRAPH_WARNINGS.has(w.code));
  const problems = [...g.warnings.filter((w) => !INFORMATIONAL_GRAPH_WARNINGS.has(w.code)), ...starvedOperators(g.operators), ...doubtfulLines(sources)];
  const clean = g.operators.length > 0 && g.linked && g.errors.length === 0 && problems.length === 0;
  if (clean && !(g.damage && !detailsProblem)) {
    // An undamaged drawing is the tree; Plan Details add full-precision costs, arguments and predicates.
    stmt.warnings.push(...repaired);
    const plan: AccessPlan = { operators: g.operators, roots: [], totalCost: graph.totalCost, source: 'graph', objects };
    mergeDetails(plan, details, stmt.warnings);
    return plan;
  }
  if (!detailsProblem && (g.operators.length === 0 || detailsCover(details, g.operators))) {
    if (g.operators.length > 0) {
      const why = g.damage === 'spaces-collapsed' ? 'is damaged: runs of spaces were collapsed' : g.damage === 'indentation-stripped' ? 'is damaged: its indentation was stripped' : `could not be read completely (${problems[0]?.message ?? g.errors[0]?.message ?? 'no tree'})`;
      const wrapped = sources.wrapped && !g.damage ? ' The lines of the paste were wrapped when it was copied; to have the drawing read, ' + PASTE_AS_WRITTEN + '.' : '';
      stmt.warnings.push({ code: 'rebuilt-from-details', message: `The Access Plan graph ${why}; the tree was rebuilt from Plan Details' input streams instead.${wrapped}` });
    }
    return planFromDetails(details, graph.totalCost, objects);
  }
  if (g.operators.length === 0) stmt.errors.push(...g.errors);
  else refuseGraph(stmt, g.operators, g.errors, problems, sources, detailsProblem);
  return undefined;
}

/**
 * The drawing read from its lines; where a wrap cut it after one level of "> " quoting and left the rests unquoted,
 * read in the columns the wrap cut it at (`sources.shiftedLines`) when that reads cleanly and the lines as they are
 * do not.
 */
function readDrawing(lines: string[], graph: GraphLines, sources: PlanSources): GraphResult {
  const read = (from: string[]) => parseGraph(from.slice(graph.start, graph.end), graph.start + 1, sources.details);
  const clean = (g: GraphResult) => g.operators.length > 0 && g.linked && g.errors.length === 0 && !g.warnings.some((w) => !INFORMATIONAL_GRAPH_WARNINGS.has(w.code)) && starvedOperators(g.operators).length === 0;
  const g = read(lines);
  if (clean(g)) return g;
  if (sources.shiftedLines) {
    const shifted = read(sources.shiftedLines);
    if (clean(shifted)) return shifted;
  }
  // A reply to a reply, each wrapped: the rests an inner level's wrap left unquoted joined to their lines first, then
  // the lines an outer wrap cut joined again at its width (parseGraph).
  const joins = sources.joins;
  if (joins && joins.slice(graph.start + 1, graph.end).some(Boolean)) {
    const joined: string[] = [];
    for (let i = graph.start; i < graph.end; i++) {
      if (joins[i] && i > graph.start) joined[joined.length - 1] += lines[i];
      else joined.push(lines[i]);
    }
    const j = parseGraph(joined, graph.start + 1, sources.details);
    if (clean(j)) return j;
  }
  return g;
}

/** The error for a drawing that cannot be read and that Plan Details cannot replace: the reasons and the operators seen. */
function refuseGraph(stmt: ExplainStatement, operators: PlanOperator[], errors: ExplainMessage[], problems: ExplainMessage[], sources: PlanSources, detailsProblem: string | undefined): void {
  // In the order of their numbers; an operator whose name the damaged drawing lost may have it in Plan Details.
  const nameOf = (op: PlanOperator) => {
    const detail = op.type === '?' ? sources.details.get(op.id) : op;
    return detail && detail.type !== '?' ? detail.label : 'operator';
  };
  const found = [...operators]
    .sort((a, b) => a.id - b.id)
    .map((op) => `${nameOf(op)} (${op.id})`)
    .join(', ');
  const hint = sources.hasDetails ? ` Plan Details cannot replace it: ${detailsProblem}.` : '';
  const todo = sources.wrapped
    ? ` The lines of the paste were wrapped when it was copied, which moves the drawing's columns: ${PASTE_AS_WRITTEN}.`
    : ` To have it read, ${PASTE_AS_WRITTEN}.`;
  // A damaged drawing's error says what to do already.
  if (errors.length > 0) stmt.errors.push(...errors.map((e) => ({ ...e, message: `${e.message} Operators seen: ${found}.${hint}${e.code === 'damaged-graph' ? '' : todo}` })));
  else {
    const named = problems.slice(0, PROBLEMS_NAMED).map((w) => (w.line ? `line ${w.line}: ` : '') + w.message);
    const more = problems.length > PROBLEMS_NAMED ? ` ${problems.length - PROBLEMS_NAMED} more such problem${problems.length - PROBLEMS_NAMED > 1 ? 's' : ''} not listed.` : '';
    stmt.errors.push({
      code: 'unreadable-graph',
      message: `The Access Plan graph could not be read completely, so no tree is shown rather than a wrong one: ${named.join(' ')}${more} Operators seen: ${found}.${hint}${todo}`,
      line: problems[0]?.line,
    });
  }
}

/** A problem for each line of the drawing that may have lost a ">" to the unquoting of a reply. */
function doubtfulLines(sources: PlanSources): ExplainMessage[] {
  return (sources.doubtfulGraphLines ?? []).map((i) => ({
    code: 'doubtful-graph-line',
    message: `line ${i + 1} is a quoted line, or the rest of the line before it, beginning with ">" (as in >NLJOIN), that a wrap cut after the paste was quoted: nothing tells which.`,
    line: i + 1,
  }));
}

/**
 * The root box shows the legend instead of numbers: its cost is the statement's total cost, its rows are its
 * input's, and without a "Total Cost:" line (a pasted graph) its cost is its input's (RETURN adds nothing).
 */
function fillRoot(plan: AccessPlan): void {
  const root = plan.operators.find((op) => op.id === 1) ?? plan.operators[0];
  if (!root) return;
  if (root.totalCost === undefined && plan.totalCost !== undefined) root.totalCost = plan.totalCost;
  if (root.rows === undefined && root.type === 'RETURN' && root.children.length === 1) root.rows = plan.operators.find((op) => op.id === root.children[0])?.rows;
  if (root.totalCost === undefined && root.children.length > 0) {
    const inputs = root.children.map((c) => plan.operators.find((op) => op.id === c));
    if (inputs.every((op) => op?.totalCost !== undefined)) root.totalCost = Math.max(...inputs.map((op) => op!.totalCost!));
    if (root.ioCost === undefined && inputs.every((op) => op?.ioCost !== undefined)) root.ioCost = Math.max(...inputs.map((op) => op!.ioCost!));
  }
}

/**
 * A drawing whose operators lack inputs they must have (a join with one input or none, a RETURN with nothing
 * under it) was cut off below them: a text that ends inside the graph reads as a complete but wrong tree.
 */
function starvedOperators(operators: readonly PlanOperator[]): ExplainMessage[] {
  const out: ExplainMessage[] = [];
  for (const op of operators) {
    const needed = INPUTS_NEEDED[op.type] ?? 0;
    if (op.inputs.length < needed) {
      out.push({ code: 'missing-inputs', message: `Operator ${op.label} (${op.id}) has ${op.inputs.length} of the ${needed} input${needed > 1 ? 's' : ''} it reads: the graph is cut off or damaged below it.` });
    }
  }
  return out;
}

/** The tree from Plan Details alone: flags and labels from the arguments, rows from the input streams. */
function planFromDetails(ops: Map<number, PlanOperator>, totalCost: number | undefined, objects: ObjectInfo[]): AccessPlan {
  for (const op of ops.values()) {
    if (op.flags.length === 0) {
      op.flags = flagsFromArguments(op.arguments);
      op.label = labelFromFlags(op.type, op.flags);
    }
    for (const input of op.inputs) {
      if (input.kind === 'operator' && input.rows !== undefined) {
        const child = ops.get(input.id);
        if (child && child.rows === undefined) child.rows = input.rows;
      }
    }
  }
  return { operators: [...ops.values()], roots: [], totalCost, source: 'plan-details', objects };
}

/**
 * Why Plan Details alone cannot give the tree (undefined: they can): every input stream must name an operator
 * that has a block, and all operators must hang under one root.
 */
function incompleteDetails(ops: Map<number, PlanOperator>, refused: ReadonlySet<number> = new Set()): string | undefined {
  if (ops.size === 0) return 'they list no operator';
  if (refused.size > 0) return `the block${refused.size > 1 ? 's' : ''} of operator${refused.size > 1 ? 's' : ''} ${[...refused].slice(0, 10).join(', ')} ${refused.size > 1 ? 'were' : 'was'} cut where the paste was wrapped and not used`;
  if (![...ops.values()].some((op) => op.inputs.length > 0)) return 'they have no "Input Streams"';
  const missing = [...new Set([...ops.values()].flatMap((op) => op.children.filter((c) => !ops.has(c))))];
  if (missing.length > 0) return `operator${missing.length > 1 ? 's' : ''} ${missing.slice(0, 10).join(', ')} ${missing.length > 1 ? 'have' : 'has'} no block (the text may be cut off)`;
  const hasParent = new Set([...ops.values()].flatMap((op) => op.children));
  const roots = [...ops.keys()].filter((id) => !hasParent.has(id));
  if (roots.length !== 1) return roots.length === 0 ? 'their input streams form a cycle' : `operators ${roots.slice(0, 10).join(', ')} are not an input of any other operator`;
  return undefined;
}

/** Plan Details can stand in for a drawing only when they describe every operator it shows. */
function detailsCover(details: Map<number, PlanOperator>, drawn: PlanOperator[]): boolean {
  return drawn.every((op) => details.has(op.id));
}

/**
 * Plan Details carry full-precision costs, CPU, arguments and predicates. The tree stays the drawing's: when the
 * two disagree, the undamaged graph is trusted and the difference reported.
 */
function mergeDetails(plan: AccessPlan, details: Map<number, PlanOperator>, warnings: ExplainMessage[]): void {
  if (details.size === 0) return;
  for (const op of plan.operators) {
    const d = details.get(op.id);
    if (!d) continue;
    op.totalCost = d.totalCost ?? op.totalCost;
    op.ioCost = d.ioCost ?? op.ioCost;
    op.cpuCost = d.cpuCost ?? op.cpuCost;
    op.firstRowCost = d.firstRowCost ?? op.firstRowCost;
    op.longName = d.longName;
    op.arguments = d.arguments;
    op.predicates = d.predicates;
    if (op.actualRows === undefined) op.actualRows = d.actualRows;
    if (d.type !== op.type) warnings.push({ code: 'details-mismatch', message: `Operator ${op.id} is ${op.label} in the graph but ${d.label} in Plan Details; the graph's name is used.` });
    const drawn = op.children;
    const listed = d.children;
    const same = (a: number[], b: number[]) => a.length === b.length && [...a].sort((x, y) => x - y).every((x, i) => x === [...b].sort((p, q) => p - q)[i]);
    if (d.inputs.length > 0 && !same(drawn, listed)) {
      warnings.push({
        code: 'details-mismatch',
        message: `The graph draws operator ${op.label} (${op.id}) with the inputs [${drawn.join(', ')}] but Plan Details list [${listed.join(', ')}]; the graph was used.`,
      });
    }
    for (const w of d.objectsWritten) if (!op.objectsWritten.some((x) => x === w)) op.objectsWritten.push(w);
  }
}
