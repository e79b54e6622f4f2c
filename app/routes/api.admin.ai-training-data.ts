import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { trainingItemSchema, trainingListQuerySchema } from "~/schemas/training";
import { requireAdmin } from "~/services/auth.server";
import { idempotentPost } from "~/services/idempotency.server";
import { createTrainingItem, listTrainingItemsPage } from "~/services/training.server";
import { api, methods, parseJson, validationError } from "~/utils/http.server";
import { nextLinkHeaders } from "~/utils/next-link.server";

/** Every training item, newest first; `?damageType=&severity=&isVerified=` filter (each left out for 'all'); `?limit=&cursor=` pages (the next page's cursor in `Link`). */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const actor = await requireAdmin(request);
  const get = (key: string) => new URL(request.url).searchParams.get(key) ?? undefined;
  const query = trainingListQuerySchema.safeParse({
    damageType: get("damageType"),
    severity: get("severity"),
    isVerified: get("isVerified"),
    limit: get("limit"),
    cursor: get("cursor"),
  });
  if (!query.success) throw validationError(query.error);
  const { limit, cursor, ...filter } = query.data;
  const { items, next } = await listTrainingItemsPage(actor, { filter, limit, cursor });
  return json(items, { headers: nextLinkHeaders(request.url, next) });
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
