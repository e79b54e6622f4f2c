import { z } from "zod";

/** What an upload is for (the model stores it; the request schemas accept it). */
export const UPLOAD_PURPOSES = ["wizard", "dashboard", "training", "logo"] as const;
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];

/** What the quality check may find on a photo as it arrives (app/services/photo-quality.server.ts). */
export const PHOTO_ISSUES = ["blurred", "dark", "overexposed", "small"] as const;
export type PhotoIssue = (typeof PHOTO_ISSUES)[number];

const metadata = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional();

/** `POST /api/objects/upload` (all optional: the spec's client sends no body). */
export const uploadUrlSchema = z
  .object({
    filename: z.string().max(1000).optional(),
    name: z.string().max(1000).optional(),
    type: z.string().max(200).optional(),
    contentType: z.string().max(200).optional(),
    purpose: z.enum(UPLOAD_PURPOSES).optional(),
  })
  .strip();

/** `POST s3/multipart` as Companion takes it. */
export const createMultipartSchema = z.object({
  filename: z.string({ required_error: "s3: filename must be a string", invalid_type_error: "s3: filename must be a string" }).min(1).max(1000),
  type: z.string({ invalid_type_error: "s3: content type must be a string" }).max(200).optional(),
  metadata,
});

export const completeMultipartSchema = z.object({
  parts: z
    .array(
      z.object({
        PartNumber: z.coerce.number().int().min(1).max(10000),
        ETag: z.string().min(1).max(200),
      }),
      { required_error: "s3: parts must be an array of {ETag, PartNumber}", invalid_type_error: "s3: parts must be an array of {ETag, PartNumber}" },
    )
    .min(1, "s3: parts must be an array of {ETag, PartNumber}")
    .max(10000),
});

export const completeUploadSchema = z
  .object({
    id: z.string().max(100).optional(),
    key: z.string().max(2000).optional(),
    uploadURL: z.string().max(4000).optional(),
    url: z.string().max(4000).optional(),
  })
  .refine((v) => v.id || v.key || v.uploadURL || v.url, { message: "key or uploadURL is required" });

/** What a link import may be for: the screens with an uploader (the logo has its own form). */
export const IMPORT_PURPOSES = ["wizard", "dashboard", "training"] as const;

/** `POST /api/uploads/import` and the wizard's "Add from a link" field: one file fetched by the server. */
export const importUrlSchema = z.object({
  url: z
    .string({ required_error: "Enter a link to a photo or video", invalid_type_error: "The link must be a string" })
    .trim()
    .min(1, "Enter a link to a photo or video")
    .max(4000, "The link is too long (at most 4000 characters)"),
  purpose: z.enum(IMPORT_PURPOSES).optional(),
  /** When the user added the link (ms since 1970), as the widget's pickedAt. */
  pickedAt: z.union([z.number(), z.string().max(20)]).optional(),
});

/** The Companion protocol's `POST url/meta` (the widget's URL source): the link only. */
export const linkMetaSchema = z.object({ url: importUrlSchema.shape.url });

/** The Companion protocol's `POST url/get`: the link, and the file's metadata (its screen, when it was picked). */
export const linkGetSchema = z.object({
  url: importUrlSchema.shape.url,
  fileId: z.string().max(4000).optional(),
  protocol: z.string().max(50).optional(),
  size: z.number().nullable().optional(),
  metadata,
});
