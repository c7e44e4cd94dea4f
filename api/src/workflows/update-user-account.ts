import { SERVER_MESSAGES, type BulkResult, type BulkUserActiveInput, type UpdateUserInput, type User } from '@parkpatrol/shared';
import type { AppDeps, AuthUser } from '../app-env.ts';
import { hashPassword } from '../auth/passwords.ts';
import { endUserCredentials } from '../auth/end-credentials.ts';
import { checkDeleteUser, checkUpdateUser, type RuleRefusal } from '../auth/user-rules.ts';
import type { Db } from '../db/database.ts';
import { AppError } from '../http/app-error.ts';
import { isUniqueViolation } from '../repositories/constraint-errors.ts';
import { recordActivity } from '../services/activities.ts';
import { escapeHtml } from '../services/mail.ts';
import { deleteUser, findUserById, findUserNames, isEmailTaken, lockUserRoles, updateUser } from '../repositories/users.ts';
import { actOnEach } from './bulk-action.ts';

/** A user rule's refusal as the API's answer. */
export function enforce(refusal: RuleRefusal): void {
  if (refusal) throw new AppError(refusal.code, refusal.message);
}

/**
 * The acting admin as they are now, with the user-role lock held until the transaction ends.
 * The request's own copy was read before the transaction: another admin may have deactivated
 * or demoted them since, and their change must then be judged as theirs would be now (a
 * deactivated admin's session is over, as requireAuth would have said).
 */
export async function lockActingAdmin(trx: Db, actor: AuthUser): Promise<User> {
  await lockUserRoles(trx);
  const current = await findUserById(trx, actor.id);
  if (!current?.isActive) throw new AppError('UNAUTHENTICATED', SERVER_MESSAGES.sessionExpired);
  return current;
}

async function findUserOr404(db: Db, id: string): Promise<User> {
  const user = await findUserById(db, id);
  if (!user) throw new AppError('NOT_FOUND', SERVER_MESSAGES.userNotFound);
  return user;
}

/**
 * An admin's change to an account (PUT /users/{id}, and each user of a bulk activation): the
 * role rules, a free email, and no live session left behind a deactivation or a replaced
 * password.
 */
export async function updateUserAccount(
  deps: Pick<AppDeps, 'db' | 'now' | 'jobs' | 'logger'>,
  actor: AuthUser & { sessionId?: string },
  targetId: string,
  input: UpdateUserInput,
): Promise<void> {
  const { db } = deps;
  const change = { role: input.role, isActive: input.isActive };
  // Checked first as the request found things, so a refused change costs no password hash;
  // checked again below, under the lock, where it counts.
  enforce(checkUpdateUser(actor, await findUserOr404(db, targetId), change));
  if (input.email !== undefined && (await isEmailTaken(db, input.email, targetId))) {
    throw new AppError('CONFLICT', SERVER_MESSAGES.emailTaken);
  }
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  const at = deps.now();
  let emailChange: { from: string; to: string; firstName: string } | null = null;
  await db
    .transaction()
    .execute(async (trx) => {
      const current = await lockActingAdmin(trx, actor);
      const target = await findUserOr404(trx, targetId);
      enforce(checkUpdateUser(current, target, change));
      await updateUser(trx, target.id, {
        ...(input.firstName !== undefined && { firstName: input.firstName }),
        ...(input.lastName !== undefined && { lastName: input.lastName }),
        ...(input.email !== undefined && { email: input.email }),
        ...(input.role !== undefined && { role: input.role }),
        ...(input.isActive !== undefined && { isActive: input.isActive }),
        ...(passwordHash !== undefined && { passwordHash }),
        now: at,
      });
      const isEmailChanged = input.email !== undefined && input.email !== target.email;
      // A deactivated account, one whose password an admin replaced, or one whose email changed
      // keeps no live session and no unused link (an admin could otherwise send a link to an
      // address of their own, sign in as the user and change the email back, unseen).
      if (input.isActive === false || passwordHash !== undefined || isEmailChanged) {
        await endUserCredentials(trx, { userId: target.id, now: at, ...(target.id === actor.id && { exceptFamilyId: actor.sessionId }) });
      }
      if (isEmailChanged) {
        emailChange = { from: target.email, to: input.email!, firstName: target.firstName };
        await recordActivity(trx, {
          userId: target.id,
          type: 'EMAIL_CHANGED',
          description: `Email changed from ${target.email} to ${input.email} by ${current.firstName} ${current.lastName}`,
          now: at,
        });
      }
    })
    .catch((err: unknown) => {
      throw isUniqueViolation(err) ? new AppError('CONFLICT', SERVER_MESSAGES.emailTaken) : err;
    });
  // The old address is told, after the commit: the owner learns of a change they did not make.
  // Set inside the transaction's callback, which the compiler does not follow.
  const told = emailChange as { from: string; to: string; firstName: string } | null;
  if (told) {
    // A job, so a mail server that refuses is tried again rather than the owner never told.
    await deps.jobs.send('emailChangeNotice', { userId: targetId, ...told }).catch((error: unknown) => {
      // The change stands; what could not be asked for is in the log.
      deps.logger.warn('could not ask to tell the old address of an email change', { userId: targetId, error: String(error) });
    });
  }
}

/** The job: the old address told of the change, as it was made. A refusal is thrown, for the queue to try again. */
export async function sendEmailChangeNotice(
  deps: Pick<AppDeps, 'mailer' | 'config'>,
  job: { userId: string; from: string; to: string; firstName: string },
): Promise<void> {
  const { userId, ...change } = job;
  const product = `${deps.config.productName} Self Ticketing`;
  const text = [
    `Hello ${change.firstName},`,
    '',
    `The email address of your ${product} account was changed from ${change.from} to ${change.to}.`,
    'Your sessions were ended and any unused sign-in links stopped working.',
    '',
    'If you did not expect this, contact your administrator at once.',
  ].join('\n');
  const html = text
    .split('\n\n')
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('');
  await deps.mailer.send({
    to: change.from,
    subject: `Your ${product} email address was changed`,
    text,
    html,
    purpose: 'email-changed',
    userId,
  });
}

/** DELETE /users/{id}: the rules checked and the account deleted under the user-role lock. */
export async function deleteUserAccount(deps: Pick<AppDeps, 'db'>, actor: AuthUser, targetId: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const current = await lockActingAdmin(trx, actor);
    const target = await findUserOr404(trx, targetId);
    enforce(checkDeleteUser(current, target));
    await deleteUser(trx, target.id);
  });
}

/**
 * POST /users/bulk-active: each selected user through updateUserAccount on their own, so the
 * admin's own account (or an admin's, for an ADMIN) is reported as refused and the rest change.
 */
export async function setUsersActive(
  deps: Pick<AppDeps, 'db' | 'now' | 'logger' | 'jobs'>,
  input: BulkUserActiveInput & { actor: AuthUser },
): Promise<BulkResult[]> {
  const names = await findUserNames(deps.db, [...new Set(input.userIds)]);
  return actOnEach(input.userIds, {
    action: 'bulk user activation',
    label: (id) => {
      const name = names.get(id);
      return name === undefined ? id : `${name.firstName} ${name.lastName}`;
    },
    act: (id) => updateUserAccount(deps, input.actor, id, { isActive: input.isActive }),
    logger: deps.logger,
  });
}
