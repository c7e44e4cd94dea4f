// @ts-expect-error: a plain .mjs script without types; it starts a throwaway S3-compatible server on loopback.
import { start as startRadosgw } from '../../../scripts/services/radosgw.mjs';

/** What a test needs to reach the S3-compatible server: the same names the API reads at start. */
export type S3ServerEnv = {
  AWS_ACCESS_KEY_ID: string;
  AWS_SECRET_ACCESS_KEY: string;
  AWS_REGION: string;
  AWS_ENDPOINT_URL_S3: string;
  S3_BUCKET: string;
};

export type S3Server = { env: S3ServerEnv; stop: () => Promise<void> };

/**
 * A real S3-compatible server for a test file (Ceph's radosgw on loopback, never a mock).
 * `npm run test:postgres` starts one radosgw for the whole run and passes it as TEST_S3_* (so
 * the files that need one share it instead of each starting a Ceph cluster on two cores);
 * otherwise the file starts its own and stops it after. Tests keep apart by key prefix.
 */
export async function useS3Server(): Promise<S3Server> {
  const shared = process.env.TEST_S3_ENDPOINT;
  if (shared) {
    return {
      env: {
        AWS_ACCESS_KEY_ID: process.env.TEST_S3_ACCESS_KEY_ID ?? '',
        AWS_SECRET_ACCESS_KEY: process.env.TEST_S3_SECRET_ACCESS_KEY ?? '',
        AWS_REGION: process.env.TEST_S3_REGION ?? 'us-east-1',
        AWS_ENDPOINT_URL_S3: shared,
        S3_BUCKET: process.env.TEST_S3_BUCKET ?? '',
      },
      stop: async () => undefined,
    };
  }
  const started = (await startRadosgw()) as { env: S3ServerEnv; stop: () => Promise<void> };
  return { env: started.env, stop: () => started.stop() };
}
