import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { openApiDocument } from "../app/openapi/document.server";

/**
 * The answers the API tests get are held to the OpenAPI description (issue 28 item 2): tests/accounts.ts's
 * client checks every /api answer with `checkAgainstDescription`, so the description cannot drift from
 * what the routes answer. An answer fails when its route and method are described but its status is
 * not, or its JSON body does not match the status's schema.
 */

interface Media {
  schema?: unknown;
}
interface Response {
  content?: Record<string, Media>;
}
interface OperationObject {
  operationId: string;
  responses: Record<string, Response>;
}
interface Doc {
  paths: Record<string, Record<string, OperationObject>>;
  components: unknown;
}

const doc = openApiDocument() as unknown as Doc;
// `example` and the like are annotations; formats are checked (date-time, email…).
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: "openapi.json", components: doc.components } as object);

/** Templated paths as patterns; literal segments win over parameters (`/preview` before `/{id}`). */
const patterns = Object.keys(doc.paths)
  .map((path) => ({
    path,
    params: (path.match(/\{/g) ?? []).length,
    regex: new RegExp(`^${path.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}$`),
  }))
  .sort((a, b) => a.params - b.params);

const validators = new Map<string, ValidateFunction>();

function validatorFor(key: string, schema: unknown) {
  let validate = validators.get(key);
  if (!validate) {
    // References point into the registered document's components.
    const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/'));
    validate = ajv.compile(rebased);
    validators.set(key, validate);
  }
  return validate;
}

/** The described operation of a request, if its path is described. */
export function describedOperation(method: string, url: string) {
  const pathname = new URL(url, "http://x").pathname;
  for (const { path, regex } of patterns) {
    if (!regex.test(pathname)) continue;
    const op = doc.paths[path][method.toLowerCase()];
    if (op) return { path, op };
  }
  return undefined;
}

/**
 * Problems of one answer against the description (empty when it matches, or when the request is not a
 * described operation: an undescribed method answered 405, a path that is no route).
 */
export function problemsWithAnswer(answer: { method: string; path: string; status: number; contentType: string | null; body: string }) {
  const found = describedOperation(answer.method, answer.path);
  if (!found) return [];
  const { path, op } = found;
  const label = `${answer.method} ${path} (${op.operationId}) answered ${answer.status}`;
  const response = op.responses[String(answer.status)] ?? op.responses[`${String(answer.status)[0]}XX`] ?? op.responses.default;
  if (!response) return [`${label}: the description lists only ${Object.keys(op.responses).join(", ")}`];
  const type = (answer.contentType ?? "").split(";")[0].trim().toLowerCase();
  const media = response.content?.[type];
  if (!response.content || answer.body === "") return [];
  if (!media) return [`${label} with Content-Type ${type || "(none)"}: the description gives ${Object.keys(response.content).join(", ")}`];
  if (type !== "application/json" || media.schema === undefined) return [];
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return [`${label}: the body is not JSON`];
  }
  const validate = validatorFor(`${op.operationId} ${answer.status}`, media.schema);
  if (validate(body)) return [];
  return [`${label}: the body does not match the description: ${ajv.errorsText(validate.errors, { separator: "; " })}\n${answer.body.slice(0, 500)}`];
}

/** Throws when an answer contradicts the description (see problemsWithAnswer). */
export function checkAgainstDescription(answer: Parameters<typeof problemsWithAnswer>[0]) {
  const problems = problemsWithAnswer(answer);
  if (problems.length > 0) throw new Error(`The answer contradicts the OpenAPI description (app/openapi):\n${problems.join("\n")}`);
}
