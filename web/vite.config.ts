import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The product name is branded at build time (PRODUCT_NAME, default ParkPatrol).
const productName = process.env.PRODUCT_NAME ?? 'ParkPatrol';

export default defineConfig({
  plugins: [
    react(),
    // PWA: the offline issue adds vite-plugin-pwa (injectManifest, src/sw.ts) here.
  ],
  define: {
    'import.meta.env.VITE_PRODUCT_NAME': JSON.stringify(productName),
  },
  server: {
    proxy: { '/api': 'http://localhost:8000' },
  },
  build: {
    sourcemap: false,
    target: 'es2022',
  },
});
