import type { Migration } from 'kysely';
import * as m0001 from './0001_schema.ts';
import * as m0002 from './0002_auth_limits.ts';
import * as m0003 from './0003_list_order_indexes.ts';
import * as m0004 from './0004_sort_text_bytewise.ts';
import * as m0005 from './0005_observations.ts';
import * as m0006 from './0006_known_devices.ts';
import * as m0007 from './0007_refresh_successor.ts';
import * as m0008 from './0008_notice_to_driver.ts';
import * as m0009 from './0009_keeper_posting_day.ts';
import * as m0010 from './0010_operator_terms.ts';
import * as m0011 from './0011_keepers.ts';
import * as m0012 from './0012_payments.ts';
import * as m0013 from './0013_appeals.ts';
import * as m0014 from './0014_late_appeals.ts';
import * as m0015 from './0015_draft_reference.ts';
import * as m0016 from './0016_car_park_minimums.ts';
import * as m0018 from './0018_sent_documents.ts';
import * as m0017 from './0017_appeal_channels.ts';
import * as m0019 from './0019_first_seen_at.ts';
import * as m0020 from './0020_hire_and_named_driver.ts';
import * as m0021 from './0021_set_aside_appeals.ts';
import * as m0022 from './0022_payment_keys_and_overpayments.ts';
import * as m0023 from './0023_refresh_rotated_device.ts';
import * as m0024 from './0024_pending_appeals.ts';

/**
 * PostgreSQL's schema history up to the day one migration began serving both engines: it starts
 * from the end state of the SQLite set in ../sqlite/ and is frozen, never edited or added to.
 * New migrations live in ../index.ts.
 */
export const postgresMigrations: Record<string, Migration> = {
  '0001_schema': m0001,
  '0002_auth_limits': m0002,
  '0003_list_order_indexes': m0003,
  '0004_sort_text_bytewise': m0004,
  '0005_observations': m0005,
  '0006_known_devices': m0006,
  '0007_refresh_successor': m0007,
  '0008_notice_to_driver': m0008,
  '0009_keeper_posting_day': m0009,
  '0010_operator_terms': m0010,
  '0011_keepers': m0011,
  '0012_payments': m0012,
  '0013_appeals': m0013,
  '0014_late_appeals': m0014,
  '0015_draft_reference': m0015,
  '0016_car_park_minimums': m0016,
  '0018_sent_documents': m0018,
  '0017_appeal_channels': m0017,
  '0019_first_seen_at': m0019,
  '0020_hire_and_named_driver': m0020,
  '0021_set_aside_appeals': m0021,
  '0022_payment_keys_and_overpayments': m0022,
  '0023_refresh_rotated_device': m0023,
  '0024_pending_appeals': m0024,
};
