import { UPLOAD_LIMITS, type UploadPurposeName } from "~/schemas/upload-limits";

/**
 * The uploader without JavaScript: a plain multipart form posted to `/upload`, whose action streams
 * each file into storage with the same limits and messages. Rendered inside `<noscript>`.
 */
export function UploadFallbackForm({
  purpose,
  redirectTo,
  submitLabel = "Upload",
}: {
  purpose: UploadPurposeName;
  redirectTo: string;
  submitLabel?: string;
}) {
  const limit = UPLOAD_LIMITS[purpose];
  const action = `/upload?${new URLSearchParams({ purpose, redirectTo })}`;
  return (
    <noscript>
      <form
        method="post"
        encType="multipart/form-data"
        action={action}
        data-testid={`upload-fallback-${purpose}`}
        style={{ display: "flex", gap: 12, alignItems: "center", flexWrap: "wrap", marginTop: 8 }}
      >
        <input
          type="file"
          name="files"
          multiple={limit.maxNumberOfFiles > 1}
          accept={limit.allowedFileTypes.join(",")}
          aria-label="Choose files"
          required
        />
        <button type="submit" className="mantine-focus-auto" style={{ padding: "6px 16px" }}>
          {submitLabel}
        </button>
      </form>
    </noscript>
  );
}
