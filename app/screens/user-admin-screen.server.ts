import { json } from "@remix-run/node";
import type { Validator } from "remix-validated-form";
import type { z } from "zod";
import type { createManagedUserSchema, createUserSchema } from "~/schemas/auth";
import { requireAdmin } from "~/services/auth.server";
import { redirectWithToast } from "~/services/session.server";
import { createUser, deleteUser, listUsers } from "~/services/users.server";
import { handleForm } from "~/utils/forms.server";
import { screenAnswer } from "~/utils/http.server";

/** What Admin Settings → Users and User Management both load: the users and a pending delete. */
export async function loadUserAdmin(request: Request) {
  const actor = await requireAdmin(request);
  const users = await listUsers(actor, request);
  const deleteId = new URL(request.url).searchParams.get("delete");
  return { actor, users, confirmDelete: users.find((u) => u.id === deleteId) ?? null };
}

type NewUserInput = z.infer<typeof createUserSchema> | z.infer<typeof createManagedUserSchema>;

/** The create-user and delete-user posts of both screens; only the wording and the rule differ. */
export async function userAdminAction(
  request: Request,
  form: FormData,
  options: {
    validator: Validator<NewUserInput>;
    returnTo: string;
    created: string;
    deleted: string;
    deleteFailed: string;
  },
) {
  const actor = await requireAdmin(request);
  const intent = form.get("intent");
  if (intent === "create-user") {
    return handleForm(
      request,
      options.validator,
      async (input) => {
        await createUser(actor, input, request);
        return redirectWithToast(request, options.returnTo, { title: "Success", message: options.created });
      },
      form,
    );
  }
  if (intent === "delete-user") {
    try {
      await deleteUser(actor, String(form.get("id") ?? ""), request);
      return redirectWithToast(request, options.returnTo, { title: "Success", message: options.deleted });
    } catch (error) {
      const failure = await screenAnswer(error);
      if (!failure) throw error;
      return redirectWithToast(request, options.returnTo, {
        title: "Error",
        message: failure.message || options.deleteFailed,
        color: "red",
      });
    }
  }
  return json({ formError: "Unknown action" }, { status: 400 });
}
