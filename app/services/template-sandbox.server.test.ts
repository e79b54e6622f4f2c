import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Actor } from "./actor";
import { checkTemplate, renderTemplate, SAMPLE_CONTEXT } from "./email-render.server";
import { previewEmailTemplate } from "./email-templates.server";
import { renderTerms } from "./estimate-terms.server";
import { updateEstimateSettings } from "./estimate-settings.server";
import { MAX_BLOCK_DEPTH, RENDER_BUDGET, renderMetered, sandbox } from "./template-sandbox.server";
import { apiAnswer } from "~/utils/http.server";
import { useTestDb } from "../../tests/test-db";

// Issue 42 item 1 (docs/decisions/0034): account text renders in one sandboxed environment; the
// nested-`each` bomb is refused in well under 100 ms wherever it comes in.

/** `{{#each @root}}` nested `depth` deep: ×4 work per level on an email's context, ×3 on the terms'. */
const eachBomb = (depth: number, inner = "{{@key}}") => "{{#each @root}}".repeat(depth) + inner + "{{/each}}".repeat(depth);

/** The refusal as the API answers it, and how long the refusing took (`ms`: until the error, not the answer's formatting). */
async function refusal(run: () => unknown) {
  const start = performance.now();
  try {
    await run();
  } catch (error) {
    const ms = performance.now() - start;
    const answer = apiAnswer(error);
    if (!answer) throw error;
    return { ms, status: answer.status, body: (await answer.json()) as { message: string; errors?: Record<string, string> } };
  }
  throw new Error("expected a refusal");
}

const timed = <T>(run: () => T) => {
  const start = performance.now();
  const value = run();
  return { value, ms: performance.now() - start };
};

const TERMS_DATA = { customer: "Jane Doe", account: "Acme Body Shop", title: "Front bumper", total: "$1,250.00", validUntil: "Dec 31, 2026" };

beforeAll(async () => {
  await useTestDb();
  // Warm, as a running server is: the parser's first use and the rate counters' first write.
  checkTemplate({ subject: "Hi", htmlContent: "{{#each @root}}{{@key}}{{/each}}" });
  await previewEmailTemplate({ id: "warm-up" } as Actor, { subject: "Hi", htmlContent: "{{date}}" });
});

describe("the nested-each bomb", () => {
  it.each([12, 20])("depth %i (a few hundred bytes) is refused within 100 ms when saved, naming the problem", async (depth) => {
    const htmlContent = eachBomb(depth);
    expect(htmlContent.length).toBeLessThan(500);
    const value = await refusal(() => checkTemplate({ subject: "Hi", htmlContent }));
    expect(value.ms).toBeLessThan(100);
    expect(value.status).toBe(400);
    expect(value.body.errors?.htmlContent).toBe(
      `Template is too complex: blocks ({{#each}}, {{#with}}, {{#if}}…) are nested more than ${MAX_BLOCK_DEPTH} deep on line 1`,
    );
  });

  it.each([12, 20])("depth %i is refused within 100 ms as a preview", async (depth) => {
    const value = await refusal(() => previewEmailTemplate({ id: `bomb-${depth}` } as Actor, { subject: "Hi", htmlContent: eachBomb(depth) }));
    expect(value.ms).toBeLessThan(100);
    expect(value.status).toBe(400);
    expect(value.body.message).toMatch(/^Template is too complex/);
  });

  it("stored in an account's data, it is refused again at render, within 100 ms", async () => {
    const value = await refusal(() => renderTemplate("owner-bomb", { subject: "Hi", htmlContent: eachBomb(20) }, SAMPLE_CONTEXT));
    expect(value.ms).toBeLessThan(100);
    expect(value.status).toBe(400);
  });

  it.each([12, 20])("in the terms (depth %i): refused when saved; stored anyway, the PDF prints it as written within 100 ms", async (depth) => {
    const terms = eachBomb(depth);
    const saved = await refusal(() => updateEstimateSettings({ id: "64b000000000000000000001" } as Actor, { taxParts: 0, taxLabour: 0, taxMaterials: 0, terms, validityDays: 30 }));
    expect(saved.status).toBe(400);
    expect(saved.body.errors?.terms).toMatch(/^Template is too complex/);
    const { value, ms } = timed(() => renderTerms(terms, TERMS_DATA));
    expect(ms).toBeLessThan(100);
    expect(value).toBe(terms);
  });

  it("an else-if chain is one level, and the depth allowed renders", () => {
    const chain = `{{#if a}}A{{else if b}}B{{else if c}}C{{else if d}}D{{else if e}}E{{else if f}}F{{else}}none{{/if}}`;
    expect(checkTemplate({ subject: "Hi", htmlContent: chain }).warnings).toHaveLength(6);
    const deepest = eachBomb(MAX_BLOCK_DEPTH, "x");
    // Each level runs once per key of the context (`@root`).
    expect(renderTemplate("owner-deep", { subject: "Hi", htmlContent: deepest }, SAMPLE_CONTEXT).html).toBe("x".repeat(Object.keys(SAMPLE_CONTEXT).length ** MAX_BLOCK_DEPTH));
  });
});

