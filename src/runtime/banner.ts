/** The one-line start banner (issue 22): where the service listens and where its API documentation is. */

/** `lasertrade listening on http://127.0.0.1:8080 (API docs: http://127.0.0.1:8080/docs)`. */
export function startBanner(host: string, port: number): string {
  // A wildcard bind is reachable on loopback; show an address a browser can open.
  const shown =
    host === "0.0.0.0" || host === "::" || host === ""
      ? "127.0.0.1"
      : host.includes(":")
        ? `[${host}]`
        : host;
  const url = `http://${shown}:${port}`;
  return `lasertrade listening on ${url} (API docs: ${url}/docs)`;
}
