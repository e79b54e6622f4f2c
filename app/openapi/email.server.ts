import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { emailTemplateSchema, mailServerSchema, settleEmailSchema, templatePreviewSchema } from "~/schemas/email";
import { listQuerySchema } from "~/schemas/list-query";
import { ApiArea, errors, idempotencyHeader, isoDate, json, MessageBody, listPageHeaders, objectIdText, ownerField, record, z } from "./registry.server";

const idParam = z.object({ id: z.string().openapi({ description: "The record's id", example: "6650c0ffee0123456789abcd" }) });

/** Email templates, the email log, the caller's mail server. */
export function describeEmail(registry: OpenAPIRegistry) {
  const area = new ApiArea(registry, "Email");
  const Template = area.schema(
    "EmailTemplate",
    record({
      id: objectIdText,
      ownerId: objectIdText,
      owner: ownerField,
      name: z.string(),
      subject: z.string(),
      htmlContent: z.string(),
      isDefault: z.boolean(),
      createdAt: isoDate,
      updatedAt: isoDate,
    }),
  );
  const warnings = z.array(z.string()).openapi({ description: "Variables the template uses that do not exist" });
  const TemplateWithWarnings = Template.extend({ warnings });
  const EmailLog = area.schema(
    "EmailLog",
    record({
      id: objectIdText,
      ownerId: objectIdText,
      owner: ownerField,
      kind: z.enum(["estimate", "notification"]),
      recipientEmail: z.string(),
      subject: z.string(),
      status: z.string(),
      statusLabel: z.string(),
      localDrop: z.boolean(),
      assessmentId: z.string().nullable(),
      assessmentTitle: z.string().nullable(),
      messageId: z.string(),
      lastError: z.string().nullable(),
      nextAttemptAt: isoDate.nullable(),
      attempts: z.array(record({ at: isoDate, finishedAt: isoDate.nullable(), outcome: z.string(), error: z.string().nullable(), response: z.string().nullable() })),
      sentAt: isoDate.nullable(),
      settlement: record({
        action: z.enum(["resent", "delivered"]),
        at: isoDate,
        byId: z.string().nullable(),
        resentAs: z.string().nullable().openapi({ description: "The new entry that sent it again" }),
      })
        .nullable()
        .openapi({ description: "How the account settled an email whose delivery was unknown; null until then" }),
      createdAt: isoDate,
      updatedAt: isoDate,
    }),
  );
  const SentEmail = area.schema(
    "SentEmail",
    EmailLog.extend({ via: z.enum(["account", "environment", "drop"]).openapi({ description: "Where it goes: a mail server (the account's or the environment's) or only the local drop" }) }),
  );
  // The subject's refinements (one line, not blank once trimmed), which the generator cannot see.
  const templateBody = emailTemplateSchema.extend({
    subject: emailTemplateSchema.shape.subject.openapi({ pattern: "^[^\\r\\n]*\\S[^\\r\\n]*$", maxLength: 300 }),
  });
  const example = { name: "Estimate ready", subject: "Your estimate for {{assessment.vehicle}}", htmlContent: "<p>Hello {{contact.firstName}}, your estimate is {{assessment.estimatedCost}}.</p>", isDefault: false };

  area.describe({
    method: "get", path: "/api/email-templates", operationId: "listEmailTemplates", auth: "user",
    summary: "List email templates", description: "Newest first; `q` searches name and subject. Pages: `limit` with `cursor` (from the `Link` header of the page before; a cursor that is not one is a 400), or `offset` as before.",
    query: listQuerySchema, responses: { 200: json("The templates", z.array(Template), { headers: listPageHeaders }) },
  });
  area.describe({
    method: "post", path: "/api/email-templates", operationId: "createEmailTemplate", auth: "user",
    summary: "Create an email template", headers: idempotencyHeader, body: templateBody, example,
    responses: { 201: json("The created template, with unknown variables in `warnings`", TemplateWithWarnings), 409: errors[409] },
    links: { 201: { GetEmailTemplateById: { operationId: "getEmailTemplate", parameters: { id: "$response.body#/id" } } } },
  });
  area.describe({
    method: "get", path: "/api/email-templates/{id}", operationId: "getEmailTemplate", auth: "user", params: idParam,
    summary: "Get an email template", responses: { 200: json("The template", Template) },
  });
  area.describe({
    method: "put", path: "/api/email-templates/{id}", operationId: "updateEmailTemplate", auth: "user", params: idParam,
    summary: "Replace an email template", body: templateBody, example,
    responses: { 200: json("The saved template", TemplateWithWarnings) },
  });
  area.describe({
    method: "delete", path: "/api/email-templates/{id}", operationId: "deleteEmailTemplate", auth: "user", params: idParam,
    summary: "Delete an email template", responses: { 200: json("Deleted", MessageBody) },
  });
  area.describe({
    method: "post", path: "/api/email-templates/{id}/copy", operationId: "copyEmailTemplate", auth: "user", params: idParam,
    summary: "Copy an email template", description: "Named \"<name> (Copy)\", never the default.", headers: idempotencyHeader,
    responses: { 201: json("The copy", Template), 409: errors[409] },
  });
  area.describe({
    method: "post", path: "/api/email-templates/preview", operationId: "previewEmailTemplate", auth: "user",
    summary: "Render a template with sample data", body: templatePreviewSchema, example: { subject: example.subject, htmlContent: example.htmlContent },
    description:
      "At most 60 previews per account and minute (429 with `Retry-After` beyond). A template whose blocks nest more than 5 deep, or whose render goes over its budget (steps, output, time), is refused with 400 naming the problem.",
    responses: {
      200: json("The rendered subject and HTML", record({ subject: z.string(), html: z.string(), warnings })),
      429: { ...errors[429], description: "Too many previews in this minute" },
    },
  });
  area.describe({
    method: "get", path: "/api/email-logs", operationId: "listEmailLogs", auth: "user",
    summary: "List the email log", description: "Newest first; `q` searches recipient, subject and assessment. Pages: `limit` with `cursor` (from the `Link` header of the page before; a cursor that is not one is a 400), or `offset` as before.",
    query: listQuerySchema, responses: { 200: json("The log entries", z.array(EmailLog), { headers: listPageHeaders }) },
  });
  area.describe({
    method: "get", path: "/api/email-logs/{id}", operationId: "getEmailLog", auth: "user", params: idParam,
    summary: "One log entry with its rendered message",
    responses: { 200: json("The entry", EmailLog.extend({ html: z.string(), text: z.string() })) },
  });
  const unknownOnly = "Only for an email whose delivery is `unknown` (the app stopped, or the connection broke, after the message left and before the mail server confirmed it): never resent by itself. Another account's id is a 404; one that is not unknown a 409; a body other than none or `{}` a 400, and nothing changes.";
  area.describe({
    method: "post", path: "/api/email-logs/{id}/resend", operationId: "resendEmail", auth: "user", params: idParam,
    summary: "Send an email of unknown delivery again",
    description: `${unknownOnly} Queues the same message as a new entry (202) and records on this one who resent it, when, and the new entry's id (\`settlement\`). Asked again, the same new entry.`,
    body: settleEmailSchema,
    responses: { 202: json("The new entry, pending", EmailLog), 409: errors[409] },
    links: { 202: { GetEmailLogById: { operationId: "getEmailLog", parameters: { id: "$response.body#/id" } } } },
  });
  area.describe({
    method: "post", path: "/api/email-logs/{id}/mark-delivered", operationId: "markEmailDelivered", auth: "user", params: idParam,
    summary: "Confirm an email of unknown delivery arrived",
    description: `${unknownOnly} The entry turns \`sent\` (its estimate too, as when the server confirms), with who confirmed it and when (\`settlement\`). Asked again, the entry as it is.`,
    body: settleEmailSchema,
    responses: { 200: json("The entry, sent", EmailLog), 409: errors[409] },
  });
  const MailServer = area.schema(
    "MailServerSettings",
    record({
      host: z.string(),
      port: z.number().int(),
      secure: z.boolean(),
      user: z.string(),
      passwordSet: z.boolean(),
      from: z.string(),
      fallback: z.enum(["environment", "drop"]).openapi({ description: "Where mail goes while no host is set here" }),
    }),
  );
  area.describe({
    method: "get", path: "/api/email/settings", operationId: "getMailServer", auth: "user",
    summary: "The caller's mail server (the password only as `passwordSet`)", responses: { 200: json("The settings", MailServer) },
  });
  area.describe({
    method: "put", path: "/api/email/settings", operationId: "saveMailServer", auth: "user",
    summary: "Save the caller's mail server",
    description: "A host that resolves to a private, loopback, link-local or metadata address is refused (400) unless the operator allows it.",
    // A blank or null `from` clears it (the schema's preprocess): stated beside the email pattern.
    body: mailServerSchema.extend({
      from: z.union([mailServerSchema.shape.from, z.string().regex(/^\s*$/).openapi({ description: "Blank: no From address" }), z.null()]),
    }),
    example: { host: "smtp.example.com", port: 587, secure: false, user: "estimates@example.com", password: "app-password", from: "estimates@example.com" },
    responses: { 200: json("The saved settings", MailServer) },
  });
  area.describe({
    method: "get", path: "/api/email/test", operationId: "testMailServer", auth: "user",
    summary: "Test the connection to the caller's mail route now",
    responses: {
      200: json(
        "Whether the mail server answered",
        record({ connected: z.boolean(), reason: z.string().optional(), via: z.enum(["account", "environment", "drop"]) }),
      ),
    },
  });
  return { SentEmail };
}

export type EmailSchemas = ReturnType<typeof describeEmail>;
