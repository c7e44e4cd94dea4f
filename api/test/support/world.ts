import { randomUUID } from 'node:crypto';
import type { Role } from '@parkpatrol/shared';
import { signAccessToken } from '../../src/auth/access-token.ts';
import { issueRefreshToken } from '../../src/auth/refresh-tokens.ts';
import { hashPassword } from '../../src/auth/passwords.ts';
import { createUploadGate, type UploadGate } from '../../src/services/upload-gate.ts';
import { createPcnViaApi, type NewPcn } from '../fixtures.ts';
import type { TestApp } from '../test-app.ts';

/** The seven callers every endpoint is tried with. */
export const ACTOR_NAMES = ['anonymous', 'owner', 'otherUser', 'admin', 'superAdmin', 'landowner', 'otherLandowner'] as const;
export type ActorName = (typeof ACTOR_NAMES)[number];

export type Actor = { id: string; email: string; role: Role; token: string };

/**
 * The people a suite works with: `owner` is the USER whose PCNs and car park the requests are
 * about, `otherUser` a USER with a car park of their own, one admin of each rank, `landowner` a
 * LANDOWNER assigned to the owner's car park and `otherLandowner` one assigned to the other's.
 */
export type World = {
  t: TestApp;
  owner: Actor;
  otherUser: Actor;
  admin: Actor;
  superAdmin: Actor;
  landowner: Actor;
  otherLandowner: Actor;
  ownerCarParkId: string;
  otherCarParkId: string;
};

/** One argon2 hash shared by every actor: an account without a password may only choose one. */
let actorPasswordHash: Promise<string> | undefined;

/**
 * A user with a valid access token, without an argon2 run per user (one shared hash): suites
 * that need a fresh account per case would otherwise spend most of their time hashing.
 */
export async function createActor(t: TestApp, role: Role = 'USER', overrides: Parameters<TestApp['createUser']>[0] = {}): Promise<Actor> {
  actorPasswordHash ??= hashPassword('actor-password-never-sent');
  const user = await t.createUser({ password: null, passwordHash: await actorPasswordHash, ...overrides, role });
  // A real session (a refresh-token family) behind the token, as sign-in makes: photo URLs are
  // signed for the session and served only while it lives.
  const sessionId = randomUUID();
  await issueRefreshToken(t.db, { userId: user.id, now: t.deps.now(), familyId: sessionId });
  const token = await signAccessToken(t.config.jwtSecret, { id: user.id, role }, sessionId, t.deps.now());
  return { id: user.id, email: user.email, role, token };
}

/**
 * For suites that send every endpoint side by side as one owner (the matrix, headers, secrets):
 * they test who may do what, not upload pacing, so the per-user cap on uploads in flight (4)
 * would refuse their own parallelism. The cap itself is tested in uploads.test.ts.
 */
export function uncappedUploads(): UploadGate {
  return createUploadGate({ perUser: Number.MAX_SAFE_INTEGER, inAll: Number.MAX_SAFE_INTEGER });
}

export async function createWorld(t: TestApp): Promise<World> {
  const [owner, otherUser, admin, superAdmin, landowner, otherLandowner] = await Promise.all([
    createActor(t, 'USER'),
    createActor(t, 'USER'),
    createActor(t, 'ADMIN'),
    createActor(t, 'SUPER_ADMIN'),
    createActor(t, 'LANDOWNER'),
    createActor(t, 'LANDOWNER'),
  ]);
  const ownerCarPark = await t.createCarPark({ assignTo: [owner.id, landowner.id] });
  const otherCarPark = await t.createCarPark({ assignTo: [otherUser.id, otherLandowner.id] });
  return {
    t,
    owner,
    otherUser,
    admin,
    superAdmin,
    landowner,
    otherLandowner,
    ownerCarParkId: ownerCarPark.id,
    otherCarParkId: otherCarPark.id,
  };
}

export function actorOf(w: World, name: ActorName, owner: Actor): Actor | null {
  switch (name) {
    case 'anonymous':
      return null;
    case 'owner':
      return owner;
    case 'otherUser':
      return w.otherUser;
    case 'admin':
      return w.admin;
    case 'superAdmin':
      return w.superAdmin;
    case 'landowner':
      return w.landowner;
    case 'otherLandowner':
      return w.otherLandowner;
  }
}

/** A PCN with two real photos, filed by `owner` through the API against their car park. */
export async function createOwnedPcn(w: World, owner: Actor = w.owner): Promise<NewPcn> {
  const carParkId = owner.id === w.owner.id ? w.ownerCarParkId : (await w.t.createCarPark({ assignTo: [owner.id] })).id;
  return createPcnViaApi(w.t, owner.token, carParkId);
}

export function uniqueSuffix(): string {
  return randomUUID().slice(0, 8);
}
