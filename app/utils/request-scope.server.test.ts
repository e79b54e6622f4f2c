import { describe, expect, it } from "vitest";
import { requestMemo, runInRequestScope } from "./request-scope.server";

describe("requestMemo", () => {
  it("looks up once per request however many copies of the Request its loaders get", async () => {
    let lookups = 0;
    const who = requestMemo(async (request: Request) => {
      lookups += 1;
      return request.headers.get("Cookie");
    });
    const request = new Request("http://localhost/estimates", { headers: { Cookie: "s=1" } });
    // Remix hands each loader a copy of the request.
    const answers = await runInRequestScope(() => Promise.all([who(request), who(new Request(request)), who(new Request(request))]));
    expect(answers).toEqual(["s=1", "s=1", "s=1"]);
    expect(lookups).toBe(1);
  });

  it("never answers one request with another's lookup", async () => {
    const who = requestMemo(async (request: Request) => request.headers.get("Cookie"));
    const first = runInRequestScope(() => who(new Request("http://localhost/", { headers: { Cookie: "dealer" } })));
    const second = runInRequestScope(() => who(new Request("http://localhost/", { headers: { Cookie: "admin" } })));
    expect(await Promise.all([first, second])).toEqual(["dealer", "admin"]);
    // Outside a scope (a loader called by a test), one lookup per Request object.
    expect(await who(new Request("http://localhost/", { headers: { Cookie: "vendor" } }))).toBe("vendor");
  });
});
