import { json, type ActionFunctionArgs } from "@remix-run/node";
import { uploadUrlSchema } from "~/schemas/uploads";
import { requireUser } from "~/services/auth.server";
import { parsePurpose, publicOrigin } from "~/services/storage/names.server";
import { createUploadUrl } from "~/services/storage/uploads.server";
import { methods, parseJson } from "~/utils/http.server";

/**
 * `POST /api/objects/upload` → `{uploadURL, url, id, key}`: PUT the file to `uploadURL`; the answer
 * to the PUT (local storage) or `POST /api/objects/complete` (S3) gives the media URL `url`.
 * Optional body: `{filename, type, purpose: "wizard"|"dashboard"|"training"}` (default wizard).
 */
export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    const body = await parseJson(request, uploadUrlSchema);
    const purposeParam = new URL(request.url).searchParams.get("purpose");
    const result = await createUploadUrl(
      actor,
      {
        filename: body.filename ?? body.name,
        type: body.type ?? body.contentType,
        purpose: body.purpose ?? (purposeParam ? parsePurpose(purposeParam) : undefined),
      },
      publicOrigin(request),
    );
    return json(result);
  },
});
