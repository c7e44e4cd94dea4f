/**
 * Creates a real account: `npm run create-user -- --email E --role R [--password P]
 * [--first-name F --last-name L]`. Without --password it prints a single-use access link
 * instead, so the first admin never has to put a password in shell history.
 */
import { parseArgs } from 'node:util';
import { createUserInputSchema, fieldErrors, ROLES } from '@parkpatrol/shared';
import { ACCESS_LINK_TTL_MS, issueOneTimeToken } from '../api/src/auth/one-time-tokens.ts';
import { hashPassword } from '../api/src/auth/passwords.ts';
import { loadConfig } from '../api/src/config.ts';
import { connectDatabase, migrateToLatest } from '../api/src/db/database.ts';
import { insertUser, isEmailTaken } from '../api/src/repositories/users.ts';

const USAGE = `Usage: npm run create-user -- --email E --role ${ROLES.join('|')} [--password P] [--first-name F --last-name L]`;

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** "jane.doe@x" -> Jane Doe; "admin@x" -> Admin User, so names are never empty. */
function namesFromEmail(email: string): { firstName: string; lastName: string } {
  const [first = 'New', second = 'User'] = (email.split('@')[0] ?? '').split(/[._-]+/).filter(Boolean);
  return { firstName: capitalise(first), lastName: capitalise(second) };
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        email: { type: 'string' },
        role: { type: 'string' },
        password: { type: 'string' },
        'first-name': { type: 'string' },
        'last-name': { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (err) {
    fail(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (!values.email || !values.role) fail(USAGE);

  const guessed = namesFromEmail(values.email);
  const parsed = createUserInputSchema.safeParse({
    email: values.email,
    role: values.role,
    password: values.password,
    firstName: values['first-name'] ?? guessed.firstName,
    lastName: values['last-name'] ?? guessed.lastName,
  });
  if (!parsed.success) {
    const problems = Object.entries(fieldErrors(parsed.error)).map(([field, message]) => `  ${field}: ${message}`);
    fail(`Cannot create the user:\n${problems.join('\n')}\n${USAGE}`);
  }
  const input = parsed.data;

  const config = loadConfig();
  const { db, close } = connectDatabase(config.database);
  try {
    await migrateToLatest(db);
    if (await isEmailTaken(db, input.email)) fail(`A user with the email ${input.email} already exists.`);
    const now = new Date();
    const id = await insertUser(db, {
      ...input,
      passwordHash: input.password ? await hashPassword(input.password) : null,
      now,
    });
    process.stdout.write(
      `Created ${input.role} ${input.firstName} ${input.lastName} <${input.email}> (id ${id}) in ${config.database.engine === 'sqlite' ? config.databaseFile : 'PostgreSQL'}\n`,
    );
    if (!input.password) {
      const token = await issueOneTimeToken(db, { userId: id, purpose: 'access-link', ttlMs: ACCESS_LINK_TTL_MS, now });
      process.stdout.write(
        `No password given. Open this single-use link within 7 days to sign in and choose one:\n${config.appUrl}/u/${token}\n`,
      );
    }
  } finally {
    await close();
  }
}

await main();
