/** Vitest setup: after each test, no answer a test app sent may contradict the OpenAPI document. */
import { afterEach, expect } from "vitest";
import { openapiViolations } from "./openapi-validate.js";

afterEach(() => {
  const seen = [...new Set(openapiViolations)];
  openapiViolations.length = 0;
  expect(seen, "answers that contradict the OpenAPI document").toEqual([]);
});
