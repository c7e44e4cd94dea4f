import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encode } from 'jpeg-js';
import { createLocalDb } from '../../lib/local-db/database.ts';
import { createEmptyDraft } from '../../lib/local-db/drafts.ts';
import type { DraftRecord, LocalDb, PhotoRecord } from '../../lib/local-db/records.ts';
import type { OutboxLocks, SessionTokens, TokenProvider } from './outbox-sync.ts';

/** Test support for the outbox suites; never imported by app code. */

/** A fresh database per test, so fake-indexeddb state never leaks between cases. */
export function createTestDb(): LocalDb {
  return createLocalDb(`outbox-test-${randomUUID()}`);
}

/** Real JPEG bytes (a small gradient), so the server's content sniffing sees a genuine image. */
export function createJpegBytes(width = 64, height = 48, seed = 0): ArrayBuffer {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data[i] = (x * 4 + seed * 40) & 255;
      data[i + 1] = (y * 5) & 255;
      data[i + 2] = (seed * 70) & 255;
      data[i + 3] = 255;
    }
  }
  const { data: jpeg } = encode({ data, width, height }, 80);
  return jpeg.buffer.slice(jpeg.byteOffset, jpeg.byteOffset + jpeg.byteLength) as ArrayBuffer;
}

export async function addQueuedDraft(
  db: LocalDb,
  userId: string,
  overrides: Partial<DraftRecord> = {},
  photoCount = 4,
): Promise<DraftRecord> {
  const now = Date.now();
  const draft: DraftRecord = {
    ...createEmptyDraft(userId, randomUUID(), now),
    vehicleRegistration: 'AB12CDE',
    carParkId: 'car-park-1',
    offenceType: 'PARKING_WITHOUT_PERMIT',
    description: 'No permit displayed',
    location: 'Bay 12, level 2',
    noticeServedBy: 'AFFIXED',
    noticeServedAt: new Date(now).toISOString(),
    step: 3,
    state: 'queued',
    queuedAt: now,
    ...overrides,
  };
  await db.drafts.add(draft);
  for (let position = 0; position < photoCount; position++) {
    const bytes = createJpegBytes(64, 48, position);
    const photo: PhotoRecord = {
      id: randomUUID(),
      draftId: draft.id,
      bytes,
      type: 'image/jpeg',
      name: `photo-${position + 1}.jpg`,
      size: bytes.byteLength,
      takenAt: new Date(now - 60_000 + position * 1000).toISOString(),
      sha256: createHash('sha256').update(new Uint8Array(bytes)).digest('hex'),
      position,
      createdAt: now,
    };
    await db.photos.add(photo);
  }
  return draft;
}

/** Tokens held in memory, recording every save, as the page's session store would. */
export function createMemoryTokenProvider(initial: SessionTokens | null) {
  let current = initial;
  const saved: SessionTokens[] = [];
  const provider: TokenProvider & { saved: SessionTokens[]; set(tokens: SessionTokens | null): void } = {
    saved,
    async getTokens() {
      return current;
    },
    async saveTokens(tokens) {
      saved.push(tokens);
      current = tokens;
    },
    set(tokens) {
      current = tokens;
    },
  };
  return provider;
}

/** An exclusive lock manager shared by engines, standing in for navigator.locks across tabs. */
export function createExclusiveLocks(): OutboxLocks & { maxHolders: number } {
  const tails = new Map<string, Promise<unknown>>();
  let holders = 0;
  const locks = {
    maxHolders: 0,
    request<T>(name: string, callback: () => Promise<T>): Promise<T> {
      const previous = tails.get(name) ?? Promise.resolve();
      const result = previous.then(async () => {
        holders++;
        locks.maxHolders = Math.max(locks.maxHolders, holders);
        try {
          return await callback();
        } finally {
          holders--;
        }
      });
      tails.set(
        name,
        result.catch(() => undefined),
      );
      return result;
    },
  };
  return locks;
}

export type RecordedRequest = {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
};

export type ScriptedAnswer =
  { status: number; json?: unknown; text?: string; headers?: Record<string, string>; delayMs?: number } | 'destroy' | 'hang';

export type ScriptedHandler = (request: RecordedRequest) => ScriptedAnswer | Promise<ScriptedAnswer>;

/**
 * A real HTTP server on loopback whose answers each test scripts: statuses the real API cannot
 * be made to give on demand (500, 503, 429 with Retry-After, a captive portal's HTML), a socket
 * destroyed mid-request, an answer that never comes. The engine talks to it over real sockets.
 */
export async function startScriptedServer(handler: ScriptedHandler) {
  const requests: RecordedRequest[] = [];
  let current = handler;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A scripted handler that throws fails the test as an unhandled rejection, which vitest reports.
    req.on('end', () => void respond());
    async function respond() {
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(recorded);
      const answer = await current(recorded);
      if (answer === 'destroy') {
        req.socket.destroy();
        return;
      }
      if (answer === 'hang') return;
      if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
      const headers: Record<string, string> = { ...answer.headers };
      let body = answer.text ?? '';
      if (answer.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(answer.json);
      }
      res.writeHead(answer.status, headers);
      res.end(body);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api`,
    requests,
    setHandler(next: ScriptedHandler) {
      current = next;
    },
    pcnPosts: () => requests.filter((r) => r.method === 'POST' && r.path === '/api/pcns'),
    refreshPosts: () => requests.filter((r) => r.method === 'POST' && r.path === '/api/auth/refresh'),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type ScriptedServer = Awaited<ReturnType<typeof startScriptedServer>>;

export function createdPcnAnswer(draftId: string, pcnNumber = '00000001'): ScriptedAnswer {
  return { status: 201, json: { success: true, data: { id: `pcn-for-${draftId}`, pcnNumber } } };
}

export function failureAnswer(status: number, message: string, code: string, details?: Record<string, string>): ScriptedAnswer {
  return { status, json: { success: false, message, error: message, code, ...(details ? { details } : {}) } };
}
