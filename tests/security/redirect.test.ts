import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUser } from "../accounts";
import { startApp, type RunningApp } from "../app-server";
import { useTestDb } from "../test-db";

// Open redirect after sign-in: whatever ?redirectTo= a crafted link carries, the login screens send the
// user to a path of this site (issue 23, item 5). The forms the unit test (app/utils/safe-redirect.test.ts)
// covers are tried here through both screens, JavaScript off (a 302) and on (the JSON the page follows).

let app: RunningApp;
let user: { username: string; password: string };
beforeAll(async () => {
  await useTestDb();
  app = await startApp();
  user = await createTestUser({ role: "dealer" });
});
afterAll(() => app?.stop());

const BYPASSES = [
  "/.//evil.example",
  "/..//evil.example",
  "//evil.example",
  "/\\evil.example",
  "/%2F%2Fevil.example",
  "/%2e%2e//evil.example",
  "https:evil.example",
  "https://evil.example/",
  "/\t/evil.example",
  "/\n/evil.example",
  "javascript:alert(1)",
];

/** Where the browser goes from `location`, resolved against the app's origin as a browser would. */
const landsOn = (location: string) => new URL(location.replace(/[\t\n\r]/g, "").replace(/\\/g, "/"), app.url);

async function signInTo(path: "/login" | "/admin/login", redirectTo: string, js: boolean) {
  // With JavaScript the page posts as a Remix data request and follows the answer's redirectTo.
  const route = path === "/login" ? "routes/login" : "routes/admin.login";
  const res = await fetch(`${app.url}${path}${js ? `?_data=${encodeURIComponent(route)}` : ""}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: app.url },
    body: new URLSearchParams({ username: user.username, password: user.password, redirectTo, ...(js ? { _js: "1" } : {}) }),
  });
  if (js) {
    expect(res.status).toBe(200);
    return ((await res.json()) as { redirectTo: string }).redirectTo;
  }
  expect(res.status).toBe(302);
  return res.headers.get("location") ?? "";
}

describe("redirect after sign-in", () => {
  it.each(BYPASSES.flatMap((value) => (["/login", "/admin/login"] as const).map((path) => [path, value] as const)))(
    "%s with redirectTo=%j stays on this site",
    async (path, value) => {
      for (const js of [false, true]) {
        const location = await signInTo(path, value, js);
        expect(location, `js ${js}`).toBe("/");
        expect(landsOn(location).origin).toBe(new URL(app.url).origin);
      }
    },
  );

  it("keeps a path of this site", async () => {
    expect(await signInTo("/login", "/estimates?q=civic", false)).toBe("/estimates?q=civic");
    expect(await signInTo("/admin/login", "/a/../contacts", true)).toBe("/contacts");
  });

  it("the login page's links and form carry only a path of this site", async () => {
    const page = await (await fetch(`${app.url}/login?${new URLSearchParams({ redirectTo: "/.//evil.example" })}`)).text();
    // (The form's own action is this page's address, so it is looked at apart.)
    expect(page.replace(/action="[^"]*"/g, "")).not.toContain("evil.example");
    expect(page).toContain('name="redirectTo" value="/"');
    const kept = await (await fetch(`${app.url}/login?${new URLSearchParams({ tab: "vendor", redirectTo: "/contacts" })}`)).text();
    expect(kept).toContain('name="redirectTo" value="/contacts"');
    expect(kept).toContain("redirectTo=%2Fcontacts");
  });
});
