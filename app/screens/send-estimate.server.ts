import { json, redirect } from "@remix-run/node";
import { ANALYSIS_TOASTS } from "~/schemas/assessment-wizard";
import { EMAIL_TOASTS, idempotencyKeySchema, sendConfirmValidator } from "~/schemas/email";
import type { Actor } from "~/services/actor";
import { getAssessment } from "~/services/assessments.server";
import { sendEstimateEmail } from "~/services/email-send.server";
import { previewEstimateEmail } from "~/services/email-send-preview.server";
import { publicOrigin } from "~/services/storage/names.server";
import { redirectWithToast } from "~/services/session.server";
import { handleForm } from "~/utils/forms.server";
import { screenAnswer } from "~/utils/http.server";

/** The form's idempotency key (SendKeyField), when it carries a well-formed one. */
export function formSendKey(form: FormData) {
  const parsed = idempotencyKeySchema.safeParse(form.get("idempotencyKey") ?? undefined);
  return parsed.success ? parsed.data : undefined;
}

/** The confirm page of an estimate's send to its own customer, coming back to `returnTo` once sent. */
export const sendConfirmUrl = (id: string, returnTo: string) => `/send?${new URLSearchParams({ assessment: id, returnTo })}`;

/** A path on this site, else the Estimates screen: where a confirm page goes back to. */
const safeReturnTo = (value: string | null) => (value && /^\/(?![/\\])/.test(value) ? value : "/estimates");

/**
 * The Send / Email buttons of Estimates, the dashboard and the wizard (issue 40 item 3): nothing
 * leaves from here. An estimate with a customer goes to the confirm page; one without says so with
 * the spec's toast 'No Contact: …'.
 */
export async function sendEstimateFromScreen(actor: Actor, request: Request, id: string, returnTo: string) {
  try {
    const assessment = await getAssessment(actor, id);
    if (!assessment.contactId) return redirectWithToast(request, returnTo, ANALYSIS_TOASTS.noContact);
    return redirect(sendConfirmUrl(id, returnTo));
  } catch (error) {
    return refused(request, returnTo, error);
  }
}

/** A refusal (missing, another account's, not sendable) as the spec's 'Failed to send email' toast, with the server's reason. */
async function refused(request: Request, returnTo: string, error: unknown) {
  const failure = await screenAnswer(error);
  if (!failure) throw error;
  return redirectWithToast(request, returnTo, { ...EMAIL_TOASTS.sendFailed, message: failure.message || EMAIL_TOASTS.sendFailed.message });
}

/** GET /send?assessment=…&returnTo=…: the confirm step for the estimate's own customer and the default template. */
export async function sendConfirmData(actor: Actor, request: Request) {
  const url = new URL(request.url);
  const returnTo = safeReturnTo(url.searchParams.get("returnTo"));
  const id = url.searchParams.get("assessment") ?? "";
  try {
    const assessment = await getAssessment(actor, id);
    if (!assessment.contactId) return redirectWithToast(request, returnTo, ANALYSIS_TOASTS.noContact);
    const preview = await previewEstimateEmail(actor, id, { contactId: assessment.contactId, makeRecipientCustomer: false }, publicOrigin(request));
    return json({ sendConfirm: preview, returnTo });
  } catch (error) {
    return refused(request, returnTo, error);
  }
}

/**
 * The confirm step's form (the /send page and Compose): `step=review` shows the email as it would
 * leave (another template picked) and sends nothing; `step=send` sends through the same service as
 * the API, then back to `returnTo` with the spec's toast. A refused send shows the step again with why.
 */
export async function confirmOrSend(actor: Actor, request: Request, form: FormData, fallbackReturnTo: string) {
  const origin = publicOrigin(request);
  return handleForm(
    request,
    sendConfirmValidator,
    async ({ assessmentId, step, returnTo, ...input }) => {
      const back = returnTo ?? fallbackReturnTo;
      if (step === "review") return json({ sendConfirm: await previewEstimateEmail(actor, assessmentId, input, origin), returnTo: back });
      try {
        const { via } = await sendEstimateEmail(actor, assessmentId, input, formSendKey(form), { origin });
        return redirectWithToast(request, back, via === "drop" ? EMAIL_TOASTS.saved : EMAIL_TOASTS.sent);
      } catch (error) {
        const failure = await screenAnswer(error);
        if (!failure) throw error;
        const again = await previewEstimateEmail(actor, assessmentId, input, origin).catch(() => null);
        if (!again) throw error;
        return json({ sendConfirm: again, returnTo: back, formError: failure.message }, { status: failure.status });
      }
    },
    form,
  );
}
