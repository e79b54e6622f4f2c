// What the Email Center's cards show, apart from the zod schemas (importing those would bring zod
// into the page's JavaScript).

/** Spec §9: a template card shows the first 150 characters of its content. */
export const TEMPLATE_PREVIEW_CHARS = 150;

/** Spec §4: sent green, failed red, pending amber, anything else grey. */
export function emailStatusColor(status: string) {
  return status === "sent" ? "green" : status === "failed" ? "red" : status === "pending" ? "yellow" : "gray";
}
