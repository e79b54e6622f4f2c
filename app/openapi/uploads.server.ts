import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { PHOTO_ISSUES, UPLOAD_PURPOSES } from "~/schemas/uploads";
import { completeMultipartSchema, completeUploadSchema, createMultipartSchema, importUrlSchema, linkGetSchema, linkMetaSchema, uploadUrlSchema } from "~/schemas/uploads";
import { ApiArea, errors, isoDate, json, MessageBody, objectIdText, record, z } from "./registry.server";

const keyQuery = z.object({ key: z.string().min(1).openapi({ description: "The object key `POST s3/multipart` answered", example: "u/6650c0ffee0123456789abcd/1f3a-photo.jpg" }) });
const uploadIdParam = z.object({ uploadId: z.string().openapi({ example: "2~fG9xYQ" }) });
const fileRefused = {
  400: { ...errors[400], description: "Not a file this purpose takes (its name), or a malformed request" },
  413: { ...errors[413], description: "Larger than this purpose's limit" },
  415: { ...errors[415], description: "A type this purpose does not take" },
};

/** Uploads: single PUT/POST uploads, the Companion-compatible S3 multipart protocol (Uppy), the signed URLs. */
export function describeUploads(registry: OpenAPIRegistry) {
  const area = new ApiArea(registry, "Uploads");
  const Upload = area.schema(
    "Upload",
    record({
      id: objectIdText,
      url: z.string().openapi({ description: "The media URL (`/media/{id}`) assessments and training items take" }),
      name: z.string(),
      size: z.number().int(),
      type: z.string(),
      key: z.string(),
      state: z.string(),
      createdAt: isoDate,
      quality: z
        .array(z.enum(PHOTO_ISSUES))
        .optional()
        .openapi({ description: "A photo's issues found as it arrived (empty: none; absent: not judged, e.g. a video). A warning: the file is kept" }),
    }),
  );
  const Completed = Upload.extend({ location: z.string().openapi({ description: "The media URL, absolute" }) });
  // A purpose in the query is read leniently (anything else is `wizard`); in a JSON body it is checked.
  // Read leniently too: a value that is not a time within a day of the server's is ignored.
  const pickedAtParam = z.string().optional().openapi({ description: "When the user picked the file (ms since 1970): the wizard numbers its photos in this order", example: "1795843324211" });
  const purposeParam = z.string().optional().openapi({ description: `${UPLOAD_PURPOSES.join(", ")}; anything else means wizard`, example: "wizard" });

  area.describe({
    method: "get", path: "/api/objects", operationId: "listDraftUploads", auth: "user",
    summary: "The caller's uploads not yet used by an assessment", responses: { 200: json("The uploads", z.array(Upload)) },
  });
  area.describe({
    method: "delete", path: "/api/objects/{id}", operationId: "removeUpload", auth: "user",
    params: z.object({ id: z.string().openapi({ example: "6650c0ffee0123456789abcd" }) }),
    summary: "Remove one of the caller's uploads (object and record)", responses: { 200: json("Removed", MessageBody), 409: errors[409] },
  });
  area.describe({
    method: "post", path: "/api/objects/upload", operationId: "createUploadUrl", auth: "user",
    summary: "A URL to PUT one whole file to",
    description: "PUT the file to `uploadURL`; the PUT's answer (local storage) or `POST /api/objects/complete` (S3) gives the media URL.",
    query: z.object({ purpose: purposeParam }),
    body: uploadUrlSchema, example: { filename: "rear-bumper.jpg", type: "image/jpeg", purpose: "wizard" },
    responses: {
      200: json("Where to upload", record({ uploadURL: z.string(), url: z.string(), id: objectIdText, key: z.string() })),
      ...fileRefused,
    },
  });
  area.describe({
    method: "post", path: "/api/objects/complete", operationId: "completeUpload", auth: "user",
    summary: "Check a finished PUT upload (size, type) and record it",
    // The schema's refinement: one of the four names the upload.
    body: completeUploadSchema.openapi({
      anyOf: ["id", "key", "uploadURL", "url"].map((name) => ({ required: [name], properties: { [name]: { type: "string", minLength: 1 } } })),
    }), example: { key: "u/6650c0ffee0123456789abcd/1f3a-photo.jpg" },
    responses: { 200: json("The uploaded file", Upload), 404: { ...errors[404], description: "No such pending upload of the caller" }, 409: errors[409], 413: errors[413], 415: errors[415] },
  });

  area.describe({
    method: "post", path: "/api/uploads/import", operationId: "importFromUrl", auth: "user",
    summary: "Import a file from a link: the server fetches it and stores it as the caller's upload",
    description:
      "The server fetches `url` (http or https, at most 5 redirects) and stores the file with the checks of a direct upload: the purpose's size and type (by the file's first bytes), the wizard's 20 files, the photo check. " +
      "A link to a private, loopback or link-local address (also after a redirect or through its DNS name) is refused with 400, as is a link that cannot be fetched or answers other than 2xx.",
    body: importUrlSchema, example: { url: "https://photos.example.com/claims/4711/rear-bumper.jpg", purpose: "wizard" },
    responses: {
      201: json("The uploaded file", Upload),
      400: { ...errors[400], description: "Not a link this server fetches (form, private or local target, after redirects), the link could not be fetched or did not answer 2xx, or the wizard's list is full" },
      403: { ...errors[403], description: "Training images are the admins'" },
      413: { ...errors[413], description: "The file is larger than this purpose's limit" },
      415: { ...errors[415], description: "Not a type this purpose takes (by the answer's Content-Type, the name or the first bytes)" },
    },
  });

  const linkRefused = {
    400: { ...errors[400], description: "Not a link this server fetches (form, private or local target, after redirects), or it could not be fetched or did not answer 2xx" },
  };
  area.describe({
    method: "post", path: "/api/uploads/url/meta", operationId: "companionUrlMeta", auth: "user",
    summary: "Companion: what a link declares (the widget's URL source asks before adding the file)",
    body: linkMetaSchema, example: { url: "https://photos.example.com/claims/4711/rear-bumper.jpg" },
    responses: {
      200: json("The file's name, type and size (null: not declared)", record({ name: z.string(), type: z.string(), size: z.number().int().nullable() })),
      ...linkRefused,
      415: { ...errors[415], description: "The link answers with something that is not a photo or video (a web page)" },
    },
  });
  area.describe({
    method: "post", path: "/api/uploads/url/get", operationId: "companionUrlGet", auth: "user",
    summary: "Companion: import a link's file; follow it on the websocket `/api/uploads/api/{token}`",
    description:
      "Answers a token at once; the import runs on the server with the checks of `POST /api/uploads/import`. " +
      "The websocket `/api/uploads/api/{token}` sends `{action: \"progress\", payload: {progress, bytesUploaded, bytesTotal}}`, then " +
      "`{action: \"success\", payload: {url, response: {status, responseText}}}` (responseText: the upload's JSON) or `{action: \"error\", payload: {error: {message}}}`; it takes `{action: \"cancel\"}`.",
    body: linkGetSchema, example: { url: "https://photos.example.com/claims/4711/rear-bumper.jpg", fileId: "https://photos.example.com/claims/4711/rear-bumper.jpg", protocol: "s3-multipart", size: 812345, metadata: { purpose: "wizard" } },
    responses: { 200: json("The websocket's token", record({ token: z.string() })), 400: errors[400], 403: { ...errors[403], description: "Training images are the admins'" } },
  });

  const signedQuery = z.object({
    op: z.string().optional(),
    key: z.string().optional(),
    exp: z.string().optional(),
    sig: z.string().optional().openapi({ description: "HMAC over the other parameters: the URL's authorisation" }),
  });
  const signedRefused = {
    403: { ...errors[403], description: "The signature does not match or has expired" },
    404: { ...errors[404], description: "No such upload" },
  };
  area.describe({
    method: "get", path: "/api/objects/signed", operationId: "downloadSigned", auth: "none", query: signedQuery,
    summary: "A signed download URL's target",
    responses: {
      200: { description: "The file", content: { "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) } } },
      206: { description: "The requested range", content: { "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) } } },
      405: { ...errors[400], description: "The URL was signed for another operation" },
      409: errors[409],
      416: { description: "The range is outside the file" },
      ...signedRefused,
    },
  });
  const stored = {
    200: { ...json("Stored: the uploaded file", Completed), description: "Stored: the uploaded file (an empty body with an ETag for a multipart part)" },
    405: { ...errors[400], description: "The URL was signed for another operation" },
    409: { ...errors[409], description: "The upload is already complete" },
    413: errors[413],
    ...signedRefused,
  };
  area.describe({
    method: "put", path: "/api/objects/signed", operationId: "uploadSigned", auth: "none", query: signedQuery,
    summary: "A signed upload URL's target: the file (or one multipart part) as the body",
    body: { raw: { required: true, content: { "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) } } } },
    responses: stored,
  });
  area.describe({
    method: "post", path: "/api/objects/signed", operationId: "uploadSignedForm", auth: "none", query: signedQuery,
    summary: "A signed form upload's target (`s3/params`): the fields, then `file`",
    body: { raw: { required: true, content: { "multipart/form-data": { schema: z.object({ file: z.string().openapi({ format: "binary" }) }) } } } },
    responses: stored,
  });

  area.describe({
    method: "get", path: "/api/uploads/s3/params", operationId: "companionParams", auth: "user",
    summary: "Companion: a signed form POST for one small file",
    query: z.object({
      filename: z.string().min(1),
      type: z.string().optional(),
      "metadata[purpose]": purposeParam,
      "metadata[pickedAt]": pickedAtParam,
    }),
    responses: {
      200: json(
        "The form to POST (fields, then `file`)",
        record({ method: z.literal("POST"), url: z.string(), fields: z.record(z.string()), headers: z.record(z.string()), key: z.string(), expires: z.number() }),
      ),
      ...fileRefused,
    },
  });
  area.describe({
    method: "get", path: "/api/uploads/s3/sts", operationId: "companionSts", auth: "user",
    summary: "Companion: temporary credentials — not offered (the server signs every request)",
    responses: { 404: { ...errors[404], description: "Not offered: use s3/multipart and s3/params, which sign each request" } },
  });
  area.describe({
    method: "post", path: "/api/uploads/s3/multipart", operationId: "companionCreateMultipart", auth: "user",
    summary: "Companion: start a multipart upload", body: createMultipartSchema, example: { filename: "walkaround.mp4", type: "video/mp4", metadata: { purpose: "wizard", pickedAt: "1795843324211" } },
    responses: { 200: json("The upload's key and id", record({ key: z.string(), uploadId: z.string() })), ...fileRefused },
  });
  area.describe({
    method: "get", path: "/api/uploads/s3/multipart/{uploadId}", operationId: "companionListParts", auth: "user", params: uploadIdParam, query: keyQuery,
    summary: "Companion: the parts stored so far",
    responses: { 200: json("The parts", z.array(record({ PartNumber: z.number().int(), ETag: z.string(), Size: z.number().int() }))), 409: errors[409] },
  });
  area.describe({
    method: "delete", path: "/api/uploads/s3/multipart/{uploadId}", operationId: "companionAbort", auth: "user", params: uploadIdParam, query: keyQuery,
    summary: "Companion: abort the upload and drop its parts", responses: { 200: json("Aborted", z.object({})), 409: errors[409] },
  });
  area.describe({
    method: "get", path: "/api/uploads/s3/multipart/{uploadId}/batch", operationId: "companionSignParts", auth: "user", params: uploadIdParam,
    query: keyQuery.extend({
      partNumbers: z
        .string()
        .regex(/^(?:[1-9]\d{0,3}|10000)(?:,(?:[1-9]\d{0,3}|10000)){0,999}$/)
        .openapi({ description: "Comma-separated part numbers, 1 to 10000 (at most 1000)", example: "1,2,3" }),
    }),
    summary: "Companion: URLs for many parts",
    responses: { 200: json("One URL per part", record({ presignedUrls: z.record(z.string()) })), 413: { ...errors[413], description: "The parts would exceed the upload's size limit" } },
  });
  area.describe({
    method: "get", path: "/api/uploads/s3/multipart/{uploadId}/{partNumber}", operationId: "companionSignPart", auth: "user",
    params: uploadIdParam.extend({ partNumber: z.string().regex(/^(?:[1-9]\d{0,3}|10000)$/).openapi({ description: "1 to 10000", example: "1" }) }), query: keyQuery,
    summary: "Companion: a URL to PUT one part to",
    responses: { 200: json("The part's URL", record({ url: z.string(), expires: z.number() })), 413: { ...errors[413], description: "The part would exceed the upload's size limit" } },
  });
  area.describe({
    method: "post", path: "/api/uploads/s3/multipart/{uploadId}/complete", operationId: "companionComplete", auth: "user", params: uploadIdParam, query: keyQuery,
    summary: "Companion: complete the upload (size and type checked here)", body: completeMultipartSchema, example: { parts: [{ PartNumber: 1, ETag: "\"9b2cf535f27731c974343645a3985328\"" }] },
    responses: { 200: json("The uploaded file; `location` is its media URL", Completed), 409: errors[409], 413: errors[413], 415: errors[415] },
  });
}
