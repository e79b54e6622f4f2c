/** A toast as the screens show it and the server flashes it across a redirect. */
export interface ToastOptions {
  title: string;
  message: string;
  color?: "green" | "red" | "blue" | "yellow";
  /** Values for the message's `{{name}}` placeholders: the message stays a catalogue key, translated where it is shown. */
  vars?: Record<string, string | number>;
}

/** Spec §8: what the app says when the session has ended (a screen's redirect or a 401 from a call). */
export const LOGGED_OUT_TOAST: ToastOptions = {
  title: "Unauthorized",
  message: "You are logged out. Logging in again...",
  color: "red",
};

/** A form posted after the session ended is back on its page after the sign-in (docs/decisions/0050): not sent, to be checked and sent again. */
export const RESTORED_TOAST: ToastOptions = {
  title: "Typed work restored",
  message: "What you typed before you were signed out is back in the form. It was not sent: check it and submit it again.",
  color: "blue",
};

/** Delete assessment (spec part 1 §8). */
export const DELETE_TOASTS = {
  deleted: { title: "Assessment Deleted", message: "Assessment has been successfully deleted." },
  failed: { title: "Error", message: "Failed to delete assessment", color: "red" },
} as const;

/** Review's Reject: the estimate dialog offers both ways on (Analyze, Edit). */
export const REJECTED_MESSAGE = "“{{title}}” is back in Upload: choose Analyze to run the analysis again, or Edit to price it by hand.";

/** Settings → System → Export Data (spec part 2 §7: a 'Data Export' confirmation); the download is the export. */
export const DATA_EXPORT_TOAST: ToastOptions = {
  title: "Data Export",
  message: "Your data export is being prepared and downloads when it is ready.",
};
