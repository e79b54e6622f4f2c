import { createTheme } from "#mantine/core/MantineProvider/create-theme/create-theme";
import { DEFAULT_COLORS } from "#mantine/core/MantineProvider/default-colors";
import type { MantineColorsTuple } from "@mantine/core";
import classes from "./theme.module.css";

// WCAG 2.2 AA in both schemes (docs/accessibility.md): every colour's shade 8 is the filled and
// light variants' colour in light mode and the filled one in dark mode (`primaryShade`), and is
// dark enough for 4.5:1 under white text and on its own 10 % tint. Mantine's shades 0–7 stay (the
// look, and the dark scheme's text and tints); shades 8 and 9 of the bright palettes are darkened,
// same hue, until they reach 5.9:1 and 7.5:1 against white (4.5:1 on a tint over a striped row).
// app/theme.test.ts checks the ratios.

/** Mantine's palette `name` with shades 8 and 9 replaced. */
const darker = (name: keyof typeof DEFAULT_COLORS, shade8: string, shade9: string): MantineColorsTuple => {
  const [c0, c1, c2, c3, c4, c5, c6, c7] = DEFAULT_COLORS[name];
  return [c0, c1, c2, c3, c4, c5, c6, c7, shade8, shade9];
};

const colors = {
  green: darker("green", "#227331", "#1e612b"),
  teal: darker("teal", "#077251", "#066145"),
  orange: darker("orange", "#ac4209", "#97320a"),
  yellow: darker("yellow", "#925500", "#834400"),
  cyan: darker("cyan", "#0a6e7e", "#095d6c"),
  red: darker("red", "#be2a2a", "#a22222"),
  blue: darker("blue", "#1666af", "#155693"),
};

/**
 * Secondary ("dimmed") text: Mantine's gray-6 (3.3:1 on white) and dark-2 (3.5:1 on a dark card) are
 * too faint. Set in theme.module.css (with the error text's colour), not by a CSS-variables resolver:
 * no JavaScript for it.
 */
export const DIMMED = { light: "#666d75", dark: "#ababab" } as const;

export const theme = createTheme({
  primaryColor: "indigo",
  primaryShade: { light: 8, dark: 8 },
  colors,
  defaultRadius: "md",
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  headings: { fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" },
  // A text field shows keyboard focus by a 2 px ring, not only by its 1 px border's colour.
  components: { Input: { classNames: { input: classes.input } } },
});
