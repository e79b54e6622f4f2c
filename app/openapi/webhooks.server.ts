import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { DELIVERY_STATUSES } from "~/models/webhook.server";
import {
  assessmentEventDataSchema,
  emailEventDataSchema,
  estimateDecidedDataSchema,
  estimateQuestionDataSchema,
  estimateAnswerDataSchema,
  estimateSentDataSchema,
  estimateUpdatedDataSchema,
  WEBHOOK_EXAMPLE_DATA,
  webhookEnvelopeSchema,
} from "~/schemas/webhook-events";
import { WEBHOOK_EVENT_TYPES, webhookDeliveryQuerySchema, webhookEndpointCreateSchema, webhookEndpointUpdateSchema } from "~/schemas/webhooks";
import { ApiArea, errors, isoDate, json, MessageBody, objectIdText, record, z, wholeListHeaders } from "./registry.server";
import { wholeListQuerySchema } from "~/schemas/list-query";

const idParam = z.object({ id: z.string().openapi({ description: "The webhook endpoint's id", example: "6650c0ffee0123456789abcd" }) });

/** Webhook endpoints, their signing secrets and delivery logs (docs/decisions/0022). */
export function describeWebhooks(registry: OpenAPIRegistry) {
  const area = new ApiArea(registry, "Webhooks");
  const Endpoint = area.schema(
    "WebhookEndpoint",
    record({
      id: objectIdText,
      url: z.string(),
      description: z.string().nullable(),
      events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
      enabled: z.boolean(),
      disabledReason: z.string().nullable().openapi({ description: "Why it was turned off (after persistent failure); null while enabled" }),
      disabledAt: isoDate.nullable(),
      lastSuccessAt: isoDate.nullable(),
      createdAt: isoDate,
      updatedAt: isoDate,
    }),
  );
  const WithSecret = Endpoint.extend({
    secret: z.string().openapi({ description: "The signing secret (Standard Webhooks `whsec_…`), shown in this answer only", example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" }),
  });
  const Delivery = area.schema(
    "WebhookDelivery",
    record({
      id: objectIdText,
      endpointId: objectIdText,
      webhookId: z.string().openapi({ description: "The `webhook-id` receivers deduplicate by: the same for every attempt of this event", example: "msg_6650c0ffee0123456789abcd" }),
      eventType: z.enum(WEBHOOK_EVENT_TYPES),
      status: z.enum(DELIVERY_STATUSES),
      attempts: z.array(record({ at: isoDate, durationMs: z.number(), statusCode: z.number().int().nullable(), error: z.string().nullable(), manual: z.boolean() })),
      lastStatusCode: z.number().int().nullable(),
      lastError: z.string().nullable(),
      nextAttemptAt: isoDate.nullable(),
      deliveredAt: isoDate.nullable(),
      createdAt: isoDate,
    }),
  );
  const byId = { GetWebhookById: { operationId: "getWebhook", parameters: { id: "$response.body#/id" } } };

  area.describe({
    method: "get", path: "/api/webhooks", operationId: "listWebhooks", auth: "user",
    summary: "The caller's webhook endpoints (never their secrets)", query: wholeListQuerySchema, responses: { 200: json("The endpoints", z.array(Endpoint), { headers: wholeListHeaders }) },
  });
  area.describe({
    method: "post", path: "/api/webhooks", operationId: "createWebhook", auth: "user",
    summary: "Add a webhook endpoint",
    description:
      "The URL must not resolve to a private, loopback, link-local or metadata address (400 on `url`). The answer carries the signing secret, shown this once. At most 10 endpoints (409).",
    body: webhookEndpointCreateSchema,
    example: { url: "https://hooks.example.com/damageiq", events: ["estimate.sent", "estimate.approved"], description: "Shop management system" },
    responses: { 201: json("The endpoint with its signing secret", WithSecret), 409: { ...errors[409], description: "At most 10 endpoints" } },
    links: { 201: byId },
  });
  area.describe({
    method: "get", path: "/api/webhooks/{id}", operationId: "getWebhook", auth: "user", params: idParam,
    summary: "Get a webhook endpoint", responses: { 200: json("The endpoint", Endpoint) },
  });
  area.describe({
    method: "put", path: "/api/webhooks/{id}", operationId: "updateWebhook", auth: "user", params: idParam,
    summary: "Change a webhook endpoint", description: "Only the fields sent change; `enabled: true` turns a disabled endpoint back on.",
    body: webhookEndpointUpdateSchema, example: { events: ["estimate.sent"], enabled: true },
    responses: { 200: json("The saved endpoint", Endpoint) },
  });
  area.describe({
    method: "delete", path: "/api/webhooks/{id}", operationId: "deleteWebhook", auth: "user", params: idParam,
    summary: "Delete a webhook endpoint (and its delivery log)", responses: { 200: json("Deleted", MessageBody) },
  });
  area.describe({
    method: "post", path: "/api/webhooks/{id}/rotate-secret", operationId: "rotateWebhookSecret", auth: "user", params: idParam,
    summary: "A new signing secret", description: "Answered once; the previous secret keeps signing beside it for a day.",
    responses: { 200: json("The endpoint with its new secret", WithSecret) },
  });
  area.describe({
    method: "get", path: "/api/webhooks/{id}/deliveries", operationId: "listWebhookDeliveries", auth: "user", params: idParam,
    summary: "The endpoint's delivery log, newest first",
    // z.coerce reads a missing offset as 0, which the generator writes as nullable: a query value is never null.
    query: webhookDeliveryQuerySchema.extend({ offset: webhookDeliveryQuerySchema.shape.offset.openapi({ type: "integer", minimum: 0, maximum: 100_000, default: 0 }) }),
    responses: { 200: json("A page of deliveries and how many there are", record({ deliveries: z.array(Delivery), total: z.number().int() })) },
  });
  area.describe({
    method: "post", path: "/api/webhook-deliveries/{id}/redeliver", operationId: "redeliverWebhook", auth: "user",
    params: z.object({ id: z.string().openapi({ description: "The delivery's id", example: "6650c0ffee0123456789abcd" }) }),
    summary: "Send a delivery's event again, now (same webhook-id)",
    responses: {
      202: json("The delivery, queued again", Delivery),
      409: { ...errors[409], description: "An attempt is in flight; try again in a moment" },
    },
  });
  describeWebhookEvents(registry);
}

const WHEN: Record<(typeof WEBHOOK_EVENT_TYPES)[number], string> = {
  "assessment.created": "An assessment was created (its photos or video uploaded).",
  "assessment.completed": "An assessment's AI analysis finished; `estimatedCost` is its estimate's total.",
  "assessment.failed": "An assessment's AI analysis failed; `error` says why.",
  "estimate.updated": "An estimate's lines were edited; `changes` lists what changed.",
  "estimate.sent": "An estimate was emailed to a customer.",
  "estimate.approved": "The customer approved a version of the estimate through its link.",
  "estimate.declined": "The customer declined a version of the estimate through its link.",
  "estimate.question_asked": "The customer asked a question on a version of the estimate through its link; it is stored on the estimate (answer it with POST /api/assessments/{id}/questions/{questionId}/answer).",
  "estimate.question_answered":
    "The dealer answered a customer's question on the estimate (screen or API); `message` is the answer, emailed to `answerTo` with the link to the page the customer asked on.",
  "email.delivered": "An estimate email was handed to the mail server.",
  "email.failed": "An estimate email could not be sent; `error` is the last error.",
};

const DELIVERY =
  "Delivered as a signed POST (Standard Webhooks) to each enabled endpoint subscribed to the event, with the headers `webhook-id` (`msg_…`, the same for every attempt of this event: deduplicate by it), `webhook-timestamp` (Unix seconds of this attempt) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of \"id.timestamp.body\">` with the endpoint's secret; space-separated, one per secret, while a rotated secret still signs). Answer any 2xx within the timeout; anything else is retried with backoff. Within one estimate an endpoint gets events in the order they happened.";

/** Each event type's delivery: the `webhooks` object, generated from the schemas the service builds payloads with. */
function describeWebhookEvents(registry: OpenAPIRegistry) {
  const data = {
    assessment: registry.register("AssessmentEventData", assessmentEventDataSchema),
    updated: registry.register("EstimateUpdatedEventData", estimateUpdatedDataSchema),
    sent: registry.register("EstimateSentEventData", estimateSentDataSchema),
    decided: registry.register("EstimateDecidedEventData", estimateDecidedDataSchema),
    question: registry.register("EstimateQuestionEventData", estimateQuestionDataSchema),
    answer: registry.register("EstimateQuestionAnsweredEventData", estimateAnswerDataSchema),
    email: registry.register("EmailEventData", emailEventDataSchema),
  };
  const dataOf = {
    "assessment.created": data.assessment,
    "assessment.completed": data.assessment,
    "assessment.failed": data.assessment,
    "estimate.updated": data.updated,
    "estimate.sent": data.sent,
    "estimate.approved": data.decided,
    "estimate.declined": data.decided,
    "estimate.question_asked": data.question,
    "estimate.question_answered": data.answer,
    "email.delivered": data.email,
    "email.failed": data.email,
  } as const;
  const headers = z.object({
    "webhook-id": z.string().describe("The event's id, the same for every attempt: deduplicate by it").openapi({ example: "msg_6650c0ffee0123456789abcd" }),
    "webhook-timestamp": z.string().regex(/^\d+$/).describe("When this attempt was signed, in Unix seconds").openapi({ example: "1764408600" }),
    "webhook-signature": z.string().describe("`v1,<base64 HMAC-SHA256>` of `id.timestamp.body`, one per signing secret, space-separated").openapi({ example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=" }),
  });
  for (const type of WEBHOOK_EVENT_TYPES) {
    const name = `${type.split(/[._]/).map((w) => w[0]!.toUpperCase() + w.slice(1)).join("")}Event`;
    const body = registry.register(name, webhookEnvelopeSchema(type).extend({ data: dataOf[type] }));
    registry.registerWebhook({
      method: "post",
      path: type,
      operationId: `on${name}`,
      tags: ["Webhooks"],
      summary: WHEN[type],
      description: `${WHEN[type]} ${DELIVERY}`,
      request: {
        headers,
        body: { required: true, content: { "application/json": { schema: body, example: { type, timestamp: "2026-11-25T09:30:00.000Z", data: WEBHOOK_EXAMPLE_DATA[type] } } } },
      },
      responses: { 200: { description: "Received (any 2xx); any other answer, or none within the timeout, is retried" } },
    });
  }
}
