import { describe, expect, it } from "vitest";
import { DIMMED, theme } from "./theme";

// The theme's WCAG 2.2 AA ratios (docs/accessibility.md); e2e/a11y.spec.ts checks the pages themselves.
const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const luminance = (hex: string) => {
  const [r, g, b] = rgb(hex).map((c) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const ratio = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};
/** `hex` at `alpha` over `bg`, as Mantine's light variant (a 10 % tint) paints it. */
const over = (hex: string, alpha: number, bg: string) =>
  `#${rgb(hex)
    .map((c, i) => Math.round(c * alpha + rgb(bg)[i] * (1 - alpha)).toString(16).padStart(2, "0"))
    .join("")}`;

describe("theme", () => {
  it("fills with shade 8 in both schemes", () => {
    expect(theme.primaryShade).toEqual({ light: 8, dark: 8 });
  });

  for (const [name, shades] of Object.entries(theme.colors ?? {})) {
    it(`${name}: white on filled, and the light variant's text on its tint over a striped row, 4.5:1 or more`, () => {
      const shade = shades![8];
      expect(ratio("#ffffff", shade)).toBeGreaterThanOrEqual(4.5);
      expect(ratio(shade, over(shade, 0.1, "#f1f3f5"))).toBeGreaterThanOrEqual(4.5);
      // Dark scheme: the light variant's text (shade 3) on its tint (shade 6 at 15 %) over the body.
      expect(ratio(shades![3], over(shades![6], 0.15, "#242424"))).toBeGreaterThanOrEqual(4.5);
    });
  }

  it("dimmed text reads at 4.5:1 on the pages' backgrounds in both schemes", () => {
    for (const bg of ["#ffffff", "#f8f9fa", "#f1f3f5"]) expect(ratio(DIMMED.light, bg)).toBeGreaterThanOrEqual(4.5);
    for (const bg of ["#242424", "#2e2e2e", "#3b3b3b"]) expect(ratio(DIMMED.dark, bg)).toBeGreaterThanOrEqual(4.5);
  });
});
