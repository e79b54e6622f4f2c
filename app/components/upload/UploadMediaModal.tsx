import { Button } from "#mantine/components/Button/Button";
import { Link, useSearchParams } from "@remix-run/react";
import { lazyComponent } from "../lazy-component";
import { useT } from "~/utils/i18n";

// The dialog and its uploader load when it opens: most visits to the dashboard open none.
const UploadMediaDialog = lazyComponent("upload/UploadMediaDialog", () => import("./UploadMediaDialog").then((m) => m.UploadMediaDialog));

/**
 * The dashboard's Upload Media quick action: a button that opens an upload dialog. The dialog is
 * addressable (`?upload=1`), so without JavaScript the link opens it server-rendered with the
 * plain form inside; with JavaScript it holds the Uppy uploader (10 files × 50 MB).
 */
export function UploadMediaModal({ children, fullWidth }: { children?: React.ReactNode; fullWidth?: boolean }) {
  const t = useT();
  const [params] = useSearchParams();
  const opened = params.get("upload") === "1";
  const next = new URLSearchParams(params);
  next.delete("upload");
  const closeTo = next.toString() ? `?${next.toString()}` : ".";
  const openParams = new URLSearchParams(params);
  openParams.set("upload", "1");

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
      {opened && <UploadMediaDialog closeTo={closeTo} />}
    </>
  );
}
