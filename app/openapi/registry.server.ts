import { extendZodWithOpenApi, OpenAPIRegistry, type ResponseConfig, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z, type AnyZodObject, type ZodTypeAny } from "zod";
import { idempotencyKeySchema } from "~/schemas/email";
import { checkbox } from "~/schemas/fields";

/**
 * The API description's building blocks (docs/decisions/0023): every API area registers its routes
 * in a module of its own (app/openapi/*.server.ts) through `describe`, which adds the answers every
 * route of its kind gives (401/403 when signed in, 400/413/415 with a JSON body, 404 with an id in the
 * path, 503 with Retry-After when the database is away), so an area lists only what is its own.
 */
extendZodWithOpenApi(z);

export { z };

/** `{message, errors?}`: every 4xx and 5xx answer of the API. */
export const ErrorBody = z
  .object({
    message: z.string().openapi({ example: "First name is required" }),
    errors: z
      .record(z.string())
      .optional()
      .openapi({ description: "The first message per field, keyed by the field's dotted path", example: { firstName: "First name is required" } }),
    requestId: z
      .string()
      .optional()
      .openapi({ description: "On an unexpected failure (500), and a 503 while the database does not answer: the request's id, as in X-Request-Id and the server's log; quote it when reporting the problem" }),
  })
  .openapi("Error");

export const MessageBody = z.object({ message: z.string() }).openapi("Message");

/** A 24-character hex id (MongoDB ObjectId). */
export const objectIdText = z.string().regex(/^[a-f0-9]{24}$/).openapi({ example: "6650c0ffee0123456789abcd" });
export const isoDate = z.string().openapi({ format: "date-time", example: "2026-11-25T09:30:00.000Z" });
/** An admin's answers name each record's owner. */
export const ownerField = z.object({ id: z.string(), name: z.string().nullable().openapi({ description: "The owner's name; null once the account is deleted" }) }).optional();
/** Response objects: the listed fields, and the answer may carry more (clients ignore unknown fields). */
export const record = <T extends z.ZodRawShape>(shape: T) => z.object(shape).passthrough();

const retryAfter = {
  "Retry-After": { description: "Seconds to wait before trying again", schema: { type: "integer" as const, minimum: 0 } },
};

const errorResponse = (description: string, headers?: ResponseConfig["headers"]): ResponseConfig => ({
  description,
  ...(headers ? { headers } : {}),
  content: { "application/json": { schema: ErrorBody } },
});

/** The answers shared by many routes; an operation may override any with its own wording. */
export const errors = {
  400: errorResponse("The request is not valid: `errors` names each field"),
  401: errorResponse("No valid session cookie or API token"),
  403: errorResponse("The caller's role may not do this, or a session's write came from another site"),
  404: errorResponse("Not found (another account's id answers the same)"),
  409: errorResponse("Conflicts with the record's state or another record"),
  413: errorResponse("The body is too large"),
  415: errorResponse("The body's Content-Type is not one this operation reads"),
  429: errorResponse("Too many attempts", retryAfter),
  503: errorResponse("A dependency (database, object storage) is unreachable; retry later", retryAfter),
  507: errorResponse("The server's disk is full: nothing was saved (reads still work; retry once space is freed)", retryAfter),
} satisfies Record<number, ResponseConfig>;

export const idempotencyHeader = z.object({
  "Idempotency-Key": idempotencyKeySchema.optional().openapi({
    description:
      "Names this request: repeated with the same key and body within 24 hours it answers the first result (with `Idempotent-Replayed: true`); with another body it is 409.",
    example: "create-contact-7f3a9c21",
  }),
});

export type Auth =
  /** No sign-in needed. */
  | "none"
  /** A session cookie or a Bearer API token, any role. */
  | "user"
  /** As `user`; the role decides (403 for roles it does not admit). */
  | "role";

