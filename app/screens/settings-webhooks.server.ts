import { json } from "@remix-run/node";
import { isObjectIdHex } from "~/models/owner-scope.server";
import { webhookEndpointCreateValidator } from "~/schemas/webhooks";
import type { Actor } from "~/services/actor";
import { createEndpoint, deleteEndpoint, editEndpoint, listDeliveries, listEndpoints, redeliver, rotateSecret } from "~/services/webhooks.server";
import { handleForm } from "~/utils/forms.server";
import { toTab, writeOrToast, type SettingsAction } from "./settings.server";

const LOG_PAGE = 25;

/**
 * Settings → Security → Webhooks: the account's endpoints and, with `?webhook=<id>`, that
 * endpoint's latest deliveries (another account's id shows no log).
 */
export async function webhooksSection(actor: Actor, url: URL) {
  const endpoints = await listEndpoints(actor);
  const selected = url.searchParams.get("webhook");
  const endpoint = selected && isObjectIdHex(selected) ? endpoints.find((e) => e.id === selected) : undefined;
  const log = endpoint ? { endpoint, ...(await listDeliveries(actor, endpoint.id, { limit: LOG_PAGE, offset: 0 })) } : null;
  return { endpoints, log };
}

const id = (form: FormData, name = "id") => String(form.get(name) ?? "");
const backTo = (form: FormData) => (isObjectIdHex(id(form, "webhook")) ? `&webhook=${id(form, "webhook")}` : "");

export const webhookActions: Record<string, SettingsAction> = {
  "webhook-create": ({ actor, request, form }) =>
    handleForm(
      request,
      webhookEndpointCreateValidator,
      async (input) => {
        const created = await createEndpoint(actor, input);
        // Shown once: the page renders the secret from this answer and never again.
        return json({ webhookSecret: { url: created.url, secret: created.secret, rotated: false } }, { headers: { "Cache-Control": "no-store" } });
      },
      form,
    ),
  "webhook-rotate": ({ actor, request, form }) =>
    writeOrToast(request, "security", async () => {
      const rotated = await rotateSecret(actor, id(form));
      return json({ webhookSecret: { url: rotated.url, secret: rotated.secret, rotated: true } }, { headers: { "Cache-Control": "no-store" } });
    }),
  "webhook-enable": ({ actor, request, form }) =>
    writeOrToast(request, "security", async () => {
      const enabled = form.get("enabled") === "true";
      await editEndpoint(actor, id(form), { enabled });
      return toTab(request, "security", { title: "Success", message: enabled ? "Webhook endpoint turned on" : "Webhook endpoint turned off" }, backTo(form));
    }),
  "webhook-delete": ({ actor, request, form }) =>
    writeOrToast(request, "security", async () => {
      await deleteEndpoint(actor, id(form));
      return toTab(request, "security", { title: "Success", message: "Webhook endpoint deleted" });
    }),
  "webhook-redeliver": ({ actor, request, form }) =>
    writeOrToast(request, "security", async () => {
      await redeliver(actor, id(form));
      return toTab(request, "security", { title: "Redelivery queued", message: "The event will be sent to the endpoint again now.", color: "blue" }, backTo(form));
    }),
};
