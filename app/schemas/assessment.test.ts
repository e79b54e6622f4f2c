import { describe, expect, it } from "vitest";
import { fieldErrors } from "~/utils/http.server";
import {
  assessmentCreateSchema,
  assessmentListQuerySchema,
  assessmentUpdateSchema,
  SEVERITY_COLOR,
  STATUS_COLOR,
} from "./assessment";

const media = (n: number) => Array.from({ length: n }, (_, i) => `/media/${String(i).padStart(24, "0")}`);
const valid = { title: "Front bumper", mediaUrls: media(1) };

function errorsOf(input: unknown, schema: typeof assessmentCreateSchema | typeof assessmentUpdateSchema = assessmentCreateSchema) {
  const result = schema.safeParse(input);
  if (result.success) throw new Error("expected a validation error");
  return fieldErrors(result.error);
}

describe("assessmentCreateSchema", () => {
  it("accepts a title and one file, the optional fields absent", () => {
    expect(assessmentCreateSchema.parse(valid)).toEqual(valid);
  });

  it("trims and keeps every field, drops unknown ones (status, ownerId, costs)", () => {
    const parsed = assessmentCreateSchema.parse({
      title: "  Rear dent ",
      vehicleYear: 2019,
      vehicleMake: " Toyota ",
      vehicleModel: " Camry ",
      vin: " 1hgcm82633a004352 ",
      contactId: "0123456789ABCDEF01234567",
      notes: " Parked overnight ",
      vendorId: "0123456789abcdef01234568",
      mediaUrls: [" /media/0123456789abcdef01234569 "],
      status: "sent",
      ownerId: "0123456789abcdef01234560",
      estimatedCost: 10,
      aiEstimatedCost: 10,
    });
    expect(parsed).toEqual({
      title: "Rear dent",
      vehicleYear: 2019,
      vehicleMake: "Toyota",
      vehicleModel: "Camry",
      vin: "1HGCM82633A004352",
      contactId: "0123456789abcdef01234567",
      notes: "Parked overnight",
      vendorId: "0123456789abcdef01234568",
      mediaUrls: ["/media/0123456789abcdef01234569"],
    });
  });

  it("requires a title: 'Title is required'", () => {
    expect(errorsOf({ mediaUrls: media(1) }).title).toBe("Title is required");
    expect(errorsOf({ ...valid, title: "   " }).title).toBe("Title is required");
    expect(errorsOf({ ...valid, title: "x".repeat(201) }).title).toBe("Title must be at most 200 characters");
  });

  it("VIN: 17 characters of A–Z and 0–9 without I, O or Q, upper-cased", () => {
    const message = "VIN must be 17 characters without I, O or Q";
    expect(assessmentCreateSchema.parse({ ...valid, vin: "jh4ka7561pc008269" }).vin).toBe("JH4KA7561PC008269");
    for (const vin of ["1HGCM82633A00435", "1HGCM82633A0043521", "1HGCM82633I004352", "1HGCM82633O004352", "1HGCM82633Q004352", "1HGCM82633A00435-"]) {
      expect(errorsOf({ ...valid, vin }).vin, vin).toBe(message);
    }
    expect(errorsOf({ ...valid, vin: "1hgcm82633q004352" }).vin).toBe(message);
    expect(assessmentCreateSchema.parse({ ...valid, vin: "  " }).vin).toBeUndefined();
  });

  it("vehicle year: a whole number from 1900 to 2030; a form's digits are coerced", () => {
    expect(assessmentCreateSchema.parse({ ...valid, vehicleYear: 1900 }).vehicleYear).toBe(1900);
    expect(assessmentCreateSchema.parse({ ...valid, vehicleYear: 2030 }).vehicleYear).toBe(2030);
    expect(assessmentCreateSchema.parse({ ...valid, vehicleYear: " 2019 " }).vehicleYear).toBe(2019);
    expect(errorsOf({ ...valid, vehicleYear: 1899 }).vehicleYear).toBe("Vehicle year must be at least 1900");
    expect(errorsOf({ ...valid, vehicleYear: 2031 }).vehicleYear).toBe("Vehicle year must be at most 2030");
    expect(errorsOf({ ...valid, vehicleYear: 2019.5 }).vehicleYear).toBe("Vehicle year must be a whole number");
    expect(errorsOf({ ...valid, vehicleYear: "20x9" }).vehicleYear).toBe("Vehicle year must be a whole number");
  });

  it("blank form fields are absent", () => {
    const parsed = assessmentCreateSchema.parse({
      ...valid,
      vehicleYear: "",
      vehicleMake: " ",
      vehicleModel: "",
      vin: "",
      contactId: "",
      notes: "  ",
      vendorId: "",
    });
    expect(parsed).toEqual(valid);
    const present = Object.entries(parsed).filter(([, value]) => value !== undefined);
    expect(present.map(([key]) => key).sort()).toEqual(["mediaUrls", "title"]);
  });

  it("refuses an object or a list where a string belongs", () => {
    const op = { $ne: null };
    const errors = errorsOf({
      title: op,
      vehicleYear: op,
      vehicleMake: op,
      vehicleModel: ["Camry"],
      vin: op,
      contactId: op,
      notes: op,
      vendorId: op,
      mediaUrls: [op],
    });
    expect(errors).toEqual({
      title: "Title must be text",
      vehicleYear: "Vehicle year must be a whole number",
      vehicleMake: "Vehicle make must be text",
      vehicleModel: "Vehicle model must be text",
      vin: "VIN must be text",
      contactId: "Contact not found",
      notes: "Notes must be text",
      vendorId: "Vendor not found",
      "mediaUrls.0": "Each media URL must be text",
    });
    expect(errorsOf({ ...valid, mediaUrls: op }).mediaUrls).toBe("Media URLs must be a list of text");
  });

  it("refuses malformed contact and vendor ids", () => {
    expect(errorsOf({ ...valid, contactId: "abc" }).contactId).toBe("Contact not found");
    expect(errorsOf({ ...valid, vendorId: "0123456789abcdef0123456z" }).vendorId).toBe("Vendor not found");
  });

  it("needs 1 to 20 media URLs, with the widget's messages", () => {
    expect(errorsOf({ title: "T" }).mediaUrls).toBe("Please upload at least one file");
    expect(errorsOf({ title: "T", mediaUrls: [] }).mediaUrls).toBe("Please upload at least one file");
    expect(assessmentCreateSchema.parse({ title: "T", mediaUrls: media(20) }).mediaUrls).toHaveLength(20);
    expect(errorsOf({ title: "T", mediaUrls: media(21) }).mediaUrls).toBe("You can only upload 20 file(s)");
    // A form with one file posts a lone string.
    expect(assessmentCreateSchema.parse({ title: "T", mediaUrls: "/media/a" }).mediaUrls).toEqual(["/media/a"]);
  });
});

