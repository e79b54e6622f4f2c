import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENT_DATA, WEBHOOK_EXAMPLE_DATA } from "~/schemas/webhook-events";
import { WEBHOOK_EVENT_TYPES } from "~/schemas/webhooks";
import { openApiDocument } from "./document.server";

// Issue 42 item 6: every webhook event's payload is in the description's `webhooks` object, from the
// schemas the service builds payloads with (app/schemas/webhook-events.ts), with its delivery headers.

type Op = { description?: string; parameters?: { in: string; name: string }[]; requestBody?: { content: Record<string, { schema: { $ref?: string } }> } };
const doc = openApiDocument() as unknown as { webhooks?: Record<string, { post?: Op }>; components: { schemas: Record<string, { properties?: Record<string, { $ref?: string }> }> } };

describe("the description's webhooks", () => {
  it.each(WEBHOOK_EVENT_TYPES)("%s: its body's data is a named schema, and its delivery headers are listed", (type) => {
    const op = doc.webhooks?.[type]?.post;
    expect(op, `webhooks["${type}"].post`).toBeDefined();
    const ref = op!.requestBody!.content["application/json"]!.schema.$ref!;
    const envelope = doc.components.schemas[ref.replace("#/components/schemas/", "")];
    expect(envelope?.properties?.data?.$ref).toMatch(/^#\/components\/schemas\/\w+EventData$/);
    for (const header of ["webhook-id", "webhook-timestamp", "webhook-signature"]) {
      expect(op!.parameters?.some((p) => p.in === "header" && p.name === header), header).toBe(true);
      expect(op!.description).toContain(`\`${header}\``);
    }
  });

  it("each example payload is one its schema takes, and a field the schema lacks is refused", () => {
    for (const type of WEBHOOK_EVENT_TYPES) expect(() => WEBHOOK_EVENT_DATA[type].parse(WEBHOOK_EXAMPLE_DATA[type]), type).not.toThrow();
    expect(() => WEBHOOK_EVENT_DATA["assessment.completed"].parse({ ...WEBHOOK_EXAMPLE_DATA["assessment.completed"], photos: [] })).toThrow(/photos/);
  });
});
