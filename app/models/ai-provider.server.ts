import { Schema } from "mongoose";
import { defineModel } from "./define-model.server";

/**
 * The AI provider an admin set in Admin Settings → AI Provider: one document for the whole
 * installation (the analysis worker serves every account). Absent: the OPENAI_* environment applies.
 * Read from the database on every use, so a change reaches every instance at once (no restart, no
 * process cache to invalidate).
 */
const aiProviderSchema = new Schema(
  {
    _id: { type: String, required: true },
    /** An OpenAI-compatible server's base URL (`…/v1`); absent: OpenAI's own. */
    baseURL: { type: String },
    model: { type: String, required: true },
    /** The API key, sealed (secret-box, label "ai-provider key"); never sent back. */
    apiKeyEnc: { type: String },
    updatedBy: { type: Schema.Types.ObjectId },
  },
  { timestamps: true, collection: "aiproviders" },
);
export const AiProvider = defineModel("AiProvider", aiProviderSchema);

const KEY = "ai-provider";

export interface AiProviderRecord {
  baseURL?: string;
  model: string;
  apiKeyEnc?: string;
  updatedAt: Date;
}

export function findAiProvider() {
  return AiProvider.findById(KEY).lean<AiProviderRecord>();
}

export async function upsertAiProvider({ baseURL, model, apiKeyEnc, updatedBy }: { baseURL?: string; model: string; apiKeyEnc?: string; updatedBy: string }) {
  const unset = { ...(baseURL ? {} : { baseURL: 1 }), ...(apiKeyEnc ? {} : { apiKeyEnc: 1 }) };
  await AiProvider.updateOne(
    { _id: KEY },
    { $set: { model, updatedBy, ...(baseURL ? { baseURL } : {}), ...(apiKeyEnc ? { apiKeyEnc } : {}) }, ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}) },
    { upsert: true, runValidators: true },
  );
}

export async function removeAiProvider() {
  await AiProvider.deleteOne({ _id: KEY });
}
