import OpenAI from "openai";
import { z } from "zod";
import { DAMAGE_LOCATIONS, DAMAGE_TYPES, SEVERITIES } from "~/schemas/damage";
import { httpFetch } from "./http-fetch.server";
import { pictureUrl, type AnalysisPhoto, type AnalysisProvider, type AnalysisResult, type FoundDamage } from "./types";

/**
 * The vision provider for any server speaking OpenAI's chat completions with images (OpenAI, or a
 * local llama.cpp, vLLM or Ollama through OPENAI_BASE_URL). The photos go as data URLs of the
 * downscaled copies (the model server may not reach our storage); the answer is asked for as JSON
 * (json_schema) and validated here whatever the server did with the schema.
 */

export const DEFAULT_TIMEOUT_MS = 60_000;
/** Retries of a 408/409/429/5xx answer, a lost connection or a timeout (the SDK's, with its backoff). */
const TRANSPORT_RETRIES = 2;
/** Asking again when the answer is not the JSON asked for: once. */
const INVALID_ANSWER_RETRIES = 1;

const SYSTEM_PROMPT = [
  "You are a vehicle damage assessor for car dealers. You are given numbered photos of one vehicle.",
  "List every visible damage once (the same damage seen on several photos is one damage, on the photo that shows it best).",
  "For each: damageType, location on the vehicle, severity (minor: cosmetic; moderate: needs a panel repaired;",
  "major: parts replaced; severe: structural or safety-relevant), a short factual description, your confidence (0 to 1),",
  "and the number of the photo it is on. Report only what you can see; if no damage is visible, return no damages.",
  "summary: two or three sentences for the dealer. confidence: how sure you are of the whole assessment (0 to 1).",
  "Answer with JSON only.",
].join(" ");

/** What the model is asked for (strict json_schema: every property required, nothing else). */
const RESPONSE_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["damages", "summary", "confidence"],
  properties: {
    damages: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["damageType", "location", "severity", "description", "confidence", "photo"],
        properties: {
          damageType: { type: "string", enum: [...DAMAGE_TYPES] },
          location: { type: "string", enum: [...DAMAGE_LOCATIONS] },
          severity: { type: "string", enum: [...SEVERITIES] },
          description: { type: "string" },
          confidence: { type: "number", minimum: 0, maximum: 1 },
          photo: { type: "integer", minimum: 1, description: "The number of the photo the damage is on" },
        },
      },
    },
    summary: { type: "string" },
    confidence: { type: "number", minimum: 0, maximum: 1 },
  },
} as const;

const confidence = z.number().min(0).max(1);
/** The issue's shape, plus the photo number (optional: a server that ignores the schema may leave it out). */
const answerSchema = z.object({
  damages: z.array(
    z.object({
      damageType: z.enum(DAMAGE_TYPES),
      location: z.enum(DAMAGE_LOCATIONS),
      severity: z.enum(SEVERITIES),
      description: z.string().trim().max(2000),
      confidence,
      photo: z.number().int().optional(),
    }),
  ),
  summary: z.string().trim().max(5000),
  confidence,
});

class InvalidAnswer extends Error {}

const FENCE = /^\s*```[a-zA-Z]*\s*\n?([\s\S]*?)\n?\s*```\s*$/;

/** The answer's message content as the damages, each on its photo; InvalidAnswer says what is wrong. */
export function parseAnswer(content: string | null | undefined, photos: AnalysisPhoto[]): Omit<AnalysisResult, "provider" | "model"> {
  if (!content || content.trim() === "") throw new InvalidAnswer("the answer was empty");
  const text = FENCE.exec(content)?.[1] ?? content;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InvalidAnswer("the answer was not JSON");
  }
  const parsed = answerSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidAnswer(`the answer did not match the damage format (${issue.path.join(".") || "answer"}: ${issue.message})`);
  }
  const distinctMedia = new Set(photos.map((p) => p.mediaUrl));
  const damages: FoundDamage[] = parsed.data.damages.map(({ photo, ...damage }, i) => {
    if (photo === undefined) {
      // A server that ignores the schema may leave the number out: with one media file the damage is
      // on it; with several it is kept, its photo not stated (never guessed, never the whole analysis lost).
      return distinctMedia.size === 1 ? { ...damage, mediaUrl: photos[0].mediaUrl } : damage;
    }
    if (photo < 1 || photo > photos.length) throw new InvalidAnswer(`damage ${i + 1} names photo ${photo} of ${photos.length}`);
    return { ...damage, mediaUrl: pictureUrl(photos[photo - 1]) };
  });
  return { damages, summary: parsed.data.summary, confidence: parsed.data.confidence };
}

