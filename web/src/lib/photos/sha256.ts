/**
 * Hex SHA-256 of a photo's bytes, taken when it is stored: the server computes the same digest,
 * so an upload damaged on the way can be told from the one the officer took.
 */
export async function sha256Hex(bytes: ArrayBuffer | ArrayBufferView): Promise<string> {
  const view = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const digest = await crypto.subtle.digest('SHA-256', view as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
