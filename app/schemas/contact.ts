import { withZod } from "@remix-validated-form/with-zod";
import { z } from "zod";
import { optionalString, requiredString } from "./text-fields";
import { CONTACT_LIMITS } from "./contact-limits";

export { CONTACT_LIMITS };

const INVALID_EMAIL = "Invalid email address";

/**
 * A contact as the Add/Edit Contact form and `POST`/`PUT /api/contacts` send it. One schema for the
 * screen action, the browser-side validation and the API. Email is required: the spec lists it as
 * "email valid" without "optional" (unlike phone, company, address and notes), and estimates are
 * emailed to the contact; a missing or blank email reads 'Invalid email address'.
 * Unknown fields (ownerId, timestamps, id…) are dropped.
 */
export const contactSchema = z.object({
  firstName: requiredString("First name", "First name is required", CONTACT_LIMITS.name),
  lastName: requiredString("Last name", "Last name is required", CONTACT_LIMITS.name),
  email: z
    .string({ required_error: INVALID_EMAIL, invalid_type_error: INVALID_EMAIL })
    .max(CONTACT_LIMITS.email, `Email must be at most ${CONTACT_LIMITS.email} characters`)
    .trim()
    .email(INVALID_EMAIL),
  phone: optionalString("Phone", CONTACT_LIMITS.phone),
  companyName: optionalString("Company name", CONTACT_LIMITS.companyName),
  address: optionalString("Address", CONTACT_LIMITS.address),
  notes: optionalString("Notes", CONTACT_LIMITS.notes),
});

export type ContactInput = z.infer<typeof contactSchema>;

/** The same schema as a remix-validated-form validator (browser and screen action). */
export const contactValidator = withZod(contactSchema);
