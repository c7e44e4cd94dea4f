// After `vite build`: writes a brotli (.br) and a gzip (.gz) copy beside every text file in dist/,
// so the server sends compressed bytes without compressing on each request (Hono's serveStatic
// picks the copy by Accept-Encoding). Officers load the app over one bar of signal: brotli at
// its best setting costs seconds once at build time and saves a fifth of the bytes on every
// first visit. A copy that would not be smaller is not written.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join, relative, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const TEXT_EXTENSIONS = new Set(['.html', '.js', '.mjs', '.css', '.svg', '.webmanifest', '.json', '.txt']);
// The web app's dist/ unless a folder is named (the API's tests precompress a folder of their own).
const dist = process.argv[2] ? resolve(process.argv[2]) : join(import.meta.dirname, '..', 'dist');

function* textFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    // dist/.vite holds the build manifest for the benchmarks; it is never served.
    if (entry.isDirectory()) {
      if (entry.name !== '.vite') yield* textFiles(path);
    } else if (TEXT_EXTENSIONS.has(extname(entry.name))) {
      yield path;
    }
  }
}

let files = 0;
let raw = 0;
let brotli = 0;
for (const path of textFiles(dist)) {
  const bytes = readFileSync(path);
  const br = brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });
  const gz = gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION });
  if (br.length < bytes.length) writeFileSync(`${path}.br`, br);
  if (gz.length < bytes.length) writeFileSync(`${path}.gz`, gz);
  files += 1;
  raw += bytes.length;
  brotli += Math.min(br.length, bytes.length);
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`precompressed ${files} files in ${relative(process.cwd(), dist) || 'dist'}: ${kb(raw)} -> ${kb(brotli)} brotli`);
