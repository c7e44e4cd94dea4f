import { getRequestListener } from '@hono/node-server';

// The server runs on @hono/node-server, which replaces the global Request and Response with its
// own lighter ones the first time it starts a listener. Every API test file does so before it
// begins, so each meets the Response the server uses, whatever ran before it in its worker (the
// API's files share a worker's globals: vitest.config.ts).
getRequestListener(() => new Response(null));
