import { withZod } from "@remix-validated-form/with-zod";
import { z } from "zod";
import { optionalString } from "./text-fields";

/** What happened, as receivers subscribe to it (docs/decisions/0022). */
export const WEBHOOK_EVENT_TYPES = [
  "assessment.created",
  "assessment.completed",
  "assessment.failed",
  "estimate.updated",
  "estimate.sent",
  "estimate.approved",
  "estimate.declined",
  "estimate.question_asked",
  "estimate.question_answered",
  "email.delivered",
  "email.failed",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_URL_MAX = 2000;
export const MAX_WEBHOOK_ENDPOINTS = 10;

const URL_MESSAGE = "URL must be an http:// or https:// address";

/** An absolute http(s) URL without credentials in it (a secret in a URL ends up in logs). */
const url = z
  .string({ required_error: "URL is required", invalid_type_error: "URL must be text" })
  .max(WEBHOOK_URL_MAX, `URL must be at most ${WEBHOOK_URL_MAX} characters`)
  .trim()
  .min(1, "URL is required")
  .superRefine((value, ctx) => {
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      ctx.addIssue({ code: "custom", message: URL_MESSAGE });
      return;
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") ctx.addIssue({ code: "custom", message: URL_MESSAGE });
    else if (parsed.username || parsed.password) ctx.addIssue({ code: "custom", message: "URL must not contain a user name or password" });
  });

/** One or more event types; a form with one box ticked posts a lone string. */
const events = z.preprocess(
  (v) => (typeof v === "string" ? [v] : v),
  z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { errorMap: () => ({ message: `Each event must be one of ${WEBHOOK_EVENT_TYPES.join(", ")}` }) }), {
      required_error: "Choose at least one event",
      invalid_type_error: "Events must be a list of event types",
    })
    .min(1, "Choose at least one event")
    .max(WEBHOOK_EVENT_TYPES.length)
    .transform((list) => [...new Set(list)]),
);

const description = optionalString("Description", 200);

/** `POST /api/webhooks` and Settings → Security → Webhooks' Add endpoint form. */
export const webhookEndpointCreateSchema = z.object({ url, events, description });
export type WebhookEndpointCreateInput = z.infer<typeof webhookEndpointCreateSchema>;

/** `PUT /api/webhooks/{id}`: any of the fields; `enabled: true` turns a disabled endpoint back on. */
export const webhookEndpointUpdateSchema = z.object({
  url: url.optional(),
  events: events.optional(),
  description,
  enabled: z.boolean({ invalid_type_error: "Enabled must be true or false" }).optional(),
});
export type WebhookEndpointUpdateInput = z.infer<typeof webhookEndpointUpdateSchema>;

/** `GET /api/webhooks/{id}/deliveries`: a page of the endpoint's log, newest first. */
export const webhookDeliveryQuerySchema = z.object({
  limit: z.coerce.number({ invalid_type_error: "limit must be a number" }).int().min(1).max(100).default(50),
  offset: z.coerce.number({ invalid_type_error: "offset must be a number" }).int().min(0).max(100_000).default(0),
});

export const webhookEndpointCreateValidator = withZod(webhookEndpointCreateSchema);
