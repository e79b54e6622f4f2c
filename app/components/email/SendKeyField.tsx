import { useRouteLoaderData } from "@remix-run/react";

/**
 * The idempotency key of a send form: the shell's key of this page view (new after every form post
 * and every full load) with the assessment's id. Submitting the same form twice (a double click, a
 * resubmitted page) names the same send, so the customer gets one message.
 */
export function SendKeyField({ id }: { id: string }) {
  const data = useRouteLoaderData<{ sendKey?: string }>("routes/_app");
  return data?.sendKey ? <input type="hidden" name="idempotencyKey" value={`${data.sendKey}:${id}`} /> : null;
}
