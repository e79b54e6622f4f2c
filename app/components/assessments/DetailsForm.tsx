import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { Link } from "@remix-run/react";
import { ValidatedForm } from "remix-validated-form";
import { assessmentCreateValidator } from "~/components/form/validators";
import type { AssessmentJson } from "~/services/assessments.server";
import { SelectField } from "../form/fields/SelectField";
import { SubmitButton } from "../form/fields/SubmitButton";
import { TextareaField } from "../form/fields/TextareaField";
import { TextField } from "../form/fields/TextField";
import { useT } from "~/utils/i18n";
import { VinDecode } from "./VinDecode";

export const DETAILS_FORM_ID = "assessment-details";

/** What the form shows of an assessment whose analysis is tried again. */
type DetailsDefaults = Pick<
  AssessmentJson,
  "id" | "title" | "vehicleYear" | "vehicleMake" | "vehicleModel" | "vin" | "contactId" | "vendorId" | "notes"
>;

/**
 * Step 2 of the wizard. The media URLs travel as hidden fields so the browser validates with the
 * same schema as the server (which still checks each one is the caller's upload). With `assessment`
 * set it is the form of an assessment whose analysis failed: submitting saves it and tries again.
 */
export function DetailsForm({
  mediaUrls,
  contacts,
  vendors,
  defaultVendorId,
  assessment,
}: {
  mediaUrls: string[];
  contacts: { id: string; firstName: string; lastName: string }[];
  vendors: { id: string; name: string }[];
  defaultVendorId?: string | null;
  assessment?: DetailsDefaults | null;
}) {
  const t = useT();
  const defaults = {
    title: assessment?.title ?? "",
    vehicleYear: assessment?.vehicleYear ?? undefined,
    vehicleMake: assessment?.vehicleMake ?? "",
    vehicleModel: assessment?.vehicleModel ?? "",
    vin: assessment?.vin ?? "",
    contactId: assessment?.contactId ?? "",
    vendorId: assessment ? (assessment.vendorId ?? "") : (defaultVendorId ?? ""),
    notes: assessment?.notes ?? "",
  };
  return (
    <ValidatedForm
      id={DETAILS_FORM_ID}
      validator={assessmentCreateValidator}
      defaultValues={defaults}
      method="post"
      noValidate
      data-testid="assessment-details-form"
    >
      <input type="hidden" name="intent" value={assessment ? "retry" : "create"} />
      {assessment && <input type="hidden" name="id" value={assessment.id} />}
      {mediaUrls.map((url, i) => (
        <input key={url} type="hidden" name={`mediaUrls[${i}]`} value={url} />
      ))}
      <Stack>
        <TextField name="title" label={t("Title")} required placeholder={t("e.g. Front bumper damage")} autoComplete="off" />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextField name="vehicleYear" label={t("Vehicle Year")} type="number" placeholder="2021" autoComplete="off" />
          <TextField name="vehicleMake" label={t("Make")} placeholder="Toyota" autoComplete="off" />
          <TextField name="vehicleModel" label={t("Model")} placeholder="Camry" autoComplete="off" />
        </SimpleGrid>
        <VinDecode>
          <TextField name="vin" label={t("VIN")} placeholder={t("17 characters")} autoComplete="off" />
        </VinDecode>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <SelectField
            name="contactId"
            label={t("Customer contact")}
            data={[
              { value: "", label: "No contact" },
              ...contacts.map((c) => ({ value: c.id, label: `${c.firstName} ${c.lastName}` })),
            ]}
          />
          <SelectField
            name="vendorId"
            label={t("Vendor for pricing")}
            data={[{ value: "", label: "No vendor" }, ...vendors.map((v) => ({ value: v.id, label: v.name }))]}
          />
        </SimpleGrid>
        <TextareaField name="notes" label={t("Notes")} autosize minRows={3} />
        <Group justify="space-between">
          <Button component={Link} to="/upload" variant="default">
            {t("Back to Upload")}
          </Button>
          {/* The label wraps on a phone instead of pushing the page sideways. */}
          <SubmitButton
            formId={DETAILS_FORM_ID}
            pendingLabel={t("Creating Assessment...")}
            maw="100%"
            h="auto"
            mih={36}
            py={6}
            styles={{ label: { whiteSpace: "normal", textAlign: "center" } }}
          >
            {t("Create Assessment & Start AI Analysis")}
          </SubmitButton>
        </Group>
      </Stack>
    </ValidatedForm>
  );
}
