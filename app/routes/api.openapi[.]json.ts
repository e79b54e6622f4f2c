import { json } from "@remix-run/node";
import { openApiDocument } from "~/openapi/document.server";

/** The API's OpenAPI 3.1 description (public: it describes the API, never an account's data). */
export const loader = () => json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } });
