import { aiProviderValidator } from "~/schemas/validators.server";
import { removeAiProviderSettings, saveAiProviderSettings, testAiProvider } from "~/services/ai-provider.server";
import type { Actor } from "~/services/actor";
import { redirectWithToast } from "~/services/session.server";
import { handleForm } from "~/utils/forms.server";

const TAB_URL = "/admin-settings?tab=ai-provider";

/** Admin Settings → AI Provider's posts (JavaScript or not): save, test, remove. */
export const AI_PROVIDER_INTENTS: Record<string, (actor: Actor, request: Request, form: FormData) => Promise<Response>> = {
  "save-ai-provider": (actor, request, form) =>
    handleForm(
      request,
      aiProviderValidator,
      async (input) => {
        await saveAiProviderSettings(actor, input);
        return redirectWithToast(request, TAB_URL, { title: "AI Provider Saved", message: "New analyses use this provider from now on.", color: "green" });
      },
      form,
    ),
  "test-ai-provider": async (_actor, request) => {
    const result = await testAiProvider({ clearApiKey: false });
    return redirectWithToast(
      request,
      TAB_URL,
      result.ok ? { title: "AI Provider Works", message: result.message, color: "green" } : { title: "AI Provider Test Failed", message: result.message, color: "red" },
    );
  },
  "remove-ai-provider": async (_actor, request) => {
    const settings = await removeAiProviderSettings();
    const now = settings.source === "environment" ? "Analyses use the OPENAI_* environment again." : "No AI provider is set up now.";
    return redirectWithToast(request, TAB_URL, { title: "AI Provider Removed", message: now, color: "blue" });
  },
};
