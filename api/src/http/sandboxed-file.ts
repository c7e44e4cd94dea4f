/**
 * The policy of a file someone else made (a motorist's attachment, a kept letter): nothing in
 * it may run, load or be framed, whatever its type claims. The app's own policy, written after
 * the handler, leaves this one in place (see app.ts).
 */
export const SANDBOXED_FILE_POLICY = "default-src 'none'; object-src 'none'; frame-ancestors 'none'; sandbox";
