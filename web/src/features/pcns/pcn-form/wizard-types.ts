import type { RefObject } from 'react';
import type { ObservationCarPark } from '../evidence/observation-rules.ts';
import type { NoticeCarPark } from '../notice-to-driver/notice-facts.ts';
import type { PcnDraftFields } from '../pcn-draft.ts';

/*
 * The types the wizard and its steps share, apart from the wizard so that a step importing them
 * does not import the wizard that imports it.
 */

/** The stay settings are missing only for an edited PCN's car park the officer no longer has. */
export type CarParkOption = { id: string; name: string } & Partial<ObservationCarPark> & Omit<NoticeCarPark, 'name'>;

/** Each field's element, so a step can move focus to the first field in error. */
export type FieldRefs = Record<
  keyof PcnDraftFields | 'images' | 'permitOverrideReason' | 'noticeServedBy' | 'firstSeenAt',
  RefObject<HTMLElement | null>
>;
