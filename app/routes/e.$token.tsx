import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { clientOf, publicEstimateAction, publicEstimateLoader } from "~/screens/public-estimate.server";

/**
 * `/e/{token}`: the customer's estimate page (no account, the token is the key). A whole HTML
 * document with no script: it works with JavaScript off and loads as one small response.
 */
export const loader = ({ request, params, context }: LoaderFunctionArgs) =>
  publicEstimateLoader(request, params.token ?? "", clientOf(request, context.clientIp));

export const action = ({ request, params, context }: ActionFunctionArgs) => {
  if (request.method !== "POST") return new Response(null, { status: 405, headers: { Allow: "GET, POST" } });
  return publicEstimateAction(request, params.token ?? "", clientOf(request, context.clientIp));
};
