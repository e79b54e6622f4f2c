import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { messages } from "~/schemas/upload-limits";
import { requireUser } from "~/services/auth.server";
import { signPart } from "~/services/storage/companion.server";
import { publicOrigin } from "~/services/storage/names.server";
import { api, uploadError } from "~/utils/http.server";

/** `GET s3/multipart/{uploadId}/{partNumber}?key=` → `{url, expires}`: a URL to PUT that part to. */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  const key = new URL(request.url).searchParams.get("key");
  const { uploadId, partNumber } = params;
  if (!key || !uploadId || !partNumber) throw uploadError(400, messages.cannotSign);
  const n = Number(partNumber);
  if (!/^\d+$/.test(partNumber) || n < 1 || n > 10000) {
    throw uploadError(400, "s3: the part number must be an integer between 1 and 10000");
  }
  return json(await signPart(actor, key, uploadId, n, publicOrigin(request)));
});
