/**
 * Reading a value whose type the checker cannot know (a thrown error, parsed JSON, a driver's answer)
 * by looking, not by casting (issue 45 item 3): each function answers undefined for what is not there
 * or not of the type asked for.
 */

/** An object (an array too): its fields can be read, each `unknown`. */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/** `value[key]` when `value` is an object, else undefined. */
export const fieldOf = (value: unknown, key: string): unknown => (isRecord(value) ? value[key] : undefined);

/** `value[key]` when it is a number. */
export function numberField(value: unknown, key: string): number | undefined {
  const field = fieldOf(value, key);
  return typeof field === "number" ? field : undefined;
}

/** `value[key]` when it is text. */
export function stringField(value: unknown, key: string): string | undefined {
  const field = fieldOf(value, key);
  return typeof field === "string" ? field : undefined;
}

/** What a caught value says: an error's message, anything else as text. */
export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A caught value as an Error (a stream's `destroy` takes only that): itself, or an Error carrying its text. */
export const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));
