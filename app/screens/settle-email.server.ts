import { settleEmailFormSchema } from "~/schemas/email";
import type { Actor } from "~/services/actor";
import { markEmailDelivered, resendEmail } from "~/services/email-settle.server";
import { redirectWithToast } from "~/services/session.server";
import { writeAndReturn } from "./list-screen.server";

/**
 * The Email Center's and the dashboard's "Resend" and "Mark delivered" (plain forms: `intent`, and
 * `id` the email's), back to `returnTo` with a toast (docs/decisions/0054).
 */
export async function settleEmailFromScreen(actor: Actor, request: Request, form: FormData, returnTo: string) {
  const parsed = settleEmailFormSchema.safeParse({ id: form.get("id") });
  const resend = form.get("intent") === "resend-email";
  const failure = resend ? "Failed to resend email" : "Failed to mark email delivered";
  if (!parsed.success) return redirectWithToast(request, returnTo, { title: "Error", message: failure, color: "red" });
  return writeAndReturn(
    request,
    returnTo,
    async () => {
      if (resend) {
        const { log } = await resendEmail(actor, parsed.data.id);
        return { title: "Email Resent", message: "“{{subject}}” was queued to be sent again.", vars: { subject: log.subject } };
      }
      const log = await markEmailDelivered(actor, parsed.data.id);
      return { title: "Email Marked Delivered", message: "“{{subject}}” is recorded as delivered.", vars: { subject: log.subject } };
    },
    failure,
  );
}
