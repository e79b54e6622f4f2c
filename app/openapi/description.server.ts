import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { ApiArea, json, record, z } from "./registry.server";

/** The description itself: /api/openapi.json and its human page /api/docs. */
export function describeDescription(registry: OpenAPIRegistry) {
  const area = new ApiArea(registry, "This description");
  area.describe({
    method: "get", path: "/api/openapi.json", operationId: "getOpenApiDescription", auth: "none",
    summary: "This OpenAPI 3.1 description", responses: { 200: json("The description", record({ openapi: z.string(), paths: z.record(z.unknown()) })) },
  });
  area.describe({
    method: "get", path: "/api/docs", operationId: "getApiDocs", auth: "none",
    summary: "The description as a page (server rendered, no JavaScript)",
    responses: { 200: { description: "The page", content: { "text/html": { schema: z.string() } } } },
  });
}
