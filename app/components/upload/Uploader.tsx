import { Box } from "#mantine/core/Box/Box";
import { useEffect, useRef } from "react";
import { signInAgain } from "../sign-in-again";
import { showToast } from "../toast";
import {
  CHUNK_SIZE,
  MAX_IMAGE_EDGE,
  MULTIPART_THRESHOLD,
  RETRY_DELAYS,
  UPLOAD_LIMITS,
  isRetryableStatus,
  partsInFlight,
  messages,
  type UploadPurposeName,
} from "~/schemas/upload-limits";
// Outside React's render (Uppy is built in an effect, after the page's messages are in place).
import { t } from "~/utils/i18n";
import { stringField } from "~/utils/unknown-values";

export const COMPANION_ENDPOINT = "/api/uploads";

export interface UploadedFile {
  id: string;
  url: string;
  name: string;
  size: number;
  type: string;
}

export interface UploaderProps {
  /** Which screen uploads: decides the restrictions here and the server's checks. */
  purpose: UploadPurposeName;
  /** Called once a batch finished, with the files that uploaded. */
  onComplete?: (files: UploadedFile[]) => void;
  height?: number;
  note?: string;
  /** Take uploaded files off the widget: the screen lists them itself (the wizard), so each shows once. */
  handOver?: boolean;
}

// Reason phrases of the retryable statuses (spec §9), for errors that carry only statusText.
const RETRYABLE_REASONS = new Set([
  "Request Timeout",
  "Conflict",
  "I'm a Teapot",
  "I'm a teapot",
  "Locked",
  "Too Many Requests",
  "Internal Server Error",
  "Bad Gateway",
  "Service Unavailable",
  "Gateway Timeout",
]);

interface ErrorLike {
  message?: string;
  request?: { status?: number };
  isNetworkError?: boolean;
  notRetryable?: boolean;
}

/** The reason phrase of a failed call to the app's upload endpoints (Uppy reports only that). */
const companionReason = (error: ErrorLike | undefined) =>
  /^Companion request failed: ?(.*)$/.exec(error?.message ?? "")?.[1] ?? null;

/** Spec §9: 408, 409, 429, 418, 423 and 5xx (not 501/505), plus a dropped connection. */
export function isRetryableError(error: ErrorLike | undefined) {
  if (!error || error.notRetryable) return false;
  const status = error.request?.status;
  if (typeof status === "number") return status === 0 || isRetryableStatus(status);
  if (error.isNetworkError) return true;
  const reason = companionReason(error);
  if (reason !== null) return reason === "" || RETRYABLE_REASONS.has(reason);
  return /network|failed to fetch|load failed/i.test(error.message ?? "");
}

const SERVER_FAILURE_REASONS = new Set([
  "",
  "Internal Server Error",
  "Not Implemented",
  "Bad Gateway",
  "Service Unavailable",
  "Gateway Timeout",
  "HTTP Version Not Supported",
]);

/**
 * The app could not hand out an upload URL (it failed or was out of reach), as opposed to refusing
 * the file, whose reason the widget shows itself: spec §8's 'Upload Error' toast.
 */
export function isUploadUrlFailure(error: ErrorLike | undefined) {
  const reason = companionReason(error);
  if (reason !== null) return SERVER_FAILURE_REASONS.has(reason);
  return /failed to fetch|load failed/i.test(error?.message ?? "") && !error?.request;
}

/** `/media/<id>` for what the upload's answer says (multipart: the location; form POST: the key). */
function mediaUrlOf(body: unknown, uploadURL?: string) {
  const location = stringField(body, "location") ?? uploadURL ?? "";
  const fromLocation = /\/media\/([0-9a-f]{24})/.exec(location);
  if (fromLocation) return { id: fromLocation[1], url: `/media/${fromLocation[1]}` };
  const fromKey = /uploads\/[0-9a-f]{24}\/([0-9a-f]{24})\//.exec(stringField(body, "key") ?? decodeURIComponent(location));
  return fromKey ? { id: fromKey[1], url: `/media/${fromKey[1]}` } : null;
}

/**
 * The one browser uploader (Uppy Dashboard + @uppy/aws-s3 against the app's Companion-style
 * endpoints + @uppy/compressor). Uppy is imported only here, in an effect: it never runs on the
 * server and is fetched only by screens that upload. Without JavaScript the screen's
 * `<UploadFallbackForm>` does the same job.
 */