export interface Operation {
  method: "get" | "post" | "put" | "delete";
  /** OpenAPI path: `{name}` for a parameter. */
  path: string;
  summary: string;
  description?: string;
  operationId: string;
  auth: Auth;
  params?: AnyZodObject;
  query?: AnyZodObject;
  headers?: AnyZodObject;
  /** A JSON body (adds 400, 413, 415); `raw` for another media type, described as given. */
  body?: ZodTypeAny | { raw: NonNullable<RouteConfig["request"]>["body"] };
  /** The body's example. */
  example?: unknown;
  /** The answers this operation gives besides the shared ones; `errors[n]` for a shared one. */
  responses: Record<number, ResponseConfig>;
  /** Links from this operation's answers to others' parameters (Schemathesis follows them). */
  links?: Record<number, NonNullable<ResponseConfig["links"]>>;
}

export const SECURITY: Record<string, string[]>[] = [{ sessionCookie: [] }, { bearerToken: [] }];

export function json(description: string, schema: ZodTypeAny, extra: Omit<ResponseConfig, "description" | "content"> = {}): ResponseConfig {
  return { description, ...extra, content: { "application/json": { schema } } };
}

/** A list answer's headers: its next page (keyset paging, docs/decisions/0033) and its total (docs/decisions/0052). */
export const listPageHeaders = {
  Link: {
    description:
      'Present when more records follow this page (a `limit` was given): `<{path}?…&cursor={next}>; rel="next"`, the same request with the next page\'s opaque cursor in place of `offset`. A record created while a client pages never appears twice nor is skipped.',
    schema: { type: "string" as const, example: '</api/contacts?limit=50&cursor=by4xNzM1NzMyODAwMDAwLjY2NTBjMGZmZWUwMTIzNDU2Nzg5YWJjZA>; rel="next"' },
  },
  "X-Next-Cursor": {
    description: "The next page's cursor alone (the `cursor` of the `Link` header), present when more records follow this page.",
    schema: { type: "string" as const, example: "by4xNzM1NzMyODAwMDAwLjY2NTBjMGZmZWUwMTIzNDU2Nzg5YWJjZA" },
  },
  "X-Total-Count": {
    description: "How many records the list's filters match (`q`, `status`, `updatedSince`…), whatever the page: a sync's progress, a screen's total.",
    schema: { type: "integer" as const, minimum: 0, example: 1250 },
  },
};

/** A small list answered whole (docs/decisions/0056): its total, never a next page. */
export const wholeListHeaders = { "X-Total-Count": listPageHeaders["X-Total-Count"] };

/** One API area's routes on the shared registry. */
export class ApiArea {
  constructor(
    private readonly registry: OpenAPIRegistry,
    private readonly tag: string,
  ) {}

  /** A named schema in components (referenced from every operation that uses it). */
  schema<T extends ZodTypeAny>(name: string, schema: T): T {
    return this.registry.register(name, schema);
  }

  describe(op: Operation) {
    for (const schema of [op.body, op.query]) if (schema && !("raw" in schema)) annotateCents(schema);
    const responses: Record<string, ResponseConfig> = {};
    const add = (status: number, response: ResponseConfig) => {
      responses[String(status)] ??= response;
    };
    for (const [status, response] of Object.entries(op.responses)) {
      const links = op.links?.[Number(status)];
      responses[status] = links ? { ...response, links } : response;
    }
    const jsonBody = op.body !== undefined && !("raw" in op.body);
    // A malformed Idempotency-Key (or other described header) is a 400 too.
    if (jsonBody || op.query || op.headers) add(400, errors[400]);
    if (op.auth !== "none") {
      add(401, errors[401]);
      add(403, errors[403]);
    }
    if (op.params) add(404, errors[404]);
    if (jsonBody) {
      add(413, errors[413]);
      add(415, errors[415]);
    }
    add(503, errors[503]);
    // Any write may meet a full disk (docs/decisions/0038).
    if (op.method !== "get") add(507, errors[507]);
    const body =
      op.body === undefined
        ? undefined
        : "raw" in op.body
          ? op.body.raw
          : {
              // An empty body reads as `{}` (app/utils/http.server.ts): required only when `{}` is refused.
              required: !op.body.safeParse({}).success,
              content: { "application/json": { schema: op.body, ...(op.example !== undefined ? { example: op.example } : {}) } },
            };
    this.registry.registerPath({
      method: op.method,
      path: op.path,
      operationId: op.operationId,
      summary: op.summary,
      description: op.description,
      tags: [this.tag],
      security: op.auth === "none" ? [] : SECURITY,
      request: {
        ...(op.params ? { params: op.params } : {}),
        ...(op.query ? { query: op.query } : {}),
        ...(op.headers ? { headers: op.headers } : {}),
        ...(body ? { body } : {}),
      },
      responses,
    });
  }
}

