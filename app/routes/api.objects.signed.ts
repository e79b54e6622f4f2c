import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { handleSignedRequest } from "~/services/storage/signed-route.server";
import { api, methods, uploadError } from "~/utils/http.server";

/**
 * Target of the app-signed URLs (HMAC over operation, key, part and expiry): whole-object PUT or
 * form POST, part PUT (local multipart) and GET downloads. The signature is the authorisation.
 */
const signed = async (request: Request) => {
  const outcome = await handleSignedRequest(request);
  if (outcome instanceof Response) return outcome;
  if (!outcome) return uploadError(405, "Method not allowed");
  return json(outcome.stored, { headers: { "Access-Control-Expose-Headers": "ETag" } });
};

export const loader = api(async ({ request }: LoaderFunctionArgs) => signed(request));
const upload = async ({ request }: ActionFunctionArgs) => signed(request);
export const action = methods({ PUT: upload, POST: upload });
