import { gunzipSync, gzipSync } from "node:zlib";
import { generate } from "otplib";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Types } from "mongoose";
import { Assessment } from "~/models/assessment.server";
import { Contact } from "~/models/contact.server";
import { SessionRecord } from "~/models/session.server";
import { User } from "~/models/user.server";
import { client, createTestUser, signIn, tokenFor } from "../../tests/accounts";
import { startApp, type RunningApp } from "../../tests/app-server";
import { useTestDb } from "../../tests/test-db";
import { uploadMedia } from "../../tests/uploads";

let app: RunningApp;
beforeAll(async () => {
  await useTestDb();
  app = await startApp();
});
afterAll(() => app?.stop());

const form = (cookie: string, body: Record<string, string>, path = "/settings?tab=security") =>
  fetch(`${app.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: cookie, Origin: app.url, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(body),
  });
const page = async (cookie: string, path: string) => (await fetch(`${app.url}${path}`, { headers: { Cookie: cookie } })).text();

describe("PUT /api/auth/user", () => {
  it("updates the caller's profile with the spec's rules, and only the listed fields", async () => {
    const u = await createTestUser({ role: "dealer" });
    const c = client(app, { cookie: await signIn(app, u.username, u.password) });
    const res = await c.put("/api/auth/user", {
      firstName: " Ann ",
      lastName: "Lee",
      email: "ann@example.com",
      phone: "555",
      companyName: "Lee Motors",
      role: "admin",
      username: "hijack",
      currentPassword: u.password,
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ firstName: "Ann", lastName: "Lee", email: "ann@example.com", phone: "555", companyName: "Lee Motors", role: "dealer" });
    const stored = await User.findById(u.id).lean();
    expect(stored).toMatchObject({ role: "dealer", username: u.username });
    // A blank optional field clears it; one left out keeps what is stored.
    const cleared = await c.put("/api/auth/user", { firstName: "Ann", lastName: "Lee", email: "ann@example.com", phone: "" });
    expect(cleared.json).toMatchObject({ phone: null, companyName: "Lee Motors" });
    const kept = await c.put("/api/auth/user", { firstName: "Ann", lastName: "Lee", email: "ann@example.com" });
    expect(kept.json).toMatchObject({ phone: null, companyName: "Lee Motors" });
    const blank = await c.put("/api/auth/user", { firstName: "Ann", lastName: "Lee", email: "ann@example.com", companyName: "  " });
    expect(blank.json.companyName).toBeNull();
    expect((await c.put("/api/auth/user", { firstName: "A", lastName: "B", email: "a@b.co", phone: { $ne: null } })).json.errors?.phone).toBe("Phone must be text");
  });

  it("every account, vendors included, keeps company, address and phone; a vendor's name and address answer GET /api/vendors", async () => {
    const v = await createTestUser({ role: "vendor" });
    const c = client(app, { cookie: await signIn(app, v.username, v.password) });
    const res = await c.put("/api/auth/user", {
      firstName: "Vic",
      lastName: "Vendor",
      email: "vic@example.com",
      phone: "555-0100",
      companyName: "Vic's Body Works",
      address: "12 Main St, Springfield",
      // A new email needs the current password (re-authentication).
      currentPassword: v.password,
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({ phone: "555-0100", companyName: "Vic's Body Works", address: "12 Main St, Springfield" });
    expect((await c.get("/api/auth/user")).json.address).toBe("12 Main St, Springfield");
    const vendors = (await c.get("/api/vendors")).json as { id: string; name: string; address: string | null }[];
    expect(vendors.find((x) => x.id === v.id)).toEqual({ id: v.id, name: "Vic's Body Works", address: "12 Main St, Springfield" });
    // The Profile form posts it too (a plain form post).
    const form = await c.post(
      "/settings?tab=profile",
      new URLSearchParams({ intent: "update-profile", firstName: "Vic", lastName: "Vendor", email: "vic@example.com", phone: "", companyName: "Vic's Body Works", address: "14 Main St" }).toString(),
      { "Content-Type": "application/x-www-form-urlencoded", Origin: app.url },
    );
    expect(form.status, form.text.slice(0, 200)).toBeLessThan(400);
    expect(await User.findById(v.id).lean()).toMatchObject({ address: "14 Main St", companyName: "Vic's Body Works" });
    expect((await User.findById(v.id).lean())?.phone).toBeUndefined();
  });

  it("refuses bad input with the messages: 400 per field, 415 for a non-JSON body, 413 past 1 MiB, 401 anonymous", async () => {
    const u = await createTestUser({ role: "vendor" });
    const c = client(app, { cookie: await signIn(app, u.username, u.password) });
    const bad = await c.put("/api/auth/user", { firstName: "", lastName: "X", email: "nope" });
    expect(bad.status).toBe(400);
    expect(bad.json.errors).toEqual({ firstName: "First name is required", email: "Invalid email address" });
    const typed = await c.put("/api/auth/user", { firstName: 5, lastName: "X", email: "a@b.co" });
    expect(typed.json.errors.firstName).toBe("First name must be text");
    expect((await c.put("/api/auth/user", "firstName=A", { "Content-Type": "text/plain" })).status).toBe(415);
    const big = await c.put("/api/auth/user", { firstName: "A", lastName: "B", email: "a@b.co", phone: "x".repeat(1024 * 1024) });
    expect(big.status).toBe(413);
    expect((await client(app).put("/api/auth/user", { firstName: "A" })).status).toBe(401);
  });

  it("works with a Bearer token too (the caller's own account, no id to name another)", async () => {
    const u = await createTestUser({ role: "dealer" });
    const { tokenFor } = await import("../../tests/accounts");
    const c = client(app, { token: await tokenFor(u.id) });
    const res = await c.put("/api/auth/user", { firstName: "Tok", lastName: "En", email: "t@example.com", currentPassword: u.password });
    expect(res.status).toBe(200);
    expect((await User.findById(u.id).lean())?.firstName).toBe("Tok");
  });
});

describe("PUT /api/auth/preferences", () => {
  it("stores theme, language, login notifications and the default vendor; refuses unknown fields and values", async () => {
    const u = await createTestUser({ role: "dealer" });
    const vendor = await createTestUser({ role: "vendor" });
    const c = client(app, { cookie: await signIn(app, u.username, u.password) });
    const ok = await c.put("/api/auth/preferences", { theme: "dark", language: "fr", loginNotifications: true, defaultVendorId: vendor.id });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ theme: "dark", language: "fr", loginNotifications: true, defaultVendorId: vendor.id });
    expect((await c.put("/api/auth/preferences", { theme: "pink" })).json.errors.theme).toBe("Theme must be dark, light or auto");
    expect((await c.put("/api/auth/preferences", { role: "admin" })).status).toBe(400);
    expect((await c.put("/api/auth/preferences", {})).status).toBe(400);
    // Another dealer is not a vendor.
    const other = await createTestUser({ role: "dealer" });
    const notVendor = await c.put("/api/auth/preferences", { defaultVendorId: other.id });
    expect(notVendor.status).toBe(400);
    expect(notVendor.json.errors.defaultVendorId).toBe("Vendor not found");
    expect((await c.put("/api/auth/preferences", { defaultVendorId: null })).json.defaultVendorId).toBeNull();
  });

  it("the upload wizard preselects the account's default vendor", async () => {
    const u = await createTestUser({ role: "dealer" });
    const vendor = await createTestUser({ role: "vendor" });
    const cookie = await signIn(app, u.username, u.password);
    const c = client(app, { cookie });
    await uploadMedia(c);
    const selected = async () => /<option value="([a-f0-9]{24})" selected/.exec(await page(cookie, "/upload?step=details"))?.[1] ?? null;
    expect(await selected()).toBeNull();
    // Chosen on the Profile tab (a form post, JavaScript or not).
    expect((await form(cookie, { intent: "default-vendor", defaultVendorId: vendor.id }, "/settings?tab=profile")).status).toBe(302);
    expect(await selected()).toBe(vendor.id);
    expect((await form(cookie, { intent: "default-vendor", defaultVendorId: "" }, "/settings?tab=profile")).status).toBe(302);
    expect(await selected()).toBeNull();
  });

  it("renders the next page dark and in the chosen language, server-side", async () => {
    const u = await createTestUser({ role: "dealer" });
    const cookie = await signIn(app, u.username, u.password);
    await client(app, { cookie }).put("/api/auth/preferences", { theme: "dark", language: "es" });
    const html = await page(cookie, "/contacts");
    expect(html).toMatch(/<html lang="es"[^>]*data-mantine-color-scheme="dark"/);
    expect(html).toContain("Configuración");
    expect(html).toContain("Cerrar sesión");
    // Auto follows the client hint without JavaScript.
    await client(app, { cookie }).put("/api/auth/preferences", { theme: "auto" });
    const hinted = await (await fetch(`${app.url}/contacts`, { headers: { Cookie: cookie, "Sec-CH-Prefers-Color-Scheme": "dark" } })).text();
    expect(hinted).toMatch(/data-mantine-color-scheme="dark"/);
    const plain = await page(cookie, "/contacts");
    expect(plain).toMatch(/data-mantine-color-scheme="light"/);
  });

  it("anonymous pages follow Accept-Language", async () => {
    const html = await (await fetch(`${app.url}/login`, { headers: { "Accept-Language": "fr-CA,fr;q=0.9,en;q=0.5" } })).text();
    expect(html).toMatch(/<html lang="fr"/);
    expect(await (await fetch(`${app.url}/login`, { headers: { "Accept-Language": "de" } })).text()).toMatch(/<html lang="en"/);
  });
});

describe("session timeout", () => {
  const HOUR = 3600e3;
  it("is applied to new sessions (cookie and record) and to the account's existing ones", async () => {
    const u = await createTestUser({ role: "dealer" });
    const first = await signIn(app, u.username, u.password);
    const second = await signIn(app, u.username, u.password);
    const res = await client(app, { cookie: second }).put("/api/auth/preferences", { sessionTimeout: "1h" });
    expect(res.status).toBe(200);
    const records = await SessionRecord.find({ userId: u.id }).lean<{ expiresAt: Date }[]>();
    expect(records).toHaveLength(2);
    for (const r of records) expect(new Date(r.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(HOUR + 5000);

    // A new sign-in: the cookie and the record both end an hour from now.
    const login = await fetch(`${app.url}/api/admin/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: u.username, password: u.password }),
    });
    const setCookie = login.headers.get("set-cookie") ?? "";
    const expires = new Date(/Expires=([^;]+)/i.exec(setCookie)?.[1] ?? 0).getTime();
    expect(Math.abs(expires - (Date.now() + HOUR))).toBeLessThan(10_000);
    const newest = await SessionRecord.findOne({ userId: u.id }).sort({ createdAt: -1 }).lean<{ expiresAt: Date }>();
    expect(Math.abs(new Date(newest!.expiresAt).getTime() - (Date.now() + HOUR))).toBeLessThan(10_000);

    // A session signed in more than an hour ago ends when the timeout drops to an hour.
    // (Through the driver: mongoose keeps createdAt immutable.)
    await SessionRecord.collection.updateMany({}, { $set: { createdAt: new Date(Date.now() - 2 * HOUR), expiresAt: new Date(Date.now() + 86400e3) } });
    const keep = signIn(app, u.username, u.password);
    const current = await keep;
    await client(app, { cookie: current }).put("/api/auth/preferences", { sessionTimeout: "1h" });
    expect((await client(app, { cookie: first }).get("/api/auth/user")).status).toBe(401);
    expect((await client(app, { cookie: current }).get("/api/auth/user")).status).toBe(200);
    expect((await User.findById(u.id).lean())?.sessionTimeout).toBe("1h");
  });

  it("the Security form changes it without JavaScript and refreshes the cookie's expiry", async () => {
    const u = await createTestUser({ role: "dealer" });
    const cookie = await signIn(app, u.username, u.password);
    const res = await form(cookie, { intent: "update-security", sessionTimeout: "1d", loginNotifications: "on" });
    expect(res.status).toBe(302);
    const expires = new Date(/Expires=([^;]+)/i.exec(res.headers.get("set-cookie") ?? "")?.[1] ?? 0).getTime();
    expect(Math.abs(expires - (Date.now() + 86400e3))).toBeLessThan(10_000);
    expect(await User.findById(u.id).lean()).toMatchObject({ sessionTimeout: "1d", loginNotifications: true });
    const off = await form(cookie, { intent: "update-security", sessionTimeout: "7d" });
    expect(off.status).toBe(302);
    expect((await User.findById(u.id).lean())?.loginNotifications).toBe(false);
    expect((await form(cookie, { intent: "update-security", sessionTimeout: "2h" })).status).toBe(422);
  });
});

