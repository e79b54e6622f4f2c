import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { inviteSchema, MEMBER_ROLES, MEMBER_STATUSES, memberUpdateSchema } from "~/schemas/members";
import { ApiArea, errors, isoDate, json, MessageBody, objectIdText, record, z } from "./registry.server";

/** An account's people (issue 44, docs/decisions/0067): the owner's to invite, change, suspend and remove. */
export function describeMembers(registry: OpenAPIRegistry) {
  const area = new ApiArea(registry, "Members");
  const Member = area.schema(
    "Member",
    record({
      id: objectIdText,
      email: z.string(),
      role: z.enum(MEMBER_ROLES),
      status: z.enum(MEMBER_STATUSES),
      username: z.string().nullable(),
      firstName: z.string().nullable(),
      lastName: z.string().nullable(),
      inviteExpiresAt: isoDate.nullable(),
      acceptedAt: isoDate.nullable(),
      createdAt: isoDate,
      updatedAt: isoDate,
    }),
  );
  const ownerOnly = { ...errors[403], description: "Only the account's owner manages its members (an administrator's account has none)" };
  const id = z.object({ id: z.string().openapi({ example: "6650c0ffee0123456789abcd" }) });
  area.describe({
    method: "get", path: "/api/members", operationId: "listMembers", auth: "user",
    summary: "The account's members, invited, active and suspended",
    responses: { 200: json("The members", z.array(Member)), 403: ownerOnly },
  });
  area.describe({
    method: "post", path: "/api/members", operationId: "inviteMember", auth: "user",
    summary: "Invite a person by email",
    description: "The invite is emailed; its link (also in this answer, for the owner to pass on) expires after 7 days. The person chooses their own username and password at `/invite/{token}`, and signs in with them; they act in this account with `role` (docs/decisions/0067).",
    body: inviteSchema, example: { email: "maria@example.com", role: "estimator" },
    responses: { 201: json("Invited", record({ member: Member, inviteUrl: z.string() })), 403: ownerOnly, 409: { ...errors[409], description: "At most 100 members" } },
  });
  area.describe({
    method: "put", path: "/api/members/{id}", operationId: "updateMember", auth: "user", params: id,
    summary: "Change a member's role, or suspend or reactivate them",
    description: "Suspending ends the member's sessions and API tokens at once, on every instance within 3 × CACHE_POLL_MS.",
    body: memberUpdateSchema.innerType().openapi({ minProperties: 1 }), example: { suspended: true },
    responses: { 200: json("The member", Member), 403: ownerOnly, 409: { ...errors[409], description: "An invite not yet accepted cannot be suspended" } },
  });
  area.describe({
    method: "delete", path: "/api/members/{id}", operationId: "removeMember", auth: "user", params: id,
    summary: "Remove a member (or withdraw an invite)",
    description: "Their sessions and API tokens end at once; what they did stays the account's.",
    responses: { 200: json("Removed", MessageBody), 403: ownerOnly },
  });
}
