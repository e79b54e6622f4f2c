import { notifications } from "@mantine/notifications";

export interface ToastOptions {
  title: string;
  message: string;
  color?: "green" | "red" | "blue" | "yellow";
}

/** One toast at a time (spec): the newest replaces whatever is showing instead of queueing behind it. */
export function showToast({ title, message, color = "green" }: ToastOptions) {
  notifications.clean();
  notifications.show({ title, message, color, autoClose: 5000 });
}

/** Spec §8: what the app says when the session has ended (a screen's redirect or a 401 from a call). */
export const LOGGED_OUT_TOAST: ToastOptions = {
  title: "Unauthorized",
  message: "You are logged out. Logging in again...",
  color: "red",
};
