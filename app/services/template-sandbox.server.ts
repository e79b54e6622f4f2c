import Handlebars from "handlebars";
import { Invalid } from "~/utils/domain-errors";
import { isRecord, numberField } from "~/utils/unknown-values";

/**
 * The one Handlebars environment that account text renders in: email templates and the estimate
 * terms (docs/decisions/0034). No `log` helper (an account's text never reaches the server log),
 * no partials, decorators or helpers of our own, no prototype properties or methods, block helpers
 * nested at most MAX_BLOCK_DEPTH deep (checked when the text is saved and again before it is
 * compiled, because stored text is untrusted), and every render metered: each block body run counts
 * a step, and a render that passes RENDER_BUDGET's steps, output or time stops with a refusal.
 * Rendering stays synchronous: the depth limit and the step budget bound the work, so no render can
 * hold the event loop longer than the budget's time.
 */
export const sandbox = Handlebars.create();
sandbox.unregisterHelper("log");

/** Explicitly off (not just the default), so a denied lookup renders empty without a console warning. */
export const SANDBOX_RUNTIME = { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false } as const;

/** `{{#each}}` in `{{#with}}` in `{{#if}}`… more than this deep is refused (an `{{else if}}` chain is one level). */
export const MAX_BLOCK_DEPTH = 5;

/**
 * Per render: block bodies run, characters produced by them (an inner body counts again in its outer
 * one) and milliseconds from the first block on (a template compiles on its first render: not counted).
 * Text outside blocks is bounded by the text's own length limit.
 */
export const RENDER_BUDGET = { steps: 10_000, outputChars: 2_000_000, ms: 100 };

const BLOCK_HELPERS = new Set(["if", "unless", "each", "with"]);
const BUILT_IN_HELPERS = new Set([...BLOCK_HELPERS, "lookup"]);

type Node = hbs.AST.Node & { loc?: hbs.AST.SourceLocation };
const lineOf = (node: Node) => node.loc?.start.line ?? 1;

// The parser's nodes say what they are by `type`; these guards let the checker follow it.
type Call = hbs.AST.MustacheStatement | hbs.AST.BlockStatement | hbs.AST.SubExpression;
const isProgram = (node: Node): node is hbs.AST.Program => node.type === "Program";
const isCall = (node: Node): node is Call => node.type === "MustacheStatement" || node.type === "BlockStatement" || node.type === "SubExpression";
const isMustache = (node: Node): node is hbs.AST.MustacheStatement => node.type === "MustacheStatement";
const isBlock = (node: Node): node is hbs.AST.BlockStatement => node.type === "BlockStatement";
const isPath = (node: Node): node is hbs.AST.PathExpression => node.type === "PathExpression";
/** `{{else if …}}` is a block inside the inverse marked as chained (a field the types leave out). */
const isChained = (program: hbs.AST.Program | undefined) => Boolean(program && "chained" in program && program.chained);

export interface ParseRules {
  /** The form field the text came from: a refusal names it. */
  field: string;
  /** Variables the text may name; others come back as warnings. */
  known: ReadonlySet<string>;
  /** `{{{x}}}` and `{{& x}}`: refused in HTML, harmless in text printed as text. */
  allowUnescaped: boolean;
}

const refuse = (field: string, message: string) => new Invalid(message, { fields: { [field]: message } });

