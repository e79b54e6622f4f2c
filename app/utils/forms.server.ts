import { json } from "@remix-run/node";
import { validationError, type Validator } from "remix-validated-form";
import { screenAnswer } from "./http.server";

/** For route actions: imported from here it stays out of the page's JavaScript (a .server module). */
export { validationError };

/**
 * A field name the validator's path parser refuses (`__proto__`, `constructor`, `prototype` as any
 * segment of `a[b].c`): it throws on them, which was a 500. No form of ours has such a field.
 */
export function hasForbiddenFieldName(form: FormData) {
  return [...form.keys()].some((name) => /(^|[.[\]])(__proto__|constructor|prototype)($|[.[\]])/.test(name));
}

/**
 * Runs a screen form: validates with the form's schema (the same one the API uses), then the
 * service call. Field errors come back on their fields; a service refusal (a typed error, or a
 * model's thrown 4xx JSON Response) becomes `{formError}`; both re-render with what was entered, with JavaScript or without.
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
    const failure = await screenAnswer(error);
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
