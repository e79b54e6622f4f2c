import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startOpenAiTestServer, type OpenAiTestServer } from "../../../tests/openai-server";
import { useTestDb } from "../../../tests/test-db";
import { env } from "../../utils/env.server";
import { embeddedMatcher } from "./embedded-matcher.server";
import { toAnalysisPhotos } from "./media.server";
import { createOpenAiProvider, parseAnswer } from "./openai-provider.server";
import { analysisProvider } from "./provider.server";
import type { AnalysisPhoto } from "./types";

let server: OpenAiTestServer;
let photos: AnalysisPhoto[];

const DENT = { damageType: "dent", location: "front", severity: "moderate", description: "Dent in the bonnet", confidence: 0.8 };
const SCRATCH = { damageType: "scratch", location: "left", severity: "minor", description: "Scratch on the door", confidence: 0.6 };
const answer = (damages: object[]) => ({ damages, summary: "Two damages.", confidence: 0.7 });

const provider = (timeoutMs = 5000) => createOpenAiProvider({ apiKey: "test-key", baseURL: server.baseURL, model: "vision-test", timeoutMs });

describe("OpenAI-compatible provider", () => {
  beforeAll(async () => {
    // The provider an admin saved (Admin Settings → AI Provider) is read from the database.
    await useTestDb();
    server = await startOpenAiTestServer();
    const image = (width: number, height: number, r: number) =>
      sharp({ create: { width, height, channels: 3, background: { r, g: 80, b: 80 } } }).png().toBuffer();
    photos = await toAnalysisPhotos([
      { mediaUrl: "/media/front", contentType: "image/png", bytes: await image(3000, 2000, 200) },
      { mediaUrl: "/media/side", contentType: "image/png", bytes: await image(400, 300, 20) },
    ]);
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    server.fallback = { json: answer([]) };
  });

  it("sends the photos as data URLs of JPEGs of at most 1024 px, asks for json_schema, and maps each damage to its photo", async () => {
    server.script({ json: answer([{ ...DENT, photo: 1 }, { ...SCRATCH, photo: 2 }]) });
    const result = await provider().analyze(photos, {});
    expect(result).toEqual({
      damages: [
        { ...DENT, mediaUrl: "/media/front" },
        { ...SCRATCH, mediaUrl: "/media/side" },
      ],
      summary: "Two damages.",
      confidence: 0.7,
      provider: "openai",
      model: "vision-test",
    });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request.headers.authorization).toBe("Bearer test-key");
    expect(request.body.model).toBe("vision-test");
    expect(request.body.response_format).toMatchObject({ type: "json_schema", json_schema: { name: "vehicle_damage_assessment" } });
    const images = server.imagesOf(request);
    expect(images).toHaveLength(2);
    const sizes = await Promise.all(
      images.map(async (url) => {
        expect(url).toMatch(/^data:image\/jpeg;base64,/);
        const meta = await sharp(Buffer.from(url.split(",")[1], "base64")).metadata();
        return [meta.format, meta.width, meta.height];
      }),
    );
    expect(sizes).toEqual([
      ["jpeg", 1024, 683],
      ["jpeg", 400, 300],
    ]);
  });

  it("tolerates a code fence around the JSON", async () => {
    server.script({ content: "```json\n" + JSON.stringify(answer([{ ...DENT, photo: 2 }])) + "\n```" });
    const result = await provider().analyze(photos, {});
    expect(result.damages).toEqual([{ ...DENT, mediaUrl: "/media/side" }]);
  });

  it("retries a 429 and succeeds", async () => {
    server.script({ status: 429 }, { json: answer([{ ...DENT, photo: 1 }]) });
    const result = await provider().analyze(photos, {});
    expect(result.damages).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it("gives up after 2 retries of a 500, saying so", async () => {
    server.script({ status: 500 }, { status: 500 }, { status: 500 });
    await expect(provider().analyze(photos, {})).rejects.toThrow(/^Analysis failed: the vision model server answered 500 \(.*tried 3 times\)$/);
    expect(server.requests).toHaveLength(3);
  });

  it("times out, retries twice, then fails saying it timed out", async () => {
    server.script({ delayMs: 2000 }, { delayMs: 2000 }, { delayMs: 2000 });
    await expect(provider(200).analyze(photos, {})).rejects.toThrow("Analysis failed: the vision model did not answer within 200 ms (tried 3 times)");
    expect(server.requests).toHaveLength(3);
  });

  it("asks again once after invalid JSON", async () => {
    server.script({ content: "I think there is a dent." }, { json: answer([{ ...SCRATCH, photo: 2 }]) });
    const result = await provider().analyze(photos, {});
    expect(result.damages).toEqual([{ ...SCRATCH, mediaUrl: "/media/side" }]);
    expect(server.requests).toHaveLength(2);
  });

  it("fails with the reason after invalid JSON twice", async () => {
    server.script({ content: "{not json" }, { content: "still not" });
    await expect(provider().analyze(photos, {})).rejects.toThrow("Analysis failed: the vision model's answer was not usable twice; the answer was not JSON");
    expect(server.requests).toHaveLength(2);
  });

  it("refuses answers outside the damage format or naming a photo that was not sent", async () => {
    server.script({ json: answer([{ ...DENT, photo: 3 }]) }, { json: answer([{ ...DENT, damageType: "smudge", photo: 1 }]) });
    await expect(provider().analyze(photos, {})).rejects.toThrow(/the answer did not match the damage format \(damages\.0\.damageType: Invalid enum value/);
    expect(() => parseAnswer(JSON.stringify(answer([{ ...DENT, photo: 3 }])), photos)).toThrow("damage 1 names photo 3 of 2");
    // Without a photo number over several files the damage is kept, its photo not stated (no mediaUrl).
    expect(parseAnswer(JSON.stringify(answer([DENT, { ...SCRATCH, photo: 2 }])), photos).damages).toEqual([DENT, { ...SCRATCH, mediaUrl: "/media/side" }]);
    // Without a photo number, a damage is placed when every photo comes from one file (a video's frames).
    const frames = photos.map((p) => ({ ...p, mediaUrl: "/media/video" }));
    expect(parseAnswer(JSON.stringify(answer([DENT])), frames).damages).toEqual([{ ...DENT, mediaUrl: "/media/video" }]);
    expect(() => parseAnswer(JSON.stringify({ ...answer([]), confidence: 2 }), photos)).toThrow(/confidence/);
  });

  it("places a damage on the video frame its photo number names (the frame's own media URL)", () => {
    const frames = photos.map((p, i) => ({ ...p, mediaUrl: "/media/video", videoFrame: true as const, at: i + 0.5, frameUrl: `/media/frame${i + 1}` }));
    expect(parseAnswer(JSON.stringify(answer([{ ...SCRATCH, photo: 2 }])), frames).damages).toEqual([{ ...SCRATCH, mediaUrl: "/media/frame2" }]);
    // No number: on the video, its frame not stated (never guessed).
    expect(parseAnswer(JSON.stringify(answer([DENT])), frames).damages).toEqual([{ ...DENT, mediaUrl: "/media/video" }]);
  });

  it("stops when the job is aborted", async () => {
    server.script({ delayMs: 2000 });
    const controller = new AbortController();
    const pending = provider().analyze(photos, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("lease lost")), 100);
    await expect(pending).rejects.toThrow("lease lost");
  });

  it("is chosen when OPENAI_API_KEY is set; the embedded matcher otherwise", async () => {
    const saved = { key: env.OPENAI_API_KEY, url: env.OPENAI_BASE_URL };
    try {
      env.OPENAI_API_KEY = undefined;
      expect(await analysisProvider()).toBe(embeddedMatcher);
      env.OPENAI_API_KEY = "sk-test";
      env.OPENAI_BASE_URL = server.baseURL;
      expect((await analysisProvider()).name).toBe("openai");
      expect(await analysisProvider()).toBe(await analysisProvider());
    } finally {
      env.OPENAI_API_KEY = saved.key;
      env.OPENAI_BASE_URL = saved.url;
    }
  });
});
