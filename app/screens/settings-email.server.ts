import { EMAIL_TOASTS, mailServerValidator } from "~/schemas/email";
import type { Actor } from "~/services/actor";
import { getMailServerSettings, saveMailServerSettings, testConnection } from "~/services/mail-config.server";
import { redirectWithToast } from "~/services/session.server";
import { handleForm } from "~/utils/forms.server";
import { isRefusal } from "~/utils/domain-errors";
import { log } from "~/utils/log.server";

const TAB_URL = "/settings?tab=email";

/** Settings → Email: the mail server form (the password only as "set") and where mail goes now. */
export async function emailTabData(actor: Actor) {
  return { mailServer: await getMailServerSettings(actor) };
}

/** The tab's posts: `save-mail-server` (the form) and `test-connection` (spec §8's three messages). */
export async function emailTabAction(actor: Actor, request: Request, form: FormData) {
  if (form.get("intent") === "test-connection") {
    try {
      const status = await testConnection(actor, { fresh: true });
      if (status.connected) return redirectWithToast(request, TAB_URL, EMAIL_TOASTS.connectionOk);
      return redirectWithToast(request, TAB_URL, {
        ...EMAIL_TOASTS.connectionFailed,
        message: `${EMAIL_TOASTS.connectionFailed.message}${status.reason ? ` (${status.reason})` : ""}`,
      });
    } catch (error) {
      if (isRefusal(error) && error.status >= 500) throw error;
      log.warn({ err: error }, "email connection test failed");
      return redirectWithToast(request, TAB_URL, EMAIL_TOASTS.connectionError);
    }
  }
  return handleForm(
    request,
    mailServerValidator,
    async (input) => {
      await saveMailServerSettings(actor, input);
      return redirectWithToast(request, TAB_URL, { title: "Settings Saved", message: "Mail server settings have been saved.", color: "green" });
    },
    form,
  );
}
