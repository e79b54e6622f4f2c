import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "./accounts";
import { startApp, type RunningApp } from "./app-server";
import { FIXTURE_ROOT, MAIL_LOGIN, PEOPLE, expectSealedSecretsOpen, figuresOf, signInWithCode, type Cookies, type Expected } from "./data-dir-fixture";
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
    await expectSealedSecretsOpen(app, cookies, expected, { ai, smtp, receiver });
  });
});