/** Turns two-factor on through the Security tab as a browser would; answers the secret and recovery codes. */
async function enableTwoFactor(cookie: string, currentPassword = "password123") {
  expect((await form(cookie, { intent: "2fa-begin" })).status).toBe(302);
  const html = await page(cookie, "/settings?tab=security");
  expect(html).toContain("<svg");
  const key = /data-testid="totp-key"[^>]*>([A-Z2-7 ]+)</.exec(html)?.[1]?.replace(/ /g, "");
  expect(key).toMatch(/^[A-Z2-7]{16,}$/);
  const wrong = await form(cookie, { intent: "2fa-confirm", code: "000000", currentPassword });
  expect(wrong.status).toBe(400);
  const res = await form(cookie, { intent: "2fa-confirm", code: await generate({ secret: key! }), currentPassword });
  expect(res.status).toBe(200);
  const page2 = await res.text();
  // 80 random bits each (20 hex digits).
  const codes = [...page2.matchAll(/\b([a-f0-9]{5}-[a-f0-9]{5}-[a-f0-9]{5}-[a-f0-9]{5})\b/g)].map((m) => m[1]);
  expect(new Set(codes).size).toBe(10);
  return { secret: key!, codes: [...new Set(codes)] };
}

describe("passwords and re-authentication", () => {
  const PASSWORD_ERRORS = { currentPassword: "Current password is required", newPassword: "Password must be at least 8 characters", confirmPassword: "Passwords don't match" };

  it("PUT /api/auth/password checks the spec's rules, then ends the other sessions and revokes the tokens", async () => {
    for (const role of ["dealer", "vendor", "admin"] as const) {
      const u = await createTestUser({ role });
      const cookie = await signIn(app, u.username, u.password);
      const other = await signIn(app, u.username, u.password);
      const token = await tokenFor(u.id);
      const c = client(app, { cookie });

      const empty = await c.put("/api/auth/password", {});
      expect(empty.status).toBe(400);
      expect(empty.json.errors).toMatchObject({ currentPassword: PASSWORD_ERRORS.currentPassword, newPassword: PASSWORD_ERRORS.newPassword });
      const short = await c.put("/api/auth/password", { currentPassword: u.password, newPassword: "short", confirmPassword: "short" });
      expect(short.json.errors).toEqual({ newPassword: PASSWORD_ERRORS.newPassword });
      const mismatch = await c.put("/api/auth/password", { currentPassword: u.password, newPassword: "new-password-1", confirmPassword: "new-password-2" });
      expect(mismatch.json.errors).toEqual({ confirmPassword: PASSWORD_ERRORS.confirmPassword });
      const wrong = await c.put("/api/auth/password", { currentPassword: "not-it", newPassword: "new-password-1", confirmPassword: "new-password-1" });
      expect(wrong.status).toBe(400);
      expect(wrong.json.errors).toEqual({ currentPassword: "Current password is incorrect" });
      // Refused: nothing changed, every way in still works.
      expect((await client(app, { token }).get("/api/auth/user")).status).toBe(200);
      expect((await client(app, { cookie: other }).get("/api/auth/user")).status).toBe(200);

      const ok = await c.put("/api/auth/password", { currentPassword: u.password, newPassword: "new-password-1", confirmPassword: "new-password-1" });
      expect(ok.status).toBe(200);
      expect(ok.json.message).toBe("Your password has been changed. Your other sessions were signed out and 1 API token was revoked.");
      const fresh = (ok.headers.get("set-cookie") ?? "").split(";")[0];
      expect((await client(app, { cookie: fresh }).get("/api/auth/user")).status).toBe(200);
      for (const gone of [{ cookie: other }, { cookie }, { token }]) expect((await client(app, gone).get("/api/auth/user")).status).toBe(401);
      expect((await client(app).post("/api/admin/login", { username: u.username, password: u.password })).status).toBe(401);
      expect((await client(app).post("/api/admin/login", { username: u.username, password: "new-password-1" })).status).toBe(200);
    }
  });

  it("needs a signed-in session (a token would revoke itself), and throttles wrong current passwords", async () => {
    const u = await createTestUser({ role: "dealer" });
    const body = { currentPassword: u.password, newPassword: "new-password-1", confirmPassword: "new-password-1" };
    const byToken = await client(app, { token: await tokenFor(u.id) }).put("/api/auth/password", body);
    expect(byToken.status).toBe(403);
    const c = client(app, { cookie: await signIn(app, u.username, u.password) });
    const statuses = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await c.put("/api/auth/password", { ...body, currentPassword: `guess-${i}` })).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    // Throttled, the right one is refused too (the answer says nothing about it).
    expect((await c.put("/api/auth/password", body)).status).toBe(429);
  });

  it("Settings → Security → Change Password: the same rules on the form, then a fresh session", async () => {
    const u = await createTestUser({ role: "vendor" });
    const cookie = await signIn(app, u.username, u.password);
    const other = await signIn(app, u.username, u.password);
    const mismatch = await form(cookie, { intent: "change-password", currentPassword: u.password, newPassword: "new-password-1", confirmPassword: "nope" });
    expect(mismatch.status).toBe(422);
    expect(await mismatch.text()).toContain("Passwords don&#x27;t match");
    const ok = await form(cookie, { intent: "change-password", currentPassword: u.password, newPassword: "new-password-1", confirmPassword: "new-password-1" });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe("/settings?tab=security");
    const fresh = (ok.headers.get("set-cookie") ?? "").split(";")[0];
    expect(await page(fresh, "/settings?tab=security")).toContain("Your password has been changed. Your other sessions were signed out.");
    expect((await client(app, { cookie: fresh }).get("/api/auth/user")).status).toBe(200);
    expect((await client(app, { cookie: other }).get("/api/auth/user")).status).toBe(401);
  });

  it("a new email needs the current password; the other profile fields do not", async () => {
    const u = await createTestUser({ role: "dealer" });
    const c = client(app, { cookie: await signIn(app, u.username, u.password) });
    const profile = { firstName: "Ann", lastName: "Lee", email: `${u.username}@example.com` };
    expect((await c.put("/api/auth/user", profile)).status).toBe(200);
    const moved = { ...profile, email: "thief@evil.example" };
    const missing = await c.put("/api/auth/user", moved);
    expect(missing.status).toBe(400);
    expect(missing.json.errors).toEqual({ currentPassword: "Current password is required" });
    const wrong = await c.put("/api/auth/user", { ...moved, currentPassword: "guess" });
    expect(wrong.json.errors).toEqual({ currentPassword: "Current password is incorrect" });
    expect((await User.findById(u.id).lean())?.email).toBe(profile.email);
    expect((await c.put("/api/auth/user", { ...moved, currentPassword: u.password })).json.email).toBe("thief@evil.example");
  });

  it("turning two-factor on needs the current password", async () => {
    const u = await createTestUser({ role: "dealer" });
    const cookie = await signIn(app, u.username, u.password);
    expect((await form(cookie, { intent: "2fa-begin" })).status).toBe(302);
    const key = /data-testid="totp-key"[^>]*>([A-Z2-7 ]+)</.exec(await page(cookie, "/settings?tab=security"))?.[1]?.replace(/ /g, "");
    const code = await generate({ secret: key! });
    expect((await form(cookie, { intent: "2fa-confirm", code })).status).toBe(422);
    const wrong = await form(cookie, { intent: "2fa-confirm", code, currentPassword: "guess" });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("Current password is incorrect");
    expect((await User.findById(u.id).lean<{ twoFactor?: { enabled?: boolean } }>())?.twoFactor?.enabled).toBeFalsy();
    expect((await form(cookie, { intent: "2fa-confirm", code, currentPassword: u.password })).status).toBe(200);
  });
});

