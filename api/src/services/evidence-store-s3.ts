import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  paginateListObjectsV2,
  PutObjectCommand,
  S3Client,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import type { Config } from '../config.ts';
import {
  createDiskEvidenceStore,
  isStoredFileName,
  newEvidenceFileName,
  withThumbnails,
  type EvidenceStore,
  type OpenedEvidence,
  type SpooledEvidence,
  type SweepOptions,
} from './evidence-storage.ts';
import { isThumbnailFileName, originalOfThumbnail } from './thumbnails.ts';

export type S3EvidenceStoreOptions = {
  bucket: string;
  /** Key prefix without leading or trailing slash ('' for the bucket's root): objects are PREFIX/name. */
  prefix?: string;
  /**
   * Each of these, when given, wins over the SDK's usual sources (AWS_ACCESS_KEY_ID,
   * AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_ENDPOINT_URL_S3, ~/.aws): tests pass them explicitly.
   */
  region?: string;
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /**
   * A server of our own (endpoint set, here or by AWS_ENDPOINT_URL_S3) gets path-style
   * addressing (the bucket in the path, not the host name) and checksums only where S3 requires
   * them: servers such as Ceph's radosgw or older MinIO refuse the SDK's newer streamed ones.
   */
  isCustomEndpoint?: boolean;
};

export type S3EvidenceStore = EvidenceStore & { readonly client: S3Client; close(): void };

/** Deletes run a few at a time: one request per object, which every S3-compatible server accepts. */
const DELETE_CONCURRENCY = 8;

/**
 * Evidence photos as objects in an S3-compatible bucket (EVIDENCE_STORE=s3://BUCKET[/PREFIX]).
 * Uploads are single PutObject requests streamed from the spooled file (photos are at most
 * MAX_IMAGE_BYTES, far below S3's 5 GB single-request limit); a 200 answer means the object is
 * durably stored, so the row that names it may commit.
 */
export function createS3EvidenceStore(options: S3EvidenceStoreOptions): S3EvidenceStore {
  const { bucket } = options;
  const prefix = (options.prefix ?? '').replace(/^\/+|\/+$/g, '');
  const keyPrefix = prefix === '' ? '' : `${prefix}/`;
  const isCustomEndpoint = options.isCustomEndpoint ?? Boolean(options.endpoint ?? process.env.AWS_ENDPOINT_URL_S3);
  const client = new S3Client({
    ...(options.region !== undefined && { region: options.region }),
    ...(options.endpoint !== undefined && { endpoint: options.endpoint }),
    ...(options.credentials !== undefined && { credentials: options.credentials }),
    ...(isCustomEndpoint && {
      forcePathStyle: true,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    }),
  });

  function keyOf(fileName: string): string {
    if (!isStoredFileName(fileName)) throw new Error(`Refusing evidence file name ${JSON.stringify(fileName)}`);
    return `${keyPrefix}${fileName}`;
  }

  async function deleteOne(fileName: string): Promise<void> {
    // S3 answers 204 for a key that is not there: a retried delete succeeds.
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(fileName) }));
  }

  async function deleteAll(fileNames: readonly string[]): Promise<void> {
    const names = withThumbnails(fileNames);
    for (const name of names) keyOf(name);
    for (let start = 0; start < names.length; start += DELETE_CONCURRENCY) {
      await Promise.all(names.slice(start, start + DELETE_CONCURRENCY).map(deleteOne));
    }
  }

  async function getObject(fileName: string): Promise<GetObjectCommandOutput | null> {
    if (!isStoredFileName(fileName)) return null;
    try {
      return await client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(fileName) }));
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async function putOne(file: SpooledEvidence, fileName: string): Promise<void> {
    const size = file.size ?? (await stat(file.tempPath)).size;
    const body = createReadStream(file.tempPath);
    try {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: keyOf(fileName),
          Body: body,
          ContentLength: size,
          ...(file.mimeType !== undefined && { ContentType: file.mimeType }),
        }),
      );
    } finally {
      body.destroy();
    }
  }

  return {
    location: `s3://${bucket}${prefix === '' ? '' : `/${prefix}`}`,
    client,
    close: () => client.destroy(),

    async place(files: ReadonlyArray<SpooledEvidence>): Promise<string[]> {
      const placed: string[] = [];
      try {
        for (const file of files) {
          const fileName = newEvidenceFileName(file.extension);
          // Counted before the upload: a PutObject that failed after the server stored it is removed too.
          placed.push(fileName);
          await putOne(file, fileName);
        }
        return placed;
      } catch (error) {
        await deleteAll(placed).catch(() => undefined);
        throw error;
      }
    },

    async put(fileName: string, bytes: Uint8Array, mimeType: string): Promise<void> {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: keyOf(fileName), Body: bytes, ContentType: mimeType }));
    },

    delete: deleteAll,

    async open(fileName: string): Promise<OpenedEvidence | null> {
      const object = await getObject(fileName);
      if (!object?.Body) return null;
      // Streamed, never buffered: the web stream pulls from the HTTP response as the client reads,
      // and cancelling it (the client went away) destroys the socket's stream.
      const stream = object.Body.transformToWebStream() as ReadableStream<Uint8Array>;
      return { stream, size: object.ContentLength ?? 0 };
    },

    async read(fileName: string): Promise<Uint8Array | null> {
      const object = await getObject(fileName);
      if (!object?.Body) return null;
      return object.Body.transformToByteArray();
    },

    async sweepOrphans({ olderThan, findKnown }: SweepOptions): Promise<string[]> {
      const removed: string[] = [];
      for await (const page of paginateListObjectsV2({ client }, { Bucket: bucket, Prefix: keyPrefix })) {
        // Only our own names directly under the prefix, and only those stored before `olderThan`:
        // another process may be between its upload and its commit right now.
        const old = (page.Contents ?? [])
          .filter((object) => object.Key !== undefined && object.LastModified !== undefined && object.LastModified < olderThan)
          .map((object) => object.Key!.slice(keyPrefix.length))
          .filter(isStoredFileName);
        if (old.length === 0) continue;
        // A thumbnail goes with its original: kept while a row names the original.
        const originalOf = (name: string) => (isThumbnailFileName(name) ? originalOfThumbnail(name) : name);
        const known = await findKnown([...new Set(old.map(originalOf))]);
        const orphans = old.filter((name) => !known.has(originalOf(name)));
        await deleteAll(orphans);
        removed.push(...orphans);
      }
      return removed;
    },
  };
}

/** The store the configuration names: the bucket of EVIDENCE_STORE, or the uploads folder. */
export function createConfiguredEvidenceStore(config: Pick<Config, 'uploadsDir' | 'evidenceStore'>): EvidenceStore {
  const target = config.evidenceStore;
  if (target.kind === 'disk') return createDiskEvidenceStore(config.uploadsDir);
  return createS3EvidenceStore({
    bucket: target.bucket,
    prefix: target.prefix,
    ...(target.endpoint !== undefined && { endpoint: target.endpoint }),
  });
}

/** A missing object, not a missing bucket (that is a configuration error and must show as one). */
function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  return e?.name === 'NoSuchKey' || (e?.$metadata?.httpStatusCode === 404 && e.name !== 'NoSuchBucket');
}
