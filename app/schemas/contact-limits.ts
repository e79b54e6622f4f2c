/** Field lengths of a contact, shared by the schema and the form's inputs (zod-free, so the form can import it without zod). */
export const CONTACT_LIMITS = {
  name: 100,
  email: 254,
  phone: 40,
  companyName: 100,
  address: 500,
  notes: 5000,
} as const;
