import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, unlink } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { Busboy, type BusboyInstance } from '@fastify/busboy';
import { newSpoolPath } from './evidence-storage.ts';

/**
 * Multipart parsing that never holds a photo in memory. `Request.formData()` (and Hono's body
 * limit in front of a chunked body) keep the whole body in memory: a 200 MB chunked upload
 * raised the server by 200 MB before it was cut. Here each file streams straight to a
 * temporary file in the uploads folder, hashed on the way, so memory stays at the parser's
 * buffers whatever is sent; every limit is enforced as the bytes arrive and stops the read.
 */
export type SpooledFile = {
  /** Temporary file (0600) in the uploads folder; renamed into place or removed by the caller. */
  tempPath: string;
  name: string;
  size: number;
  sha256: string;
  /** The first SPOOL_HEAD_BYTES (or the whole file, when shorter): its real type, and a photo's declared size, are read from them. */
  head: Uint8Array;
};

export type SpooledForm = {
  fields: Map<string, string[]>;
  files: SpooledFile[];
};

export type SpoolLimits = {
  /** The whole body, framing included. */
  maxBodyBytes: number;
  maxFileBytes: number;
  maxFiles: number;
  maxFieldBytes: number;
  maxFields: number;
  /** All text fields together: they are the one part held in memory. */
  maxFieldsTotalBytes: number;
};

export type SpoolProblem = 'body-too-large' | 'file-too-large' | 'too-many-files' | 'field-too-large' | 'too-many-fields' | 'malformed';

/** A refusal found while reading; the route turns it into the envelope. */
export class SpoolError extends Error {
  readonly problem: SpoolProblem;
  constructor(problem: SpoolProblem, options?: { cause?: unknown }) {
    super(`multipart refused: ${problem}`, options);
    this.problem = problem;
    this.name = 'SpoolError';
  }
}

/** Enough for a photo's header as phones write it, so it is not opened again to be measured. */
export const SPOOL_HEAD_BYTES = 64 * 1024;

export async function spoolMultipart(
  request: Request,
  options: { dir: string; fileField: string; limits: SpoolLimits },
): Promise<SpooledForm> {
  const { dir, fileField, limits } = options;
  const contentType = request.headers.get('content-type') ?? '';
  if (!request.body) throw new SpoolError('malformed');
  await mkdir(dir, { recursive: true, mode: 0o700 });

  const fields = new Map<string, string[]>();
  const files: SpooledFile[] = [];
  const tempPaths: string[] = [];
  const writes: Array<Promise<void>> = [];
  const outs: Array<import('node:fs').WriteStream> = [];

  let parser: BusboyInstance;
  try {
    parser = Busboy({
      headers: { 'content-type': contentType },
      // One byte over each limit, so a file of exactly the limit passes and the next byte trips it.
      limits: { fileSize: limits.maxFileBytes + 1, files: limits.maxFiles, fieldSize: limits.maxFieldBytes, fields: limits.maxFields },
    });
  } catch (error) {
    throw new SpoolError('malformed', { cause: error });
  }

  let bodyBytes = 0;
  let fieldBytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bodyBytes += chunk.length;
      if (bodyBytes > limits.maxBodyBytes) callback(new SpoolError('body-too-large'));
      else callback(null, chunk);
    },
  });
  const input = Readable.fromWeb(request.body as import('node:stream/web').ReadableStream<Uint8Array>);

  const done = new Promise<void>((resolve, reject) => {
    let isSettled = false;
    const fail = (error: unknown) => {
      if (isSettled) return;
      isSettled = true;
      input.unpipe(counter);
      counter.unpipe(parser);
      // Stop reading: the rest of an oversized body is never pulled into the process.
      input.destroy();
      counter.destroy();
      for (const out of outs) out.destroy();
      reject(error instanceof SpoolError ? error : new SpoolError('malformed', { cause: error }));
    };

    parser.on('field', (rawName, rawValue, _isNameTruncated, isValueTruncated) => {
      // A part without a name (or a value busboy could not decode) comes through as undefined.
      const name = rawName ?? '';
      const value = rawValue ?? '';
      fieldBytes += name.length + value.length;
      if (isValueTruncated || fieldBytes > limits.maxFieldsTotalBytes) return fail(new SpoolError('field-too-large'));
      const values = fields.get(name) ?? [];
      values.push(value);
      fields.set(name, values);
    });
    parser.on('file', (name, stream, filename) => {
      // A body that ends inside a part fails that part's stream ('Unexpected end of multipart
      // data'): without a listener here it would be an uncaught exception, not a 400.
      stream.on('error', fail);
      if (isSettled || name !== fileField) {
        stream.resume();
        return;
      }
      const tempPath = newSpoolPath(dir);
      tempPaths.push(tempPath);
      const hash = createHash('sha256');
      // Only the bytes written are ever read (the subarray below).
      const head = Buffer.allocUnsafe(SPOOL_HEAD_BYTES);
      let size = 0;
      let isClosed = false;
      stream.on('data', (chunk: Buffer) => {
        // A refused upload closes the file while the parser may still hand over a chunk.
        if (isClosed) return;
        if (size < SPOOL_HEAD_BYTES) chunk.copy(head, size, 0, Math.min(chunk.length, SPOOL_HEAD_BYTES - size));
        size += chunk.length;
        hash.update(chunk);
      });
      stream.on('limit', () => fail(new SpoolError('file-too-large')));
      const out = createWriteStream(tempPath, { flags: 'wx', mode: 0o600 });
      outs.push(out);
      writes.push(
        new Promise<void>((resolveWrite, rejectWrite) => {
          out.on('error', rejectWrite);
          out.on('close', () => {
            isClosed = true;
            files.push({
              tempPath,
              name: filename ?? '',
              size,
              sha256: hash.digest('hex'),
              head: head.subarray(0, Math.min(size, SPOOL_HEAD_BYTES)),
            });
            resolveWrite();
          });
        }),
      );
      stream.pipe(out);
    });
    parser.on('filesLimit', () => fail(new SpoolError('too-many-files')));
    parser.on('fieldsLimit', () => fail(new SpoolError('too-many-fields')));
    parser.on('error', fail);
    counter.on('error', fail);
    input.on('error', fail);
    parser.on('finish', () => {
      if (isSettled) return;
      isSettled = true;
      resolve();
    });
    input.pipe(counter).pipe(parser);
  });

  try {
    await done;
    await Promise.all(writes);
  } catch (error) {
    await Promise.allSettled(writes);
    await discardSpooledFiles(tempPaths);
    throw error;
  }
  // Parts arrive in order, but a later small file can finish writing first.
  files.sort((a, b) => tempPaths.indexOf(a.tempPath) - tempPaths.indexOf(b.tempPath));
  return { fields, files };
}

/**
 * Removes temporary files; ones already renamed into place (or gone) are fine. An unlink, not
 * `rm`: after every stored upload each of these is gone, and `rm` looks at a path (lstat) before
 * it removes it, 4% of an upload's time.
 */
export async function discardSpooledFiles(tempPaths: readonly string[]): Promise<void> {
  await Promise.all(
    tempPaths.map((path) =>
      unlink(path).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      }),
    ),
  );
}