describe("turning two-factor on", () => {
  it("revokes the account's existing API tokens (not another account's) and the page says so", async () => {
    const u = await createTestUser({ role: "dealer" });
    const bystander = await createTestUser({ role: "dealer" });
    const cookie = await signIn(app, u.username, u.password);
    const token = await tokenFor(u.id);
    const othersToken = await tokenFor(bystander.id);
    expect((await client(app, { token }).get("/api/auth/user")).status).toBe(200);
    expect((await form(cookie, { intent: "2fa-begin" })).status).toBe(302);
    const key = /data-testid="totp-key"[^>]*>([A-Z2-7 ]+)</.exec(await page(cookie, "/settings?tab=security"))?.[1]?.replace(/ /g, "");
    const on = await form(cookie, { intent: "2fa-confirm", code: await generate({ secret: key! }), currentPassword: u.password });
    expect(on.status).toBe(200);
    expect(await on.text()).toContain("Your existing API tokens were revoked: create new ones if you need them.");
    expect((await client(app, { token }).get("/api/auth/user")).status).toBe(401);
    expect((await client(app, { token: othersToken }).get("/api/auth/user")).status).toBe(200);
    // The session that turned it on goes on, and may make a new token.
    expect((await client(app, { cookie }).get("/api/auth/user")).status).toBe(200);
  });
});

