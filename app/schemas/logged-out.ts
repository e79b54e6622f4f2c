import type { ToastOptions } from "./toasts";

// Its own module: every page's shell may show it (app/components/toast.ts) without the other toasts' text.
/** Spec §8: what the app says when the session has ended (a screen's redirect or a 401 from a call). */
export const LOGGED_OUT_TOAST: ToastOptions = {
  title: "Unauthorized",
  message: "You are logged out. Logging in again...",
  color: "red",
};
