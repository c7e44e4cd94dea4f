import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../app-env.ts';

export function createUserRoutes(deps: AppDeps) {
  void deps;
  return new Hono<AppEnv>();
}
