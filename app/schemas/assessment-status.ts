// The assessment statuses and their colours, apart from the zod schemas: the cards and badges
// need them on every list screen, and importing them from ./assessment would bring zod along.

/** Spec part 1 §4, in the order of the status machine (design.md). */
export const ASSESSMENT_STATUSES = ["uploaded", "processing", "analyzing", "completed", "reviewed", "sent"] as const;
export type AssessmentStatus = (typeof ASSESSMENT_STATUSES)[number];

/** Spec part 1 §4's status colours: completed and sent green, processing and analyzing amber, reviewed blue, else grey. */
export const STATUS_COLOR: Record<AssessmentStatus, string> = {
  uploaded: "gray",
  processing: "yellow",
  analyzing: "yellow",
  completed: "green",
  reviewed: "blue",
  sent: "green",
};

/** Spec part 1 §4's severity colours. */
export const SEVERITY_COLOR: Record<string, string> = { minor: "green", moderate: "yellow", major: "orange", severe: "red" };

/** An estimate the analysis is still working on is not edited (its result would overwrite the edit). */
export const BEING_ANALYZED: readonly string[] = ["processing", "analyzing"];

export const isAssessmentStatus = (value: unknown): value is AssessmentStatus => ASSESSMENT_STATUSES.some((status) => status === value);

/** One value per status (in ASSESSMENT_STATUSES' order), in a record the checker knows is complete. */
export function perStatus<T>(value: (status: AssessmentStatus) => T): Record<AssessmentStatus, T> {
  return {
    uploaded: value("uploaded"),
    processing: value("processing"),
    analyzing: value("analyzing"),
    completed: value("completed"),
    reviewed: value("reviewed"),
    sent: value("sent"),
  };
}
