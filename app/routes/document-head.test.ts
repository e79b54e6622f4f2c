import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUser, signIn } from "../../tests/accounts";
import { startApp, type RunningApp } from "../../tests/app-server";
import { startSignedInApp } from "../../tests/signed-in-app";

// Route `meta` exports replace the root's in Remix 2: the mobile viewport once vanished from every
// screen with a title, and phones got the 980 px desktop page zoomed out.
const SCREENS = ["/", "/upload", "/contacts", "/packages", "/settings", "/admin-settings", "/user-management"];
const PUBLIC = ["/login", "/admin/login", "/admin/setup"];
const VIEWPORT = /<meta name="viewport" content="width=device-width, initial-scale=1"\/>/;

let app: RunningApp;
let cookie: string;
beforeAll(async () => {
  ({ app, cookie } = await startSignedInApp({ role: "admin" }));
});
afterAll(() => app?.stop());

describe("the document head of every screen", () => {
  it.each([...SCREENS, ...PUBLIC])("%s has the mobile viewport, one charset and its own title", async (path) => {
    const res = await fetch(`${app.url}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });
    const html = await res.text();
    expect(res.status, html.slice(0, 200)).toBe(200);
    expect(html).toMatch(VIEWPORT);
    expect(html.match(/<meta name="viewport"/g)).toHaveLength(1);
    expect(html.match(/<meta charSet="utf-8"\/>/g)).toHaveLength(1);
    expect(html).toMatch(/<title>[^<]*DamageIQ[^<]*<\/title>/);
    expect(html.match(/<meta name="description" content="[^"]{50,160}"\/>/g)).toHaveLength(1);
    // An account's pages stay out of search engines; the sign-in pages do not.
    expect(html.includes('<meta name="robots" content="noindex, nofollow"/>'), path).toBe(SCREENS.includes(path));
  });

  it("serves a robots.txt that crawlers can read", async () => {
    const res = await fetch(`${app.url}/robots.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await res.text()).toMatch(/^User-agent: \*\nAllow: \/login\nDisallow: \/\n$/);
  });
});

describe("HTTP caching", () => {
  it("never stores a signed-in page or its data, and keeps pages apart per cookie", async () => {
    for (const path of ["/contacts", "/contacts?_data=routes%2F_app.contacts", "/api/contacts"]) {
      const res = await fetch(`${app.url}${path}`, { headers: { Cookie: cookie } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("cache-control"), path).toBe("no-store");
      expect(res.headers.get("vary"), path).toMatch(/Cookie/);
    }
    const anonymous = await fetch(`${app.url}/login`);
    expect(anonymous.headers.get("cache-control")).toBe("no-cache");
    expect(anonymous.headers.get("vary")).toMatch(/Cookie/);
  });

  it("serves fingerprinted assets as immutable for a year, compressed", async () => {
    const html = await (await fetch(`${app.url}/contacts`, { headers: { Cookie: cookie } })).text();
    const assets = [...new Set([...html.matchAll(/"(\/build\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]))];
    expect(assets.length).toBeGreaterThan(5);
    let compressed = 0;
    for (const asset of assets) {
      const res = await fetch(`${app.url}${asset}`, { headers: { "Accept-Encoding": "gzip" } });
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control"), asset).toBe("public, max-age=31536000, immutable");
      expect(res.headers.get("vary"), asset).toMatch(/Accept-Encoding/);
      if (res.headers.get("content-encoding") === "gzip") {
        compressed += 1;
      } else {
        // compression() leaves what is under 1 KB as it is.
        const size = (await (await fetch(`${app.url}${asset}`)).arrayBuffer()).byteLength;
        expect(size, asset).toBeLessThan(1024);
      }
    }
    expect(compressed).toBeGreaterThan(0);
  });

  it("compresses pages, and never stores a page that depends on the session", async () => {
    for (const path of ["/contacts", "/"]) {
      const res = await fetch(`${app.url}${path}`, { headers: { Cookie: cookie, "Accept-Encoding": "gzip" } });
      expect(res.headers.get("content-encoding"), path).toBe("gzip");
      expect(res.headers.get("cache-control"), path).toBe("no-store");
      expect(res.headers.get("vary"), path).toMatch(/Cookie/);
      expect(res.headers.get("vary"), path).toMatch(/Accept-Encoding/);
    }
    // Signed out, the same address is the login redirect: it must not be served from a cache either.
    const signedOut = await fetch(`${app.url}/contacts`, { redirect: "manual" });
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("cache-control")).toMatch(/no-cache|no-store/);
    expect(signedOut.headers.get("vary")).toMatch(/Cookie/);
  });
});

describe("Content-Security-Policy", () => {
  it("lets only the page's own nonce run inline scripts, and every inline script carries it", async () => {
    for (const path of ["/login", "/contacts"]) {
      const res = await fetch(`${app.url}${path}`, { headers: { Cookie: cookie } });
      const csp = res.headers.get("content-security-policy") ?? "";
      const nonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
      expect(nonce, csp).toBeDefined();
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      const html = await res.text();
      const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)].map((m) => m[1]);
      expect(inline.length).toBeGreaterThan(0);
      for (const attributes of inline) expect(attributes).toContain(`nonce="${nonce}"`);
    }
    const again = await fetch(`${app.url}/login`);
    expect(again.headers.get("content-security-policy")).not.toBe(
      (await fetch(`${app.url}/login`)).headers.get("content-security-policy"),
    );
  });

  it("tells browsers to keep to https when the app is served over it (HSTS), and not otherwise", async () => {
    expect((await fetch(`${app.url}/login`)).headers.get("strict-transport-security")).toBeNull();
    const secure = await startApp({ env: { PUBLIC_URL: "https://damageiq.example" } });
    try {
      const res = await fetch(`${secure.url}/login`);
      expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    } finally {
      await secure.stop();
    }
  });
});

describe("errors inside the app", () => {
  it("keep the shell: a dealer sent to an admin screen gets the 403 card beside the menu", async () => {
    const dealer = await createTestUser({ role: "dealer" });
    const dealerCookie = await signIn(app, dealer.username, dealer.password);
    const res = await fetch(`${app.url}/admin-settings`, { headers: { Cookie: dealerCookie } });
    expect(res.status).toBe(403);
    const html = await res.text();
    expect(html).toContain('aria-label="Main navigation"');
    expect(html).toMatch(/<h1[^>]*>403 /);
    expect(html).toMatch(VIEWPORT);
  });
});
