/**
 * Calls the typecheck must refuse: each line below carries `@ts-expect-error`, so if the shared
 * contract ever stops catching one of these mistakes, the directive goes unused and
 * `npm run typecheck` fails. Never imported and never run; it exists for the compiler.
 */
import { ERROR_MESSAGES, type Pcn, type User } from '@parkpatrol/shared';
import type { ApiClient } from './api-client.ts';

export async function refusedByTheCompiler(client: ApiClient): Promise<void> {
  const fallbackMessage = ERROR_MESSAGES.fetchPcn;

  // @ts-expect-error a path the API does not have
  await client.call('GET /pcn/:id', { params: { id: 'p1' }, fallbackMessage });

  // @ts-expect-error a route the API has, with the wrong method
  await client.call('POST /pcns/:id', { params: { id: 'p1' }, fallbackMessage });

  // @ts-expect-error a path parameter missing
  await client.call('GET /pcns/:id', { fallbackMessage });

  // @ts-expect-error a path parameter misnamed
  await client.call('GET /pcns/:id', { params: { pcnId: 'p1' }, fallbackMessage });

  // @ts-expect-error a body field misnamed (the server parses `password`)
  await client.call('POST /auth/login', { json: { email: 'a@b.c', passwd: 'x' }, fallbackMessage });

  // @ts-expect-error a body without a required field
  await client.call('POST /auth/refresh', { json: {}, fallbackMessage });

  // @ts-expect-error a status the notice's workflow does not know
  await client.call('PATCH /pcns/:id/status', { params: { id: 'p1' }, json: { status: 'LOST' }, fallbackMessage });

  // @ts-expect-error a query parameter the list does not take
  await client.call('GET /pcns', { query: { colour: 'red' }, fallbackMessage });

  // @ts-expect-error JSON sent to the multipart route
  await client.call('POST /pcns', { json: { vehicleRegistration: 'AB12CDE' }, fallbackMessage });

  // @ts-expect-error a file route read as JSON
  await client.call('GET /pcns/:id/evidence-packs/:packId/file', { params: { id: 'p1', packId: 'k1' }, fallbackMessage });

  // @ts-expect-error the answer read as the wrong entity
  const notice: Pcn = await client.call('GET /users/profile', { fallbackMessage });

  const user: User = await client.call('GET /users/profile', { fallbackMessage });
  // @ts-expect-error a field the answer does not have
  void user.pcnNumber;
  void notice;
}
