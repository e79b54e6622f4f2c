import { Assessment } from "../app/models/assessment.server";
import { engineLine } from "./estimate-lines";

/** A sent estimate of the account (a dent $300 and a scratch $100, a Blue Golf) with its customer, created by `who`. */
export async function sentGolfEstimate(who: { post: (path: string, body: object) => Promise<{ status: number; json: { id: string } }> }, ownerId: string) {
  const contact = await who.post("/api/contacts", { firstName: "Jane", lastName: "Doe", email: `jane.${Math.random().toString(36).slice(2, 8)}@example.com` });
  if (contact.status !== 201) throw new Error(`contact not created: ${contact.status}`);
  const doc = await Assessment.create({
    ownerId,
    title: "Blue Golf",
    vehicleMake: "Volkswagen",
    contactId: contact.json.id,
    mediaUrls: [],
    status: "sent",
    sentAt: new Date(),
    estimatedCost: 400,
    damages: [
      { damageType: "dent", location: "left", severity: "moderate", description: "Door dent", confidence: 0.8 },
      { damageType: "scratch", location: "front", severity: "minor", description: "Bumper scratch", confidence: 0.7 },
    ],
    damageCategories: ["dent", "scratch"],
    lineItems: [engineLine("dent", "moderate", "left", 30000), engineLine("scratch", "minor", "front", 10000, 0)],
  });
  return { id: String(doc._id), contactId: String(contact.json.id) };
}
