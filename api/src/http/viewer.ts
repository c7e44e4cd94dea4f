import type { Context } from 'hono';
import type { AppEnv } from '../app-env.ts';
import type { Viewer } from '../workflows/pcn-view.ts';

/** The signed-in caller and their session: photo URLs are signed for the session. */
export function viewerOf(c: Context<AppEnv>): Viewer {
  return { ...c.get('user'), sessionId: c.get('sessionId') };
}