describe("the render budget", () => {
  it("stops a render that repeats blocks too often", () => {
    const fn = sandbox.compile("{{#each rows}}{{#each ../rows}}.{{/each}}{{/each}}");
    const rows = Array.from({ length: 200 }, (_, i) => i);
    const { value, ms } = timed(() => {
      try {
        renderMetered(fn, { rows });
        return null;
      } catch (error) {
        return error as Error;
      }
    });
    // Whichever limit comes first on this machine: the steps, or the time (read every 64 steps).
    expect(value?.message).toMatch(/^Template is too expensive to render: more than (10000 block repetitions|100 ms)$/);
    expect(ms).toBeLessThan(RENDER_BUDGET.ms + 100);
  });

  it("stops a render whose output grows too large", () => {
    const fn = sandbox.compile("{{#each rows}}{{../text}}{{/each}}");
    expect(() => renderMetered(fn, { rows: Array.from({ length: 300 }, () => 1), text: "x".repeat(10_000) })).toThrow(
      `Template is too expensive to render: more than ${RENDER_BUDGET.outputChars} characters of output`,
    );
  });

  it("an email template over the budget is refused with that message", async () => {
    const context = { ...SAMPLE_CONTEXT, additionalMessage: undefined, contact: { ...SAMPLE_CONTEXT.contact, firstName: "x".repeat(9_000) } };
    const htmlContent = eachBomb(5, "{{@root.contact.firstName}}");
    const answer = await refusal(() => renderTemplate("owner-big", { subject: "Hi", htmlContent }, context));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(
      `Template could not be rendered: Template is too expensive to render: more than ${RENDER_BUDGET.outputChars} characters of output`,
    );
  });
});

describe("the sandbox", () => {
  it("{{log}} in terms writes nothing to the server log, and prints as written", () => {
    // console.error is watched by the suite's setup: any call fails the test.
    const spies = (["log", "info", "warn", "debug"] as const).map((m) => vi.spyOn(console, m).mockImplementation(() => {}));
    const terms = "Valid until {{estimate.validUntil}}. {{log customer.name}}";
    const printed = renderTerms(terms, TERMS_DATA);
    for (const spy of spies) {
      expect(spy).not.toHaveBeenCalled();
      spy.mockRestore();
    }
    expect(printed).toBe(terms);
  });

  it("terms fill their variables, unescaped (printed as text), and reach no prototype", () => {
    expect(renderTerms("{{customer.name}} & {{account.name}}: {{estimate.total}} {{constructor.name}}{{customer.__proto__}}", TERMS_DATA)).toBe(
      "Jane Doe & Acme Body Shop: $1,250.00 ",
    );
  });
});
