// The worker's entry: plain JavaScript, so it starts in any Node process (tsx or not, vitest
// included); it registers tsx in this thread and loads the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./render-worker.ts');
