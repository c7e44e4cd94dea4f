import { hasLeadingZeroBits, lookupChallengeBits, lookupProofOf } from '@parkpatrol/shared';

/**
 * The check a lookup past its free tries must show (LOOKUP_CHALLENGE_HEADER): the first number
 * whose proof's SHA-256 starts with the zero bits the challenge demands, 2^14 hashes or so, up to
 * 2^18 while a reference or plate is being walked. SHA-256 is written out here rather than asked
 * of crypto.subtle: that is one promise per hash (thousands a second, minutes at 2^18 on a phone),
 * and missing where the page is not served securely. The challenge's own bytes are hashed once;
 * each number then costs one or two blocks.
 */
export async function solveLookupChallenge(challenge: string): Promise<string> {
  const bits = lookupChallengeBits(challenge);
  if (bits === null) throw new Error('not a lookup challenge');
  // The proof with its number left off: the part every try shares.
  const prefix = new TextEncoder().encode(lookupProofOf(challenge, 0).slice(0, -1));
  const fullBlocks = Math.floor(prefix.length / 64);
  const words = new Uint32Array(64);
  const midstate = Uint32Array.from(INITIAL_STATE);
  for (let block = 0; block < fullBlocks; block++) compress(midstate, prefix, block * 64, words);
  const rest = prefix.subarray(fullBlocks * 64);
  const tail = new Uint8Array(128);
  const state = new Uint32Array(8);
  const firstWordBits = Math.min(bits, 32);
  for (let nonce = 0; ; nonce++) {
    // A breath now and then, so the page can still show it is checking.
    if (nonce > 0 && nonce % 32_768 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    const digits = String(nonce);
    const length = rest.length + digits.length;
    tail.fill(0);
    tail.set(rest);
    for (let i = 0; i < digits.length; i++) tail[rest.length + i] = digits.charCodeAt(i);
    tail[length] = 0x80;
    const blocks = length + 9 <= 64 ? 1 : 2;
    const messageBits = (prefix.length + digits.length) * 8;
    const end = blocks * 64;
    tail[end - 4] = messageBits >>> 24;
    tail[end - 3] = (messageBits >>> 16) & 0xff;
    tail[end - 2] = (messageBits >>> 8) & 0xff;
    tail[end - 1] = messageBits & 0xff;
    state.set(midstate);
    compress(state, tail, 0, words);
    if (blocks === 2) compress(state, tail, 64, words);
    if (Math.clz32(state[0]!) >= firstWordBits && hasLeadingZeroBits(bytesOf(state), bits)) return lookupProofOf(challenge, nonce);
  }
}

const INITIAL_STATE = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

const ROUND_CONSTANTS = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
  0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
  0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
  0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
  0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
  0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/** One SHA-256 block (FIPS 180-4, section 6.2.2) folded into `state`. */
function compress(state: Uint32Array, bytes: Uint8Array, offset: number, w: Uint32Array): void {
  for (let i = 0; i < 16; i++) {
    const at = offset + i * 4;
    w[i] = (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
  }
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15]!;
    const b = w[i - 2]!;
    const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
    const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
  let [a, b, c, d, e, f, g, h] = state as unknown as [number, number, number, number, number, number, number, number];
  for (let i = 0; i < 64; i++) {
    const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + ROUND_CONSTANTS[i]! + w[i]!) | 0;
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = state[0]! + a;
  state[1] = state[1]! + b;
  state[2] = state[2]! + c;
  state[3] = state[3]! + d;
  state[4] = state[4]! + e;
  state[5] = state[5]! + f;
  state[6] = state[6]! + g;
  state[7] = state[7]! + h;
}

function bytesOf(state: Uint32Array): Uint8Array {
  const bytes = new Uint8Array(32);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < 8; i++) view.setUint32(i * 4, state[i]!);
  return bytes;
}
