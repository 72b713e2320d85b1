/** The one-line start banner (issue 22): where the service listens and where its API documentation is. */

/** The URL a browser can open for a bind address: a wildcard bind is reachable on loopback. */
export function serviceUrl(host: string, port: number): string {
  const shown =
    host === "0.0.0.0" || host === "::" || host === ""
      ? "127.0.0.1"
      : host.includes(":")
        ? `[${host}]`
        : host;
  return `http://${shown}:${port}`;
}

/** `lasertrade listening on http://127.0.0.1:8080 (API docs: http://127.0.0.1:8080/docs)`. */
export function startBanner(host: string, port: number): string {
  const url = serviceUrl(host, port);
  return `lasertrade listening on ${url} (API docs: ${url}/docs)`;
}
