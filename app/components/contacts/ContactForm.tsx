import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { Link } from "@remix-run/react";
import { useT } from "~/utils/i18n";
import { ValidatedForm } from "remix-validated-form";
import { contactValidator } from "~/components/form/validators";
import { CONTACT_LIMITS } from "~/schemas/contact-limits";
import type { ContactJson } from "~/services/contacts.server";
import { SubmitButton } from "../form/fields/SubmitButton";
import { TextareaField } from "../form/fields/TextareaField";
import { TextField } from "../form/fields/TextField";

export const CONTACT_FORM_ID = "contact-form";

/**
 * Add Contact, doubling as Edit Contact. Validated in the browser and again by the screen action
 * with the same schema; without JavaScript the server's messages come back on the fields.
 */
export function ContactForm({ contact, cancelTo }: { contact?: ContactJson | null; cancelTo: string }) {
  const t = useT();
  const defaults = contact
    ? {
        firstName: contact.firstName,
        lastName: contact.lastName,
        email: contact.email,
        phone: contact.phone ?? "",
        companyName: contact.companyName ?? "",
        address: contact.address ?? "",
        notes: contact.notes ?? "",
      }
    : undefined;
  return (
    <ValidatedForm
      key={contact?.id ?? "new"}
      id={CONTACT_FORM_ID}
      validator={contactValidator}
      defaultValues={defaults}
      method="post"
      noValidate
      preventScrollReset
    >
      <input type="hidden" name="intent" value={contact ? "update" : "create"} />
      {contact && <input type="hidden" name="id" value={contact.id} />}
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextField name="firstName" label={t("First Name")} required autoComplete="off" />
          <TextField name="lastName" label={t("Last Name")} required autoComplete="off" />
        </SimpleGrid>
        <TextField name="email" label={t("Email")} type="email" required autoComplete="off" />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextField name="phone" label={t("Phone")} type="tel" autoComplete="off" />
          <TextField name="companyName" label={t("Company")} autoComplete="off" />
        </SimpleGrid>
        <TextField name="address" label={t("Address")} autoComplete="off" />
        <TextareaField
          name="notes"
          label={t("Notes")}
          description={t("Up to {{notes}} characters", { notes: CONTACT_LIMITS.notes })}
          autosize
          minRows={3}
        />
        <Group justify="flex-end">
          <Button component={Link} to={cancelTo} preventScrollReset variant="default">
            {t("Cancel")}
          </Button>
          <SubmitButton formId={CONTACT_FORM_ID}>{contact ? t("Update Contact") : t("Create Contact")}</SubmitButton>
        </Group>
      </Stack>
    </ValidatedForm>
  );
}
