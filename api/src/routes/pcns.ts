import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../app-env.ts';

export function createPcnRoutes(deps: AppDeps) {
  void deps;
  return new Hono<AppEnv>();
}
