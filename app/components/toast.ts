import type { ToastOptions } from "~/schemas/toasts";
import { t } from "~/utils/i18n";

type NotificationsModule = typeof import("@mantine/notifications");

// @mantine/notifications (with the parts of @mantine/core it pulls in through the core's barrel) is
// only fetched for the first toast: most page loads show none, and it cost every page ~15 KB gzip.
let loading: Promise<NotificationsModule> | undefined;
const listeners = new Set<() => void>();

/** Loads the notifications module once; the host (ToastHost) mounts its container when it arrives. */
export function loadNotifications() {
  loading ??= import("@mantine/notifications").then((module) => {
    listeners.forEach((listener) => listener());
    return module;
  });
  return loading;
}

/** Calls `listener` once the notifications module is loaded (at once if it already is). */
export function onNotificationsLoaded(listener: () => void) {
  listeners.add(listener);
  if (loading) void loading.then(listener);
  return () => void listeners.delete(listener);
}

/** One toast at a time (spec): the newest replaces whatever is showing instead of queueing behind it. */
export function showToast({ title, message, color = "green", vars }: ToastOptions) {
  void loadNotifications().then(({ notifications }) => {
    notifications.clean();
    // In the account's language (a message without a translation shows as is).
    notifications.show({ title: t(title, vars), message: t(message, vars), color, autoClose: 5000 });
  });
}