export function newRegistry() {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "sessionCookie", {
    type: "apiKey",
    in: "cookie",
    name: "__session",
    description: "The session cookie set by `POST /api/admin/login` (browsers and scripts that sign in).",
  });
  registry.registerComponent("securitySchemes", "bearerToken", {
    type: "http",
    scheme: "bearer",
    description: "An API token from Settings → Security → Personal API tokens, or `POST /api/auth/tokens`: `Authorization: Bearer <token>`.",
  });
  return registry;
}

/**
 * What the generator cannot carry from a zod schema, stated beside it. The money fields
 * (app/schemas/number-fields.ts amountField) refine a number to whole cents: the number they refine is
 * marked `multipleOf: 0.01` (found by what the refinement refuses: 0.005, and accepts: 0.01); a percent
 * refined to 3 decimals likewise `multipleOf: 0.001`.
 */
function annotateCents(schema: ZodTypeAny, seen = new Set<ZodTypeAny>()) {
  if (seen.has(schema)) return;
  seen.add(schema);
  if (schema instanceof z.ZodEffects && schema._def.effect.type === "refinement") {
    const inner: ZodTypeAny = schema._def.schema;
    // Cents (0.01), or percent with at most 3 decimals (0.001, app/schemas/estimate-settings.ts).
    const step = [0.01, 0.001].find((n) => schema.safeParse(n).success && !schema.safeParse(n / 2).success);
    if (inner instanceof z.ZodNumber && step !== undefined) {
      const innerDef = inner._def;
      innerDef.openapi = { ...innerDef.openapi, metadata: { ...innerDef.openapi?.metadata, multipleOf: step } };
    }
  }
  // A form's checkbox (one schema for the screen and the API): JSON's booleans, and what a form posts.
  if (schema === checkbox) {
    // On the boolean inside the preprocess: the generator describes an effect by its inner schema.
    const inner = checkbox._def.schema._def;
    const meta = inner.openapi;
    inner.openapi = {
      ...meta,
      metadata: {
        ...meta?.metadata,
        // One type per branch: generated clients (openapi-python-client) refuse an enum of mixed types.
        type: undefined,
        anyOf: [{ type: "boolean" }, { type: "string", enum: ["on", "true", "false", ""] }],
        description: 'true or false; a form\'s "on" and "true" read as true, "false" and "" as false',
      },
    };
  }
  // A case-insensitive pattern (`/^[a-f0-9]{24}$/i`) loses its flag in JSON Schema: its ranges are doubled.
  if (schema instanceof z.ZodString) {
    const def = schema._def;
    const insensitive = def.checks.flatMap((c) => (c.kind === "regex" && c.regex.flags.includes("i") ? [c.regex] : []))[0];
    const meta = def.openapi;
    if (insensitive && meta?.metadata?.pattern === undefined) {
      const pattern = insensitive.source.replace(/([a-z])-([a-z])/g, (_m, a: string, b: string) => `${a}-${b}${a.toUpperCase()}-${b.toUpperCase()}`);
      def.openapi = { ...meta, metadata: { ...meta?.metadata, pattern } };
    }
  }
  const def: Record<string, unknown> = schema._def;
  for (const value of Object.values(def)) {
    if (value instanceof z.ZodType) annotateCents(value, seen);
    else if (Array.isArray(value)) for (const item of value) if (item instanceof z.ZodType) annotateCents(item, seen);
  }
  if (schema instanceof z.ZodObject) {
    const shape: z.ZodRawShape = schema.shape;
    for (const field of Object.values(shape)) annotateCents(field, seen);
  }
}
