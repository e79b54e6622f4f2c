import { MantineContext } from "#mantine/core/MantineProvider/Mantine.context";
import { MantineThemeProvider } from "#mantine/core/MantineProvider/MantineThemeProvider/MantineThemeProvider";
import { useProviderColorScheme } from "#mantine/core/MantineProvider/use-mantine-color-scheme/use-provider-color-scheme";
import type { MantineColorScheme, MantineThemeOverride } from "@mantine/core";
import { useMemo, type ReactNode } from "react";
import { fixedColorSchemeManager } from "~/utils/color-scheme";

const getRootElement = () => document.documentElement;

/**
 * Mantine's MantineProvider without the two `<style>` elements it renders on every page: the theme's
 * CSS variables and the hidden-from/visible-from classes are the same for every page, so they are
 * in app/styles/theme-variables.css (Mantine's own output for our theme, checked by
 * ThemeProvider.test.tsx), and the code that computes them at run time (~3 KB gzip of every screen's
 * JavaScript, issue 30) is not shipped. The context is Mantine's, filled as MantineProvider fills it,
 * and the colour scheme is Mantine's own hook (it keeps the root's attribute on the system's
 * preference when the choice is "auto").
 */
export function ThemeProvider({
  theme,
  colorScheme,
  forceColorScheme,
  children,
}: {
  /** app/theme.ts (the root passes it: components sit below the app's root modules). */
  theme: MantineThemeOverride;
  colorScheme: MantineColorScheme;
  forceColorScheme?: "light" | "dark";
  children: ReactNode;
}) {
  const { colorScheme: current, setColorScheme, clearColorScheme } = useProviderColorScheme({
    manager: fixedColorSchemeManager,
    defaultColorScheme: colorScheme,
    forceColorScheme,
    getRootElement,
  });
  const value = useMemo(
    () => ({
      colorScheme: current,
      setColorScheme,
      clearColorScheme,
      getRootElement,
      classNamesPrefix: "mantine",
      cssVariablesSelector: ":root",
      withStaticClasses: true,
    }),
    [current, setColorScheme, clearColorScheme],
  );
  return (
    <MantineContext.Provider value={value}>
      <MantineThemeProvider theme={theme}>{children}</MantineThemeProvider>
    </MantineContext.Provider>
  );
}
