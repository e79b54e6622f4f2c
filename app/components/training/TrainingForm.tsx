import { Button } from "#mantine/components/Button/Button";
import { Group } from "#mantine/components/Group/Group";
import { Image } from "#mantine/components/Image/Image";
import { SimpleGrid } from "#mantine/components/SimpleGrid/SimpleGrid";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { useMounted } from "@mantine/hooks";
import { Link } from "@remix-run/react";
import { useCallback, useState } from "react";
import { useField, ValidatedForm } from "remix-validated-form";
import { trainingItemValidator } from "~/components/form/validators";
import type { TrainingItemInput } from "~/schemas/training";
import type { TrainingItemJson } from "~/services/training.server";
import { CheckboxField } from "../form/fields/CheckboxField";
import { SelectField } from "../form/fields/SelectField";
import { SubmitButton } from "../form/fields/SubmitButton";
import { TextareaField } from "../form/fields/TextareaField";
import { TextField } from "../form/fields/TextField";
import { showToast } from "../toast";
import { UPLOAD_LIMITS } from "~/schemas/upload-limits";
import { Uploader, type UploadedFile } from "../upload/Uploader";
import { DAMAGE_TYPE_OPTIONS, LOCATION_OPTIONS, SEVERITY_OPTIONS } from "./labels";
import { useT } from "~/utils/i18n";

export const TRAINING_FORM_ID = "training-form";

/**
 * The image: with JavaScript, the uploader (1 image, 10 MB) whose result fills `imageUrl`; without,
 * a file input posted with the form (the action stores it under the same limits).
 */
function ImageField({ imageUrl, onUploaded }: { imageUrl: string; onUploaded: (url: string) => void }) {
  const t = useT();
  const { error } = useField("imageUrl");
  const limit = UPLOAD_LIMITS.training;
  const onComplete = useCallback(
    (files: UploadedFile[]) => {
      if (!files[0]) return;
      onUploaded(files[0].url);
      showToast({ title: "Success", message: "Image uploaded successfully" });
    },
    [onUploaded],
  );
  const mounted = useMounted();
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {t("Image")} <span aria-hidden="true">*</span>
      </Text>
      <input type="hidden" name="imageUrl" value={imageUrl} />
      {imageUrl && <Image src={`${imageUrl}/thumb`} alt={t("Training image")} h={120} w="auto" fit="contain" radius="sm" />}
      {mounted && <Uploader purpose="training" onComplete={onComplete} height={220} />}
      <noscript>
        <input
          type="file"
          name="image"
          accept={limit.allowedFileTypes.join(",")}
          aria-label="Training image"
        />
      </noscript>
      <Text size="xs" c="dimmed">
        {t("One image, up to 10 MB.")}
      </Text>
      {error && (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}

/** Add Training Data, doubling as Edit Training Data. Submit waits for the image (JavaScript on). */
export function TrainingForm({ item, cancelTo }: { item?: TrainingItemJson | null; cancelTo: string }) {
  const t = useT();
  const [imageUrl, setImageUrl] = useState(item?.imageUrl ?? "");
  const mounted = useMounted();
  const text = (v: number | null | undefined) => (v === null || v === undefined ? "" : String(v));
  const defaults = item
    ? {
        damageType: item.damageType,
        severity: item.severity,
        description: item.description,
        estimatedCost: text(item.estimatedCost),
        laborHours: text(item.laborHours),
        partsCost: text(item.partsCost),
        vehicleMake: item.vehicleMake ?? "",
        vehicleModel: item.vehicleModel ?? "",
        vehicleYear: text(item.vehicleYear),
        location: item.location ?? "",
        tags: item.tags.join(", "),
        notes: item.notes ?? "",
        paintWork: item.paintWork,
      }
    : { damageType: "scratch", severity: "minor" };
  return (
    <ValidatedForm<TrainingItemInput | typeof defaults, undefined>
      key={item?.id ?? "new"}
      id={TRAINING_FORM_ID}
      validator={trainingItemValidator}
      defaultValues={defaults}
      method="post"
      encType="multipart/form-data"
      noValidate
      preventScrollReset
    >
      <input type="hidden" name="intent" value={item ? "update" : "create"} />
      {item && <input type="hidden" name="id" value={item.id} />}
      <Stack>
        <ImageField imageUrl={imageUrl} onUploaded={setImageUrl} />
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <SelectField name="damageType" label={t("Damage Type")} data={DAMAGE_TYPE_OPTIONS} required />
          <SelectField name="severity" label={t("Severity")} data={SEVERITY_OPTIONS} required />
        </SimpleGrid>
        <TextareaField name="description" label={t("Description")} required autosize minRows={2} />
        <SimpleGrid cols={{ base: 1, xs: 3 }}>
          <TextField name="estimatedCost" label={t("Estimated Cost (USD)")} type="number" step="0.01" required />
          <TextField name="laborHours" label={t("Labor Hours")} type="number" step="0.1" />
          <TextField name="partsCost" label={t("Parts Cost (USD)")} type="number" step="0.01" />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, xs: 3 }}>
          <TextField name="vehicleMake" label={t("Vehicle Make")} />
          <TextField name="vehicleModel" label={t("Vehicle Model")} />
          <TextField name="vehicleYear" label={t("Vehicle Year")} type="number" />
        </SimpleGrid>
        <SelectField name="location" label={t("Location")} data={[{ value: "", label: "Not set" }, ...LOCATION_OPTIONS]} />
        <TextField name="tags" label={t("Tags")} description={t("Comma-separated")} />
        <TextareaField name="notes" label={t("Notes")} autosize minRows={2} />
        <CheckboxField name="paintWork" label={t("Paint work")} />
        <Group justify="flex-end">
          <Button component={Link} to={cancelTo} preventScrollReset variant="default">
            {t("Cancel")}
          </Button>
          {/* Disabled only once JavaScript runs: without it the image comes with the post. */}
          <SubmitButton formId={TRAINING_FORM_ID} disabled={mounted && !imageUrl}>
            {item ? t("Update Training Data") : t("Add Training Data")}
          </SubmitButton>
        </Group>
      </Stack>
    </ValidatedForm>
  );
}
