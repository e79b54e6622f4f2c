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
