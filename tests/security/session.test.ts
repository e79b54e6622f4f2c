import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUser, signIn } from "../accounts";
import { startApp, type RunningApp } from "../app-server";
import { useTestDb } from "../test-db";
import { call } from "./world";

// Session fixation: whatever session cookie a browser holds before signing in (one an attacker planted,
// an anonymous one, another account's) must not be the one that is signed in afterwards.

let app: RunningApp;
beforeAll(async () => {
  await useTestDb();
  app = await startApp();
});
afterAll(() => app?.stop());

const cookieOf = (setCookie: string | null) => (setCookie ?? "").split(";")[0];
const whoIs = async (cookie: string) => {
  const res = await call(app, "GET", "/api/auth/user", { cookie });
  return res.status === 200 ? (JSON.parse(res.text) as { username: string }).username : res.status;
};

/** An anonymous session the app itself issued: the "you were signed out" notice after a session ended. */
async function anonymousSession() {
  const user = await createTestUser({ role: "dealer" });
  const ended = await signIn(app, user.username, user.password);
  await call(app, "POST", "/logout", { cookie: ended, headers: { Origin: app.url, "Content-Type": "application/x-www-form-urlencoded" }, body: "" });
  const res = await fetch(`${app.url}/contacts`, { headers: { Cookie: ended }, redirect: "manual" });
  expect(res.status).toBe(302);
  const cookie = cookieOf(res.headers.get("set-cookie"));
  expect(cookie).toMatch(/^__session=./);
  return cookie;
}

/** Signs in through the API or the login screen's form, sending `cookie`; the session cookie it answers. */
async function signInWith(cookie: string, username: string, password: string, via: "api" | "screen") {
  const res =
    via === "api"
      ? await fetch(`${app.url}/api/admin/login`, {
          method: "POST",
          headers: { Cookie: cookie, "Content-Type": "application/json" },
          body: JSON.stringify({ username, password }),
        })
      : await fetch(`${app.url}/login`, {
          method: "POST",
          redirect: "manual",
          headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: app.url },
          body: new URLSearchParams({ username, password }),
        });
  expect(res.status).toBe(via === "api" ? 200 : 302);
  return cookieOf(res.headers.get("set-cookie"));
}

describe("session fixation", () => {
  it.each(["api", "screen"] as const)("a cookie held before signing in (%s) is not the one signed in after", async (via) => {
    const user = await createTestUser({ role: "dealer" });
    const before = await anonymousSession();
    const after = await signInWith(before, user.username, user.password, via);
    expect(after).toMatch(/^__session=./);
    expect(after).not.toBe(before);
    expect(await whoIs(after)).toBe(user.username);
    expect(await whoIs(before)).toBe(401);
  });

  it("signing in over another account's session ends that session and starts a new one", async () => {
    const [first, second] = [await createTestUser({ role: "dealer" }), await createTestUser({ role: "vendor" })];
    const held = await signIn(app, first.username, first.password);
    expect(await whoIs(held)).toBe(first.username);
    const after = await signInWith(held, second.username, second.password, "api");
    expect(after).not.toBe(held);
    expect(await whoIs(after)).toBe(second.username);
    expect(await whoIs(held)).toBe(401);
  });
});

describe("with an https PUBLIC_URL", () => {
  let secure: RunningApp;
  beforeAll(async () => {
    secure = await startApp({ env: { PUBLIC_URL: "https://damageiq.example" } });
  });
  afterAll(() => secure?.stop());

  it("the session cookie is __Host- and Secure: sent only over https, to this host, on every path", async () => {
    const user = await createTestUser({ role: "dealer" });
    const res = await fetch(`${secure.url}/api/admin/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: user.username, password: user.password }),
    });
    expect(res.status).toBe(200);
    const setCookie = res.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^__Host-session=[^;]+;/);
    const attributes = setCookie.split(";").slice(1).map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(["path=/", "secure", "httponly", "samesite=lax"]));
    expect(attributes.some((a) => a.startsWith("domain="))).toBe(false);
    expect(res.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
  });
});
