import type { t as translate } from "~/utils/i18n";

/**
 * Uppy's own words on the Dashboard, from the catalogue (its %{…} placeholders kept). Loaded with
 * Uppy itself, so the upload screen's first JavaScript does not carry them.
 */
export function uppyStrings(t: typeof translate) {
  return {
    dropPasteFiles: t("Drop files here or %{browseFiles}"),
    // With the Link tab (a file from a link, decision 0068).
    dropPasteImportFiles: t("Drop files here, %{browseFiles} or import from:"),
    importFrom: t("Import from %{name}"),
    myDevice: t("My Device"),
    pluginNameUrl: t("Link"),
    import: t("Import"),
    enterUrlToImport: t("Enter URL to import a file"),
    failedToFetch: t("The file could not be fetched from this link; please check that it is correct"),
    enterCorrectUrl: t("Incorrect URL: Please make sure you are entering a direct link to a file"),
    browseFiles: t("browse files"),
    dropHint: t("Drop your files here"),
    addMore: t("Add more"),
    addMoreFiles: t("Add more files"),
    back: t("Back"),
    cancel: t("Cancel"),
    complete: t("Complete"),
    done: t("Done"),
    removeFile: t("Remove file"),
    uploadComplete: t("Upload complete"),
    uploadPaused: t("Upload paused"),
    uploading: t("Uploading"),
    dataUploadedOfTotal: t("%{complete} of %{total}"),
    xTimeLeft: t("%{time} left"),
    uploadXFiles: { 0: t("Upload %{smart_count} file"), 1: t("Upload %{smart_count} files") },
    xFilesSelected: { 0: t("%{smart_count} file selected"), 1: t("%{smart_count} files selected") },
    xMoreFilesAdded: { 0: t("%{smart_count} more file added"), 1: t("%{smart_count} more files added") },
    filesUploadedOfTotal: { 0: t("%{complete} of %{smart_count} file uploaded"), 1: t("%{complete} of %{smart_count} files uploaded") },
  };
}
