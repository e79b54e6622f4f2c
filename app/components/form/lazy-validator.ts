import type { Validator } from "remix-validated-form";

/**
 * A form's client validator that loads its zod schema (and zod) when the form is first validated
 * (its first submit), not with the page: most page loads submit nothing, and zod is ~20 KB gzip.
 * The server validates every submission with the same schema either way.
 */
export function lazyValidator<T>(load: () => Promise<Validator<T>>): Validator<T> {
  let loaded: Promise<Validator<T>> | undefined;
  const get = () => (loaded ??= load());
  return {
    validate: async (data) => (await get()).validate(data),
    validateField: async (data, field) => {
      const validator = await get();
      return validator.validateField ? validator.validateField(data, field) : { error: undefined };
    },
  };
}
