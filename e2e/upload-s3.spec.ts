import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { freePort } from "../app/utils/embedded-db.server";
import { startApp, type RunningApp } from "../tests/app-server";
import { mp4 } from "../tests/media-files";
import { startS3Server, type RunningS3 } from "../tests/s3-server";
import { expect, test } from "./fixtures";
import { MiB, media, uploadWithUppy } from "./uppy";

// The production path with STORAGE=s3: the browser sends multipart parts straight to the bucket on
// presigned URLs (cross-origin, so the bucket's CORS rule must allow PUT and expose ETag), small
// files through the app, and media comes back through the app.
test.describe("S3 storage", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "Uppy needs JavaScript");

  let s3: RunningS3;
  let app: RunningApp;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    const port = await freePort();
    s3 = await startS3Server({ corsOrigin: `http://127.0.0.1:${port}` });
    app = await startApp({ mongoUri: process.env.E2E_MONGODB_URI, env: s3.appEnv, port });
  });
  test.afterAll(async () => {
    await app?.stop();
    await s3?.stop();
  });

  test("photos and a 3-part video go to the bucket and come back through the app", async ({ page, createUser }) => {
    const user = await createUser("dealer");
    const login = await page.request.post(`${app.url}/api/admin/login`, { data: { username: user.username, password: user.password } });
    expect(login.status()).toBe(200);
    const bucketPuts: string[] = [];
    page.on("request", (req) => {
      if (req.method() === "PUT" && req.url().startsWith(s3.endpoint)) bucketPuts.push(new URL(req.url()).searchParams.get("partNumber") ?? "");
    });

    await page.goto(`${app.url}/upload`);
    const { photos } = await media();
    const video = { name: "bay-walkaround.mp4", mimeType: "video/mp4", buffer: mp4(11 * MiB) };
    await uploadWithUppy(page, '[data-testid="uploader-wizard"]', [...photos.slice(0, 2), video]);
    await expect(page.getByText("3 file(s) uploaded successfully")).toBeVisible({ timeout: 30_000 });
    expect(bucketPuts.sort()).toEqual(["1", "2", "3"]);

    const { Contents = [] } = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `uploads/${user.id}/` }));
    // (S3Proxy's filesystem store also lists its directories, as keys ending in "/".)
    const names = Contents.map((o) => o.Key!).filter((k) => !k.endsWith("/")).map((k) => k.split("/").pop());
    expect(names.sort()).toEqual(["bay-walkaround.mp4", "door-dent.jpg", "front-bumper.jpg"]);

    const href = await page
      .getByTestId("uploaded-file")
      .filter({ hasText: "bay-walkaround.mp4" })
      .getByTestId("uploaded-file-name")
      .getAttribute("href");
    const res = await page.request.get(`${app.url}${href}`);
    expect(res.status()).toBe(200);
    expect((await res.body()).equals(video.buffer)).toBe(true);
  });
});
