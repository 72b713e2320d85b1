import { ref } from "../../core/json-schema.js";

/** One variant of a raced execution as answers and records show it (a component: trades and outside sends). */
export const raceVariantComponent = {
  $id: "RaceVariant",
  type: "object",
  description: "one variant of a raced execution: the route it was sent to and what the route answered",
  properties: {
    route: { type: "string", description: "the route this variant was sent to" },
    signature: { type: "string", description: "the variant's signature" },
    tip_lamports: { type: "string", description: "the tip this variant pays if it lands" },
    sent_at: { type: "string", description: "ISO 8601" },
    answered_ms: { type: "integer", description: "the route's answer time" },
    accepted: { type: "boolean", description: "whether the route accepted it" },
    error: { type: "string", description: "why the route did not accept it" },
  },
  required: ["route", "signature", "tip_lamports", "sent_at", "answered_ms", "accepted"],
  additionalProperties: false,
} as const;

/** The answer fields of a raced trade (`routes` / `mev_protect` in the body), stated in the trade kind's answer. */
export const raceProperties = {
  landed_via: {
    type: ["string", "null"],
    description: "raced trades: the route whose variant landed (null: none seen landed yet, or confirm off)",
  },
  slots_to_land: {
    type: ["integer", "null"],
    description: "raced trades: slots from the send to the landing",
  },
  routes: {
    type: "array",
    description: "raced trades: every variant sent, one per route",
    items: ref("RaceVariant"),
  },
  nonce: {
    type: "object",
    description: "raced trades: the wallet's durable nonce account every variant advances",
    properties: {
      address: { type: "string", description: "the nonce account (derived from the wallet)" },
      created: { type: "boolean", description: "this trade created it" },
      rent_lamports: {
        type: "string",
        description: "its rent-exempt balance, paid by the wallet, returned on withdraw",
      },
    },
    required: ["address", "created", "rent_lamports"],
    additionalProperties: false,
  },
} as const;
