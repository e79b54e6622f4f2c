import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { trainingFilterSchema, trainingItemSchema } from "~/schemas/training";
import { requireAdmin } from "~/services/auth.server";
import { idempotentPost } from "~/services/idempotency.server";
import { createTrainingItem, listTrainingItems } from "~/services/training.server";
import { api, methods, parseJson, validationError } from "~/utils/http.server";

/** Every training item, newest first; `?damageType=&severity=&isVerified=` filter (each left out for 'all'). */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const actor = await requireAdmin(request);
  const url = new URL(request.url);
  const filter = trainingFilterSchema.safeParse({
    damageType: url.searchParams.get("damageType") ?? undefined,
    severity: url.searchParams.get("severity") ?? undefined,
    isVerified: url.searchParams.get("isVerified") ?? undefined,
  });
  if (!filter.success) throw validationError(filter.error);
  return json(await listTrainingItems(actor, filter.data));
});

export const action = methods({
  POST: async ({ request }: ActionFunctionArgs) => {
    const actor = await requireAdmin(request);
    return idempotentPost(actor, request, async () => {
      const input = await parseJson(request, trainingItemSchema);
      return json(await createTrainingItem(actor, input), { status: 201 });
    });
  },
});
