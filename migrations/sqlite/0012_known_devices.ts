import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// Devices that signed in before (docs/security.md, "The third outside attack", finding 6): a
// successful sign-in hands the app a device token, kept on the phone; once an account has had
// many failed guesses from anywhere, only a guess carrying one of its device tokens is checked.
// Only the token's hash is kept. `last_used_at` bounds its life, and orders which to forget
// when an account has too many.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('known_devices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('known_devices_user_used').on('known_devices').columns(['user_id', 'last_used_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('known_devices').execute();
}
