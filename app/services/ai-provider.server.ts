import OpenAI from "openai";
import { findAiProvider, removeAiProvider, upsertAiProvider } from "~/models/ai-provider.server";
import { verifiedExamplesVersion } from "~/models/training-item.server";
import type { AiProviderInput, AiProviderTestInput } from "~/schemas/ai-provider";
import { env } from "~/utils/env.server";
import { httpFetch } from "./analysis/http-fetch.server";
import type { Actor } from "./actor";
import { open, seal } from "./secret-box.server";

/**
 * Which AI provider analyses photos (docs/decisions/0018): the one an admin set in Admin Settings →
 * AI Provider, else the OPENAI_* environment, else none (the embedded matcher against verified
 * training images). Read from the database at each use, so a change applies on every instance at
 * once; the key is sealed at rest like the mail server's password and never sent back.
 */

const KEY_LABEL = "damageiq ai-provider key v1";
export const OPENAI_BASE_URL = "https://api.openai.com/v1";
/** A Test request: small, and not left waiting on a server that does not answer. */
const TEST_TIMEOUT_MS = 20_000;

export interface ProviderConfig {
  source: "settings" | "environment";
  baseURL?: string;
  model: string;
  apiKey: string;
}

/** The provider analyses use now, or null when none is configured. */
export async function activeProviderConfig(): Promise<ProviderConfig | null> {
  const stored = await findAiProvider();
  if (stored) {
    const apiKey = stored.apiKeyEnc ? open(KEY_LABEL, stored.apiKeyEnc) : null;
    // A server without keys (a local llama.cpp or Ollama) still needs a value in the Authorization header.
    return { source: "settings", baseURL: stored.baseURL, model: stored.model, apiKey: apiKey ?? "none" };
  }
  if (env.OPENAI_API_KEY) return { source: "environment", baseURL: env.OPENAI_BASE_URL, model: env.OPENAI_MODEL, apiKey: env.OPENAI_API_KEY };
  return null;
}

/** What Admin Settings → AI Provider and `GET /api/admin/ai-provider` show: never the key itself. */
export async function getAiProviderSettings() {
  const stored = await findAiProvider();
  const [verified] = (await verifiedExamplesVersion()).split(":");
  return {
    source: stored ? ("settings" as const) : env.OPENAI_API_KEY ? ("environment" as const) : ("none" as const),
    baseURL: stored?.baseURL ?? "",
    model: stored?.model ?? "",
    apiKeySet: Boolean(stored?.apiKeyEnc),
    /** The key stored here no longer opens (SESSION_SECRET changed): enter it again. */
    apiKeyUnreadable: Boolean(stored?.apiKeyEnc && open(KEY_LABEL, stored.apiKeyEnc) === null),
    updatedAt: stored?.updatedAt?.toISOString() ?? null,
    /** What applies while nothing is saved here. */
    environment: { baseURL: env.OPENAI_BASE_URL ?? "", model: env.OPENAI_MODEL, apiKeySet: Boolean(env.OPENAI_API_KEY) },
    verifiedTrainingImages: Number(verified),
  };
}
export type AiProviderSettings = Awaited<ReturnType<typeof getAiProviderSettings>>;

/** Saves the provider for the whole installation. A blank key keeps the stored one; `clearApiKey` removes it. */
export async function saveAiProviderSettings(actor: Actor, input: AiProviderInput) {
  const stored = await findAiProvider();
  const apiKeyEnc = input.clearApiKey ? undefined : input.apiKey ? seal(KEY_LABEL, input.apiKey) : stored?.apiKeyEnc;
  await upsertAiProvider({ baseURL: input.baseURL, model: input.model, apiKeyEnc, updatedBy: actor.id });
  return getAiProviderSettings();
}

/** Back to the environment's provider (or none). */
export async function removeAiProviderSettings() {
  await removeAiProvider();
  return getAiProviderSettings();
}

export interface ProviderTestResult {
  ok: boolean;
  message: string;
  latencyMs: number;
}

function reasonOf(error: unknown) {
  if (error instanceof OpenAI.AuthenticationError) return "the server refused the API key (401)";
  if (error instanceof OpenAI.NotFoundError) return "the server answered 404: check the base URL (it usually ends in /v1) and the model";
  if (error instanceof OpenAI.APIConnectionTimeoutError) return `no answer within ${TEST_TIMEOUT_MS / 1000} s`;
  if (error instanceof OpenAI.APIConnectionError) return `the server could not be reached (${error.cause instanceof Error ? error.cause.message : error.message})`;
  if (error instanceof OpenAI.APIError) return `the server answered ${error.status ?? "an error"} (${error.message})`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Test: one real chat completion (a few tokens) with the given values, each missing one taken from
 * what is saved (the stored key when the key field was left blank), else from the environment.
 */
export async function testAiProvider(input: AiProviderTestInput): Promise<ProviderTestResult> {
  const stored = await findAiProvider();
  if (!stored && !env.OPENAI_API_KEY && input.baseURL === undefined && input.apiKey === undefined) {
    return { ok: false, message: "No AI provider is set up: enter its base URL, model and key first.", latencyMs: 0 };
  }
  const storedKey = stored?.apiKeyEnc ? open(KEY_LABEL, stored.apiKeyEnc) : null;
  const baseURL = input.baseURL ?? (stored ? stored.baseURL : env.OPENAI_BASE_URL) ?? OPENAI_BASE_URL;
  const model = input.model ?? stored?.model ?? env.OPENAI_MODEL;
  const apiKey = input.clearApiKey ? "none" : (input.apiKey ?? (stored ? storedKey : env.OPENAI_API_KEY) ?? "none");
  const client = new OpenAI({ apiKey, baseURL, timeout: TEST_TIMEOUT_MS, maxRetries: 0, fetch: httpFetch });
  const started = performance.now();
  const where = `${new URL(baseURL).host}, model ${model}`;
  try {
    const completion = await client.chat.completions.create({
      model,
      max_tokens: 5,
      temperature: 0,
      messages: [{ role: "user", content: "Reply with the word OK." }],
    });
    const latencyMs = Math.round(performance.now() - started);
    if (!completion.choices?.length) return { ok: false, message: `${where}: the answer held no choices (not an OpenAI-compatible server?)`, latencyMs };
    return { ok: true, message: `${where} answered in ${latencyMs} ms.`, latencyMs };
  } catch (error) {
    return { ok: false, message: `${where}: ${reasonOf(error)}`, latencyMs: Math.round(performance.now() - started) };
  }
}
