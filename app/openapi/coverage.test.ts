import { describe, expect, it } from "vitest";
import { routes } from "../../tests/route-registry";
import { openApiDocument } from "./document.server";

// The description covers the API: every method of every /api route file (tests/route-registry.ts,
// itself held to app/routes by tests/security/route-registry.test.ts) has an operation, and no
// operation describes a route that does not exist.

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, "{$1}");
const doc = openApiDocument() as unknown as { paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>> };

describe("the OpenAPI description", () => {
  const expected = routes
    .filter((r) => r.kind === "api")
    .flatMap((r) => Object.keys(r.methods).map((m) => `${m} ${toOpenApiPath(r.path)}`));
  const described = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));

  it("describes every method of every API route file", () => {
    expect(expected.filter((op) => !described.includes(op)), "API routes missing from app/openapi (register them in their area's module)").toEqual([]);
  });

  it("describes no operation that has no route", () => {
    expect(described.filter((op) => !expected.includes(op))).toEqual([]);
  });

  // Companion's s3/sts exists only to say that temporary credentials are not offered (404).
  const NEVER_SUCCEEDS = new Set(["companionSts"]);

  it("gives every operation a unique id, a success answer and the 503 every route may give", () => {
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(ids.filter((id, i) => !id || ids.indexOf(id) !== i)).toEqual([]);
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const statuses = Object.keys(op.responses ?? {});
        if (!NEVER_SUCCEEDS.has(op.operationId ?? "")) expect(statuses.some((s) => /^[23]/.test(s)), `${method} ${path}`).toBe(true);
        expect(statuses, `${method} ${path}`).toContain("503");
      }
    }
  });
});

describe("what the description says a parameter takes", () => {
  it("lists the empty and 'all' status filters the estimates list takes (Schemathesis, ST201 on GET /api/assessments?status=)", () => {
    const op = (doc.paths["/api/assessments"] as unknown as Record<string, { parameters?: { name: string; schema?: { enum?: string[] } }[] }>).get;
    const status = op.parameters?.find((p) => p.name === "status");
    expect(status?.schema?.enum).toEqual(expect.arrayContaining(["", "all", "completed"]));
  });
});
