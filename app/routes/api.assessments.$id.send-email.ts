import { json, type ActionFunctionArgs } from "@remix-run/node";
import { idempotencyKeySchema, sendEmailSchema } from "~/schemas/email";
import { requireUser } from "~/services/auth.server";
import { assertAssessmentInScope, sendEstimateEmail } from "~/services/email-delivery.server";
import { methods, parseJson, validationError } from "~/utils/http.server";

/**
 * `{contactId, templateId?, additionalMessage?}` → 202 with the email log (`pending`): the worker
 * delivers it. An `Idempotency-Key` header names the send: repeated, it answers the first send as it
 * stands (202, nothing queued again).
 */
export const action = methods({
  POST: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    // Another account's assessment is not found, whatever the body says.
    await assertAssessmentInScope(actor, params.id ?? "");
    const header = request.headers.get("Idempotency-Key");
    let key: string | undefined;
    if (header !== null) {
      const parsed = idempotencyKeySchema.safeParse(header);
      if (!parsed.success) throw validationError(parsed.error);
      key = parsed.data;
    }
    const input = await parseJson(request, sendEmailSchema);
    const { log, created } = await sendEstimateEmail(actor, params.id ?? "", input, key);
    return json(log, { status: 202, headers: created ? undefined : { "Idempotent-Replayed": "true" } });
  },
});
