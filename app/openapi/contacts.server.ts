import { contactSchema } from "~/schemas/contact";
import { listQuerySchema } from "~/schemas/list-query";
import { packageSchema } from "~/schemas/package";
import { ApiArea, errors, idempotencyHeader, isoDate, json, MessageBody, listPageHeaders, objectIdText, ownerField, record, z } from "./registry.server";
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";

const idParam = z.object({ id: z.string().openapi({ description: "The record's id", example: "6650c0ffee0123456789abcd" }) });

/** Contacts (a dealer's customers) and service packages. */
export function describeContacts(registry: OpenAPIRegistry) {
  const area = new ApiArea(registry, "Contacts and packages");
  const Contact = area.schema(
    "Contact",
    record({
      id: objectIdText,
      ownerId: objectIdText,
      owner: ownerField,
      firstName: z.string(),
      lastName: z.string(),
      email: z.string(),
      phone: z.string().nullable(),
      companyName: z.string().nullable(),
      address: z.string().nullable(),
      notes: z.string().nullable(),
      createdAt: isoDate,
      updatedAt: isoDate,
    }),
  );
  const contactExample = { firstName: "Jane", lastName: "Doe", email: "jane@example.com", phone: "555-0100", companyName: "Doe Fleet" };
  const created = { 201: { ...json("The created contact", Contact) }, 409: errors[409] };

  area.describe({
    method: "get", path: "/api/contacts", operationId: "listContacts", auth: "user",
    summary: "List contacts",
    description:
      "The caller's contacts (an admin's: every account's), newest first; `q` searches names, email, company and phone (every word must begin a word of one of them, in any case and accents; a phone also by its digits together). Pages: `limit` with `cursor` (from the `Link` header of the page before; a cursor that is not one is a 400), or `offset` as before.",
    query: listQuerySchema,
    responses: { 200: json("The contacts", z.array(Contact), { headers: listPageHeaders }) },
  });
  area.describe({
    method: "post", path: "/api/contacts", operationId: "createContact", auth: "user",
    summary: "Create a contact", headers: idempotencyHeader, body: contactSchema, example: contactExample,
    responses: created,
    links: { 201: { GetContactById: { operationId: "getContact", parameters: { id: "$response.body#/id" } } } },
  });
  area.describe({
    method: "get", path: "/api/contacts/{id}", operationId: "getContact", auth: "user", params: idParam,
    summary: "Get a contact", responses: { 200: json("The contact", Contact) },
  });
  area.describe({
    method: "put", path: "/api/contacts/{id}", operationId: "updateContact", auth: "user", params: idParam,
    summary: "Replace a contact's fields", body: contactSchema, example: contactExample,
    responses: { 200: json("The saved contact", Contact), 409: errors[409] },
  });
  area.describe({
    method: "delete", path: "/api/contacts/{id}", operationId: "deleteContact", auth: "user", params: idParam,
    summary: "Delete a contact", responses: { 200: json("Deleted", MessageBody) },
  });

  const Package = area.schema(
    "Package",
    record({
      id: objectIdText,
      ownerId: objectIdText,
      owner: ownerField,
      name: z.string(),
      description: z.string().nullable(),
      price: z.number(),
      features: z.array(z.string()),
      isActive: z.boolean(),
      createdAt: isoDate,
      updatedAt: isoDate,
    }),
  );
  const packageExample = { name: "Premium Detail", description: "Full interior and exterior", price: 249.99, features: ["Wax", "Interior shampoo"], isActive: true };
  area.describe({
    method: "get", path: "/api/packages", operationId: "listPackages", auth: "user",
    summary: "List service packages", description: "Newest first; `q` searches name and description. Pages: `limit` with `cursor` (from the `Link` header of the page before; a cursor that is not one is a 400), or `offset` as before.",
    query: listQuerySchema, responses: { 200: json("The packages", z.array(Package), { headers: listPageHeaders }) },
  });
  area.describe({
    method: "post", path: "/api/packages", operationId: "createPackage", auth: "user",
    summary: "Create a service package", headers: idempotencyHeader, body: packageSchema, example: packageExample,
    responses: { 201: json("The created package", Package), 409: errors[409] },
    links: { 201: { GetPackageById: { operationId: "getPackage", parameters: { id: "$response.body#/id" } } } },
  });
  area.describe({
    method: "get", path: "/api/packages/{id}", operationId: "getPackage", auth: "user", params: idParam,
    summary: "Get a service package", responses: { 200: json("The package", Package) },
  });
  area.describe({
    method: "put", path: "/api/packages/{id}", operationId: "updatePackage", auth: "user", params: idParam,
    summary: "Replace a service package's fields", body: packageSchema, example: packageExample,
    responses: { 200: json("The saved package", Package) },
  });
  area.describe({
    method: "delete", path: "/api/packages/{id}", operationId: "deletePackage", auth: "user", params: idParam,
    summary: "Delete a service package", responses: { 200: json("Deleted", MessageBody) },
  });
}