/** Parses account text: 400 naming the line of a parse error, a construct we do not allow or a nesting too deep. */
export function parseSandboxed(source: string, { field, known, allowUnescaped }: ParseRules) {
  let program: hbs.AST.Program;
  try {
    program = sandbox.parse(source);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // "Parse error on line 3: …" from the parser; a mismatched block carries `lineNumber` instead.
    const line = numberField(error, "lineNumber") ?? /line (\d+)/.exec(message)?.[1] ?? "1";
    const detail = message.includes("Parse error") ? message.split("\n").pop()?.trim() : message.replace(/ - \d+:\d+$/, "");
    throw refuse(field, `Template does not compile: parse error on line ${line}${detail ? ` (${detail})` : ""}`);
  }
  const warnings: string[] = [];
  const noteVariable = (path: hbs.AST.PathExpression, node: Node) => {
    // `this`, `@index`, `../x` and the like belong to a block: not ours to name.
    if (path.data || path.depth > 0 || /^this\b/.test(path.original)) return;
    if (!known.has(path.original)) {
      const warning = `Unknown variable {{${path.original}}} on line ${lineOf(node)}: it renders empty`;
      if (!warnings.includes(warning)) warnings.push(warning);
    }
  };
  const visit = (node: Node | undefined | null, depth: number): void => {
    if (!node) return;
    if (isProgram(node)) {
      node.body.forEach((child) => visit(child, depth));
      return;
    }
    if (isPath(node)) {
      noteVariable(node, node);
      return;
    }
    if (isCall(node)) {
      if (isMustache(node) && !allowUnescaped && !node.escaped) {
        throw refuse(field, `Template does not compile: unescaped output ({{{ }}} or {{& }}) on line ${lineOf(node)} is not allowed`);
      }
      const path = node.path;
      const isHelper = node.params.length > 0 || node.type === "BlockStatement" || Boolean(node.hash?.pairs.length);
      if (isPath(path) && !(isHelper && BUILT_IN_HELPERS.has(path.original))) {
        if (isHelper) throw refuse(field, `Template does not compile: unknown helper "${path.original}" on line ${lineOf(node)}`);
        noteVariable(path, node);
      }
      node.params.forEach((param) => visit(param, depth));
      node.hash?.pairs.forEach((pair) => visit(pair.value, depth));
      if (isBlock(node)) {
        const block = node;
        const inner = depth + 1;
        if (inner > MAX_BLOCK_DEPTH) {
          throw refuse(
            field,
            `Template is too complex: blocks ({{#each}}, {{#with}}, {{#if}}…) are nested more than ${MAX_BLOCK_DEPTH} deep on line ${lineOf(node)}`,
          );
        }
        visit(block.program, inner);
        // `{{else if …}}` is a block inside the inverse marked as chained: the same level, not a deeper one.
        visit(block.inverse, isChained(block.inverse) ? depth : inner);
      }
      return;
    }
    switch (node.type) {
      case "PartialStatement":
      case "PartialBlockStatement":
      case "Decorator":
      case "DecoratorBlock":
        throw refuse(field, `Template does not compile: partials and decorators (line ${lineOf(node)}) are not allowed`);
      default:
        return;
    }
  };
  visit(program, 0);
  return { program, warnings };
}

/** A render that went over its budget; its message names which limit. */
export class RenderBudgetExceeded extends Error {
  constructor(what: string) {
    super(`Template is too expensive to render: ${what}`);
    this.name = "RenderBudgetExceeded";
  }
}

interface Meter {
  steps: number;
  chars: number;
  /** 0 until the first block runs. */
  deadline: number;
}

// Renders are synchronous, so the render running now is the only one: its meter is module state.
let meter: Meter | null = null;

function step(out?: string) {
  if (!meter) return;
  if (out === undefined) {
    meter.steps += 1;
    if (meter.deadline === 0) meter.deadline = performance.now() + RENDER_BUDGET.ms;
    if (meter.steps > RENDER_BUDGET.steps) throw new RenderBudgetExceeded(`more than ${RENDER_BUDGET.steps} block repetitions`);
    // The clock is read every 64 steps: cheap, and a step is far under a millisecond.
    if ((meter.steps & 63) === 0 && performance.now() > meter.deadline) {
      throw new RenderBudgetExceeded(`more than ${RENDER_BUDGET.ms} ms`);
    }
    return;
  }
  meter.chars += out.length;
  if (meter.chars > RENDER_BUDGET.outputChars) throw new RenderBudgetExceeded(`more than ${RENDER_BUDGET.outputChars} characters of output`);
}

type BlockFn = Handlebars.HelperOptions["fn"];
/** A helper's last argument: Handlebars always passes its options there (with `hash`). */
const isHelperOptions = (value: unknown): value is Handlebars.HelperOptions => isRecord(value) && "hash" in value;
const metered = (fn: BlockFn | undefined): BlockFn | undefined =>
  fn &&
  ((context: unknown, options?: Handlebars.RuntimeOptions) => {
    step();
    const out = fn(context, options);
    step(out);
    return out;
  });

// `unless` calls the registered `if` with its bodies swapped: metered there.
for (const name of ["if", "each", "with"] as const) {
  const original = sandbox.helpers[name];
  sandbox.registerHelper(name, function (this: unknown, ...args: unknown[]) {
    const options = args[args.length - 1];
    if (isHelperOptions(options)) args[args.length - 1] = { ...options, fn: metered(options.fn), inverse: metered(options.inverse) };
    return Reflect.apply(original, this, args);
  });
}

/** Runs a compiled template within RENDER_BUDGET; RenderBudgetExceeded when it goes over. */
export function renderMetered<T>(fn: HandlebarsTemplateDelegate<T>, context: T) {
  const previous = meter;
  meter = { steps: 0, chars: 0, deadline: 0 };
  try {
    return fn(context, SANDBOX_RUNTIME);
  } finally {
    meter = previous;
  }
}
