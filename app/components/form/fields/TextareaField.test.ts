import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningApp } from "../../../../tests/app-server";
import { startSignedInApp } from "../../../../tests/signed-in-app";

// An autosized field measured itself after hydration and grew from the browser's two rows to its
// `minRows`, moving the dialog's buttons under a pointer about to press them (the throttled walk's
// "Create Contact" click landed beside the button, and nothing was created). The server's HTML
// gives it those rows from the start.
let app: RunningApp;
let cookie: string;
beforeAll(async () => {
  ({ app, cookie } = await startSignedInApp());
});
afterAll(() => app?.stop());

describe("an autosized text area in a server-rendered dialog", () => {
  it.each([
    ["/contacts?dialog=new", "notes", "3"],
    ["/packages?dialog=new", "description", "2"],
  ])("%s: %s has its minimum rows in the HTML", async (url, name, rows) => {
    const res = await fetch(`${app.url}${url}`, { headers: { Cookie: cookie } });
    expect(res.status).toBe(200);
    const html = await res.text();
    const textarea = new RegExp(`<textarea[^>]*name="${name}"[^>]*>`).exec(html)?.[0];
    expect(textarea, html.slice(0, 300)).toBeDefined();
    expect(textarea).toContain(`rows="${rows}"`);
  });
});
