// Upload limits per screen (spec part 1 §5 and §9, part 2 training image) and the widget's
// message templates, shared by the browser uploader, the no-JS form and the server checks.

export const MEDIA_EXTENSIONS = [".jpg", ".jpeg", ".png", ".gif", ".mp4", ".mov"] as const;
export const IMAGE_EXTENSIONS = [".jpg", ".jpeg", ".png", ".gif"] as const;
export const MEDIA_MIME_TYPES = ["image/jpeg", "image/png", "image/gif", "video/mp4", "video/quicktime"] as const;
export const IMAGE_MIME_TYPES = ["image/jpeg", "image/png", "image/gif"] as const;

export interface UploadLimit {
  maxNumberOfFiles: number;
  maxFileSize: number;
  allowedFileTypes: readonly string[];
  mimeTypes: readonly string[];
}

export const UPLOAD_LIMITS = {
  /** Upload & Assess step 1: 20 files × 100 MB. */
  wizard: { maxNumberOfFiles: 20, maxFileSize: 104857600, allowedFileTypes: MEDIA_EXTENSIONS, mimeTypes: MEDIA_MIME_TYPES },
  /** Dashboard Upload Media modal: 10 files × 50 MB. */
  dashboard: { maxNumberOfFiles: 10, maxFileSize: 52428800, allowedFileTypes: MEDIA_EXTENSIONS, mimeTypes: MEDIA_MIME_TYPES },
  /** AI training image: 1 image × 10 MB (the generic uploader default). */
  training: { maxNumberOfFiles: 1, maxFileSize: 10485760, allowedFileTypes: IMAGE_EXTENSIONS, mimeTypes: IMAGE_MIME_TYPES },
  /** Settings → Profile, the account's logo on its estimates: 1 PNG or JPEG × 2 MB (what the PDF can embed). */
  logo: { maxNumberOfFiles: 1, maxFileSize: 2097152, allowedFileTypes: [".png", ".jpg", ".jpeg"], mimeTypes: ["image/png", "image/jpeg"] },
} as const satisfies Record<string, UploadLimit>;

export type UploadPurposeName = keyof typeof UPLOAD_LIMITS;

/**
 * The most pixels the server decodes from one picture (analysis, prints, features, quality): a larger
 * one is a decompression bomb, refused or left unjudged rather than decoded. One limit for every reader.
 */
export const MAX_DECODED_PIXELS = 50_000_000;

/** Multipart above 5 MiB, so a dropped connection costs at most one 5 MiB part. */
export const MULTIPART_THRESHOLD = 5 * 1024 * 1024;
export const CHUNK_SIZE = 5 * 1024 * 1024;
/**
 * Parts of one file in flight: one until a part shows a fast line (≥ 2 MiB/s), then four. On a slow
 * line parallel parts gain nothing and a dropped line would cost every part in flight.
 */
export const FAST_LINE_BYTES_PER_SECOND = 2 * 1024 * 1024;
export const partsInFlight = ({ bytesPerSecond }: { bytesPerSecond: number | undefined }) =>
  (bytesPerSecond ?? 0) >= FAST_LINE_BYTES_PER_SECOND ? 4 : 1;
/** Spec §9: part retry delays. */
export const RETRY_DELAYS = [0, 1000, 3000, 5000] as const;
/** Spec §9: 408, 409, 429, 418, 423 and 5xx except 501 and 505. */
export const isRetryableStatus = (status: number) =>
  [408, 409, 418, 423, 429].includes(status) || (status >= 500 && status <= 599 && status !== 501 && status !== 505);
/** Photos are downscaled in the browser to this long edge before upload. */
export const MAX_IMAGE_EDGE = 2560;

const UNITS = ["B", "KB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"];
/** Sizes as the upload widget shows them (1024-based, B to YB). */
export function formatBytes(input: number) {
  if (!Number.isFinite(input) || input <= 0) return "0 B";
  const exponent = Math.min(Math.floor(Math.log(input) / Math.log(1024)), UNITS.length - 1);
  const value = input / 1024 ** exponent;
  if (exponent >= 3) return value % 1 === 0 ? `${Math.round(value)} ${UNITS[exponent]}` : `${value.toFixed(2)} ${UNITS[exponent]}`;
  return `${value >= 10 || value % 1 === 0 ? Math.round(value) : value.toFixed(1)} ${UNITS[exponent]}`;
}

export const messages = {
  exceedsSize: (file: string, max: number) => `${file} exceeds maximum allowed size of ${formatBytes(max)}`,
  onlyTypes: (types: readonly string[]) => `You can only upload: ${types.join(", ")}`,
  maxFiles: (n: number) => `You can only upload ${n} file(s)`,
  uploaded: (n: number) => `${n} file(s) uploaded successfully`,
  failed: (file: string) => `Failed to upload ${file}`,
  cannotSign: "Cannot sign without a key, an uploadId, and a partNumber",
  requestExpired: "Request has expired",
  uploadUrlFailed: "Failed to generate upload URL",
  dashboardComplete: "Files uploaded successfully. You can now create an assessment.",
};