describe("two-factor sign-in", () => {
  it("is stored encrypted; the API login then needs the code (401 without, 401 wrong, 200 right, a code works once)", async () => {
    const u = await createTestUser({ role: "dealer" });
    const cookie = await signIn(app, u.username, u.password);
    const { secret, codes } = await enableTwoFactor(cookie);
    const stored = await User.findById(u.id).select("+twoFactor.secret +twoFactor.recoveryCodes").lean<{ twoFactor: { secret: string; recoveryCodes: string[]; enabled: boolean } }>();
    expect(stored?.twoFactor.enabled).toBe(true);
    expect(stored?.twoFactor.secret).not.toContain(secret);
    expect(stored?.twoFactor.secret.startsWith("v1.")).toBe(true);
    expect(stored?.twoFactor.recoveryCodes.join()).not.toContain(codes[0]);

    const login = (body: Record<string, string>) => client(app).post("/api/admin/login", { username: u.username, password: u.password, ...body });
    const missing = await login({});
    expect(missing.status).toBe(401);
    expect(missing.json.message).toBe("Two-factor code required");
    expect(missing.headers.get("set-cookie")).toBeNull();
    expect((await login({ totp: "123456" })).json.message).toBe("Invalid verification code");
    // A wrong password is still just that, code or not.
    expect((await client(app).post("/api/admin/login", { username: u.username, password: "nope", totp: "1" })).json.message).toBe("Invalid credentials");

    // The enrolment used this time step's code, and a code works once: wait for the next step's.
    const enrolled = await generate({ secret });
    await expect.poll(async () => generate({ secret }), { timeout: 35_000, interval: 500 }).not.toBe(enrolled);
    const code = await generate({ secret });
    const ok = await login({ totp: code });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("set-cookie")).toContain("session");
    // The same code again is refused (no replay).
    expect((await login({ totp: code })).json.message).toBe("Invalid verification code");
    // A recovery code works once.
    expect((await login({ totp: codes[0] })).status).toBe(200);
    expect((await login({ totp: codes[0] })).status).toBe(401);
  }, 60_000);

  it("throttles wrong codes per account (429 after 5)", async () => {
    const u = await createTestUser({ role: "dealer" });
    await enableTwoFactor(await signIn(app, u.username, u.password));
    const login = () => client(app).post("/api/admin/login", { username: u.username, password: u.password, totp: "111111" });
    const statuses = [];
    for (let i = 0; i < 7; i += 1) statuses.push((await login()).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });

  it("the login screen asks for the code as a second step, without JavaScript", async () => {
    const u = await createTestUser({ role: "vendor" });
    const { codes } = await enableTwoFactor(await signIn(app, u.username, u.password));
    const first = await fetch(`${app.url}/login?tab=vendor`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: app.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: u.username, password: u.password, redirectTo: "/contacts" }),
    });
    expect(first.status).toBe(200);
    expect(await first.text()).toContain("Verification code");
    const pending = first.headers.get("set-cookie")!.split(";")[0];
    // The pending step signs no one in.
    expect((await client(app, { cookie: pending }).get("/api/auth/user")).status).toBe(401);
    const step = (code: string) =>
      fetch(`${app.url}/login?tab=vendor`, {
        method: "POST",
        redirect: "manual",
        headers: { Cookie: pending, Origin: app.url, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "totp", code, redirectTo: "/contacts" }),
      });
    const wrong = await step("222222");
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("Invalid verification code");
    const right = await step(codes[1]);
    expect(right.status).toBe(302);
    expect(right.headers.get("location")).toBe("/contacts");
    const session = right.headers.get("set-cookie")!.split(";")[0];
    expect((await client(app, { cookie: session }).get("/api/auth/user")).json.username).toBe(u.username);
  });

  it("turns off with a code (and not with a wrong one)", async () => {
    const u = await createTestUser({ role: "dealer" });
    const cookie = await signIn(app, u.username, u.password);
    const { codes } = await enableTwoFactor(cookie);
    // While it is on, a new set-up is refused (it would replace nothing, but must not be started).
    expect((await form(cookie, { intent: "2fa-begin" })).status).toBe(302);
    expect((await User.findById(u.id).select("+twoFactor.pendingSecret").lean<{ twoFactor: { pendingSecret?: string } }>())?.twoFactor.pendingSecret).toBeUndefined();
    expect((await form(cookie, { intent: "2fa-disable", code: "999999" })).status).toBe(400);
    expect((await form(cookie, { intent: "2fa-disable", code: codes[2] })).status).toBe(302);
    expect((await client(app).post("/api/admin/login", { username: u.username, password: u.password })).status).toBe(200);
  });
});

