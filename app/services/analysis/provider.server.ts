import { activeProviderConfig } from "../ai-provider.server";
import { embeddedMatcher } from "./embedded-matcher.server";
import { createOpenAiProvider } from "./openai-provider.server";
import type { AnalysisProvider } from "./types";

let openAi: { key: string; provider: AnalysisProvider } | undefined;

/**
 * The OpenAI-compatible vision provider when one is configured (Admin Settings → AI Provider, else
 * OPENAI_API_KEY), else the embedded matcher. The configuration is read at each analysis; only the
 * client (and its connection pool) for the current one is kept.
 */
export async function analysisProvider(): Promise<AnalysisProvider> {
  const config = await activeProviderConfig();
  if (!config) return embeddedMatcher;
  const key = JSON.stringify([config.apiKey, config.baseURL, config.model]);
  if (openAi?.key !== key) {
    openAi = { key, provider: createOpenAiProvider({ apiKey: config.apiKey, baseURL: config.baseURL, model: config.model }) };
  }
  return openAi.provider;
}
