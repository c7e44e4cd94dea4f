import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.ts';
import { forUpdate, lockNamesForTransaction } from '../db/dialect.ts';

/**
 * Limits on password guesses (docs/security.md): sign-in and the profile's
 * current-password check share one limiter.
 *
 * - An attempt is counted (reserved) before the slow password hash runs, so a burst of guesses
 *   sent side by side cannot all slip through while the first ones are still being hashed; the
 *   right password refunds its attempt, a wrong one settles it as a failure.
 * - The lock is keyed on the account and the address together: a stranger guessing from
 *   elsewhere cannot lock the real user out. A looser cap per address stops one address
 *   spraying guesses over many accounts without blocking an office behind one NAT.
 * - Before the lock, from the second failure on, each further failure waits twice as long as
 *   the one before (backoff). One typo costs nothing: a person retyping, or a password manager
 *   filling in the right one straight after a wrong one, is not kept waiting. The backoff counts
 *   settled failures only, so two tabs signing in at once both get in.
 *
 * - Guesses spread over many addresses meet a cap per account: once it has had 20 guesses from
 *   anywhere inside the window, only a guess from a device that signed in to it before (its
 *   device token, auth/known-devices.ts) is checked, and the emailed reset lifts the cap. So a
 *   stranger with thousands of addresses gets 20 guesses, not thousands, and still cannot lock
 *   the owner out of the phone they use. A known device's guesses are limited per device
 *   instead of per address: nobody guessing behind the same office or carrier address can lock
 *   it, and neither can a stranger's count for that address.
 * - A device that is not known yet, refused by either cap, can have a sign-in link emailed to the
 *   account (workflows/account-emails.ts). A guess that brings a live link is counted under
 *   the link, like a known device's under the device: neither the account's cap nor the busy
 *   address's holds it up, and the link's own five guesses (with the backoff) are all it gets.
 *
 * The counts live in the database (table sign_in_attempts), so every API process on
 * one PostgreSQL database sees the same guesses, and a restart forgets none.
 */
/** A counted guess, as handed back to refund or fail it: its row, and when it was reserved (epoch ms). */
export type SignInAttempt = { id: string; account: string; address: string; at: number };

/** A refusal says how long to wait, and whether the account wants a known device (or the reset) meanwhile. */
export type SignInRefusal = { isAllowed: false; retryAfterSeconds: number; needsKnownDevice: boolean };

export type SignInDecision = { isAllowed: true; attempt: SignInAttempt } | SignInRefusal;

/**
 * Where a guess comes from: the client's address, the id of the account's known device it
 * carries, if any, and else the id of the account's live emailed sign-in link it carries, if any.
 */
export type SignInOrigin = { address: string; knownDevice?: string | null; deviceLink?: string | null };

export type SignInLimiter = {
  /** Counts one guess for the account from the origin, or refuses it with how long to wait. */
  reserve: (account: string, origin: SignInOrigin) => Promise<SignInDecision>;
  /** The guess was right: it does not count, and the account's failures at that address are forgotten. */
  refund: (attempt: SignInAttempt) => Promise<void>;
  /** The guess was wrong: it stays counted, and the next guess must wait (backoff). */
  fail: (attempt: SignInAttempt) => Promise<void>;
  /** Forgets every failure of the account (its password was reset by email). */
  forgetAccount: (account: string) => Promise<void>;
};

export type SignInPolicy = {
  /** Failures of one account from one address inside the window before it is locked there. */
  failuresPerAccountAddress: number;
  /** Failures from one address, over any accounts, inside the window. */
  failuresPerAddress: number;
  /** Guesses for one account from anywhere inside the window, after which only known devices are heard. */
  failuresPerAccount: number;
  windowMs: number;
  /** The wait after the second failure; doubled after each further one (the first costs none). */
  backoffBaseMs: number;
};

export const SIGN_IN_POLICY: SignInPolicy = {
  failuresPerAccountAddress: 5,
  failuresPerAddress: 100,
  failuresPerAccount: 20,
  windowMs: 15 * 60 * 1000,
  backoffBaseMs: 1000,
};

/** One counted guess: when it was reserved (or, once known to be wrong, answered) and whether it was wrong. */
export type CountedGuess = { at: number; isFailure: boolean };

/**
 * The guesses still counted that bear on a new one, oldest first: the account's from this origin
 * (this address, or this known device), the origin's over all accounts, and the account's from
 * anywhere (null for a known device or an emailed link, which that cap does not apply to).
 */
export type CountedGuesses = {
  pair: readonly CountedGuess[];
  origin: readonly number[];
  account: readonly number[] | null;
};

/**
 * Whether a new guess may go ahead. Pure. Every counted guess takes a slot; from the second
 * settled failure of the pair the backoff runs from the last one and doubles with each.
 */
export function decideSignInAttempt(guesses: CountedGuesses, at: number, policy: SignInPolicy): { isAllowed: true } | SignInRefusal {
  const since = at - policy.windowMs;
  const waitUntil: number[] = [];
  const pair = guesses.pair.filter((guess) => guess.at > since);
  const origin = guesses.origin.filter((stamp) => stamp > since);
  const account = guesses.account?.filter((stamp) => stamp > since) ?? [];
  const failures = pair.filter((guess) => guess.isFailure);
  if (pair.length >= policy.failuresPerAccountAddress) {
    // Locked until enough of the counted guesses leave the window.
    waitUntil.push(pair[pair.length - policy.failuresPerAccountAddress]!.at + policy.windowMs);
  } else if (failures.length > 1) {
    waitUntil.push(failures[failures.length - 1]!.at + policy.backoffBaseMs * 2 ** (failures.length - 2));
  }
  if (origin.length >= policy.failuresPerAddress) {
    waitUntil.push(origin[origin.length - policy.failuresPerAddress]! + policy.windowMs);
  }
  const needsKnownDevice = account.length >= policy.failuresPerAccount;
  if (needsKnownDevice) waitUntil.push(account[account.length - policy.failuresPerAccount]! + policy.windowMs);
  const until = Math.max(at, ...waitUntil);
  if (until <= at) return { isAllowed: true };
  return { isAllowed: false, retryAfterSeconds: Math.max(1, Math.ceil((until - at) / 1000)), needsKnownDevice };
}