describe("assessmentUpdateSchema", () => {
  it("takes the editable fields without mediaUrls; null clears an optional field", () => {
    expect(assessmentUpdateSchema.parse({ title: "T", mediaUrls: media(2), vehicleMake: null })).toEqual({ title: "T" });
    expect(errorsOf({ vehicleYear: 1899 }, assessmentUpdateSchema)).toEqual({
      title: "Title is required",
      vehicleYear: "Vehicle year must be at least 1900",
    });
  });
});

describe("assessmentListQuerySchema", () => {
  it("takes a status, 'all' or none; refuses an unknown one", () => {
    expect(assessmentListQuerySchema.parse({ status: "completed" }).status).toBe("completed");
    expect(assessmentListQuerySchema.parse({ status: "all" }).status).toBeUndefined();
    expect(assessmentListQuerySchema.parse({ status: "" }).status).toBeUndefined();
    expect(assessmentListQuerySchema.parse({}).status).toBeUndefined();
    expect(assessmentListQuerySchema.safeParse({ status: "done" }).success).toBe(false);
  });
});

describe("colours", () => {
  it("follows spec §4", () => {
    expect(STATUS_COLOR).toEqual({
      uploaded: "gray",
      processing: "yellow",
      analyzing: "yellow",
      completed: "green",
      reviewed: "blue",
      sent: "green",
    });
    expect(SEVERITY_COLOR).toEqual({ minor: "green", moderate: "yellow", major: "orange", severe: "red" });
  });
});
