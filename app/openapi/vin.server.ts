import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { VIN_MESSAGE } from "~/schemas/vin";
import { ApiArea, ErrorBody, json, record, z } from "./registry.server";

/** The VIN decode (docs/decisions/0032). */
export function describeVin(registry: OpenAPIRegistry) {
  const area = new ApiArea(registry, "Vehicles");
  const VinDecode = area.schema(
    "VinDecode",
    record({
      vin: z.string().openapi({ example: "1HGCM82633A004352" }),
      checkDigitValid: z.boolean().openapi({
        description: "Whether the 9th character is the check digit (ISO 3779 / North America); many VINs built for elsewhere carry none, so false is a warning",
      }),
      vehicle: record({ year: z.number().int().nullable(), make: z.string().nullable(), model: z.string().nullable() })
        .nullable()
        .openapi({ description: "Null when the vPIC data does not know the VIN", example: { year: 2003, make: "Honda", model: "Accord" } }),
    }),
  );
  area.describe({
    method: "get", path: "/api/vin/{vin}", operationId: "decodeVin", auth: "user",
    summary: "A VIN's year, make and model",
    description: "Decoded on this server from the NHTSA vPIC data (no outside call); lower case and spaces around it are accepted.",
    params: z.object({ vin: z.string().openapi({ description: "17 characters, without I, O or Q", example: "1HGCM82633A004352" }) }),
    responses: {
      200: json("The decode", VinDecode),
      400: { description: VIN_MESSAGE, content: { "application/json": { schema: ErrorBody } } },
    },
  });
}