/** Expired rows deleted per reservation: many times the one row it adds, and still a small delete. */
const SWEEP_BATCH = 100;

export function createSignInLimiter(options: { db: Db; now: () => Date; policy?: SignInPolicy }): SignInLimiter {
  const { db, now } = options;
  const policy = options.policy ?? SIGN_IN_POLICY;

  return {
    // Check and count in one transaction, under the locks of the account and the origin on
    // PostgreSQL (every count it reads is of one or the other), so two guesses arriving together at one process or
    // two can never both see the same free slot. On SQLite one process writes at a time, and
    // the sweep's write comes first, so even a second connection to the file waits here.
    reserve: (account, { address, knownDevice, deviceLink }) =>
      db.transaction().execute(async (trx): Promise<SignInDecision> => {
        // A known device's guesses are counted under the device, not the address it calls from;
        // a device with an emailed link under the link.
        const from = knownDevice ? `device:${knownDevice}` : deviceLink ? `link:${deviceLink}` : address;
        const isVouchedFor = Boolean(knownDevice || deviceLink);
        // Account first, then origin, in every transaction: two of them cannot wait on each other.
        await lockNamesForTransaction(trx, 'signInAccount', [account]);
        await lockNamesForTransaction(trx, 'signInAddress', [from]);
        const at = now().getTime();
        const since = at - policy.windowMs;
        await deleteExpiredAttempts(trx, since);
        // Only the newest guesses inside the window can decide (see decideSignInAttempt).
        const pair = await trx
          .selectFrom('sign_in_attempts')
          .select(['counted_at', 'is_failure'])
          .where('account', '=', account)
          .where('address', '=', from)
          .where('counted_at', '>', since)
          .orderBy('counted_at', 'desc')
          .limit(policy.failuresPerAccountAddress)
          .execute();
        const ofOrigin = await trx
          .selectFrom('sign_in_attempts')
          .select('reserved_at')
          .where('address', '=', from)
          .where('reserved_at', '>', since)
          .orderBy('reserved_at', 'desc')
          .limit(policy.failuresPerAddress)
          .execute();
        const ofAccount = isVouchedFor
          ? null
          : await trx
              .selectFrom('sign_in_attempts')
              .select('counted_at')
              .where('account', '=', account)
              .where('counted_at', '>', since)
              .orderBy('counted_at', 'desc')
              .limit(policy.failuresPerAccount)
              .execute();
        const decision = decideSignInAttempt(
          {
            pair: pair.reverse().map((row) => ({ at: row.counted_at, isFailure: row.is_failure })),
            origin: ofOrigin.reverse().map((row) => row.reserved_at),
            account: ofAccount?.reverse().map((row) => row.counted_at) ?? null,
          },
          at,
          policy,
        );
        if (!decision.isAllowed) return decision;
        const id = randomUUID();
        await trx
          .insertInto('sign_in_attempts')
          .values({ id, account, address: from, reserved_at: at, counted_at: at, is_failure: false })
          .execute();
        return { isAllowed: true, attempt: { id, account, address: from, at } };
      }),

    // The pair's other guesses (earlier failures, another tab's guess still being checked) are
    // forgotten for the account but stay counted for the address: the right password for one
    // account must not reopen the address's cap on guessing others.
    async refund(attempt) {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('sign_in_attempts')
          .set({ account: null })
          .where('account', '=', attempt.account)
          .where('address', '=', attempt.address)
          .execute();
        await trx.deleteFrom('sign_in_attempts').where('id', '=', attempt.id).execute();
      });
    },

    // The backoff runs from the answer, not from the request: a slow hash must not eat the wait.
    // A guess whose pair was forgotten meanwhile (the right password in another tab) stays forgotten.
    async fail(attempt) {
      await db
        .updateTable('sign_in_attempts')
        .set({ is_failure: true, counted_at: Math.max(attempt.at, now().getTime()) })
        .where('id', '=', attempt.id)
        .where('account', 'is not', null)
        .where('is_failure', '=', false)
        .execute();
    },

    async forgetAccount(account) {
      await db.updateTable('sign_in_attempts').set({ account: null }).where('account', '=', account).execute();
    },
  };
}

/**
 * Deletes a batch of rows that have left the window, so a flood of made-up emails cannot grow
 * the table forever. On PostgreSQL, rows another transaction holds (a refund forgetting them)
 * are skipped until next time: waiting for them inside a reservation could deadlock.
 */
async function deleteExpiredAttempts(trx: Db, since: number): Promise<void> {
  await trx
    .deleteFrom('sign_in_attempts')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('sign_in_attempts')
        .select('id')
        .where('counted_at', '<=', since)
        .limit(SWEEP_BATCH)
        .$call((query) => forUpdate(trx, query, { skipLocked: true })),
    )
    .execute();
}
