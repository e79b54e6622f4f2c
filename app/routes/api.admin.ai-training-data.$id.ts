import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { trainingItemSchema, verifyOnlySchema } from "~/schemas/training";
import { requireAdmin } from "~/services/auth.server";
import { deleteTrainingItem, getTrainingItem, updateTrainingItem, verifyTrainingItem } from "~/services/training.server";
import { api, methods, readJson, validationError } from "~/utils/http.server";

export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const actor = await requireAdmin(request);
  return json(await getTrainingItem(actor, params.id ?? ""));
});

export const action = methods({
  /** The item's fields, or only `{isVerified: true}` (Verify). */
  PUT: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireAdmin(request);
    const body = await readJson(request);
    if (verifyOnlySchema.safeParse(body).success) return json(await verifyTrainingItem(actor, params.id ?? ""));
    const input = trainingItemSchema.safeParse(body);
    if (!input.success) throw validationError(input.error);
    return json(await updateTrainingItem(actor, params.id ?? "", input.data));
  },
  DELETE: async ({ request, params }: ActionFunctionArgs) => {
    const actor = await requireAdmin(request);
    await deleteTrainingItem(actor, params.id ?? "");
    return json({ message: "Training data deleted successfully" });
  },
});
