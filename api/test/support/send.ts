import type { EndpointCase, PreparedRequest } from '../endpoint-table.ts';
import type { TestApp } from '../test-app.ts';
import { ACTOR_NAMES, actorOf, createActor, type Actor, type ActorName, type World } from './world.ts';

export type Answer = Awaited<ReturnType<TestApp['request']>>;

/** Sends a prepared request as one caller (anonymous sends no Authorization header). */
export function sendPrepared(t: TestApp, method: string, prepared: PreparedRequest, token: string | undefined): Promise<Answer> {
  return t.request(method, prepared.path, {
    token,
    ...(prepared.json !== undefined && { json: prepared.json }),
    ...(prepared.form !== undefined && { body: prepared.form }),
    headers: prepared.headers ?? {},
  });
}

/** The USER who owns the resources of one case: the shared one, or a fresh one when the case needs it. */
export async function ownerFor(w: World, endpoint: EndpointCase): Promise<Actor> {
  return endpoint.needsFreshOwner ? createActor(w.t, 'USER') : w.owner;
}

/** Builds the case's valid request afresh and sends it as `actorName`. */
export async function runCell(w: World, endpoint: EndpointCase, actorName: ActorName): Promise<Answer> {
  const owner = await ownerFor(w, endpoint);
  const prepared = await endpoint.prepare(w, owner);
  const actor = actorOf(w, actorName, owner);
  return sendPrepared(w.t, endpoint.method, prepared, actor?.token);
}

export function matrixCells(endpoints: readonly EndpointCase[]): Array<{ endpoint: EndpointCase; actor: ActorName; status: number }> {
  return endpoints.flatMap((endpoint) => ACTOR_NAMES.map((actor) => ({ endpoint, actor, status: endpoint.expected[actor] })));
}

/**
 * Every route the app answers (method and path template), from Hono's own registry. Entries of
 * `app.use()` are registered as ALL with a wildcard path; they are middleware, not endpoints.
 */
export function registeredRoutes(t: TestApp): string[] {
  const routes = new Set<string>();
  for (const { method, path } of t.app.routes) {
    if (method === 'ALL' && path.endsWith('*')) continue;
    routes.add(`${method} ${path}`);
  }
  return [...routes].sort();
}
