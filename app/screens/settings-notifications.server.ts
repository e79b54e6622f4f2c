import { notificationsValidator } from "~/schemas/email";
import type { Actor } from "~/services/actor";
import { getNotificationSettings, saveNotificationSettings } from "~/services/notification-settings.server";
import { redirectWithToast } from "~/services/session.server";
import { handleForm } from "~/utils/forms.server";

/** Settings → Notifications: the email switches (on by default) and the browser's (off by default). */
export async function notificationsTabData(actor: Actor) {
  return { notifications: await getNotificationSettings(actor) };
}

export async function notificationsTabAction(actor: Actor, request: Request, form: FormData) {
  return handleForm(
    request,
    notificationsValidator,
    async (input) => {
      await saveNotificationSettings(actor, input);
      return redirectWithToast(request, "/settings?tab=notifications", {
        title: "Settings Saved",
        message: "Notification settings have been saved.",
        color: "green",
      });
    },
    form,
  );
}
