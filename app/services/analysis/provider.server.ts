import { env } from "~/utils/env.server";
import { embeddedMatcher } from "./embedded-matcher.server";
import { createOpenAiProvider } from "./openai-provider.server";
import type { AnalysisProvider } from "./types";

let openAi: { key: string; provider: AnalysisProvider } | undefined;

/** The OpenAI-compatible vision provider when OPENAI_API_KEY is set, else the embedded matcher. */
export function analysisProvider(): AnalysisProvider {
  const apiKey = env.OPENAI_API_KEY;
  if (!apiKey) return embeddedMatcher;
  // One client (and its connection pool) for the process.
  if (openAi?.key !== apiKey) {
    openAi = { key: apiKey, provider: createOpenAiProvider({ apiKey, baseURL: env.OPENAI_BASE_URL, model: env.OPENAI_MODEL }) };
  }
  return openAi.provider;
}
