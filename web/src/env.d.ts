/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Branded at build time from PRODUCT_NAME (vite.config.ts). */
  readonly VITE_PRODUCT_NAME: string;
  /** Base address of the API; same origin '/api' unless an operator splits them. */
  readonly VITE_API_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
