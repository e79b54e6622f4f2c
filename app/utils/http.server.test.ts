import { describe, expect, it, vi } from "vitest";
import { serviceUnavailable } from "./db-errors.server";
import { Conflict, DatabaseUnavailable, DuplicateKey, Forbidden, Invalid, NotFound, onField, TooMany, Unauthenticated, Unavailable } from "./domain-errors";
import { answeringDomainErrors, apiAnswer, jsonError, screenAnswer } from "./http.server";
import type { ServerBuild } from "@remix-run/node";

const read = async (response: Response | null) => {
  if (!response) throw new Error("expected an answer");
  return { status: response.status, statusText: response.statusText, retryAfter: response.headers.get("Retry-After"), body: await response.json() };
};

describe("apiAnswer", () => {
  it("answers the models' typed database errors as their thrown Responses did: the outage's 503, the duplicate key's 409", async () => {
    const outage = apiAnswer(new DatabaseUnavailable())!;
    const before = serviceUnavailable();
    expect(await read(outage)).toEqual(await read(before));
    expect(Object.fromEntries(outage.headers)).toEqual(Object.fromEntries(before.headers));
    expect(await read(apiAnswer(new DuplicateKey()))).toEqual({
      status: 409,
      statusText: "",
      retryAfter: null,
      body: { message: "This record conflicts with one already stored; please try again" },
    });
    expect(new DuplicateKey().code).toBe(11000);
    expect(await read(apiAnswer(new Unauthenticated("Unauthorized")))).toMatchObject({ status: 401, body: { message: "Unauthorized" } });
  });

  it("answers each typed error as the API always did: status, {message, errors}, Retry-After", async () => {
    expect(await read(apiAnswer(new NotFound("Contact not found")))).toMatchObject({ status: 404, retryAfter: null, body: { message: "Contact not found" } });
    expect(await read(apiAnswer(new Forbidden("Forbidden")))).toMatchObject({ status: 403, body: { message: "Forbidden" } });
    expect(await read(apiAnswer(new Conflict("Still running", { retryAfterSeconds: 1 })))).toMatchObject({ status: 409, retryAfter: "1" });
    expect(await read(apiAnswer(new Invalid("Vendor not found", { fields: { vendorId: "Vendor not found" } })))).toEqual({
      status: 400,
      statusText: "",
      retryAfter: null,
      body: { message: "Vendor not found", errors: { vendorId: "Vendor not found" } },
    });
    expect((await read(apiAnswer(new Invalid("Too big", { kind: "tooLarge" })))).status).toBe(413);
    expect((await read(apiAnswer(new Invalid("PNG only", { kind: "unsupportedType" })))).status).toBe(415);
    expect((await read(apiAnswer(new Invalid("Unreadable", { kind: "unprocessable" })))).status).toBe(422);
    expect(await read(apiAnswer(new Unavailable("Busy", { retryAfterSeconds: 1 })))).toMatchObject({ status: 503, retryAfter: "1" });
    expect(await read(apiAnswer(new Unauthenticated("Invalid credentials")))).toMatchObject({ status: 401, retryAfter: null, body: { message: "Invalid credentials" } });
    expect(await read(apiAnswer(new TooMany("Too many failed login attempts. Please try again later.", { retryAfterSeconds: 900 })))).toMatchObject({
      status: 429,
      retryAfter: "900",
      body: { message: "Too many failed login attempts. Please try again later." },
    });
  });

  it("is byte for byte the jsonError the services used to throw", async () => {
    const before = jsonError(400, "Contact not found", { contactId: "Contact not found" });
    const after = apiAnswer(new Invalid("Contact not found", { fields: { contactId: "Contact not found" } }))!;
    expect([...after.headers]).toEqual([...before.headers]);
    expect(await after.text()).toBe(await before.text());
  });

  it("keeps an upload refusal's message as the reason phrase (printable ASCII), without field errors", async () => {
    const answer = await read(apiAnswer(new Invalid("Größe überschritten", { shownAsReason: true, fields: { file: "x" } })));
    expect(answer).toMatchObject({ status: 400, statusText: "Gr??e ?berschritten", body: { message: "Größe überschritten" } });
    expect(answer.body).not.toHaveProperty("errors");
  });

  it("names the field on a copy, which is no longer a reason phrase", async () => {
    const original = new NotFound("Upload not found", { shownAsReason: true });
    const copy = onField(original, "mediaUrls");
    expect(copy).toBeInstanceOf(NotFound);
    expect(await read(apiAnswer(copy))).toMatchObject({ status: 404, statusText: "", body: { errors: { mediaUrls: "Upload not found" } } });
    expect(original.fields).toBeUndefined();
  });

  it("leaves anything else to the caller", () => {
    expect(apiAnswer(new Error("boom"))).toBeNull();
    expect(apiAnswer(jsonError(404, "x"))).toBeNull();
  });
});

describe("screenAnswer", () => {
  it("reads a typed refusal or a thrown 4xx JSON Response alike; 5xx and others are not the form's", async () => {
    expect(await screenAnswer(new Invalid("Bad", { fields: { name: "Bad" } }))).toEqual({ status: 400, message: "Bad", fieldErrors: { name: "Bad" }, retryAfter: undefined });
    expect(await screenAnswer(new Conflict("Wait", { retryAfterSeconds: 1 }))).toEqual({ status: 409, message: "Wait", fieldErrors: undefined, retryAfter: "1" });
    expect(await screenAnswer(jsonError(409, "Taken", { username: "Taken" }))).toEqual({ status: 409, message: "Taken", fieldErrors: { username: "Taken" }, retryAfter: undefined });
    expect(await screenAnswer(new Unavailable("Busy"))).toBeNull();
    expect(await screenAnswer(new Error("boom"))).toBeNull();
  });
});

describe("answeringDomainErrors", () => {
  it("makes every route's loader and action throw a typed error on as its API answer", async () => {
    const build = {
      routes: {
        screen: {
          id: "screen",
          module: {
            loader: async () => {
              throw new NotFound("Assessment not found");
            },
            action: async () => {
              throw new Error("boom");
            },
          },
        },
      },
    } as unknown as ServerBuild;
    const served = answeringDomainErrors(build).routes.screen.module;
    const thrown = await (served.loader as () => Promise<unknown>)().catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Response);
    expect(await read(thrown as Response)).toMatchObject({ status: 404, body: { message: "Assessment not found" } });
    await expect((served.action as () => Promise<unknown>)()).rejects.toThrow("boom");
  });
});

describe("api(): an unexpected error", () => {
  it("answers 500 with the request's id, and logs the error under that id", async () => {
    const { api } = await import("./http.server");
    const { log } = await import("./log.server");
    const { runInRequestScope } = await import("./request-scope.server");
    // The suite's setup fails a test that logs an error: this one is expected, and checked.
    vi.mocked(log.error).mockImplementationOnce(() => {});
    const handler = api(async () => {
      throw new Error("the disk said no");
    });
    const response = await runInRequestScope(() => handler({ request: new Request("http://localhost/api/contacts") }), { requestId: "req-500-check" });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ message: "Internal Server Error", requestId: "req-500-check" });
    expect(vi.mocked(log.error)).toHaveBeenCalledWith({ err: expect.objectContaining({ message: "the disk said no" }) }, "unhandled error");
  });
});
