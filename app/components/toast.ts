import { notifications } from "@mantine/notifications";
import type { ToastOptions } from "~/schemas/toasts";

/** One toast at a time (spec): the newest replaces whatever is showing instead of queueing behind it. */
export function showToast({ title, message, color = "green" }: ToastOptions) {
  notifications.clean();
  notifications.show({ title, message, color, autoClose: 5000 });
}
