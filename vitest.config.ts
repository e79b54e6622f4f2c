import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: [
      { find: "~", replacement: path.resolve(import.meta.dirname, "app") },
      // Mantine per component, as tsconfig.json maps it for the app build (docs/decisions/0013).
      { find: /^#mantine\/(.*)$/, replacement: path.resolve(import.meta.dirname, "node_modules/@mantine/core/esm/$1.mjs") },
    ],
  },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "tests/**/*.test.ts", "scripts/**/*.test.ts"],
    globalSetup: ["tests/global-setup.ts"],
    setupFiles: ["tests/setup-file.ts"],
    environment: "node",
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
