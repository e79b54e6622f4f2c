import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { ASSESSMENT_STATUSES } from "~/schemas/assessment-status";
import { assessmentCreateSchema, assessmentListQuerySchema, assessmentRejectSchema, assessmentUpdateSchema } from "~/schemas/assessment";
import { answerSchema, lineDecisionSchema } from "~/schemas/customer-approval";
import { sendEmailSchema } from "~/schemas/email";
import { estimateEditSchema, MAX_DAMAGES } from "~/schemas/estimate";
import { estimateLineSchema } from "~/schemas/estimate-line";
import { basisStepSchema, ESTIMATE_LANGUAGES, LABOUR_CATEGORIES, MAX_SHEET_LINES, OPERATIONS, PART_TYPES } from "~/schemas/estimate-sheet";
import { ApiArea, errors, idempotencyHeader, isoDate, json, MessageBody, listPageHeaders, objectIdText, ownerField, record, z } from "./registry.server";
import type { EmailSchemas } from "./email.server";

const idParam = z.object({ id: z.string().openapi({ description: "The assessment's id", example: "6650c0ffee0123456789abcd" }) });

/** Assessments (an upload's AI damage assessment and its estimate), review, sending and the dashboard. */
export function describeAssessments(registry: OpenAPIRegistry, email: EmailSchemas) {
  const area = new ApiArea(registry, "Assessments and estimates");
  const status = z.enum(ASSESSMENT_STATUSES);
  const cents = z.number().int();
  const taxRates = record({ parts: z.number(), labour: z.number(), materials: z.number() });
  const labourRates = record({ body: cents, refinish: cents, mechanical: cents, frame: cents });
  const Sheet = area.schema(
    "EstimateSheet",
    record({
      lines: z.array(
        record({
          id: z.string(),
          damage: z.number().int().nullable().openapi({ description: "The index of the damage it repairs; null: the whole vehicle" }),
          operation: z.enum(OPERATIONS),
          description: z.string(),
          labour: record({
            category: z.enum(LABOUR_CATEGORIES),
            hours: z.number(),
            rateCents: cents,
            amountCents: cents.optional().openapi({ description: "The labour's amount when a reviewer's total for the damage set it; absent: hours × rate" }),
          }).nullable(),
          part: record({
            type: z.enum(PART_TYPES),
            number: z.string(),
            description: z.string(),
            quantity: z.number().int(),
            unitPriceCents: cents,
            amountCents: cents.optional().openapi({ description: "The part's amount when a reviewer's total for the damage set it; absent: quantity × unit price" }),
          }).nullable(),
          amountCents: cents.openapi({
            description: "Sublet: its price; any other operation: the operation's flat amount (the vendor's base price, modifiers, markup, minimum and learning, or a price set by hand), explained by `basis`",
          }),
          note: z.string(),
          basis: z
            .array(basisStepSchema)
            .optional()
            .openapi({
              description:
                "Why this price: the steps that gave the line its figure (the vendor's rule, where the hours came from, base price, modifiers and markup, minimum charge, learning, a reviewer's total for the damage). Absent on lines written before it existed",
            }),
          optional: z.literal(true).optional().openapi({ description: "Recommended, not required: the customer may leave it out when approving. Absent: required" }),
        }),
      ),
      rates: labourRates,
      materialsRateCents: cents,
      taxRates: taxRates.openapi({ description: "Percent, at most 3 decimals" }),
      deductibleCents: cents.nullable(),
      // z.enum().nullable() becomes an enum without null in OpenAPI 3.1: null is its own branch.
      language: z.union([z.enum(ESTIMATE_LANGUAGES), z.null()]),
      mileage: z.number().int().nullable(),
      totals: record({
        partsCents: cents,
        labourCents: labourRates,
        labourTotalCents: cents,
        materialsCents: cents,
        subletCents: cents,
        otherCents: cents.openapi({ description: "The flat amounts of operations other than sublet" }),
        subtotalCents: cents,
        taxCents: record({ parts: cents, labour: cents, materials: cents }),
        taxTotalCents: cents,
        totalCents: cents,
        deductibleCents: cents.nullable(),
        customerPaysCents: cents,
        insurerPaysCents: cents,
      }),
    }).openapi({ description: "The estimate as a shop writes it (integer cents; decision 0021)" }),
  );
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
      lineItems: z.array(registry.register("EstimateLine", estimateLineSchema)).openapi({ description: "The pricing engine's lines, one per damage (integer cents)" }),
      sheet: Sheet,
      damages: z.array(
        record({
          damageType: z.string(),
          location: z.string(),
          severity: z.string(),
          description: z.string(),
          confidence: z.number(),
          mediaUrl: z.string().nullable().openapi({ description: "The photo, or the video frame (see videoFrames), the damage was seen on; null when not stated" }),
        }),
      ),
      videoFrames: z
        .array(record({ mediaUrl: z.string(), videoUrl: z.string(), at: z.number().openapi({ description: "Seconds into the video" }) }))
        .openapi({ description: "The frames the analysis took from each video, kept as images (`mediaUrl`) of the video `videoUrl`" }),
      photoWarnings: z
        .array(record({ mediaUrl: z.string(), photoName: z.string().nullable(), otherAssessmentId: z.string(), otherTitle: z.string() }))
        .openapi({
          description:
            "Each photo (`mediaUrl`, its file name `photoName`) that also appears, resized, re-encoded or cropped, on an earlier assessment of the same account (`otherAssessmentId`, `otherTitle`): one per photo per earlier assessment",
        }),
      damageCategories: z.array(z.string()),
      aiAnalysis: record({ confidence: z.number(), description: z.string(), provider: z.string(), model: z.string().nullable() }).nullable(),
      analysisError: z.string().nullable(),
      audit: z.array(record({ at: isoDate, by: z.string().nullable(), byName: z.string(), action: z.string() })),
      sentAt: isoDate.nullable(),
      customerDecision: record({
        decision: z.enum(["approved", "declined"]),
        decidedAt: isoDate,
        decisionId: z.string(),
        approvedTotalCents: z.number().int().nullable().openapi({
          description: "What the customer approved, in cents, tax included: less than the version's total when optional lines were left out. Null for a decline, or when the total was to be determined",
        }),
      })
        .nullable()
        .openapi({ description: "The customer's answer on the public estimate page (null: none yet)" }),
      supplementOf: z.string().nullable(),
      version: z.number().int(),
      supersededBy: z.string().nullable(),
      revision: z.number().int().min(0).openapi({ description: "Moves on with every write to the assessment; its `ETag` is `\"r<revision>\"`" }),
      createdAt: isoDate,
      updatedAt: isoDate,
    }),
  );
  // Optimistic concurrency (docs/decisions/0027): reads answer the version's ETag, writes take it back in If-Match.
  const etag = {
    ETag: { description: 'The version answered (strong, `"r<revision>"`): send it back in `If-Match` to write only over this version', schema: { type: "string" as const, example: '"r7"' } },
  };
  const ifMatch = z.object({
    "If-Match": z
      .string()
      .optional()
      .openapi({
        description:
          'The ETag of the version the change was made from (`"r7"`; several separated by commas, or `*` for any). Another version is stored now: 412 with it, nothing is written. Left out: the write applies to whatever version is stored (as before ETags).',
        example: '"r7"',
      }),
  });
  const stale = (what: string) =>
    json(`The ${what} changed since the version in \`If-Match\`: nothing was written; \`current\` is the version now stored and \`ETag\` its tag`, record({ message: z.string(), current: Assessment }), { headers: etag });
  const example = { title: "Silver Camry, rear bumper", vehicleYear: 2019, vehicleMake: "Toyota", vehicleModel: "Camry", mediaUrls: ["/media/6650c0ffee0123456789abcd"] };
  const stateConflict = { ...errors[409], description: "Not allowed from the assessment's current status" };

  area.describe({
    method: "get", path: "/api/assessments", operationId: "listAssessments", auth: "user",
    summary: "List assessments",
    description:
      "Newest first; `q` searches title, make, model and VIN (every word must begin a word of one of them, in any case and accents); `status` filters. Pages: `limit` with `cursor` (from the `Link` header of the page before; a cursor that is not one is a 400), or `offset` as before.",
    query: assessmentListQuerySchema, responses: { 200: json("The assessments", z.array(Assessment), { headers: listPageHeaders }) },
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
    summary: "Get an assessment", responses: { 200: json("The assessment", Assessment, { headers: etag }) },
  });
  area.describe({
    method: "put", path: "/api/assessments/{id}", operationId: "updateAssessment", auth: "user", params: idParam,
    summary: "Replace an assessment's editable fields",
    description: "An optional field left out is removed. With `If-Match`, only the version it names is replaced (412 with the current one otherwise).",
    headers: ifMatch, body: assessmentUpdateSchema, example: { title: "Silver Camry", vehicleYear: 2019 },
    responses: { 200: json("The saved assessment", Assessment, { headers: etag }), 409: stateConflict, 412: stale("assessment") },
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
  const VersionRef = record({
    id: objectIdText,
    version: z.number().int(),
    label: z.string().openapi({ example: "S01" }),
    estimateNumber: z.string().openapi({ example: "1A2B3C4D-S01", description: "The original's number with the version's label (the original's has none)" }),
    status,
  });
  area.describe({
    method: "get", path: "/api/assessments/{id}/estimate", operationId: "getEstimate", auth: "user", params: idParam,
    summary: "Get an estimate with its versions",
    description: "The assessment's JSON with its version label (Original, S01…) and number (the original's, with the label after it: `1A2B3C4D-S01`), its supplements, the versions before it and, for a supplement, what changed from the version it revises.",
    responses: {
      200: json(
        "The estimate (its `ETag` is what an edit sends in `If-Match`)",
        Assessment.extend({
          versionLabel: z.string().openapi({ example: "Original" }),
          estimateNumber: z.string().openapi({ example: "1A2B3C4D", description: "The original estimate's number (the last 8 characters of its id, upper case), followed by `-S01`, `-S02`… on a supplement" }),
          supplements: z.array(VersionRef),
          earlierVersions: z.array(VersionRef),
          differences: record({ from: VersionRef, changes: z.array(z.string()) }).nullable(),
        }),
        { headers: etag },
      ),
    },
  });
  area.describe({
    method: "put", path: "/api/assessments/{id}/estimate", operationId: "editEstimate", auth: "user", params: idParam,
    summary: "Edit an estimate",
    description:
      `Severity, damages (at most ${MAX_DAMAGES}), the estimate's lines (at most ${MAX_SHEET_LINES}; integer cents: labour, parts, sublet and other charges), paint materials rate, deductible, language, mileage, the customer and the reason. Without \`lines\`, each damage's \`amount\` (dollars) is its new total before tax: spread over the damage's labour, parts and flat amounts in proportion (paint materials stay refinish hours × the materials rate, so each keeps its category and tax; 400 when the amount is below the damage's paint materials); a damage without lines gets one line with that flat amount. A line sent back unchanged keeps its \`labour.amountCents\`, \`part.amountCents\` and \`basis\`. Editing a sent estimate creates a supplement (201). Send the \`ETag\` of the version you read in \`If-Match\`: if someone else changed the estimate meanwhile the answer is 412 with the estimate as it now stands, and nothing is saved; without \`If-Match\` the edit applies to whatever version is stored.`,
    headers: ifMatch,
    body: estimateEditSchema,
    example: {
      severity: "moderate",
      damages: [{ line: 0, damageType: "dent", location: "rear", severity: "moderate" }],
      lines: [
        { damage: 0, operation: "repair", description: "Rear bumper cover", labourCategory: "body", hours: 2.5 },
        { damage: 0, operation: "replace", description: "Reflector", partType: "oem", partNumber: "81910-06110", quantity: 1, unitPriceCents: 4250 },
      ],
      deductibleCents: 50000,
      reason: "Hidden damage behind the bumper",
    },
    responses: {
      200: json("The saved estimate", Assessment, { headers: etag }),
      201: json("The supplement created for a sent estimate", Assessment, { headers: etag }),
      409: stateConflict,
      412: stale("estimate"),
    },
  });
  const linkState = z.enum(["active", "expired", "revoked", "superseded"]);
  const EstimateLink = area.schema(
    "EstimateLink",
    record({
      id: objectIdText,
      estimateId: objectIdText,
      version: z.number().int(),
      state: linkState,
      via: z.enum(["email", "api"]),
      createdAt: isoDate,
      expiresAt: isoDate,
      revokedAt: isoDate.nullable(),
      supersededAt: isoDate.nullable(),
      firstViewedAt: isoDate.nullable(),
      lastViewedAt: isoDate.nullable(),
      views: z.number().int(),
      pdfSha256: z.string().openapi({ description: "The SHA-256 of the PDF the link shows" }),
    }),
  );
  const CustomerDecision = area.schema(
    "CustomerDecision",
    record({
      id: objectIdText,
      estimateId: objectIdText,
      version: z.number().int(),
      linkId: objectIdText,
      decision: z.enum(["approved", "declined"]),
      signatureName: z.string().nullable(),
      termsAccepted: z.boolean().nullable(),
      reason: z.string().nullable(),
      decidedAt: isoDate,
      ip: z.string(),
      userAgent: z.string(),
      pdfSha256: z.string(),
      estimatedCost: z.number().nullable(),
      approvedTotalCents: cents.nullable().openapi({
        description: "What the customer approved (integer cents): the required lines and the optional ones they chose, with their tax; null for a decline or a total to be determined",
      }),
      lines: z
        .array(
          lineDecisionSchema.passthrough(),
        )
        .nullable()
        .openapi({ description: "The decision on each line of the version; null for a decision recorded before decisions were kept per line" }),
    }),
  );
  const linkParams = idParam.extend({ linkId: z.string().openapi({ description: "The link's id", example: "6650c0ffee0123456789abce" }) });
  area.describe({
    method: "get", path: "/api/assessments/{id}/links", operationId: "listEstimateLinks", auth: "user", params: idParam,
    summary: "The customer links of every version of the estimate, and the customer's decisions",
    responses: { 200: json("The links (state, first and last viewed) and decisions", record({ links: z.array(EstimateLink), decisions: z.array(CustomerDecision) })) },
  });
  area.describe({
    method: "post", path: "/api/assessments/{id}/links", operationId: "createEstimateLink", auth: "user", params: idParam,
    summary: "A new customer link to the estimate (no fields)",
    description:
      "For the latest version of a completed, reviewed or sent estimate. The answer's `token` and `url` are shown this once (only the token's hash is kept); the links of earlier versions are superseded.",
    body: z.object({}).strict().openapi({ description: "No fields: an empty object or no body" }),
    responses: {
      201: json("The link with its token and public URL", EstimateLink.extend({ token: z.string(), url: z.string().openapi({ example: "https://app.example.com/e/3q2…" }) })),
      409: { ...errors[409], description: "A newer version exists, or the estimate is not completed, reviewed or sent" },
    },
    links: { 201: { RevokeEstimateLink: { operationId: "revokeEstimateLink", parameters: { id: "$request.path.id", linkId: "$response.body#/id" } } } },
  });
  area.describe({
    method: "delete", path: "/api/assessments/{id}/links/{linkId}", operationId: "revokeEstimateLink", auth: "user", params: linkParams,
    summary: "Revoke a customer link (its page answers 410 from now on)",
    responses: { 200: json("The revoked link", EstimateLink) },
  });
  const QuestionAnswer = record({
    id: objectIdText,
    message: z.string(),
    at: isoDate,
    by: objectIdText.openapi({ description: "The user who answered" }),
    byName: z.string(),
    emailLogId: objectIdText.nullable().openapi({ description: "The email that took the answer to the customer (the email log); null when no address was known" }),
  });
  const EstimateQuestion = area.schema(
    "EstimateQuestion",
    record({
      id: objectIdText,
      estimateId: objectIdText.openapi({ description: "The version it was asked on" }),
      version: z.number().int(),
      versionLabel: z.string().openapi({ example: "Original" }),
      linkId: objectIdText.openapi({ description: "The customer link it was asked through" }),
      customer: record({ firstName: z.string(), lastName: z.string(), email: z.string() }).nullable().openapi({ description: "Whom the link speaks to: its recipient, else the estimate's customer" }),
      replyEmail: z.string().nullable().openapi({ description: "The address the customer gave for the answer" }),
      answerTo: z.string().nullable().openapi({ description: "Where an answer is emailed: `replyEmail`, else the link's recipient; null: an answer is only stored" }),
      message: z.string(),
      askedAt: isoDate,
      answered: z.boolean().openapi({ description: "False until the dealer answers (the dashboard counts the unanswered)" }),
      answeredAt: isoDate.nullable(),
      answers: z.array(QuestionAnswer),
    }).openapi({ description: "A customer's question on their estimate page, stored before the dealer's notice is sent (decision 0058)" }),
  );
  const questionParams = idParam.extend({ questionId: z.string().openapi({ description: "The question's id", example: "6650c0ffee0123456789abd0" }) });
  area.describe({
    method: "get", path: "/api/assessments/{id}/questions", operationId: "listEstimateQuestions", auth: "user", params: idParam,
    summary: "The customers' questions on every version of the estimate, oldest first, with their answers",
    responses: { 200: json("The questions", record({ questions: z.array(EstimateQuestion) })) },
  });
  area.describe({
    method: "post", path: "/api/assessments/{id}/questions/{questionId}/answer", operationId: "answerEstimateQuestion", auth: "user", params: questionParams,
    summary: "Answer a customer's question",
    description:
      "Stores the answer on the question (it counts as answered from now on) and emails it to the customer — the address they gave, else the link's recipient — with the link to their estimate page, through the outbox (the email log shows it). 404 for a question that is not one of this estimate's.",
    headers: idempotencyHeader, body: answerSchema, example: { message: "Yes: paint and clear coat are included." },
    responses: {
      201: json("The question with its answers, and the email log entry of this answer (null when no address was known)", EstimateQuestion.extend({ emailLogId: objectIdText.nullable() })),
      409: { ...errors[409], description: "The Idempotency-Key was used with another body" },
    },
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
      "Queues the message with the estimate PDF (202); the outbox delivers it. The recipient is the estimate's customer of record: a contact other than the estimate's customer is refused (409, nothing sent, nothing changed) unless `makeRecipientCustomer` is true, which makes the contact the estimate's customer (audited) before sending; an estimate without a customer gets the contact. With an `Idempotency-Key` used before: the same body answers that send as it stands; another body is 409.",
    headers: idempotencyHeader, body: sendEmailSchema, example: { contactId: "6650c0ffee0123456789abcd", additionalMessage: "Call us with any questions." },
    responses: {
      202: json("The email log entry (pending, or saved to the local drop when no mail server is set)", email.SentEmail),
      409: { ...errors[409], description: "The contact is not the estimate's customer and `makeRecipientCustomer` is not true; or the estimate cannot be sent; or the Idempotency-Key was used with another body" },
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
