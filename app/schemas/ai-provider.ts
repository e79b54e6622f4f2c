import { withZod } from "@remix-validated-form/with-zod";
import { z } from "zod";
import { blankWithin } from "./blank";
import { checkbox } from "./fields";
import { optionalString } from "./text-fields";

/**
 * Admin Settings → AI Provider (and `PUT /api/admin/ai-provider`): an OpenAI-compatible server.
 * The base URL must be http(s) (the outbound rules of other servers apply once they exist).
 * A blank key keeps the stored one; `clearApiKey` removes it.
 */
export const aiProviderSchema = z.object({
  baseURL: z.preprocess(
    (v) => (v === null ? undefined : blankWithin(500)(v)),
    z
      .string({ invalid_type_error: "Base URL must be text" })
      .max(500, "Base URL must be at most 500 characters")
      .trim()
      .url("Base URL must be a URL such as https://api.openai.com/v1")
      .refine((v) => /^https?:\/\//i.test(v), "Base URL must start with http:// or https://")
      .optional(),
  ),
  model: z
    .string({ required_error: "Model is required", invalid_type_error: "Model must be text" })
    .max(200, "Model must be at most 200 characters")
    .trim()
    .min(1, "Model is required"),
  apiKey: optionalString("API key", 500),
  clearApiKey: checkbox.optional().default(false),
});
export type AiProviderInput = z.infer<typeof aiProviderSchema>;
export const aiProviderValidator = withZod(aiProviderSchema);

/** The Test button may try the form's values before they are saved: the same fields, the model optional. */
export const aiProviderTestSchema = aiProviderSchema.partial({ model: true });
export type AiProviderTestInput = z.infer<typeof aiProviderTestSchema>;
