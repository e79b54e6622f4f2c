import { Readable } from "node:stream";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { discardUpload, MAX_ARCHIVE_BYTES, saveUpload } from "~/services/account-archive.server";
import { importArchive } from "~/services/account-import.server";
import { latestImport, runImport } from "~/services/import-runs.server";
import { requireUser } from "~/services/auth.server";
import { api, jsonError, methods } from "~/utils/http.server";

const ARCHIVE_TYPES = /^(application\/(gzip|x-gzip|x-tar\+gzip|octet-stream))\b/i;

/** The caller's newest import: running (with its progress), interrupted (resume it), done or abandoned; 404 when none. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  return json(await latestImport(actor), { headers: { "Cache-Control": "no-store" } });
});

/**
 * An export archive as the body (`Content-Type: application/gzip`): `?dryRun=true` answers the
 * report without storing anything; otherwise the valid records not already there are imported
 * (an import interrupted half-way is resumed with `POST /api/account/import/resume`).
 */
export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    if (!ARCHIVE_TYPES.test(request.headers.get("Content-Type") ?? "")) {
      return jsonError(415, "Send the export archive as application/gzip");
    }
    if (Number(request.headers.get("Content-Length") ?? 0) > MAX_ARCHIVE_BYTES) {
      return jsonError(413, `The archive is larger than ${MAX_ARCHIVE_BYTES / 1024 / 1024} MB`);
    }
    if (!request.body) return jsonError(400, "Send the export archive as the body", { file: "Send the export archive as the body" });
    const dryRun = new URL(request.url).searchParams.get("dryRun") === "true";
    const token = await saveUpload(Readable.fromWeb(request.body as import("node:stream/web").ReadableStream), actor.id);
    if (!dryRun) return json(await runImport(actor, token));
    try {
      return json(await importArchive(actor, token, { dryRun: true }));
    } finally {
      await discardUpload(actor.id, token);
    }
  },
});
