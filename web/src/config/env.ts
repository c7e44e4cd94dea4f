import { DEFAULT_PRODUCT_NAME, productTitle } from '@parkpatrol/shared';

// import.meta.env is undefined when a module runs under plain Node (vitest in the node
// environment), so every read is guarded.
const env: Partial<ImportMetaEnv> = import.meta.env ?? {};

export const PRODUCT_NAME = env.VITE_PRODUCT_NAME || DEFAULT_PRODUCT_NAME;
export const PRODUCT_TITLE = productTitle(PRODUCT_NAME);
export const API_URL = env.VITE_API_URL || '/api';