/** Why a request failed, in words for the assessment's error. */
function explain(error: unknown, timeoutMs: number) {
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    const limit = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`;
    return `the vision model did not answer within ${limit} (tried ${TRANSPORT_RETRIES + 1} times)`;
  }
  if (error instanceof OpenAI.APIConnectionError) return `the vision model server could not be reached (${error.cause instanceof Error ? error.cause.message : error.message})`;
  if (error instanceof OpenAI.AuthenticationError) return "the vision model server refused the API key (401)";
  if (error instanceof OpenAI.RateLimitError) return `the vision model server is rate limiting (429, tried ${TRANSPORT_RETRIES + 1} times)`;
  if (error instanceof OpenAI.APIError && error.status !== undefined) {
    const retried = error.status >= 500 ? `, tried ${TRANSPORT_RETRIES + 1} times` : "";
    return `the vision model server answered ${error.status} (${error.message.replace(/^\d+\s*/, "")}${retried})`;
  }
  return error instanceof Error ? error.message : String(error);
}

export interface OpenAiProviderOptions {
  apiKey: string;
  baseURL?: string;
  model: string;
  /** Per request; 60 s by default. */
  timeoutMs?: number;
}

export function createOpenAiProvider({ apiKey, baseURL, model, timeoutMs = DEFAULT_TIMEOUT_MS }: OpenAiProviderOptions): AnalysisProvider {
  const client = new OpenAI({ apiKey, baseURL, timeout: timeoutMs, maxRetries: TRANSPORT_RETRIES, fetch: httpFetch });

  const ask = async (photos: AnalysisPhoto[], signal?: AbortSignal) => {
    const content: OpenAI.Chat.Completions.ChatCompletionContentPart[] = [
      { type: "text", text: `${photos.length} photo(s) of the vehicle follow, numbered from 1.` },
    ];
    photos.forEach((photo, i) => {
      content.push({ type: "text", text: `Photo ${i + 1}:` });
      content.push({ type: "image_url", image_url: { url: `data:${photo.contentType};base64,${photo.bytes.toString("base64")}` } });
    });
    return client.chat.completions.create(
      {
        model,
        temperature: 0,
        messages: [
          { role: "system", content: SYSTEM_PROMPT },
          { role: "user", content },
        ],
        response_format: { type: "json_schema", json_schema: { name: "vehicle_damage_assessment", strict: true, schema: RESPONSE_SCHEMA } },
      },
      { signal },
    );
  };

  return {
    name: "openai",
    async analyze(photos, { signal } = {}) {
      if (photos.length === 0) throw new Error("Analysis failed: no photos to analyse");
      let invalid = "";
      for (let attempt = 0; attempt <= INVALID_ANSWER_RETRIES; attempt++) {
        let completion: OpenAI.Chat.Completions.ChatCompletion;
        try {
          completion = await ask(photos, signal);
        } catch (error) {
          if (signal?.aborted) throw signal.reason;
          throw new Error(`Analysis failed: ${explain(error, timeoutMs)}`, { cause: error });
        }
        const message = completion.choices[0]?.message;
        try {
          if (message?.refusal) throw new InvalidAnswer(`the model refused: ${message.refusal}`);
          return { ...parseAnswer(message?.content, photos), provider: "openai", model: completion.model || model };
        } catch (error) {
          if (!(error instanceof InvalidAnswer)) throw error;
          invalid = error.message;
        }
      }
      throw new Error(`Analysis failed: the vision model's answer was not usable twice; ${invalid}`);
    },
  };
}
