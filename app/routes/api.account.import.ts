import { Readable } from "node:stream";
import { json, type ActionFunctionArgs } from "@remix-run/node";
import { discardUpload, MAX_ARCHIVE_BYTES, saveUpload } from "~/services/account-archive.server";
import { importArchive } from "~/services/account-import.server";
import { requireUser } from "~/services/auth.server";
import { jsonError, methods } from "~/utils/http.server";

const ARCHIVE_TYPES = /^(application\/(gzip|x-gzip|x-tar\+gzip|octet-stream))\b/i;

/**
 * An export archive as the body (`Content-Type: application/gzip`): `?dryRun=true` answers the
 * report without storing anything; otherwise the valid records not already there are imported.
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
    try {
      return json(await importArchive(actor, token, { dryRun }));
    } finally {
      await discardUpload(actor.id, token);
    }
  },
});
