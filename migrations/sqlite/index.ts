import type { Migration } from 'kysely';
import * as m0001 from './0001_init.ts';
import * as m0002 from './0002_pcn_owner_status_index.ts';
import * as m0003 from './0003_evidence.ts';
import * as m0004 from './0004_keeper_queue_index.ts';
import * as m0005 from './0005_pcn_counts.ts';
import * as m0006 from './0006_pcn_search.ts';
import * as m0007 from './0007_refresh_grace.ts';
import * as m0008 from './0008_evidence_retention.ts';
import * as m0009 from './0009_auth_limits.ts';
import * as m0010 from './0010_list_order_indexes.ts';
import * as m0011 from './0011_observations.ts';
import * as m0012 from './0012_known_devices.ts';
import * as m0013 from './0013_refresh_successor.ts';
import * as m0014 from './0014_notice_to_driver.ts';
import * as m0015 from './0015_keeper_posting_day.ts';
import * as m0016 from './0016_operator_terms.ts';
import * as m0017 from './0017_keepers.ts';
import * as m0018 from './0018_payments.ts';
import * as m0019 from './0019_appeals.ts';
import * as m0020 from './0020_late_appeals.ts';
import * as m0021 from './0021_draft_reference.ts';
import * as m0022 from './0022_car_park_minimums.ts';
import * as m0024 from './0024_sent_documents.ts';
import * as m0023 from './0023_appeal_channels.ts';
import * as m0025 from './0025_first_seen_at.ts';
import * as m0026 from './0026_hire_and_named_driver.ts';
import * as m0027 from './0027_set_aside_appeals.ts';
import * as m0028 from './0028_payment_keys_and_overpayments.ts';
import * as m0029 from './0029_refresh_rotated_device.ts';
import * as m0030 from './0030_pending_appeals.ts';

/**
 * SQLite's schema history up to the day one migration began serving both engines: frozen, never
 * edited or added to. New migrations live in ../index.ts.
 */
export const sqliteMigrations: Record<string, Migration> = {
  '0001_init': m0001,
  '0002_pcn_owner_status_index': m0002,
  '0003_evidence': m0003,
  '0004_keeper_queue_index': m0004,
  '0005_pcn_counts': m0005,
  '0006_pcn_search': m0006,
  '0007_refresh_grace': m0007,
  '0008_evidence_retention': m0008,
  '0009_auth_limits': m0009,
  '0010_list_order_indexes': m0010,
  '0011_observations': m0011,
  '0012_known_devices': m0012,
  '0013_refresh_successor': m0013,
  '0014_notice_to_driver': m0014,
  '0015_keeper_posting_day': m0015,
  '0016_operator_terms': m0016,
  '0017_keepers': m0017,
  '0018_payments': m0018,
  '0019_appeals': m0019,
  '0020_late_appeals': m0020,
  '0021_draft_reference': m0021,
  '0022_car_park_minimums': m0022,
  '0024_sent_documents': m0024,
  '0023_appeal_channels': m0023,
  '0025_first_seen_at': m0025,
  '0026_hire_and_named_driver': m0026,
  '0027_set_aside_appeals': m0027,
  '0028_payment_keys_and_overpayments': m0028,
  '0029_refresh_rotated_device': m0029,
  '0030_pending_appeals': m0030,
};
