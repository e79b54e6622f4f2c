/** The theme choice stored on the account. */
export type ColorSchemeChoice = "dark" | "light" | "auto";

/**
 * The color scheme written into `<html data-mantine-color-scheme>` by the server, so the first
 * paint is right with JavaScript off. "Auto" follows the system: from the Sec-CH-Prefers-Color-Scheme
 * client hint where the browser sends it (Chromium, after the page asked for it), else light until
 * Mantine's head script (JavaScript on) reads `prefers-color-scheme` before the body paints.
 */
export function serverColorScheme(choice: ColorSchemeChoice, hint: string | null): "dark" | "light" {
  if (choice !== "auto") return choice;
  return hint?.replace(/"/g, "").trim() === "dark" ? "dark" : "light";
}
