import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { parsePickedAt, parsePurpose, publicOrigin } from "~/services/storage/names.server";
import { createUploadParams } from "~/services/storage/uploads.server";
import { api, uploadError } from "~/utils/http.server";
import { assertNotFromAnotherSite } from "~/utils/request.server";

/**
 * `GET s3/params?filename=&type=&metadata[purpose]=&metadata[pickedAt]=` → `{method: "POST", url, fields, headers}`:
 * a form POST (fields, then `file`) to the app's signed URL stores a small file. Companion's protocol
 * makes it a GET that records an upload: one another site started (a link, an image) is refused.
 */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  assertNotFromAnotherSite(request);
  const actor = await requireUser(request);
  const search = new URL(request.url).searchParams;
  const filename = search.get("filename");
  if (!filename) throw uploadError(400, "s3: filename must be a string");
  return json(
    await createUploadParams(
      actor,
      {
        filename,
        type: search.get("type") ?? undefined,
        purpose: parsePurpose(search.get("metadata[purpose]")),
        pickedAt: parsePickedAt(search.get("metadata[pickedAt]")),
      },
      publicOrigin(request),
    ),
  );
});
