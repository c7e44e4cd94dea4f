import { setTimeout as sleep } from 'node:timers/promises';

type Send = (path: string, init: RequestInit) => Response | Promise<Response>;

/**
 * An evidence pack as an admin's screen gets it: asked for, followed until the job has made it,
 * then downloaded. The answer is the first that is not a step on the way: a refusal of the ask
 * (401, 403, 404), or the file's (200, or 409 for a pack that failed). `send` takes a path under
 * /api: the test app's `app.request` or fetch against a running server.
 */
export async function fetchEvidencePack(send: Send, token: string, pcnId: string): Promise<Response> {
  const headers = { authorization: `Bearer ${token}` };
  const asked = await send(`/pcns/${pcnId}/evidence-packs`, { method: 'POST', headers });
  if (asked.status !== 202) return asked;
  type Pack = { id: string; state: string };
  let pack = ((await asked.json()) as { data: Pack }).data;
  const deadline = Date.now() + 60_000;
  while (pack.state === 'WAITING' || pack.state === 'MAKING') {
    if (Date.now() > deadline) throw new Error(`evidence pack ${pack.id} still ${pack.state} after a minute`);
    await sleep(50);
    pack = ((await (await send(`/pcns/${pcnId}/evidence-packs/${pack.id}`, { headers })).json()) as { data: Pack }).data;
  }
  return send(`/pcns/${pcnId}/evidence-packs/${pack.id}/file`, { headers });
}

/** `fetchEvidencePack`'s `send` for a test app (its routes under /api). */
export function viaApp(t: { app: { request: (path: string, init: RequestInit) => Response | Promise<Response> } }): Send {
  return (path, init) => t.app.request(`/api${path}`, init);
}

/** `fetchEvidencePack`'s `send` for a running server at `apiBase` (its URL ending in /api). */
export function viaFetch(apiBase: string): Send {
  return (path, init) => fetch(`${apiBase}${path}`, init);
}
