import { json, type ActionFunctionArgs } from "@remix-run/node";
import { importUrlSchema } from "~/schemas/uploads";
import { requireUser } from "~/services/auth.server";
import { idempotentPost } from "~/services/idempotency.server";
import { parsePickedAt } from "~/services/storage/names.server";
import { importFromUrl } from "~/services/storage/remote-import.server";
import { uploadJson } from "~/services/storage/uploads.server";
import { methods, parseJson } from "~/utils/http.server";

/**
 * `POST /api/uploads/import` `{url, purpose?, pickedAt?}` → 201 the upload: the server fetches the
 * link (through the outbound rule) and stores it with the checks of a direct upload (decision 0068).
 */
export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    // A client retrying over a bad line (Idempotency-Key) gets the first import's upload, not a second copy.
    return idempotentPost(actor, request, async () => {
      const body = await parseJson(request, importUrlSchema);
      const record = await importFromUrl(actor, { url: body.url, purpose: body.purpose, pickedAt: parsePickedAt(body.pickedAt) });
      return json(uploadJson(record), { status: 201 });
    });
  },
});
