import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { appearanceValidator } from "~/schemas/settings";
import { clearAccountCaches } from "~/services/account-caches.server";
import { discardUpload, saveUpload } from "~/services/account-archive.server";
import { importArchive, type ImportReport } from "~/services/account-import.server";
import { discardImport, resumeImport, runImport, unfinishedImport } from "~/services/import-runs.server";
import type { Actor } from "~/services/actor";
import { updateAppearance } from "~/services/settings.server";
import { probeServices } from "~/services/status-probes.server";
import { handleForm } from "~/utils/forms.server";
import { toTab, writeOrToast, type SettingsAction } from "./settings.server";
import { isRefusal, refusalMessage } from "~/utils/domain-errors";

/**
 * Settings → System: appearance, the status list (probed on each visit), the import waiting
 * for confirmation (`?import=<token>`: its dry-run report) and one running or interrupted.
 */
export async function systemTab(actor: Actor, url: URL) {
  const token = url.searchParams.get("import");
  const [statuses, pendingImport, runningImport] = await Promise.all([
    probeServices(actor),
    token ? dryRun(actor, token) : null,
    // Running (its progress), or interrupted (its process died: Resume), decision 0059.
    unfinishedImport(actor),
  ]);
  return {
    theme: actor.user.theme ?? "light",
    language: actor.user.language ?? "en",
    statuses,
    pendingImport,
    runningImport,
  };
}

async function dryRun(actor: Actor, token: string): Promise<{ token: string; report: ImportReport } | { token: string; error: string }> {
  try {
    return { token, report: await importArchive(actor, token, { dryRun: true }) };
  } catch (error) {
    if (isRefusal(error) && error.status < 500) {
      return { token, error: (await refusalMessage(error)) ?? "The archive could not be read" };
    }
    throw error;
  }
}

const summary = (report: ImportReport) =>
  report.collections
    .filter((c) => c.imported > 0)
    .map((c) => `${c.imported} ${c.name}`)
    .join(", ") || "nothing new";

export const systemActions: Record<string, SettingsAction> = {
  "update-appearance": ({ actor, request, form }) =>
    handleForm(
      request,
      appearanceValidator,
      async (input) => {
        await updateAppearance(actor, input);
        return toTab(request, "system", { title: "Settings Saved", message: "Your appearance settings have been saved." });
      },
      form,
    ),
  "clear-cache": ({ actor, request }) =>
    writeOrToast(request, "system", async () => {
      const cleared = await clearAccountCaches(actor.id);
      const what = cleared.map((c) => `${c.name}: ${c.entries}`).join("; ");
      return toTab(request, "system", { title: "Cache Cleared", message: `Cleared ${what || "nothing (no caches)"}.` });
    }),
  "import-confirm": ({ actor, request, form }) =>
    writeOrToast(request, "system", async () => {
      const token = String(form.get("token") ?? "");
      const report = await runImport(actor, token);
      return toTab(request, "system", { title: "Data Imported", message: `Imported ${summary(report)}.` });
    }),
  "import-resume": ({ actor, request }) =>
    writeOrToast(request, "system", async () => {
      const { report } = await resumeImport(actor);
      return toTab(request, "system", { title: "Data Imported", message: `Imported ${summary(report)}.` });
    }),
  "import-discard-interrupted": ({ actor, request }) =>
    writeOrToast(request, "system", async () => {
      await discardImport(actor);
      return toTab(request, "system", { title: "Import Discarded", message: "The interrupted import and the records it stored were removed.", color: "blue" });
    }),
  "import-discard": ({ actor, request, form }) =>
    writeOrToast(request, "system", async () => {
      await discardUpload(actor.id, String(form.get("token") ?? ""));
      return toTab(request, "system", { title: "Import Cancelled", message: "The uploaded archive was discarded.", color: "blue" });
    }),
};

/**
 * `POST /settings/import`: the archive from the Import Data form (multipart, JavaScript or not),
 * saved for its dry run; the tab then shows the report with Confirm and Cancel.
 */
export async function uploadImportAction(actor: Actor, request: Request) {
  if (!/^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "")) {
    return toTab(request, "system", { title: "Error", message: "Choose an export archive (.tar.gz) to import", color: "red" });
  }
  let token: string | null = null;
  const handler: UploadHandler = async ({ name, data }) => {
    if (name !== "file" || token) return undefined;
    token = await saveUpload(data, actor.id);
    return token;
  };
  return writeOrToast(request, "system", async () => {
    await unstable_parseMultipartFormData(request, handler);
    if (!token) return toTab(request, "system", { title: "Error", message: "Choose an export archive (.tar.gz) to import", color: "red" });
    return toTab(request, "system", { title: "Archive Uploaded", message: "Check the dry run below, then confirm the import.", color: "blue" }, `&import=${token}`);
  });
}

