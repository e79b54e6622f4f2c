import { json, type ActionFunctionArgs } from "@remix-run/node";
import { linkGetSchema } from "~/schemas/uploads";
import { requireUser } from "~/services/auth.server";
import { parsePickedAt, parsePurpose, publicOrigin } from "~/services/storage/names.server";
import { startLinkImport } from "~/services/storage/link-imports.server";
import { methods, parseJson } from "~/utils/http.server";

/**
 * The Companion protocol's `POST url/get` → `{token}` (decision 0068): the import starts; the widget
 * follows it on the websocket `/api/uploads/api/<token>` (progress, success, error).
 */
export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    const body = await parseJson(request, linkGetSchema);
    const purpose = parsePurpose(body.metadata?.purpose);
    const token = await startLinkImport(
      actor,
      { url: body.url, purpose: purpose === "logo" ? "wizard" : purpose, pickedAt: parsePickedAt(body.metadata?.pickedAt) },
      publicOrigin(request),
    );
    return json({ token });
  },
});
