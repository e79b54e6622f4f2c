import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type RunningApp } from "../../tests/app-server";
import { useTestDb } from "../../tests/test-db";

// The description is served to anyone (it describes the API, never an account's data): the JSON at
// /api/openapi.json and a server-rendered page without any script at /api/docs.

let app: RunningApp;
beforeAll(async () => {
  await useTestDb();
  app = await startApp();
});
afterAll(() => app?.stop());

type Doc = { openapi: string; paths: Record<string, Record<string, { operationId: string; security?: unknown[] }>>; components: { securitySchemes: Record<string, { type: string; scheme?: string; in?: string }> } };

describe("GET /api/openapi.json", () => {
  it("answers the OpenAPI 3.1 description with both sign-in schemes, anonymously", async () => {
    const res = await fetch(`${app.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const doc = (await res.json()) as Doc;
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.securitySchemes).toMatchObject({ sessionCookie: { type: "apiKey", in: "cookie" }, bearerToken: { type: "http", scheme: "bearer" } });
    expect(doc.paths["/api/contacts"].post).toMatchObject({ operationId: "createContact", security: [{ sessionCookie: [] }, { bearerToken: [] }] });
    const createContact = doc.paths["/api/contacts"].post as unknown as { requestBody: { content: { "application/json": { schema: { required: string[] }; example: unknown } } }; responses: Record<string, { headers?: Record<string, unknown> }> };
    expect(createContact.requestBody.content["application/json"].schema.required).toEqual(["firstName", "lastName", "email"]);
    expect(createContact.requestBody.content["application/json"].example).toBeTruthy();
    expect(Object.keys(createContact.responses)).toEqual(expect.arrayContaining(["201", "400", "401", "409", "413", "415", "503"]));
    expect(createContact.responses["503"].headers).toHaveProperty("Retry-After");
    expect((doc.paths["/api/admin/login"].post as unknown as { responses: Record<string, { headers?: Record<string, unknown> }> }).responses["429"].headers).toHaveProperty("Retry-After");
  });
});

describe("GET /api/docs", () => {
  it("is a page of every operation, with no script", async () => {
    const res = await fetch(`${app.url}/api/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
    const html = await res.text();
    expect(html).not.toMatch(/<script/i);
    const doc = (await (await fetch(`${app.url}/api/openapi.json`)).json()) as Doc;
    for (const item of Object.values(doc.paths)) for (const op of Object.values(item)) expect(html).toContain(`id="${op.operationId}"`);
    // Text from the description is escaped (an example holds markup).
    expect(html).toContain("&lt;p&gt;Hello {{contact.firstName}}");
  });
});
