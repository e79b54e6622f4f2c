import { notifications } from "@mantine/notifications";
import type { ToastOptions } from "~/schemas/toasts";
import { t } from "~/utils/i18n";

/** One toast at a time (spec): the newest replaces whatever is showing instead of queueing behind it. */
export function showToast({ title, message, color = "green" }: ToastOptions) {
  notifications.clean();
  // In the account's language (a message without a translation shows as is).
  notifications.show({ title: t(title), message: t(message), color, autoClose: 5000 });
}
