/** A toast as the screens show it and the server flashes it across a redirect. */
export interface ToastOptions {
  title: string;
  message: string;
  color?: "green" | "red" | "blue" | "yellow";
  /** Values for the message's `{{name}}` placeholders: the message stays a catalogue key, translated where it is shown. */
  vars?: Record<string, string | number>;
}

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
