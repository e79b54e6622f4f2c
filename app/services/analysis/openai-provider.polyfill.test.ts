import { installGlobals } from "@remix-run/node";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOpenAiTestServer, type OpenAiTestServer } from "../../../tests/openai-server";
import { createOpenAiProvider } from "./openai-provider.server";

// The production server installs Remix's fetch polyfill (server.mjs); with it as the SDK's fetch,
// a timed-out or aborted request ended the process with an unhandled rejection.
installGlobals({ nativeFetch: false });

let server: OpenAiTestServer;

describe("OpenAI-compatible provider under Remix's fetch polyfill", () => {
  beforeAll(async () => {
    server = await startOpenAiTestServer();
  });
  afterAll(() => server.close());

  it("times out, is aborted and succeeds without an unhandled rejection", async () => {
    const bytes = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#808080" } }).jpeg().toBuffer();
    const photos = [{ mediaUrl: "/media/a", contentType: "image/jpeg", bytes }];
    const provider = createOpenAiProvider({ apiKey: "k", baseURL: server.baseURL, model: "m", timeoutMs: 150 });

    server.script({ delayMs: 1000 }, { delayMs: 1000 }, { delayMs: 1000 });
    await expect(provider.analyze(photos, {})).rejects.toThrow("did not answer within 150 ms");

    server.script({ delayMs: 1000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("lease lost")), 50);
    await expect(provider.analyze(photos, { signal: controller.signal })).rejects.toThrow("lease lost");

    server.script({ json: { damages: [], summary: "Nothing.", confidence: 0.9 } });
    expect(await provider.analyze(photos, {})).toMatchObject({ summary: "Nothing.", provider: "openai" });
    // An unhandled rejection would surface after the aborts; give it the chance.
    await new Promise((resolve) => setTimeout(resolve, 300));
  });
});
