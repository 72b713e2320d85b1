/**
 * One place that turns errors into `{detail, code}` bodies (issue 30: `code` from the error catalog,
 * error-catalog.ts); unknown errors become a generic 500 with a request id.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ApiError } from "../../core/errors.js";
import { FOUNDATION, HARDENING, HTTP_INPUT } from "../../core/errors.js";
import { answerOf } from "../../domain/execution/failure.js";
import { codeOf, ERROR_CATALOG, GENERIC_CODES, type ErrorCatalog } from "./error-catalog.js";

const CLIENT_CODES: Record<string, { status: number; detail: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, detail: FOUNDATION.bodyTooLarge },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, detail: FOUNDATION.unsupportedContentType },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, detail: HTTP_INPUT.contentLength },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, detail: FOUNDATION.invalidJson },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, detail: FOUNDATION.invalidJson },
};

/** Router errors (raised before any route or error handler runs), answered by `frameworkErrors`. */
const ROUTER_CODES: Record<string, { status: number; detail: string }> = {
  FST_ERR_BAD_URL: { status: 400, detail: HTTP_INPUT.badUrl },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, detail: HTTP_INPUT.paramTooLong },
};

/** The body of a catalogued error: its extra fields, `detail` and its `code`. */
function body(
  catalog: ErrorCatalog,
  status: number,
  detail: string,
  extra: Record<string, unknown> = {},
  chainReason?: Parameters<typeof codeOf>[1]["chainReason"],
): Record<string, unknown> {
  return { ...extra, detail, code: codeOf(catalog, { status, detail, extra, chainReason }) };
}

const internal = (id: string): Record<string, unknown> => ({
  detail: FOUNDATION.internal,
  code: "http.internal",
  request_id: id,
});

/**
 * Fastify's `frameworkErrors` option: without it the router answers a bad URL or an over-long path parameter
 * itself, with a body of its own shape (no `detail`) that quotes the URL.
 */
export function frameworkErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const known = ROUTER_CODES[err.code];
  if (known !== undefined) {
    void reply.status(known.status).send(body(ERROR_CATALOG, known.status, known.detail));
    return;
  }
  req.log.error({ err: { type: err.name, code: err.code } }, "unhandled framework error");
  void reply.status(500).send(internal(req.id));
}

/** Installs the error and not-found handlers on the app. */
export function installErrorHandler(app: FastifyInstance, catalog: ErrorCatalog = ERROR_CATALOG): void {
  app.setErrorHandler((err: FastifyError | ApiError | Error, req, reply) => {
    // An ApiError, or a chain failure answered with its reason's status (the chain layer knows no HTTP).
    const answer = answerOf(err);
    if (answer !== undefined) {
      return reply
        .status(answer.status)
        .send(body(catalog, answer.status, answer.detail, answer.extra, answer.chainReason));
    }
    const fe = err as FastifyError;
    if (fe.validation !== undefined) {
      // A missing or non-object body on a route that requires one: the one text every route uses.
      const first = fe.validation[0];
      if (fe.validationContext === "body" && first?.instancePath === "" && first.keyword === "type")
        return reply.status(400).send(body(catalog, 400, HARDENING.bodyObject));
      // Ajv messages name the field and the expected type, never the submitted value.
      return reply.status(400).send({ detail: fe.message, code: GENERIC_CODES.validation.code });
    }
    const known = fe.code !== undefined ? CLIENT_CODES[fe.code] : undefined;
    if (known !== undefined)
      return reply.status(known.status).send(body(catalog, known.status, known.detail));
    if (err instanceof SyntaxError) return reply.status(400).send(body(catalog, 400, FOUNDATION.invalidJson));
    if (typeof fe.statusCode === "number" && fe.statusCode >= 400 && fe.statusCode < 500) {
      // Other framework client errors (FST_*) carry fixed texts; anything else gets a generic one.
      const detail = fe.code?.startsWith("FST_") === true ? fe.message : "bad request";
      return reply.status(fe.statusCode).send({ detail, code: GENERIC_CODES.badRequest.code });
    }
    // Only an explicit subset of the error is logged (never its other properties), and nothing of it is
    // echoed to the client: a message may quote input.
    req.log.error(
      { err: { type: err.name, code: fe.code, message: err.message, stack: err.stack } },
      "unhandled error",
    );
    return reply.status(500).send(internal(req.id));
  });
  app.setNotFoundHandler((_req, reply) => reply.status(404).send(body(catalog, 404, FOUNDATION.notFound)));
}
