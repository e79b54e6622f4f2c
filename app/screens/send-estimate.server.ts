import { ANALYSIS_TOASTS } from "~/schemas/assessment-wizard";
import { EMAIL_TOASTS, idempotencyKeySchema } from "~/schemas/email";
import type { Actor } from "~/services/actor";
import { sendEstimateToContact } from "~/services/email-send.server";
import { publicOrigin } from "~/services/storage/names.server";
import { redirectWithToast } from "~/services/session.server";
import { screenAnswer } from "~/utils/http.server";

/** The form's idempotency key (SendKeyField), when it carries a well-formed one. */
export function formSendKey(form: FormData) {
  const parsed = idempotencyKeySchema.safeParse(form.get("idempotencyKey") ?? undefined);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The Send / Email buttons of Estimates, the dashboard and the wizard: the estimate to the
 * assessment's own contact, through the same service as the API, then back to `returnTo` with the
 * spec's toast — 'Email Sent', 'No Contact: …', or the server's refusal ('Failed to send email').
 */
export async function sendEstimateFromScreen(actor: Actor, request: Request, id: string, form: FormData, returnTo: string) {
  try {
    const result = await sendEstimateToContact(actor, id, formSendKey(form), publicOrigin(request));
    if (result.noContact) return redirectWithToast(request, returnTo, ANALYSIS_TOASTS.noContact);
    return redirectWithToast(request, returnTo, result.via === "drop" ? EMAIL_TOASTS.saved : EMAIL_TOASTS.sent);
  } catch (error) {
    const failure = await screenAnswer(error);
    if (!failure) throw error;
    return redirectWithToast(request, returnTo, { ...EMAIL_TOASTS.sendFailed, message: failure.message || EMAIL_TOASTS.sendFailed.message });
  }
}
