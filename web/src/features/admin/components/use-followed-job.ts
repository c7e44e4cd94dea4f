import { useEffect, useRef, useState } from 'react';

/** Where a piece of work the server's jobs make stands: letters, a hand-over to the agency. */
export type FollowedJob = { id: string; state: 'WAITING' | 'MAKING' | 'READY' | 'FAILED' };

/** How often work being made is asked about: often enough that its count moves as it is made. */
const FOLLOW_EVERY_MS = 1000;

export function isJobFinished(job: FollowedJob): boolean {
  return job.state === 'READY' || job.state === 'FAILED';
}

/**
 * Follows work being made by the server's job: asks where it stands (`read`) every second until
 * it is ready or failed, then calls `onFinished` once. A question that fails is asked again; the
 * work goes on without the screen.
 */
export function useFollowedJob<T extends FollowedJob>(
  started: T | null,
  read: (id: string) => Promise<T>,
  onFinished: (job: T) => void,
): T | null {
  const [job, setJob] = useState(started);
  const readRef = useRef(read);
  readRef.current = read;
  const onFinishedRef = useRef(onFinished);
  onFinishedRef.current = onFinished;
  useEffect(() => {
    setJob(started);
    if (!started) return;
    let isCurrent = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      const now = await readRef.current(started.id).catch(() => null);
      if (!isCurrent) return;
      if (now) setJob(now);
      if (now && isJobFinished(now)) onFinishedRef.current(now);
      else timer = setTimeout(() => void ask(), FOLLOW_EVERY_MS);
    };
    timer = setTimeout(() => void ask(), isJobFinished(started) ? 0 : FOLLOW_EVERY_MS / 4);
    return () => {
      isCurrent = false;
      clearTimeout(timer);
    };
  }, [started]);
  return job;
}
