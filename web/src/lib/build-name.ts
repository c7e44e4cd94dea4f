/**
 * Which code this page runs, named by the built file that holds this module (`start-<hash>`).
 * Not the deploy's id: written into the code, that id would change a file every officer
 * downloads at each deploy, an admin screen's included. The name carries the hash of the file's
 * content, so any build whose source maps hold its map is the one to read an error report with.
 */
export const BUILD_NAME = new URL(import.meta.url).pathname.split('/').pop()?.replace(/\.js$/, '') || 'dev';
