import type { MantineColorSchemeManager } from "@mantine/core";

/**
 * The account's theme lives on the server (Settings → System); the browser must not keep its own
 * copy in localStorage that could disagree with what the server rendered.
 */
export const fixedColorSchemeManager: MantineColorSchemeManager = {
  get: (defaultValue) => defaultValue,
  set: () => {},
  subscribe: () => {},
  unsubscribe: () => {},
  clear: () => {},
};
