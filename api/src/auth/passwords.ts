import argon2 from 'argon2';

type HashOptions = { type: typeof argon2.argon2id; memoryCost?: number; timeCost?: number; parallelism?: number };

/**
 * PASSWORD_HASH_COST=test: the least memory and passes argon2id takes (1 MiB, one pass, one lane),
 * for test suites alone, which sign in thousands of times. At the library's defaults each hash
 * costs about a fifth of a second of both cores. Refused where NODE_ENV is production (decision
 * 0051).
 */
export const TEST_HASH_COST = 'test';

/** argon2id with the library's current defaults: a memory-hard hash, tuned by its maintainers. */
export function passwordHashOptions(env: NodeJS.ProcessEnv): HashOptions {
  const cost = env.PASSWORD_HASH_COST;
  if (cost === undefined || cost === '') return { type: argon2.argon2id };
  if (cost !== TEST_HASH_COST) {
    throw new Error(`Invalid configuration: PASSWORD_HASH_COST: leave it unset; only the test suites set it (to ${TEST_HASH_COST})`);
  }
  if (env.NODE_ENV === 'production') {
    throw new Error('Invalid configuration: PASSWORD_HASH_COST: the test suites\u2019 weak password hashes are refused in production');
  }
  return { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 };
}

let options: HashOptions | undefined;
/** Read once, at the first hash: loadConfig has checked the same variable at start. */
function currentOptions(): HashOptions {
  options ??= passwordHashOptions(process.env);
  return options;
}

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, currentOptions());
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** True when the stored hash was made with other parameters than today's. */
export function passwordNeedsRehash(hash: string): boolean {
  const { type: _type, ...parameters } = currentOptions();
  return argon2.needsRehash(hash, parameters);
}

/**
 * A real hash of a random password, computed once, so a login for an unknown email takes as
 * long as one for a known email with a wrong password (no account enumeration by timing).
 */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(`dummy-${Math.random()}`);
  return dummyHash;
}
