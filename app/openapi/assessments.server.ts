import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { ASSESSMENT_STATUSES } from "~/schemas/assessment-status";
import { assessmentCreateSchema, assessmentListQuerySchema, assessmentRejectSchema, assessmentUpdateSchema } from "~/schemas/assessment";
import { sendEmailSchema } from "~/schemas/email";
import { estimateEditSchema } from "~/schemas/estimate";
import { ApiArea, errors, idempotencyHeader, isoDate, json, MessageBody, objectIdText, ownerField, record, z } from "./registry.server";
import type { EmailSchemas } from "./email.server";

const idParam = z.object({ id: z.string().openapi({ description: "The assessment's id", example: "6650c0ffee0123456789abcd" }) });

/** Assessments (an upload's AI damage assessment and its estimate), review, sending and the dashboard. */
export function describeAssessments(registry: OpenAPIRegistry, email: EmailSchemas) {
  const area = new ApiArea(registry, "Assessments and estimates");
  const status = z.enum(ASSESSMENT_STATUSES);
  const Assessment = area.schema(
    "Assessment",
    record({
      id: objectIdText,
      ownerId: objectIdText,
      owner: ownerField,
      title: z.string(),
      vehicleYear: z.number().int().nullable(),
      vehicleMake: z.string().nullable(),
      vehicleModel: z.string().nullable(),
      vin: z.string().nullable(),
      contactId: z.string().nullable(),
      contact: record({ id: z.string(), firstName: z.string(), lastName: z.string(), email: z.string() }).nullable(),
      notes: z.string().nullable(),
      vendorId: z.string().nullable(),
      mediaUrls: z.array(z.string()),
      status,
      severity: z.string().nullable(),
      estimatedCost: z.number().nullable().openapi({ description: "Dollars; null while to be determined (see costNote)" }),
      aiEstimatedCost: z.number().nullable(),
      costNote: z.string().nullable(),
      lineItems: z.array(z.record(z.unknown())),
      damages: z.array(
        record({
          damageType: z.string(),
          location: z.string(),
          severity: z.string(),
          description: z.string(),
          confidence: z.number(),
          mediaUrl: z.string().nullable(),
        }),
      ),
      damageCategories: z.array(z.string()),
      aiAnalysis: record({ confidence: z.number(), description: z.string(), provider: z.string(), model: z.string().nullable() }).nullable(),
      analysisError: z.string().nullable(),
      audit: z.array(record({ at: isoDate, by: z.string().nullable(), byName: z.string(), action: z.string() })),
      sentAt: isoDate.nullable(),
      supplementOf: z.string().nullable(),
      version: z.number().int(),
      supersededBy: z.string().nullable(),
      createdAt: isoDate,
      updatedAt: isoDate,
    }),
  );
  const example = { title: "Silver Camry, rear bumper", vehicleYear: 2019, vehicleMake: "Toyota", vehicleModel: "Camry", mediaUrls: ["/media/6650c0ffee0123456789abcd"] };
  const stateConflict = { ...errors[409], description: "Not allowed from the assessment's current status" };

  area.describe({
    method: "get", path: "/api/assessments", operationId: "listAssessments", auth: "user",
    summary: "List assessments", description: "Newest first; `q` searches title, make, model and VIN; `status` filters.",
    query: assessmentListQuerySchema, responses: { 200: json("The assessments", z.array(Assessment)) },
  });
  area.describe({
    method: "post", path: "/api/assessments", operationId: "createAssessment", auth: "user",
    summary: "Create an assessment from uploaded media",
    description: "`mediaUrls` are the caller's own uploads (`/media/{id}` from the upload endpoints). The analysis starts with `POST /api/assessments/{id}/analyze`.",
    headers: idempotencyHeader, body: assessmentCreateSchema, example,
    responses: { 201: json("The created assessment (status `uploaded`)", Assessment), 409: errors[409] },
    links: { 201: { GetAssessmentById: { operationId: "getAssessment", parameters: { id: "$response.body#/id" } } } },
  });
  area.describe({
    method: "get", path: "/api/assessments/{id}", operationId: "getAssessment", auth: "user", params: idParam,
    summary: "Get an assessment", responses: { 200: json("The assessment", Assessment) },
  });
  area.describe({
    method: "put", path: "/api/assessments/{id}", operationId: "updateAssessment", auth: "user", params: idParam,
    summary: "Replace an assessment's editable fields", description: "An optional field left out is removed.",
    body: assessmentUpdateSchema, example: { title: "Silver Camry", vehicleYear: 2019 },
    responses: { 200: json("The saved assessment", Assessment), 409: stateConflict },
  });
  area.describe({
    method: "delete", path: "/api/assessments/{id}", operationId: "deleteAssessment", auth: "user", params: idParam,
    summary: "Delete an assessment", responses: { 200: json("Deleted", MessageBody), 409: stateConflict },
  });
  area.describe({
    method: "post", path: "/api/assessments/{id}/analyze", operationId: "analyzeAssessment", auth: "user", params: idParam,
    summary: "Analyse an assessment's media",
    description:
      "Queues the analysis and waits a few seconds for it (not at all with `Prefer: respond-async`). The body, if any, is not read.",
    headers: z.object({ Prefer: z.string().optional().openapi({ example: "respond-async" }) }),
    responses: {
      200: json("The analysed assessment", Assessment),
      202: json("Still under way: poll the assessment at `Location`", Assessment, {
        headers: {
          Location: { description: "The assessment's address", schema: { type: "string" } },
          "Retry-After": { description: "Seconds before polling", schema: { type: "integer", minimum: 0 } },
        },
      }),
      409: stateConflict,
    },
  });
  area.describe({
    method: "post", path: "/api/assessments/{id}/approve", operationId: "approveAssessment", auth: "user", params: idParam,
    summary: "Approve a completed assessment (completed → reviewed)",
    responses: { 200: json("The reviewed assessment", Assessment), 409: stateConflict },
  });
  area.describe({
    method: "post", path: "/api/assessments/{id}/reject", operationId: "rejectAssessment", auth: "user", params: idParam,
    summary: "Reject an assessment (completed or reviewed → uploaded)", body: assessmentRejectSchema, example: { note: "Wrong vehicle in photo 2" },
    responses: { 200: json("The assessment, back to uploaded", Assessment), 409: stateConflict },
  });
  area.describe({
    method: "put", path: "/api/assessments/{id}/estimate", operationId: "editEstimate", auth: "user", params: idParam,
    summary: "Edit an estimate", description: "Severity, damages and their line amounts, the customer and the reason. Editing a sent estimate creates a supplement (201).",
    body: estimateEditSchema,
    example: { severity: "moderate", damages: [{ line: 0, damageType: "dent", location: "rear", severity: "moderate", amount: 450 }], reason: "Hidden damage behind the bumper" },
    responses: { 200: json("The saved estimate", Assessment), 201: json("The supplement created for a sent estimate", Assessment), 409: stateConflict },
  });
  area.describe({
    method: "get", path: "/api/assessments/{id}/estimate.pdf", operationId: "getEstimatePdf", auth: "user", params: idParam,
    summary: "The estimate as a PDF",
    responses: { 200: { description: "The PDF", content: { "application/pdf": { schema: z.string().openapi({ format: "binary" }) } } } },
  });
  area.describe({
    method: "post", path: "/api/assessments/{id}/send-email", operationId: "sendEstimateEmail", auth: "user", params: idParam,
    summary: "Email the estimate to a contact",
    description:
      "Queues the message with the estimate PDF (202); the outbox delivers it. With an `Idempotency-Key` used before: the same body answers that send as it stands; another body is 409.",
    headers: idempotencyHeader, body: sendEmailSchema, example: { contactId: "6650c0ffee0123456789abcd", additionalMessage: "Call us with any questions." },
    responses: {
      202: json("The email log entry (pending, or saved to the local drop when no mail server is set)", email.SentEmail),
      409: errors[409],
    },
  });
  area.describe({
    method: "get", path: "/api/dashboard/stats", operationId: "getDashboardStats", auth: "user",
    summary: "The dashboard's figures",
    responses: {
      200: json(
        "Figures over the caller's assessments (an admin's: everyone's)",
        record({
          totalAssessments: z.number().int(),
          pendingReviews: z.number().int(),
          totalRevenue: z.number(),
          aiAccuracy: z.number(),
          recentAssessments: z.array(Assessment),
          workflow: record({ upload: z.number().int(), analysis: z.number().int(), review: z.number().int(), complete: z.number().int() }),
        }),
      ),
    },
  });
}
