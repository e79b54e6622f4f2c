import { json, type ActionFunctionArgs } from "@remix-run/node";
import { createMultipartSchema } from "~/schemas/uploads";
import { requireUser } from "~/services/auth.server";
import { createMultipartUpload } from "~/services/storage/companion.server";
import { parsePickedAt, parsePurpose } from "~/services/storage/names.server";
import { methods, parseJson } from "~/utils/http.server";

/**
 * Companion-compatible multipart endpoints, base `/api/uploads` (docs/decisions/0003):
 * `POST s3/multipart` `{filename, type, metadata: {purpose?, pickedAt?}}` → `{key, uploadId}`.
 */
export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    const body = await parseJson(request, createMultipartSchema);
    return json(
      await createMultipartUpload(actor, {
        filename: body.filename,
        type: body.type,
        purpose: parsePurpose(body.metadata?.purpose),
        pickedAt: parsePickedAt(body.metadata?.pickedAt),
      }),
    );
  },
});
