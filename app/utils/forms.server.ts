import { json } from "@remix-run/node";
import { validationError, type Validator } from "remix-validated-form";

/** For route actions: imported from here it stays out of the page's JavaScript (a .server module). */
export { validationError };

/**
 * A field name the validator's path parser refuses (`__proto__`, `constructor`, `prototype` as any
 * segment of `a[b].c`): it throws on them, which was a 500. No form of ours has such a field.
 */
export function hasForbiddenFieldName(form: FormData) {
  return [...form.keys()].some((name) => /(^|[.[\]])(__proto__|constructor|prototype)($|[.[\]])/.test(name));
}

export interface FormFailure {
  formError: string;
  status: number;
}

/**
 * Runs a screen form: validates with the form's schema (the same one the API uses), then the
 * service call. Field errors come back on their fields; a service refusal (a thrown 4xx JSON
 * Response) becomes `{formError}`; both re-render with what was entered, with JavaScript or without.
 */
export async function handleForm<T>(
  request: Request,
  validator: Validator<T>,
  run: (data: T, formData: FormData) => Promise<Response>,
  formData?: FormData,
) {
  const form = formData ?? (await request.formData());
  if (hasForbiddenFieldName(form)) return json({ formError: "The form has a field this page does not take" }, { status: 400 });
  const result = await validator.validate(form);
  if (result.error) return validationError(result.error, result.submittedData);
  try {
    return await run(result.data, form);
  } catch (error) {
    const failure = await asFormFailure(error);
    if (!failure) throw error;
    if (failure.fieldErrors) {
      return validationError(
        { fieldErrors: failure.fieldErrors, formId: result.formId },
        result.submittedData,
        { status: failure.status },
      );
    }
    return json(
      { formError: failure.message, formId: result.formId },
      // A throttled screen tells the browser when to try again, as the API does.
      { status: failure.status, headers: failure.retryAfter ? { "Retry-After": failure.retryAfter } : undefined },
    );
  }
}

/** A thrown 4xx JSON Response from a service, read as a message (and field errors if any). */
export async function asFormFailure(error: unknown) {
  if (!(error instanceof Response) || error.status < 400 || error.status >= 500) return null;
  if (!error.headers.get("Content-Type")?.includes("json")) return null;
  const body = (await error.json()) as { message?: string; errors?: Record<string, string> };
  const fieldErrors = body.errors && !("_" in body.errors) ? body.errors : undefined;
  const retryAfter = error.headers.get("Retry-After") ?? undefined;
  return { status: error.status, message: body.message ?? "Request failed", fieldErrors, retryAfter };
}
