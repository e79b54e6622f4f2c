import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { messages } from "~/schemas/upload-limits";
import { requireUser } from "~/services/auth.server";
import { MAX_PARTS_PER_BATCH, signParts } from "~/services/storage/companion.server";
import { publicOrigin } from "~/services/storage/names.server";
import { api, uploadError } from "~/utils/http.server";

/**
 * `GET s3/multipart/{uploadId}/batch?key=&partNumbers=1,2,3` → `{presignedUrls: {"1": url, …}}`
 * (Companion's batch signing): one round trip for many parts. At most 1000 parts per call.
 */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  const search = new URL(request.url).searchParams;
  const key = search.get("key");
  const list = search.get("partNumbers");
  if (!key || !params.uploadId || !list) throw uploadError(400, messages.cannotSign);
  const numbers = list.split(",");
  if (numbers.length > MAX_PARTS_PER_BATCH || numbers.some((n) => !/^\d+$/.test(n) || Number(n) < 1 || Number(n) > 10000)) {
    throw uploadError(400, `s3: at most ${MAX_PARTS_PER_BATCH} part numbers, integers between 1 and 10000`);
  }
  return json(await signParts(actor, key, params.uploadId, numbers.map(Number), publicOrigin(request)));
});
