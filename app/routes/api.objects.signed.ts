import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handleSignedRequest } from "~/services/storage.server";
import { api, methods } from "~/utils/http.server";

/**
 * Target of the app-signed URLs (HMAC over operation, key, part and expiry): whole-object PUT or
 * form POST, part PUT (local multipart) and GET downloads. The signature is the authorisation.
 */
export const loader = api(async ({ request }: LoaderFunctionArgs) => handleSignedRequest(request));
const upload = async ({ request }: ActionFunctionArgs) => handleSignedRequest(request);
export const action = methods({ PUT: upload, POST: upload });
