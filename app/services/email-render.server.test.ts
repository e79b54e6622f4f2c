import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "./actor";
import {
  checkTemplate,
  clearTemplateCache,
  compiledSizeEstimate,
  htmlToText,
  renderTemplate,
  SAMPLE_CONTEXT,
  TEMPLATE_CACHE_BYTES,
} from "./email-render.server";
import { previewEmailTemplate } from "./email-templates.server";
import { apiAnswer } from "~/utils/http.server";
import { useTestDb } from "../../tests/test-db";

// Previews count against the account's limit in the database.
beforeAll(async () => {
  await useTestDb();
});

async function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    // As the API answers it.
    const answer = apiAnswer(error);
    if (!answer) throw error;
    return { status: answer.status, body: (await answer.json()) as { message: string; errors: Record<string, string> } };
  }
  throw new Error("expected a refusal");
}

const render = (htmlContent: string, context = SAMPLE_CONTEXT, owner = "owner-a") =>
  renderTemplate(owner, { subject: "Estimate for {{contact.firstName}}", htmlContent }, context);

describe("email templates", () => {
  it("fills the spec's variables and escapes what they bring in", () => {
    const context = { ...SAMPLE_CONTEXT, contact: { firstName: "<b>Jane</b>", lastName: "O'Neil", email: "j@example.com" } };
    const out = render(
      "<p>{{contact.firstName}} {{contact.lastName}} {{contact.email}} {{assessment.title}} {{assessment.vehicle}} {{assessment.estimatedCost}} {{date}}</p>",
      context,
    );
    expect(out.html).toContain("&lt;b&gt;Jane&lt;/b&gt; O&#x27;Neil j@example.com Front bumper and headlight 2021 Toyota Camry $1,250.00");
    expect(out.html).toContain(SAMPLE_CONTEXT.date);
    expect(out.subject).toBe("Estimate for <b>Jane</b>");
    expect(out.text).toContain("<b>Jane</b> O'Neil");
  });

  it("renders prototype access empty", () => {
    const out = render("[{{constructor}}][{{__proto__}}][{{contact.constructor}}][{{contact.constructor.name}}][{{lookup contact 'constructor'}}][{{contact.__proto__.toString}}]");
    expect(out.html).toBe("[][][][][][]");
  });

  it("collapses line breaks a variable brings into the subject (no header injection)", () => {
    const context = { ...SAMPLE_CONTEXT, contact: { ...SAMPLE_CONTEXT.contact, firstName: "Jane\r\nBcc: victim@example.com" } };
    expect(render("x", context).subject).toBe("Estimate for Jane Bcc: victim@example.com");
  });

  it("answers 400 with the line of a parse error", async () => {
    const bad = await refusal(() => checkTemplate({ subject: "ok", htmlContent: "line one\nline two\n{{#if contact.firstName}\n" }));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/parse error on line 3/);
    expect(bad.body.errors.htmlContent).toBe(bad.body.message);
    const mismatch = await refusal(() => checkTemplate({ subject: "ok", htmlContent: "a\n{{#if date}}\nb\n{{/each}}" }));
    expect(mismatch.body.message).toMatch(/line 2/);
  });

  it("refuses unescaped output, partials and unknown helpers", async () => {
    for (const htmlContent of ["{{{contact.firstName}}}", "{{& contact.firstName}}", "{{> header}}", "{{shout contact.firstName}}"]) {
      const bad = await refusal(() => checkTemplate({ subject: "ok", htmlContent }));
      expect(bad.status, htmlContent).toBe(400);
    }
  });

  it("lists unknown variables as warnings, and keeps block-local names out of them", () => {
    const { warnings } = checkTemplate({ subject: "{{customer.name}}", htmlContent: "{{contact.phone}}\n{{#with contact}}{{this.firstName}}{{/with}}{{#if date}}{{date}}{{/if}}" });
    expect(warnings).toEqual([
      "Unknown variable {{customer.name}} on line 1: it renders empty",
      "Unknown variable {{contact.phone}} on line 1: it renders empty",
    ]);
  });

  it("caches compiled templates per account by content, and clears one account's", () => {
    clearTemplateCache("owner-b");
    clearTemplateCache("owner-c");
    render("one {{date}}", SAMPLE_CONTEXT, "owner-b");
    render("one {{date}}", SAMPLE_CONTEXT, "owner-b");
    render("two {{date}}", SAMPLE_CONTEXT, "owner-b");
    render("one {{date}}", SAMPLE_CONTEXT, "owner-c");
    // Subject and content of each: owner-b has the subject once and two contents.
    expect(clearTemplateCache("owner-b")).toBe(3);
    expect(clearTemplateCache("owner-b")).toBe(0);
    expect(clearTemplateCache("owner-c")).toBe(2);
  });

  it("never keeps a preview of unsaved text compiled", async () => {
    clearTemplateCache("owner-p");
    for (let i = 0; i < 5; i += 1) {
      const out = await previewEmailTemplate({ id: "owner-p" } as Actor, { subject: `Draft ${i} {{date}}`, htmlContent: `<p>Draft ${i} {{contact.firstName}}</p>` });
      expect(out.html).toBe(`<p>Draft ${i} Jane</p>`);
    }
    expect(clearTemplateCache("owner-p")).toBe(0);
  });

  it("bounds the compiled templates it keeps by their size, not their number", () => {
    clearTemplateCache("owner-z");
    // About 4 MiB each by the estimate (plain text compiles fast): 12 of them would be 48 MiB.
    const big = (i: number) => `<p>${i}</p>${"x".repeat(1_000_000)}`;
    for (let i = 0; i < 12; i += 1) render(big(i), SAMPLE_CONTEXT, "owner-z");
    const fits = Math.floor(TEMPLATE_CACHE_BYTES / compiledSizeEstimate(big(10)));
    const kept = clearTemplateCache("owner-z") - 1; // the subject, shared by all
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThanOrEqual(fits);
    expect(fits).toBeLessThan(12);
    // One bigger than the whole budget renders and is not kept.
    const huge = `{{date}}${"x".repeat(TEMPLATE_CACHE_BYTES / 4)}`;
    expect(render(huge, SAMPLE_CONTEXT, "owner-z").html).toContain(SAMPLE_CONTEXT.date);
    expect(clearTemplateCache("owner-z")).toBe(1);
  });

  it("keeps the additional message, escaped, with its lines", () => {
    const out = render("<p>Hi</p>", { ...SAMPLE_CONTEXT, additionalMessage: "Call me <today>\nThanks" });
    expect(out.html).toContain("<p>Call me &lt;today&gt;<br>Thanks</p>");
    expect(htmlToText(out.html)).toBe("Hi\n\nCall me <today>\nThanks");
  });
});
