/** SETUP_MODE: POST /v1/laser/setup open to anyone, gated by SETUP_TOKEN (x-setup-token), or closed. */
import { timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { HardeningSettings } from "../../config/hardening.js";
import { ApiError, HARDENING } from "../../core/errors.js";

/** The check setup runs first: throws 403 when closed, 401 without the right token. */
export function setupGate(
  settings: Pick<HardeningSettings, "setupMode" | "setupToken">,
): (req: FastifyRequest) => void {
  const expected = settings.setupToken === undefined ? undefined : Buffer.from(settings.setupToken);
  return (req) => {
    if (settings.setupMode === "open") return;
    if (settings.setupMode === "closed" || expected === undefined)
      throw new ApiError(403, HARDENING.setupClosed);
    const header = req.headers["x-setup-token"];
    const presented = Buffer.from((Array.isArray(header) ? header[0] : header) ?? "");
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected))
      throw new ApiError(401, HARDENING.setupToken);
  };
}
