import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, signIn } from "./accounts";
import { startApp, type RunningApp } from "./app-server";
import { AI_KEY, FIXTURE_ROOT, MAIL_LOGIN, PEOPLE, figuresOf, signInWithCode, type Cookies, type Expected } from "./data-dir-fixture";
import { startOpenAiTestServer, type OpenAiTestServer } from "./openai-server";
import { startSmtpServer, type TestSmtpServer } from "./smtp-server";
import { startReceiver, type TestReceiver } from "./webhook-receiver";

// Upgrades stay safe by construction (issue 41 item 6): every installation kept under
// tests/fixtures/data-dir (written by an earlier release with tests/data-dir-fixtures.write.test.ts)
// opens with today's code: the same figures on every person's screens and API, every photo's bytes,
// and every secret sealed with its session-secret still opening (two-factor, an API token, the
// webhook's signing secret, the mail server's password and the AI provider's key).
const kept = readdirSync(FIXTURE_ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(path.join(FIXTURE_ROOT, d.name, "expected.json")))
  .map((d) => d.name)
  .sort();

it("keeps at least one installation", () => {
  expect(kept.length).toBeGreaterThan(0);
});

describe.each(kept)("the installation kept as %s", (name) => {
  const expected: Expected = JSON.parse(readFileSync(path.join(FIXTURE_ROOT, name, "expected.json"), "utf8"));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `kept-${name}-`));
  let app: RunningApp;
  let ai: OpenAiTestServer;
  let smtp: TestSmtpServer;
  let receiver: TestReceiver;
  let cookies: Cookies;

  beforeAll(async () => {
    cpSync(path.join(FIXTURE_ROOT, name, "data"), dataDir, { recursive: true });
    [ai, smtp, receiver] = await Promise.all([startOpenAiTestServer(), startSmtpServer({ auth: MAIL_LOGIN }), startReceiver()]);
    app = await startApp({ mongoUri: null, dataDir, env: { OUTBOUND_ALLOW: "loopback" } });
    cookies = {
      admin: await signIn(app, PEOPLE.admin.username, PEOPLE.admin.password),
      // The dealer turned two-factor on: the sealed TOTP secret must still open.
      dealer: await signInWithCode(app, PEOPLE.dealer, expected.totpSecret),
      vendor: await signIn(app, PEOPLE.vendor.username, PEOPLE.vendor.password),
    };
  }, 180_000);
  afterAll(async () => {
    await app?.stop();
    await Promise.all([ai?.close(), smtp?.close(), receiver?.close()]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("shows every figure it showed when it was written, and serves every photo's bytes", async () => {
    expect(await figuresOf(app, cookies)).toEqual(expected.figures);
  });

  it("serves each person's screens", async () => {
    const screens: [keyof Cookies, string][] = [
      ["dealer", "/"], ["dealer", "/estimates"], ["dealer", "/contacts"], ["dealer", "/packages"], ["dealer", "/email"], ["dealer", "/settings"],
      ["vendor", "/"], ["vendor", "/vendor-ai-training"], ["admin", "/user-management"], ["admin", "/admin-settings"], ["admin", "/ai-training"],
    ];
    for (const [who, screen] of screens) {
      const res = await fetch(`${app.url}${screen}`, { headers: { Cookie: cookies[who] } });
      expect(res.status, `${who} ${screen}`).toBe(200);
    }
  });

  it("opens every sealed secret: the API token, the webhook's signing secret, the mail password, the AI key", async () => {
    const byToken = await client(app, { token: expected.apiToken }).get("/api/auth/user");
    expect(byToken.status).toBe(200);
    expect(byToken.json.username).toBe(PEOPLE.dealer.username);

    const dealer = client(app, { cookie: cookies.dealer });
    // The servers moved (new ports); the stored secrets stay: a blank password keeps the sealed one.
    expect((await dealer.put(`/api/webhooks/${expected.webhook.id}`, { url: receiver.url("/kept") })).status).toBe(200);
    expect((await dealer.put("/api/email/settings", { host: smtp.host, port: smtp.port, user: MAIL_LOGIN.user, from: "service@fixture.example" }, { Origin: app.url })).status).toBe(200);
    expect((await dealer.get("/api/email/test")).json).toEqual({ connected: true, via: "account" });
    const admin = client(app, { cookie: cookies.admin });
    expect((await admin.put("/api/admin/ai-provider", { baseURL: ai.baseURL, model: "vision-fixture" })).status).toBe(200);

    const waiting = expected.figures.estimates.find((e) => e.estimatedCost === null)!;
    expect((await dealer.post(`/api/assessments/${waiting.id}/analyze`)).status).toBeLessThan(300);
    await expect.poll(() => ai.requests.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(ai.requests[0].headers.authorization).toBe(`Bearer ${AI_KEY}`);
    await expect.poll(() => receiver.on("/kept").length, { timeout: 30_000 }).toBeGreaterThan(0);
    const delivery = receiver.on("/kept")[0];
    const event = new Webhook(expected.webhook.secret).verify(delivery.body, {
      "webhook-id": String(delivery.headers["webhook-id"]),
      "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
      "webhook-signature": String(delivery.headers["webhook-signature"]),
    }) as { type: string };
    expect(event.type).toBe("assessment.completed");
  });
});