describe("Security tab", () => {
  it("shows the AI key masked, never whole, and the storage status", async () => {
    const keyed = await startApp({ env: { OPENAI_API_KEY: "sk-test-abcdefghijklmnop1234", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" } });
    try {
      const u = await createTestUser({ role: "dealer" });
      const cookie = await signIn(keyed, u.username, u.password);
      const html = await (await fetch(`${keyed.url}/settings?tab=security`, { headers: { Cookie: cookie } })).text();
      expect(html).toContain("sk-…1234");
      expect(html).not.toContain("abcdefghijklmnop");
      expect(html).toContain("Local disk");
    } finally {
      await keyed.stop();
    }
  });
});

async function readArchive(buffer: Buffer) {
  const files = new Map<string, string>();
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on("entry", (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on("data", (c: unknown) => chunks.push(c as Buffer));
      stream.on("end", () => {
        files.set(header.name, Buffer.concat(chunks).toString("utf8"));
        next();
      });
    });
    extract.on("finish", resolve);
    extract.on("error", reject);
  });
  extract.end(gunzipSync(buffer));
  await done;
  return files;
}

describe("export and import", () => {
  it("exports the caller's data only, and imports it into another account with new ids and consistent references", async () => {
    const a = await createTestUser({ role: "dealer" });
    const b = await createTestUser({ role: "dealer" });
    const other = await createTestUser({ role: "dealer" });
    const ca = client(app, { cookie: await signIn(app, a.username, a.password) });
    const cb = client(app, { cookie: await signIn(app, b.username, b.password) });
    const contact = (await ca.post("/api/contacts", { firstName: "Exp", lastName: "Ort", email: "e@example.com" })).json;
    await client(app, { cookie: await signIn(app, other.username, other.password) }).post("/api/contacts", { firstName: "Not", lastName: "Mine", email: "n@example.com" });
    const original = await Assessment.create({ ownerId: a.id, title: "Bumper", contactId: contact.id, status: "sent", version: 1 });
    await Assessment.create({ ownerId: a.id, title: "Bumper v2", contactId: contact.id, status: "reviewed", supplementOf: original._id, version: 2 });

    const res = await fetch(`${app.url}/api/account/export`, { headers: { Cookie: await signIn(app, a.username, a.password) } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/gzip");
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename="damageiq-.*\.tar\.gz"/);
    const archive = Buffer.from(await res.arrayBuffer());
    const files = await readArchive(archive);
    expect(JSON.parse(files.get("manifest.json")!)).toMatchObject({ format: "damageiq-export", account: { id: a.id }, collections: { contacts: 1, assessments: 2 } });
    expect(files.get("contacts.ndjson")).toContain("Exp");
    expect(files.get("contacts.ndjson")).not.toContain("Mine");

    const cookies = new Map([[cb, await signIn(app, b.username, b.password)], [ca, await signIn(app, a.username, a.password)]]);
    const post = async (c: typeof cb, query: string, body: Buffer) => {
      const r = await fetch(`${app.url}/api/account/import${query}`, { method: "POST", headers: { Cookie: cookies.get(c)!, "Content-Type": "application/gzip" }, body: new Uint8Array(body) });
      return { status: r.status, json: await r.json() };
    };
    const dry = await post(cb, "?dryRun=true", archive);
    expect(dry.status).toBe(200);
    expect(dry.json.dryRun).toBe(true);
    expect(dry.json.collections.find((c: { name: string }) => c.name === "contacts")).toMatchObject({ records: 1, valid: 1, imported: 0 });
    expect(await Contact.countDocuments({ ownerId: b.id })).toBe(0);

    const done = await post(cb, "", archive);
    expect(done.json.collections.find((c: { name: string }) => c.name === "assessments")).toMatchObject({ imported: 2 });
    const [copied] = await Contact.find({ ownerId: b.id }).lean();
    expect(String(copied._id)).not.toBe(contact.id);
    // References follow the new ids: the contact, and the supplement's original.
    const copies = await Assessment.find({ ownerId: b.id }).lean();
    for (const copy of copies) expect(String(copy.contactId)).toBe(String(copied._id));
    const copiedOriginal = copies.find((x) => x.title === "Bumper")!;
    const copiedSupplement = copies.find((x) => x.title === "Bumper v2")!;
    expect(String(copiedOriginal._id)).not.toBe(String(original._id));
    expect(String(copiedSupplement.supplementOf)).toBe(String(copiedOriginal._id));
    // Again: nothing is stored twice.
    const again = await post(cb, "", archive);
    expect(again.json.collections.find((c: { name: string }) => c.name === "contacts")).toMatchObject({ existing: 1, imported: 0 });
    expect(await Contact.countDocuments({ ownerId: b.id })).toBe(1);
    // Into the account it came from: everything is there already.
    const back = await post(ca, "", archive);
    expect(back.json.collections.find((c: { name: string }) => c.name === "contacts")).toMatchObject({ existing: 1, imported: 0 });
    // Validating every imported record left no deprecation warning in the server log (mongoose's validateSync).
    expect(app.output().split("\n").filter((line) => /deprecated/i.test(line))).toEqual([]);
  });

  it("exports an account bigger than a page a page at a time: every record once, oldest first, also many made at the same instant", async () => {
    const a = await createTestUser({ role: "dealer" });
    const at = new Date("2026-01-02T03:04:05.000Z");
    // 450 contacts: 300 made at one instant (the page boundaries fall inside the tie), 150 after it.
    const docs = Array.from({ length: 450 }, (_, k) => ({ ownerId: new Types.ObjectId(a.id), firstName: "Tie", lastName: `N${k}`, email: `t${k}@example.com`, createdAt: k < 300 ? at : new Date(at.getTime() + k * 1000), updatedAt: at }));
    const ids = (await Contact.insertMany(docs)).map((d) => String(d._id));
    const res = await fetch(`${app.url}/api/account/export`, { headers: { Cookie: await signIn(app, a.username, a.password) } });
    const files = await readArchive(Buffer.from(await res.arrayBuffer()));
    const exported = files.get("contacts.ndjson")!.trim().split("\n").map((line) => JSON.parse(line) as { _id: string; createdAt: string });
    expect(exported.map((d) => d._id)).toEqual([...ids].sort((x, y) => (docs[ids.indexOf(x)].createdAt.getTime() - docs[ids.indexOf(y)].createdAt.getTime()) || x.localeCompare(y)));
    expect(JSON.parse(files.get("manifest.json")!).collections.contacts).toBe(450);
  });

  it("refuses what is not an archive: 415 wrong type, 400 not gzip/tar or no manifest, 413 too big, invalid records reported", async () => {
    const u = await createTestUser({ role: "dealer" });
    const cookie = await signIn(app, u.username, u.password);
    const post = async (body: Buffer | string, type = "application/gzip") => {
      const r = await fetch(`${app.url}/api/account/import?dryRun=true`, { method: "POST", headers: { Cookie: cookie, "Content-Type": type }, body: typeof body === "string" ? body : new Uint8Array(body) });
      return { status: r.status, json: await r.json() };
    };
    expect((await post("{}", "application/json")).status).toBe(415);
    expect((await post(Buffer.from("not gzip"))).status).toBe(400);
    expect((await post(gzipSync(Buffer.from("not a tar")))).status).toBe(400);

    const pack = tar.pack();
    pack.entry({ name: "manifest.json" }, JSON.stringify({ format: "damageiq-export", version: 1, account: { id: "x" } }));
    pack.entry({ name: "contacts.ndjson" }, `${JSON.stringify({ _id: "0123456789abcdef01234567", firstName: "", lastName: "A", email: "a@b.co" })}\nnot json\n{"firstName":"no id"}\n`);
    pack.finalize();
    const chunks: Buffer[] = [];
    for await (const chunk of pack) chunks.push(chunk as Buffer);
    const report = await post(gzipSync(Buffer.concat(chunks)));
    expect(report.status).toBe(200);
    expect(report.json.collections.find((x: { name: string }) => x.name === "contacts")).toMatchObject({ records: 3, valid: 0, invalid: 3 });
    expect(report.json.errors.map((e: { line: number }) => e.line)).toEqual([1, 2, 3]);

    const big = await fetch(`${app.url}/api/account/import`, {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/gzip", "Content-Length": String(60 * 1024 * 1024) },
      body: "x",
    }).catch(() => null);
    if (big) expect(big.status).toBe(413);
    expect((await client(app).get("/api/account/export")).status).toBe(401);
  });

  it("the screen uploads, shows the dry run, imports on confirm, and Clear Cache says what it cleared", async () => {
    const a = await createTestUser({ role: "dealer" });
    const b = await createTestUser({ role: "dealer" });
    const ca = await signIn(app, a.username, a.password);
    await client(app, { cookie: ca }).post("/api/contacts", { firstName: "Screen", lastName: "Import", email: "s@example.com" });
    const archive = Buffer.from(await (await fetch(`${app.url}/api/account/export`, { headers: { Cookie: ca } })).arrayBuffer());
    const cb = await signIn(app, b.username, b.password);
    const body = new FormData();
    body.set("file", new Blob([archive], { type: "application/gzip" }), "export.tar.gz");
    const upload = await fetch(`${app.url}/settings/import`, { method: "POST", redirect: "manual", headers: { Cookie: cb, Origin: app.url }, body });
    expect(upload.status).toBe(302);
    const location = upload.headers.get("location")!;
    expect(location).toMatch(/^\/settings\?tab=system&import=[a-f0-9]{24}$/);
    const token = location.split("import=")[1];
    const html = await page(cb, location);
    expect(html).toContain("Dry run");
    expect(html).toContain("Confirm import");
    // Another account cannot use the token.
    expect(await page(ca, location)).toContain("Import not found");
    expect(await Contact.countDocuments({ ownerId: b.id })).toBe(0);

    const confirm = await form(cb, { intent: "import-confirm", token }, "/settings?tab=system");
    expect(confirm.status).toBe(302);
    expect(await Contact.countDocuments({ ownerId: b.id })).toBe(1);

    // A second upload left pending is what Clear Cache clears.
    await fetch(`${app.url}/settings/import`, { method: "POST", redirect: "manual", headers: { Cookie: cb, Origin: app.url }, body });
    const cleared = await form(cb, { intent: "clear-cache" }, "/settings?tab=system");
    expect(cleared.status).toBe(302);
    const next = await page(cb, "/settings?tab=system");
    expect(next).toContain("Pending data imports: 1");
  });

  it("the System tab probes each service with its latency", async () => {
    const u = await createTestUser({ role: "admin" });
    const html = await page(await signIn(app, u.username, u.password), "/settings?tab=system");
    for (const name of ["AI Service", "Email Service", "Object Storage", "Database"]) expect(html).toContain(name);
    // The drop keeps mail without delivering it: not configured, as the Email Center says.
    expect(html).toMatch(/Email Service<\/td><td[^>]*><div[^>]*><span[^>]*>Not configured<\/span>/);
    expect(html).toContain("only saved to the local mail drop");
    expect(html).toMatch(/\d+ ms/);
  });
});
