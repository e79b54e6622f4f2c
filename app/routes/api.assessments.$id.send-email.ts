import { json, type ActionFunctionArgs } from "@remix-run/node";
import { idempotencyKeySchema, sendEmailSchema } from "~/schemas/email";
import { requireUser } from "~/services/auth.server";
import { assertAssessmentInScope, sendEstimateEmail } from "~/services/email-send.server";
import { publicOrigin } from "~/services/storage/names.server";
import { methods, parseJson, validationError } from "~/utils/http.server";

/**
 * `{contactId, templateId?, additionalMessage?}` → 202 with the email log (`pending`) and `via`: the
 * worker delivers it (or, with no mail server, saves it to the local drop: status `saved`). An `Idempotency-Key` header names the send: repeated with the same body, it answers the first send as it
 * stands (202, nothing queued again); with another body or assessment, 409.
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
    const rawBody = key === undefined ? undefined : await request.clone().text();
    const input = await parseJson(request, sendEmailSchema);
    const { log, created, via } = await sendEstimateEmail(actor, params.id ?? "", input, key, { origin: publicOrigin(request), rawBody });
    // `via`: where it goes ("account", "environment" mail server, or "drop": saved locally, not delivered).
    return json({ ...log, via }, { status: 202, headers: created ? undefined : { "Idempotent-Replayed": "true" } });
  },
});
