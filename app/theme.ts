import { createTheme } from "#mantine/core/MantineProvider/create-theme/create-theme";
import type { CSSVariablesResolver, MantineColorsTuple } from "@mantine/core";
import classes from "./theme.module.css";

// WCAG 2.2 AA in both schemes (docs/accessibility.md): every colour's shade 8 is the filled and
// light variants' colour in light mode and the filled one in dark mode (`primaryShade`), and is
// dark enough for 4.5:1 under white text and on its own 10 % tint. Mantine's shades 0–7 stay (the
// look, and the dark scheme's text and tints); shades 8 and 9 of the bright palettes are darkened,
// same hue, until they reach 5.9:1 and 7.5:1 against white (4.5:1 on a tint over a striped row). app/theme.test.ts checks the ratios.
const green: MantineColorsTuple = ["#ebfbee", "#d3f9d8", "#b2f2bb", "#8ce99a", "#69db7c", "#51cf66", "#40c057", "#37b24d", "#227331", "#1e612b"];
const teal: MantineColorsTuple = ["#e6fcf5", "#c3fae8", "#96f2d7", "#63e6be", "#38d9a9", "#20c997", "#12b886", "#0ca678", "#077251", "#066145"];
const orange: MantineColorsTuple = ["#fff4e6", "#ffe8cc", "#ffd8a8", "#ffc078", "#ffa94d", "#ff922b", "#fd7e14", "#f76707", "#ac4209", "#97320a"];
const yellow: MantineColorsTuple = ["#fff9db", "#fff3bf", "#ffec99", "#ffe066", "#ffd43b", "#fcc419", "#fab005", "#f59f00", "#925500", "#834400"];
const cyan: MantineColorsTuple = ["#e3fafc", "#c5f6fa", "#99e9f2", "#66d9e8", "#3bc9db", "#22b8cf", "#15aabf", "#1098ad", "#0a6e7e", "#095d6c"];
const red: MantineColorsTuple = ["#fff5f5", "#ffe3e3", "#ffc9c9", "#ffa8a8", "#ff8787", "#ff6b6b", "#fa5252", "#f03e3e", "#be2a2a", "#a22222"];
const blue: MantineColorsTuple = ["#e7f5ff", "#d0ebff", "#a5d8ff", "#74c0fc", "#4dabf7", "#339af0", "#228be6", "#1c7ed6", "#1666af", "#155693"];

/** Secondary ("dimmed") text: Mantine's gray-6 (3.3:1 on white) and dark-2 (3.5:1 on a dark card) are too faint. */
export const DIMMED = { light: "#666d75", dark: "#ababab" } as const;

export const theme = createTheme({
  primaryColor: "indigo",
  primaryShade: { light: 8, dark: 8 },
  colors: { green, teal, orange, yellow, cyan, red, blue },
  defaultRadius: "md",
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  headings: { fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" },
  // A text field shows keyboard focus by a 2 px ring, not only by its 1 px border's colour.
  components: { Input: { classNames: { input: classes.input } } },
});

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  // Field errors: Mantine's red-6 (light, 3.3:1) and red-8 (dark) are too faint.
  light: { "--mantine-color-dimmed": DIMMED.light, "--mantine-color-error": "var(--mantine-color-red-8)" },
  dark: { "--mantine-color-dimmed": DIMMED.dark, "--mantine-color-error": "var(--mantine-color-red-4)" },
});
