import http from "node:http";
import type { AddressInfo } from "node:net";
import { jpeg } from "../tests/media-files";
import { expect, test } from "./fixtures";

// "Add from a link" on the wizard's upload step (issue 39 item 1, decision 0068), JS on and off: the
// server fetches the file from a link (a server of this test on 127.0.0.1, which the e2e apps allow as
// OUTBOUND_ALLOW=loopback) and lists it; a private address is refused with the reason.

let server: http.Server;
let origin = "";

test.beforeAll(async () => {
  const photo = await jpeg({ width: 320, height: 240 });
  server = http.createServer((req, res) => {
    if (req.url === "/claims/4711/slow-side.jpg") {
      // In eight pieces over about 2 s: the widget shows the import's progress from its socket.
      res.writeHead(200, { "Content-Type": "image/jpeg", "Content-Length": photo.length });
      const piece = Math.ceil(photo.length / 8);
      let at = 0;
      const next = () => {
        if (at >= photo.length) return void res.end();
        res.write(photo.subarray(at, at + piece));
        at += piece;
        setTimeout(next, 250);
      };
      res.on("error", () => {});
      return next();
    }
    if (req.url === "/claims/4711/rear-bumper.jpg") {
      res.writeHead(200, { "Content-Type": "image/jpeg", "Content-Length": photo.length });
      return res.end(photo);
    }
    if (req.url === "/claims/4711/") {
      res.writeHead(200, { "Content-Type": "text/html" });
      return res.end("<!doctype html><title>Claim 4711</title>");
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

test("the upload step adds a photo from a link, and says why it refuses a page or a private address", async ({ page, loginAs }) => {
  await loginAs("dealer");
  await page.goto("/upload");
  const form = page.getByTestId("link-import-form");
  const field = form.getByLabel("Add from a link");
  const add = form.getByRole("button", { name: "Add from a link" });

  await field.fill(`${origin}/claims/4711/rear-bumper.jpg`);
  await add.click();
  await expect(page.getByText("1 file(s) uploaded successfully")).toBeVisible();
  const listed = page.getByTestId("uploaded-file");
  await expect(listed).toHaveCount(1);
  await expect(page.getByTestId("uploaded-files").getByText("rear-bumper.jpg")).toBeVisible();
  const href = await listed.getByTestId("uploaded-file-name").getAttribute("href");
  expect((await page.request.get(href!)).headers()["content-type"]).toBe("image/jpeg");

  // A web page is not a photo: the widget's type message.
  await form.getByLabel("Add from a link").fill(`${origin}/claims/4711/`);
  await form.getByRole("button", { name: "Add from a link" }).click();
  await expect(page.getByText("You can only upload: .jpg, .jpeg, .png, .gif, .mp4, .mov")).toBeVisible();

  // A private address is never fetched.
  await form.getByLabel("Add from a link").fill("http://10.0.0.1/rear-bumper.jpg");
  await form.getByRole("button", { name: "Add from a link" }).click();
  await expect(page.getByText("10.0.0.1 is on a private or local network, which this server does not connect to")).toBeVisible();
  await expect(listed).toHaveCount(1);

  // The file goes on like any upload: on to the details step.
  await page.getByRole("button", { name: "Continue to Assessment Details" }).click();
  await expect(page.getByTestId("upload-details-step")).toBeVisible();
});

test("with JavaScript, the widget's Link tab imports a photo with progress from the server's websocket", async ({ page, loginAs, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "the widget needs JavaScript; without it the field above does the job");
  await loginAs("dealer");
  const progress: number[] = [];
  page.on("websocket", (socket) => {
    socket.on("framereceived", ({ payload }) => {
      const message = JSON.parse(String(payload));
      if (message.action === "progress") progress.push(Number(message.payload.bytesUploaded));
    });
  });
  await page.goto("/upload");
  const dashboard = page.locator('[data-testid="uploader-wizard"] .uppy-Dashboard');
  await expect(dashboard).toBeVisible();
  await dashboard.getByRole("tab", { name: "Link" }).click();
  await dashboard.getByPlaceholder("Enter URL to import a file").fill(`${origin}/claims/4711/slow-side.jpg`);
  await dashboard.getByRole("button", { name: "Import" }).click();
  await expect(dashboard.getByText("slow-side.jpg").first()).toBeVisible();
  await dashboard.locator(".uppy-StatusBar-actionBtn--upload").click();
  await expect(page.getByText("1 file(s) uploaded successfully")).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId("uploaded-files").getByText("slow-side.jpg")).toBeVisible();
  expect(progress.length).toBeGreaterThanOrEqual(2);
  expect(progress.at(-1)).toBeGreaterThan(0);

  // A link to a private address is refused before the file is added (url/meta), with the widget's message.
  await dashboard.getByRole("tab", { name: "Link" }).click();
  await dashboard.getByPlaceholder("Enter URL to import a file").fill("http://10.0.0.1/rear-bumper.jpg");
  await dashboard.getByRole("button", { name: "Import" }).click();
  await expect(page.getByText("The file could not be fetched from this link", { exact: false }).first()).toBeVisible();
  await expect(page.getByTestId("uploaded-file")).toHaveCount(1);
});
