import { Conflict, type DomainError, Invalid, NotFound } from "~/utils/domain-errors";
import { StorageError } from "./types";

/**
 * Refusals of uploads: typed errors whose message the upload widget shows as the failed request's
 * reason ("Companion request failed: <reason>"), so the API answer carries it as the reason phrase.
 */

export const shown = { shownAsReason: true } as const;
export const notFound = () => new NotFound("Upload not found", shown);
export const refused = (message: string) => new Invalid(message, shown);
export const tooLargeUpload = (message: string) => new Invalid(message, { ...shown, kind: "tooLarge" });
export const unsupportedType = (message: string) => new Invalid(message, { ...shown, kind: "unsupportedType" });

/** The store's refusal (StorageError: 400, 404, 409 or 413) as the service's typed error. */
export function storageRefusal(status: number, message: string): DomainError {
  if (status === 404) return new NotFound(message, shown);
  if (status === 409) return new Conflict(message, shown);
  if (status === 413) return tooLargeUpload(message);
  return refused(message);
}

/** Runs a storage operation; StorageErrors become typed refusals, others propagate (500/503). */
export async function guard<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof StorageError) throw storageRefusal(error.status, error.message);
    throw error;
  }
}