export function Uploader({ purpose, onComplete, height = 360, note, handOver = false }: UploaderProps) {
  const target = useRef<HTMLDivElement>(null);
  const onCompleteRef = useRef(onComplete);
  useEffect(() => {
    onCompleteRef.current = onComplete;
  }, [onComplete]);

  useEffect(() => {
    let cancelled = false;
    let destroy = () => {};
    let lastPick = 0;
    const limit = UPLOAD_LIMITS[purpose];

    void (async () => {
      // One pre-bundled chunk (vendor/build-uppy.mjs explains why), fetched only by uploading screens.
      const [{ Uppy, Dashboard, AwsS3, Compressor, Url }, { uppyStrings }] = await Promise.all([import("./vendor/uppy.js"), import("./uppy-strings")]);
      if (cancelled || !target.current) return;

      // The metadata each file carries to the server: its screen, and when the user picked it.
      const uppy = new Uppy<{ purpose: string; pickedAt?: string }, Record<string, never>>({
        id: `uploader-${purpose}`,
        autoProceed: false,
        restrictions: {
          maxNumberOfFiles: limit.maxNumberOfFiles,
          allowedFileTypes: [...limit.allowedFileTypes],
          // Sizes are checked below: photos are downscaled before upload (Uppy issue 5100).
          maxFileSize: null,
        },
        meta: { purpose },
        onBeforeFileAdded: (file) => {
          const isImage = (file.type ?? "").startsWith("image/");
          // A photo may shrink below the limit once downscaled; it is checked again after that.
          const allowed = isImage ? limit.maxFileSize * 4 : limit.maxFileSize;
          if ((file.size ?? 0) > allowed) {
            uppy.info(t(messages.exceedsSize(file.name ?? "file", limit.maxFileSize)), "error", 5000);
            return false;
          }
          return true;
        },
      });

      uppy.use(Dashboard, {
        inline: true,
        target: target.current,
        height,
        width: "100%",
        proudlyDisplayPoweredByUppy: false,
        hideProgressAfterFinish: false,
        note: note ?? null,
        locale: { strings: uppyStrings(t) },
      });
      // A file from a link (the Dashboard's "Link" tab): the app fetches it, through the outbound rule and
      // the upload checks, and reports progress on a websocket (decision 0068). Companion's client wants an
      // absolute address: the socket's is made from it.
      uppy.use(Url, { companionUrl: `${window.location.origin}${COMPANION_ENDPOINT}`, locale: { strings: uppyStrings(t) } });
      uppy.use(Compressor, { maxWidth: MAX_IMAGE_EDGE, maxHeight: MAX_IMAGE_EDGE, quality: 0.8 });
      // After the compressor: the photo as it will be sent must fit the limit. One that does not (a
      // GIF is not recompressed; a photo that stayed large) leaves the upload with the spec's message
      // on screen, instead of a bare "0 of 0 files uploaded".
      // The names as the user chose them (the compressor renames a converted image: hail.gif → hail.png).
      const chosenNames = new Map<string, string>();
      uppy.on("file-added", (file) => {
        chosenNames.set(file.id, file.name ?? "file");
        // The order the user picked the files in: uploads run in parallel and may start in any order.
        lastPick = Math.max(lastPick + 1, Date.now());
        uppy.setFileMeta(file.id, { purpose, pickedAt: String(lastPick) });
      });
      uppy.addPreProcessor(async (fileIDs) => {
        const tooLarge = fileIDs.map((id) => uppy.getFile(id)).filter((file) => file && (file.size ?? 0) > limit.maxFileSize);
        if (tooLarge.length === 0) return;
        const message = tooLarge.map((file) => messages.exceedsSize(chosenNames.get(file.id) ?? file.name ?? "file", limit.maxFileSize)).join(" ");
        for (const file of tooLarge) uppy.removeFile(file.id);
        uppy.info(t(message), "error", 8000);
        showToast({ title: "Upload Error", message, color: "red" });
      });
      uppy.use(AwsS3, {
        companionEndpoint: COMPANION_ENDPOINT,
        shouldUseMultipart: (file) => (file.size ?? 0) > MULTIPART_THRESHOLD,
        getChunkSize: () => CHUNK_SIZE,
        partLimit: partsInFlight,
        allowedMetaFields: ["purpose", "pickedAt"],
      });

      // Spec retry delays around Uppy's own request retries: a failed file is retried from its
      // last stored part (the multipart upload id is kept), up to three more times.
      const attempts = new Map<string, number>();
      const timers = new Set<ReturnType<typeof setTimeout>>();
      const cancels = new Set<() => void>();
      uppy.on("upload-error", (file, error) => {
        if (!file) return;
        if (companionReason(error) === "Unauthorized") {
          // Spec §8: the session ended; say so and go and log in again.
          cancels.add(signInAgain());
          return;
        }
        const attempt = (attempts.get(file.id) ?? 0) + 1;
        if (!isRetryableError(error) || attempt >= RETRY_DELAYS.length) {
          if (isUploadUrlFailure(error)) {
            showToast({ title: "Upload Error", message: messages.uploadUrlFailed, color: "red" });
          }
          return;
        }
        attempts.set(file.id, attempt);
        const timer = setTimeout(() => {
          timers.delete(timer);
          // A single-file retry emits no 'complete': its result is reported here.
          if (uppy.getFile(file.id)) void uppy.retryUpload(file.id).then(finish, () => {});
        }, RETRY_DELAYS[attempt]);
        timers.add(timer);
      });

      const uploaded = new Map<string, UploadedFile>();
      function finish(result: { successful?: { id: string }[] } | undefined) {
        const files = (result?.successful ?? [])
          .map((f) => uploaded.get(f.id))
          .filter((f): f is UploadedFile => Boolean(f));
        if (files.length > 0) onCompleteRef.current?.(files);
        if (handOver) for (const f of result?.successful ?? []) if (uppy.getFile(f.id)) uppy.removeFile(f.id);
      }
      uppy.on("upload-success", (file, response) => {
        if (!file) return;
        attempts.delete(file.id);
        const media = mediaUrlOf(response.body, response.uploadURL);
        if (media) uploaded.set(file.id, { ...media, name: file.name ?? "file", size: file.size ?? 0, type: file.type ?? "" });
      });
      uppy.on("complete", finish);

      destroy = () => {
        for (const timer of timers) clearTimeout(timer);
        for (const cancel of cancels) cancel();
        uppy.destroy();
      };
      target.current.dataset.ready = "true";
    })();

    return () => {
      cancelled = true;
      destroy();
    };
  }, [purpose, height, note, handOver]);

  return <Box ref={target} data-testid={`uploader-${purpose}`} />;
}
