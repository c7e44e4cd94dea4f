// The machine's ceiling for the API benchmarks: a bare Hono route on the same node server,
// answering a constant, run by plain Node (no TypeScript loader in the way). Every API figure is
// quoted beside it, so a noisy machine shows as such.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono().get('/ceiling', (c) => c.json({ success: true, data: { ok: true } }));
const port = Number(process.env.PORT ?? 8101);
serve({ fetch: app.fetch, port }, () => process.stdout.write(`ready ${port}\n`));
