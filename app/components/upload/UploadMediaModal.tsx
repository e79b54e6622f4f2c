import { Button } from "#mantine/components/Button/Button";
import { Stack } from "#mantine/components/Stack/Stack";
import { Text } from "#mantine/components/Text/Text";
import { Link, useNavigate, useRevalidator, useSearchParams } from "@remix-run/react";
import { useCallback } from "react";
import { DialogRoute } from "../DialogRoute";
import { showToast } from "../toast";
import { UploadFallbackForm } from "./UploadFallbackForm";
import { Uploader } from "./Uploader";
import { UPLOAD_LIMITS, messages } from "~/schemas/upload-limits";
import { useT } from "~/utils/i18n";

export { uploaderLinks } from "./Uploader";

/**
 * The dashboard's Upload Media quick action: a button that opens an upload dialog. The dialog is
 * addressable (`?upload=1`), so without JavaScript the link opens it server-rendered with the
 * plain form inside; with JavaScript it holds the Uppy uploader (10 files × 50 MB).
 */
export function UploadMediaModal({ children, fullWidth }: { children?: React.ReactNode; fullWidth?: boolean }) {
  const t = useT();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const opened = params.get("upload") === "1";
  const next = new URLSearchParams(params);
  next.delete("upload");
  const closeTo = next.toString() ? `?${next.toString()}` : ".";
  const close = useCallback(() => {
    navigate(closeTo, { preventScrollReset: true, replace: true });
  }, [navigate, closeTo]);
  const onComplete = useCallback(() => {
    showToast({ title: "Upload Complete", message: messages.dashboardComplete });
    revalidator.revalidate();
    close();
  }, [close, revalidator]);
  const openParams = new URLSearchParams(params);
  openParams.set("upload", "1");
  const limit = UPLOAD_LIMITS.dashboard;

  return (
    <>
      <Button
        component={Link}
        to={`?${openParams}`}
        preventScrollReset
        variant="light"
        fullWidth={fullWidth}
        data-testid="quick-upload-media"
      >
        {children ?? t("Upload Media")}
      </Button>
      {opened && (
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
      )}
    </>
  );
}
