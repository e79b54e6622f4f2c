// Set-up only (what `npm start` does before serving): dependencies, launcher, app build.
import { ensureAppBuild, ensureDependencies, ensureLauncher, loadDotEnv } from "./setup.mjs";

try {
  loadDotEnv();
  ensureDependencies();
  ensureLauncher();
  ensureAppBuild();
} catch (error) {
  console.error(`[setup] ${error.message}`);
  process.exit(1);
}
