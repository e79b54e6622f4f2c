import { describe, expect, it } from "vitest";
import { checkbox } from "~/schemas/fields";
import { openApiDocument } from "./document.server";

// A form's checkbox and the API share one schema (schemas/fields.ts): the description admits every
// value the API accepts, so a client generated from it may send them and a conformance check sees no
// "schema-violating request accepted" (Schemathesis ST201: `isDefault: ""` was taken as false).
describe("checkbox fields in the API description", () => {
  const body = (path: string, method: "post" | "put") =>
    (openApiDocument() as unknown as { paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: { properties: Record<string, { type?: unknown; anyOf?: { type: string; enum?: unknown[] }[] }> } }> } }>> })
      .paths[path][method].requestBody.content["application/json"].schema.properties;

  it("lists exactly the values the schema accepts, on every body that has one", () => {
    const accepted = [true, false, "on", "true", "false", ""];
    for (const value of accepted) expect(checkbox.safeParse(value).success, String(value)).toBe(true);
    for (const value of ["yes", 1, null, {}]) expect(checkbox.safeParse(value).success, String(value)).toBe(false);
    for (const [path, method, field] of [
      ["/api/email-templates", "post", "isDefault"],
      ["/api/email/settings", "put", "secure"],
    ] as const) {
      // A boolean, or one of a form's strings: one type per branch (a generated client refuses an enum of mixed types).
      const described = body(path, method)[field];
      expect(described.type, `${method} ${path} ${field}`).toBeUndefined();
      expect(described.anyOf, `${method} ${path} ${field}`).toEqual([{ type: "boolean" }, { type: "string", enum: ["on", "true", "false", ""] }]);
    }
  });
});
