import { describe, expect, it } from "vitest";
import { problemsWithAnswer } from "./openapi-check";

// The helper every API test's answers go through (tests/accounts.ts): it must catch a drift.
const contact = {
  id: "6650c0ffee0123456789abcd",
  ownerId: "6650c0ffee0123456789abce",
  firstName: "Jane",
  lastName: "Doe",
  email: "jane@example.com",
  phone: null,
  companyName: null,
  address: null,
  notes: null,
  createdAt: "2026-11-25T09:30:00.000Z",
  updatedAt: "2026-11-25T09:30:00.000Z",
};
const answer = (over: Partial<Parameters<typeof problemsWithAnswer>[0]>) => ({
  method: "GET",
  path: "/api/contacts/6650c0ffee0123456789abcd?x=1",
  status: 200,
  contentType: "application/json; charset=utf-8",
  body: JSON.stringify(contact),
  ...over,
});

describe("problemsWithAnswer", () => {
  it("accepts an answer as described (extra fields allowed)", () => {
    expect(problemsWithAnswer(answer({}))).toEqual([]);
    expect(problemsWithAnswer(answer({ body: JSON.stringify({ ...contact, later: 1 }) }))).toEqual([]);
    expect(problemsWithAnswer(answer({ status: 404, body: JSON.stringify({ message: "Contact not found" }) }))).toEqual([]);
  });

  it("refuses a body that does not match, an undescribed status and another content type", () => {
    expect(problemsWithAnswer(answer({ body: JSON.stringify({ ...contact, phone: 5 }) }))[0]).toMatch(/phone.*must be string/);
    expect(problemsWithAnswer(answer({ body: JSON.stringify({ ...contact, email: undefined }) }))[0]).toMatch(/must have required property 'email'/);
    expect(problemsWithAnswer(answer({ status: 404, body: JSON.stringify({ error: "x" }) }))[0]).toMatch(/message/);
    expect(problemsWithAnswer(answer({ status: 500, body: "{}" }))[0]).toMatch(/lists only 200, 401, 403, 404, 503/);
    expect(problemsWithAnswer(answer({ contentType: "text/html" }))[0]).toMatch(/Content-Type text\/html/);
  });

  it("matches literal segments before parameters, and skips what is not described", () => {
    const preview = { subject: "Hi", html: "<p>Hi</p>", warnings: [] };
    expect(problemsWithAnswer(answer({ method: "POST", path: "/api/email-templates/preview", body: JSON.stringify(preview) }))).toEqual([]);
    expect(problemsWithAnswer(answer({ method: "PATCH", status: 405, body: "{}" }))).toEqual([]);
    expect(problemsWithAnswer(answer({ path: "/api/nothing-here", status: 404, body: "{}" }))).toEqual([]);
  });
});
