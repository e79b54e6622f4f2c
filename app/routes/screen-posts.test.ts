import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUser, signIn } from "../../tests/accounts";
import { type RunningApp } from "../../tests/app-server";
import { startSignedInApp } from "../../tests/signed-in-app";

// Screen actions take form posts; anything else used to reach Remix and come back as a 500.
let app: RunningApp;
let cookie: string;
beforeAll(async () => {
  ({ app, cookie } = await startSignedInApp());
});
afterAll(() => app?.stop());

const post = (path: string, body: string, headers: Record<string, string>) =>
  fetch(`${app.url}${path}`, { method: "POST", redirect: "manual", headers, body });

describe("screen posts", () => {
  it.each([
    ["JSON", "application/json", '{"username":"a","password":"b"}'],
    ["plain text", "text/plain", "username=a&password=b"],
    ["multipart without a boundary", "multipart/form-data", "x"],
    ["no type at all", "", "username=a"],
  ])("a %s body is 415, not 500, on the anonymous login screens and on a signed-in screen", async (_, type, body) => {
    for (const [path, headers] of [
      ["/login", {}],
      ["/admin/login", {}],
      ["/contacts", { Cookie: cookie }],
    ] as const) {
      const res = await post(path, body, { ...headers, ...(type ? { "Content-Type": type } : {}) });
      expect(res.status, `${path} ${type}`).toBe(415);
      expect((await res.json()).message).toBe("Send the form as application/x-www-form-urlencoded or multipart/form-data");
    }
  });

  it("a cookie form post from another origin is a clean 403, with or without Sec-Fetch-Site", async () => {
    const form = { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie };
    const foreign: Record<string, string>[] = [{ Origin: "https://evil.example" }, { Origin: "null" }, { "Sec-Fetch-Site": "cross-site" }];
    for (const extra of foreign) {
      const res = await post("/contacts", "intent=create&firstName=A&lastName=B&email=a%40example.com", { ...form, ...extra });
      expect(res.status, JSON.stringify(extra)).toBe(403);
      expect(await res.json()).toEqual({ message: "Cross-site request rejected" });
    }
    // The same post from this site goes through.
    const own = await post("/contacts", "intent=create&firstName=A&lastName=B&email=a%40example.com", { ...form, Origin: app.url });
    expect(own.status).toBe(302);
  });
});

describe("request bodies", () => {
  const token = () => ({ Cookie: cookie, "Content-Type": "application/json", Origin: app.url });

  it("are at most 1 MiB of JSON on the API and 64 KiB of form on a screen: 413, nothing stored", async () => {
    const count = async () => ((await (await fetch(`${app.url}/api/contacts`, { headers: { Cookie: cookie } })).json()) as unknown[]).length;
    const before = await count();
    const big = JSON.stringify({ firstName: "A", lastName: "B", email: "a@example.com", notes: "x".repeat(1024 * 1024) });
    const api = await post("/api/contacts", big, token());
    expect(api.status).toBe(413);
    expect((await api.json()).message).toBe("Request body too large (at most 1024 KiB)");
    const form = await post("/login", `username=a&password=${"x".repeat(70 * 1024)}`, {
      "Content-Type": "application/x-www-form-urlencoded",
    });
    expect(form.status).toBe(413);
    expect((await post("/api/contacts", JSON.stringify({ firstName: "A", lastName: "B", email: "a@example.com" }), token())).status).toBe(201);
    expect(await count()).toBe(before + 1);
  });

  it("need a length outside the upload routes (411 for a chunked body)", async () => {
    const chunked = await fetch(`${app.url}/api/contacts`, {
      method: "POST",
      headers: token(),
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("{}"));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(411);
  });
});

describe("pricing knowledge screens", () => {
  const form = (extra: Record<string, string>) => ({ "Content-Type": "application/x-www-form-urlencoded", Origin: app.url, ...extra });

  it("the AI Training Center's posts are refused to a dealer (403) and store nothing", async () => {
    const res = await post("/ai-training", "intent=create&imageUrl=%2Fmedia%2Fx&damageType=dent&severity=minor&description=x&estimatedCost=1", form({ Cookie: cookie }));
    expect(res.status).toBe(403);
    const { TrainingItem } = await import("~/models/training-item.server");
    expect(await TrainingItem.countDocuments()).toBe(0);
  });

  it("a vendor's rule posts land on its own pricing whatever ?vendor= says; a dealer's are refused", async () => {
    const { PricingRule } = await import("~/models/pricing-rule.server");
    const [me, other] = [await createTestUser({ role: "vendor" }), await createTestUser({ role: "vendor" })];
    const mine = await signIn(app, me.username, me.password);
    const body = "intent=create-rule&damageType=dent&severity=minor&basePrice=100&laborRate=80&isActive=on";
    const res = await post(`/vendor-ai-training?vendor=${other.id}`, body, form({ Cookie: mine }));
    expect(res.status).toBe(302);
    expect(await PricingRule.countDocuments({ vendorId: me.id })).toBe(1);
    expect(await PricingRule.countDocuments({ vendorId: other.id })).toBe(0);

    const refused = await post(`/vendor-ai-training?vendor=${me.id}`, body.replace("minor", "major"), form({ Cookie: cookie }));
    expect(refused.status).toBe(302);
    expect(await PricingRule.countDocuments({ vendorId: me.id })).toBe(1);
  });
});

describe("kept-alive connections", () => {
  it("an answer given without reading the body (401 before parsing, a logout) does not stall the next request on that socket", async () => {
    const body = JSON.stringify({ firstName: "x".repeat(900_000) });
    const failures: string[] = [];
    for (const path of ["/api/contacts", "/api/logout", "/api/contacts"]) {
      for (const size of ["large", "small"] as const) {
        const res = await fetch(`${app.url}${path}`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Origin: app.url },
          body: size === "large" ? body : "{}",
          signal: AbortSignal.timeout(5_000),
        }).catch((error: Error) => error);
        if (res instanceof Error) failures.push(`${path} ${size}: ${res.name}`);
        else await res.text();
      }
    }
    expect(failures).toEqual([]);
  });
});

describe("answers", () => {
  it("a JSON answer goes out whole with its Content-Length (no chunked framing); a page still streams", async () => {
    const head = (path: string, headers: Record<string, string>) =>
      new Promise<{ headers: Record<string, unknown>; body: string }>((resolve, reject) => {
        http
          .get(`${app.url}${path}`, { headers }, (res) => {
            let body = "";
            res.setEncoding("utf8").on("data", (chunk) => (body += chunk));
            res.on("end", () => resolve({ headers: res.headers, body }));
          })
          .on("error", reject);
      });
    const api = await head("/api/contacts", { Cookie: cookie });
    expect(api.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(api.headers["content-length"])).toBe(Buffer.byteLength(api.body));
    expect(Array.isArray(JSON.parse(api.body))).toBe(true);
    const page = await head("/contacts", { Cookie: cookie });
    expect(page.headers["transfer-encoding"]).toBe("chunked");
    expect(page.body).toContain("</html>");
  });
});
