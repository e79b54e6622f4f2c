import { photo } from "../tests/media-files";
import { uploadPhotos } from "./assessment-walk";
import { expect, test } from "./fixtures";

// Issue 39 item 4: a VIN typed in the wizard fills the empty year, make and model from the vPIC data
// kept on the server, says when the check digit fails and when the typed make disagrees. With
// JavaScript as it is typed; without, when the form is sent (in one step: nothing asks twice).

const TYPO = "1hgcm82633a004353"; // a 2003 Honda Accord's VIN with its last digit mistyped
const BOTH =
  "This VIN's check digit (its 9th character) does not match the others, and the VIN decodes as 2003 Honda Accord, not the make or model entered.";

test("a VIN fills the empty vehicle fields, keeps the typed make, and warns about the check digit and the make", async ({ page, loginAs, javaScriptEnabled }) => {
  test.setTimeout(240_000);
  await loginAs("dealer");
  await uploadPhotos(page, "", [{ name: "side.png", mimeType: "image/png", buffer: await photo(200, 150, 4) }]);
  await page.getByRole("button", { name: "Continue to Assessment Details" }).click();
  const details = page.getByTestId("upload-details-step");
  await details.getByLabel("Title").fill("Door dent");
  await details.getByLabel("Make").fill("Toyota");
  await details.getByLabel("VIN").fill(TYPO);

  if (javaScriptEnabled) {
    const decode = details.getByTestId("vin-decode");
    await expect(decode).toContainText("The VIN decodes as 2003 Honda Accord", { timeout: 90_000 });
    await expect(details.getByLabel("Vehicle Year")).toHaveValue("2003");
    await expect(details.getByLabel("Model")).toHaveValue("Accord");
    // What the user typed stays until they choose the VIN's.
    await expect(details.getByLabel("Make")).toHaveValue("Toyota");
    await expect(details.getByTestId("vin-warning")).toHaveText(BOTH);
    await decode.getByRole("button", { name: "Use the VIN's vehicle" }).click();
    await expect(details.getByLabel("Make")).toHaveValue("Honda");
    await expect(details.getByTestId("vin-warning")).toHaveText(/^This VIN's check digit .* may not use a check digit\.$/);
    await details.getByLabel("Make").fill("Toyota");
  }

  // A person types for a while: by the submit the decoder, started by the details step, has opened its
  // data (a submit before that saves the form as typed: vin.server.test.ts).
  if (!javaScriptEnabled) {
    await expect.poll(async () => (await page.request.get(`/api/vin/${TYPO}`)).status(), { timeout: 90_000 }).toBe(200);
  }
  // Sent as typed (Make: Toyota): created at once, the empty fields filled, the warning shown next.
  await details.getByRole("button", { name: "Create Assessment & Start AI Analysis" }).click();
  await expect(page).toHaveURL(/\/upload\?assessment=[0-9a-f]{24}$/, { timeout: 90_000 });
  await expect(page.getByText(BOTH).first()).toBeVisible();
  const id = new URL(page.url()).searchParams.get("assessment");
  const saved = await (await page.request.get(`/api/assessments/${id}`)).json();
  expect(saved).toMatchObject({ vin: TYPO.toUpperCase(), vehicleYear: 2003, vehicleMake: "Toyota", vehicleModel: "Accord" });
});

test("the session ends while the VIN is typed: the spec's toast, the sign-in, and the form back as it was typed", async ({ page, loginAs, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "the VIN is checked as it is typed only with JavaScript; without, the form's post keeps what was typed (accounts.spec.ts)");
  test.setTimeout(120_000);
  const dealer = await loginAs("dealer");
  await uploadPhotos(page, "", [{ name: "side.png", mimeType: "image/png", buffer: await photo(200, 150, 4) }]);
  await page.getByRole("button", { name: "Continue to Assessment Details" }).click();
  const details = page.getByTestId("upload-details-step");
  await expect(details.getByLabel("VIN")).toBeVisible();
  await page.context().clearCookies();
  await details.getByLabel("Title").fill("Typed before the check");
  await details.getByLabel("VIN").fill(TYPO);
  await expect(page.getByText("You are logged out. Logging in again...").first()).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel("Username").fill(dealer.username);
  await page.locator('input[name="password"]').fill(dealer.password);
  await page.getByRole("button", { name: /^Sign in/ }).click();
  await expect(page.getByText("Typed work restored").first()).toBeVisible();
  await expect(details.getByLabel("Title")).toHaveValue("Typed before the check");
  await expect(details.getByLabel("VIN")).toHaveValue(TYPO);
});
