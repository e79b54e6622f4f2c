// What every field module shares. The fields are one module each: a page's JavaScript then holds
// only the Mantine inputs its forms use (esbuild splits code by module, not by export).

/**
 * Fields are checked when the form is submitted, then on every change. Not on blur before that: a
 * message appearing under the field just left moves the submit button away from the click that
 * caused the blur, and the click is lost (the user presses Submit and nothing happens).
 */
export const VALIDATION = { validationBehavior: { initial: "onSubmit", whenTouched: "onSubmit", whenSubmitted: "onChange" } } as const;

export interface FieldBase {
  name: string;
  /** The input's id when the name is not unique on the page (two forms asking for the same field). */
  id?: string;
  label: string;
  description?: string;
  required?: boolean;
  placeholder?: string;
  autoComplete?: string;
}

/**
 * A field the server answered with an error takes focus when the page loads (the first one in the
 * page wins), so without JavaScript too the user lands on it and hears its label, "invalid" and the
 * message (aria-describedby). With JavaScript remix-validated-form moves focus itself.
 */
export const focusIfInvalid = (error: string | undefined) => (error ? { autoFocus: true } : {});
