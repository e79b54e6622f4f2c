import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { useNavigate, useRevalidator } from "@remix-run/react";
import { useCallback } from "react";
import { DialogRoute } from "../DialogRoute";
import { showToast } from "../toast";
import { UploadFallbackForm } from "./UploadFallbackForm";
import { Uploader } from "./Uploader";
import { UPLOAD_LIMITS, messages } from "~/schemas/upload-limits";
import { useT } from "~/utils/i18n";

/**
 * The dashboard's upload dialog (`?upload=1`, see UploadMediaModal): the Uppy uploader with
 * JavaScript, the plain form without. `closeTo` is the dashboard's URL without the dialog.
 */
export function UploadMediaDialog({ closeTo }: { closeTo: string }) {
  const t = useT();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const close = useCallback(() => {
    navigate(closeTo, { preventScrollReset: true, replace: true });
  }, [navigate, closeTo]);
  const onComplete = useCallback(() => {
    showToast({ title: "Upload Complete", message: messages.dashboardComplete });
    revalidator.revalidate();
    close();
  }, [close, revalidator]);
  const limit = UPLOAD_LIMITS.dashboard;

  return (
    <DialogRoute
      closeTo={closeTo}
      onClose={close}
      title={t("Upload Media")}
      size="xl"
      // Rendered in place so it is also there server-side (no JavaScript); pinned to the viewport.
      withinPortal={false}
      styles={{ inner: { left: 0 } }}
      data-testid="upload-media-modal"
    >
      <Stack>
        <Text size="sm" c="dimmed">
          {t("Upload images or videos of a damaged vehicle: JPG, PNG, GIF, MP4 or MOV, max 50MB per file, up to")}{" "}
          {limit.maxNumberOfFiles} {t("files.")}
        </Text>
        <Uploader purpose="dashboard" onComplete={onComplete} height={320} />
        <UploadFallbackForm purpose="dashboard" redirectTo="/" />
        <noscript>
          <a href="/">{t("Close")}</a>
        </noscript>
      </Stack>
    </DialogRoute>
  );
}
