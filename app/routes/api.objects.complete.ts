import { json, type ActionFunctionArgs } from "@remix-run/node";
import { completeUploadSchema } from "~/schemas/uploads";
import { requireUser } from "~/services/auth.server";
import { completeUpload } from "~/services/storage/uploads.server";
import { methods, parseJson } from "~/utils/http.server";

/** `POST /api/objects/complete` `{key | uploadURL | id}`: checks a PUT upload (size, type) → the uploaded file. */
export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    const body = await parseJson(request, completeUploadSchema);
    return json(await completeUpload(actor, { id: body.id, key: body.key, uploadURL: body.uploadURL ?? body.url }));
  },
});
