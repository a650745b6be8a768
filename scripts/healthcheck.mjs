// The container's HEALTHCHECK (and any process manager's): exits 0 when the server on PORT answers
// /healthz within 3 seconds, 1 otherwise. Plain Node: the runtime image has no curl.
const port = process.env.PORT ?? '3000';
const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(3000) }).catch(
  () => undefined,
);
process.exit(response?.ok ? 0 : 1);
