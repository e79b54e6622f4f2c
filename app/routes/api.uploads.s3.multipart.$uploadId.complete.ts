import { json, type ActionFunctionArgs } from "@remix-run/node";
import { completeMultipartSchema } from "~/schemas/uploads";
import { requireUser } from "~/services/auth.server";
import { completeMultipartUpload } from "~/services/storage/companion.server";
import { publicOrigin } from "~/services/storage/names.server";
import { methods, parseJson, uploadError } from "~/utils/http.server";

/**
 * `POST s3/multipart/{uploadId}/complete?key=` `{parts: [{PartNumber, ETag}]}` → `{location, key, url, …}`;
 * `location`/`url` are the app's media URL. Size and type are checked here (413/415).
 */
export const action = methods({
  POST: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    const key = new URL(request.url).searchParams.get("key");
    if (!key) throw uploadError(400, 's3: the object key must be passed as a query parameter. For example "?key=abc.jpg"');
    const { parts } = await parseJson(request, completeMultipartSchema);
    return json(await completeMultipartUpload(actor, key, params.uploadId ?? "", parts, publicOrigin(request)));
  },
});
