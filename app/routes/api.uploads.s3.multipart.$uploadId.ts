import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { abortMultipartUpload, listMultipartParts } from "~/services/storage/companion.server";
import { api, methods, uploadError } from "~/utils/http.server";

const keyOf = (request: Request) => {
  const key = new URL(request.url).searchParams.get("key");
  if (!key) throw uploadError(400, 's3: the object key must be passed as a query parameter. For example "?key=abc.jpg"');
  return key;
};

/** `GET s3/multipart/{uploadId}?key=` → the parts stored so far `[{PartNumber, ETag, Size}]`. */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  return json(await listMultipartParts(actor, keyOf(request), params.uploadId ?? ""));
});

/** `DELETE s3/multipart/{uploadId}?key=` aborts the upload and drops its parts. */
export const action = methods({
  DELETE: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireUser(request);
    await abortMultipartUpload(actor, keyOf(request), params.uploadId ?? "");
    return json({});
  },
});
