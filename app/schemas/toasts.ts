/** A toast as the screens show it and the server flashes it across a redirect. */
export interface ToastOptions {
  title: string;
  message: string;
  color?: "green" | "red" | "blue" | "yellow";
}

/** Spec §8: what the app says when the session has ended (a screen's redirect or a 401 from a call). */
export const LOGGED_OUT_TOAST: ToastOptions = {
  title: "Unauthorized",
  message: "You are logged out. Logging in again...",
  color: "red",
};
