import type { LoaderFunctionArgs } from "@remix-run/node";
import { getActor } from "~/services/auth.server";
import { serveMedia, serveThumbnail } from "~/services/storage/serving.server";
import { api, uploadError } from "~/utils/http.server";

/**
 * `/media/{id}` serves an uploaded file to its owner or an admin (HTTP Range for video,
 * `Cache-Control: private`); `/media/{id}/thumb` a small EXIF-free JPEG of an image.
 */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const actor = await getActor(request);
  if (!actor) return uploadError(401, "Unauthorized");
  const [id, variant, ...rest] = (params["*"] ?? "").split("/");
  if (rest.length > 0 || (variant !== undefined && variant !== "thumb")) return uploadError(404, "Upload not found");
  return variant === "thumb" ? serveThumbnail(actor, id) : serveMedia(actor, id, request);
});
