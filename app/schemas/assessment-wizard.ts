import type { ToastOptions } from "./toasts";

/** The upload wizard's steps after the upload: what an assessment's status shows. */
export type WizardView = "upload" | "details" | "analyzing" | "complete";

/**
 * uploaded → the details form again (a failed or rejected analysis is tried again from there);
 * processing/analyzing → the in-progress screen; anything later → the result.
 */
export function wizardViewOf(status: string): WizardView {
  if (status === "uploaded") return "details";
  if (status === "processing" || status === "analyzing") return "analyzing";
  return "complete";
}

/** How often the analyzing screen looks again (the no-JS page through a meta refresh). */
export const ANALYSIS_POLL_SECONDS = 3;

/** Spec part 1 §8 (Analysis, Create assessment, Send email) and part 2 §8 ('No Contact'). */
export const ANALYSIS_TOASTS = {
  complete: { title: "Analysis Complete", message: "AI damage assessment completed successfully", color: "green" },
  /** Nothing could analyse the photos (no AI provider, no verified training images): never "completed successfully". */
  notAnalysed: {
    title: "Not Analysed",
    message: "No AI provider is set up and no training image is verified, so the photos were not assessed.",
    color: "yellow",
  },
  failed: { title: "Analysis Failed", message: "Failed to analyze damage. Please try again.", color: "red" },
  createFailed: { title: "Error", message: "Failed to create assessment", color: "red" },
  noFiles: { title: "No Files", message: "Please upload at least one file", color: "red" },
  noContact: { title: "No Contact", message: "Please assign a contact to this assessment first", color: "red" },
} satisfies Record<string, ToastOptions>;

/** A not-analysed estimate's cost note and damage categories: it was not looked at, which is not "no damage" (issue 40 item 8). */
export const NOT_ANALYSED_NOTE = "Not analysed: a person enters the damages and prices";
export const NOT_ANALYSED_CATEGORIES = "Not analysed: nothing looked at the photos";
