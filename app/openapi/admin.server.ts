import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { aiProviderSchema, aiProviderTestSchema } from "~/schemas/ai-provider";
import { changeCredentialsSchema, createManagedUserSchema, createUserSchema, registrationSchema, switchRoleSchema } from "~/schemas/auth";
import { trainingItemSchema, trainingListQuerySchema } from "~/schemas/training";
import { ApiArea, errors, idempotencyHeader, isoDate, json, MessageBody, listPageHeaders, objectIdText, record, z, wholeListHeaders } from "./registry.server";
import { userSchema } from "./session.server";
import { wholeListQuerySchema } from "~/schemas/list-query";

const idParam = z.object({ id: z.string().openapi({ description: "The record's id", example: "6650c0ffee0123456789abcd" }) });
const role = z.enum(["admin", "dealer", "vendor"]);

/** Installation set-up, users, role preview, the AI provider and the AI training data (admins). */
export function describeAdmin(registry: OpenAPIRegistry) {
  const area = new ApiArea(registry, "Administration");
  const User = userSchema(area);
  const withUser = (description: string) => json(description, record({ message: z.string(), user: User }));
  const person = { username: "dealer2", password: "a long password", email: "dealer2@example.com", firstName: "Sam", lastName: "Lee" };

  area.describe({
    method: "get", path: "/api/admin/check-setup", operationId: "checkSetup", auth: "none",
    summary: "Whether the first admin exists", responses: { 200: json("Set-up state", record({ adminExists: z.boolean() })) },
  });
  area.describe({
    method: "post", path: "/api/admin/create-account", operationId: "createAdminAccount", auth: "none",
    summary: "First-run set-up: create the one admin", body: registrationSchema, example: { ...person, username: "admin" },
    responses: {
      201: withUser("The admin account"),
      403: { ...errors[403], description: "Started by another site" },
      409: { ...errors[409], description: "An admin already exists" },
    },
  });
  area.describe({
    method: "post", path: "/api/admin/create-user", operationId: "createUser", auth: "role",
    summary: "Create a dealer or vendor account (Admin Settings)", headers: idempotencyHeader, body: createUserSchema, example: { ...person, role: "dealer" },
    responses: { 201: withUser("The account"), 409: { ...errors[409], description: "The username exists, or the Idempotency-Key was used with another body" } },
  });
  area.describe({
    method: "put", path: "/api/admin/change-credentials", operationId: "changeAdminCredentials", auth: "role",
    summary: "Change the admin's username or password", body: changeCredentialsSchema,
    example: { currentPassword: "current password", newUsername: "chief-admin" },
    responses: { 200: withUser("Changed"), 409: { ...errors[409], description: "The username exists" }, 429: errors[429] },
  });
  area.describe({
    method: "get", path: "/api/admin/users", operationId: "listUsers", auth: "role",
    summary: "Every account", query: wholeListQuerySchema, responses: { 200: json("The accounts", z.array(User), { headers: wholeListHeaders }) },
  });
  area.describe({
    method: "post", path: "/api/admin/users", operationId: "createManagedUser", auth: "role",
    summary: "Create an account (User Management)", headers: idempotencyHeader, body: createManagedUserSchema, example: { ...person, role: "vendor" },
    responses: { 201: withUser("The account"), 409: { ...errors[409], description: "The username exists, or the Idempotency-Key was used with another body" } },
  });
  area.describe({
    method: "get", path: "/api/admin/users/{id}", operationId: "getUser", auth: "role", params: idParam,
    summary: "One account", responses: { 200: json("The account", User) },
  });
  area.describe({
    method: "delete", path: "/api/admin/users/{id}", operationId: "deleteUser", auth: "role", params: idParam,
    summary: "Delete an account with everything it owns",
    description: "The account is deleted at once (no sign-in, session or token of it works on any instance); then its records and files are removed. 200 when that finished within `ACCOUNT_PURGE_WAIT_MS` (15 s); 202 when a big account's records are still being removed (the server finishes it, also after a restart).",
    responses: {
      200: json("Deleted, with everything it owned", MessageBody),
      202: json("Deleted; its records are still being removed", MessageBody),
      400: { ...errors[400], description: "An admin cannot delete itself" },
    },
  });
  area.describe({
    method: "get", path: "/api/admin/role-status", operationId: "roleStatus", auth: "role",
    summary: "The role an admin is previewing", responses: { 200: json("Preview state", record({ viewingAsRole: role, isRoleSwitched: z.boolean() })) },
  });
  area.describe({
    method: "post", path: "/api/admin/switch-role", operationId: "switchRole", auth: "role",
    summary: "Preview the interface as another role (a session only)", body: switchRoleSchema, example: { targetRole: "dealer" },
    responses: { 200: json("Switched", MessageBody, { headers: { "Set-Cookie": { description: "The session", schema: { type: "string" } } } }) },
  });

  const AiProvider = area.schema(
    "AiProviderSettings",
    record({
      source: z.enum(["settings", "environment", "none"]),
      baseURL: z.string(),
      model: z.string(),
      apiKeySet: z.boolean(),
      apiKeyUnreadable: z.boolean(),
      updatedAt: isoDate.nullable(),
      environment: record({ baseURL: z.string(), model: z.string(), apiKeySet: z.boolean() }),
      verifiedTrainingImages: z.number().int(),
    }),
  );
  area.describe({
    method: "get", path: "/api/admin/ai-provider", operationId: "getAiProvider", auth: "role",
    summary: "The installation's AI provider (the key only as `apiKeySet`)", responses: { 200: json("The provider", AiProvider) },
  });
  area.describe({
    method: "put", path: "/api/admin/ai-provider", operationId: "saveAiProvider", auth: "role",
    summary: "Save the AI provider", body: aiProviderSchema, example: { baseURL: "https://api.openai.com/v1", model: "gpt-4o", apiKey: "sk-…" },
    responses: { 200: json("The saved provider", AiProvider) },
  });
  area.describe({
    method: "delete", path: "/api/admin/ai-provider", operationId: "removeAiProvider", auth: "role",
    summary: "Back to the OPENAI_* environment (or no provider)", responses: { 200: json("The provider now in use", AiProvider) },
  });
  area.describe({
    method: "post", path: "/api/admin/ai-provider/test", operationId: "testAiProvider", auth: "role",
    summary: "One chat completion with the given values (the rest from what is saved)", body: aiProviderTestSchema, example: { model: "gpt-4o" },
    responses: { 200: json("The outcome", record({ ok: z.boolean(), message: z.string(), latencyMs: z.number() })) },
  });

  const TrainingItem = area.schema(
    "TrainingItem",
    record({
      id: objectIdText,
      imageUrl: z.string(),
      damageType: z.string(),
      severity: z.string(),
      description: z.string(),
      estimatedCost: z.number(),
      laborHours: z.number().nullable(),
      partsCost: z.number().nullable(),
      paintWork: z.boolean(),
      vehicleMake: z.string().nullable(),
      vehicleModel: z.string().nullable(),
      vehicleYear: z.number().int().nullable(),
      location: z.string().nullable(),
      tags: z.array(z.string()),
      notes: z.string().nullable(),
      isVerified: z.boolean(),
      verifiedAt: isoDate.nullable(),
      createdAt: isoDate,
      updatedAt: isoDate,
    }),
  );
  const trainingExample = { imageUrl: "/media/6650c0ffee0123456789abcd", damageType: "dent", severity: "moderate", description: "Door dent, paint intact", estimatedCost: 350, tags: ["door"] };
  area.describe({
    method: "get", path: "/api/admin/ai-training-data", operationId: "listTrainingData", auth: "role",
    summary: "Every training item, newest first",
    description: "Without `limit`, every item the filters match. Pages: `limit` with `cursor` (from the `Link` header of the page before; a cursor that is not one is a 400).",
    query: trainingListQuerySchema, responses: { 200: json("The items", z.array(TrainingItem), { headers: listPageHeaders }) },
  });
  area.describe({
    method: "post", path: "/api/admin/ai-training-data", operationId: "createTrainingItem", auth: "role",
    summary: "Add a training item", description: "`imageUrl` is one of the caller's uploads (`/media/{id}`).",
    headers: idempotencyHeader, body: trainingItemSchema, example: trainingExample,
    responses: { 201: json("The item", TrainingItem), 409: errors[409] },
  });
  area.describe({
    method: "get", path: "/api/admin/ai-training-data/{id}", operationId: "getTrainingItem", auth: "role", params: idParam,
    summary: "One training item", responses: { 200: json("The item", TrainingItem) },
  });
  area.describe({
    method: "put", path: "/api/admin/ai-training-data/{id}", operationId: "updateTrainingItem", auth: "role", params: idParam,
    summary: "Replace a training item, or verify it with only `{isVerified: true}`",
    body: z.union([trainingItemSchema, z.object({ isVerified: z.literal(true) }).strict()]), example: { isVerified: true },
    responses: { 200: json("The item", TrainingItem) },
  });
  area.describe({
    method: "delete", path: "/api/admin/ai-training-data/{id}", operationId: "deleteTrainingItem", auth: "role", params: idParam,
    summary: "Delete a training item", responses: { 200: json("Deleted", MessageBody) },
  });
}
