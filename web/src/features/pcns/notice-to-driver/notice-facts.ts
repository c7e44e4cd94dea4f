import {
  draftFirstSeenAt,
  draftReference,
  noticeToDriverProblems,
  OFFENCE_TYPE_LABELS,
  normaliseRegistration,
  pcnTitle,
  type CarPark,
  type CarParkTerms,
  type NoticeServedBy,
  type NoticeToDriverFacts,
  type OffenceType,
  type OperatorTerms,
  type Pcn,
} from '@parkpatrol/shared';
import type { PcnDraft } from '../pcn-draft.ts';

/** What the print panel is given: the facts to print, or why the notice cannot be printed. */
export type NoticeToPrint = { facts: NoticeToDriverFacts; problems: [] } | { facts: null; problems: string[] };

export type NoticeCarPark = { name: string; address?: string; postcode?: string; terms?: CarParkTerms };

/**
 * What a notice to driver is drawn from before the server has the notice: the form's draft on
 * Review & Submit, or the outbox's row of a notice filed and not sent yet. Both carry the
 * draft's id, so both print the same draft reference, the one the server keeps.
 */
export type NoticeDraft = Pick<
  PcnDraft,
  'id' | 'vehicleRegistration' | 'description' | 'noticeServedBy' | 'noticeServedAt' | 'firstSeenAt' | 'observedAt' | 'pcnNumber'
> & { offenceType: string; createdAt: string | number };

/** A notice to driver is printed for a notice fixed to the vehicle or handed over; a driver who left got none. */
export function isServedToDriver(servedBy: NoticeServedBy | null | undefined): servedBy is 'AFFIXED' | 'HANDED' {
  return servedBy === 'AFFIXED' || servedBy === 'HANDED';
}

/** A car park from the phone's copy (lib/filing-data.ts) as a notice prints it; a copy kept before the terms existed has none. */
export function noticeCarParkOf(carPark: CarPark): NoticeCarPark {
  return {
    name: carPark.name,
    address: carPark.address,
    postcode: carPark.postcode,
    ...(carPark.chargePence !== undefined && {
      terms: {
        chargePence: carPark.chargePence,
        reducedChargePence: carPark.reducedChargePence,
        reducedWithinDays: carPark.reducedWithinDays,
        signageTerms: carPark.signageTerms,
        jurisdiction: carPark.jurisdiction,
      },
    }),
  };
}

function offenceLabel(offenceType: string): string {
  return OFFENCE_TYPE_LABELS[offenceType as OffenceType] ?? offenceType;
}

/** From the draft (or the outbox's notice), the car park and operator terms kept on the phone: works with no signal. */
export function noticeFromDraft(draft: NoticeDraft, carPark: NoticeCarPark | undefined, operator: OperatorTerms | null): NoticeToPrint {
  if (!isServedToDriver(draft.noticeServedBy)) {
    return {
      facts: null,
      problems: ['Choose how the notice was served first: a notice to driver is fixed to the vehicle or handed over.'],
    };
  }
  const carParkTerms = carPark?.terms ?? null;
  const problems = noticeToDriverProblems({ carParkTerms, operator });
  if (problems.length > 0 || !carParkTerms || !operator || !carPark) return { facts: null, problems };
  return {
    facts: {
      // A notice not yet sent has no number: it prints its draft reference, which the motorist
      // can look the charge up by once the notice reaches the server.
      reference: draft.pcnNumber ? pcnTitle(draft.pcnNumber) : draftReference(draft.id),
      vehicleRegistration: normaliseRegistration(draft.vehicleRegistration),
      carPark: { name: carPark.name, address: carPark.address ?? '', postcode: carPark.postcode ?? '' },
      firstSeenAt: draftFirstSeenAt(draft),
      servedAt: draft.noticeServedAt ?? new Date().toISOString(),
      servedBy: draft.noticeServedBy,
      contravention: offenceLabel(draft.offenceType),
      description: draft.description,
      carParkTerms,
      operator,
      lookupUrl: chargePageUrl(),
    },
    problems: [],
  };
}

/** The motorist's page on this app's own address, which the officer's phone already knows. */
function chargePageUrl(): string {
  return `${globalThis.location?.origin ?? ''}/charge`;
}

/** What the printed QR code opens: the charge's page with its reference (the number, or the draft reference) filled in. */
export function qrCodeTarget(facts: { lookupUrl: string; reference: string }): string {
  return `${facts.lookupUrl}?ref=${encodeURIComponent(facts.reference)}`;
}

/** From a sent notice, with the terms in force when it was issued (decision 0017). */
export function noticeFromPcn(pcn: Pcn, carPark: { address: string; postcode: string } | undefined): NoticeToPrint {
  const served = pcn.noticeToDriver;
  if (!served || served.servedBy === 'DRIVE_OFF') {
    return { facts: null, problems: ['No notice to driver was given: the driver left before it could be served.'] };
  }
  const carParkTerms = pcn.terms?.carPark ?? null;
  const operator = pcn.terms?.operator ?? null;
  const problems = noticeToDriverProblems({ carParkTerms, operator });
  if (problems.length > 0 || !carParkTerms || !operator) return { facts: null, problems };
  return {
    facts: {
      reference: pcnTitle(pcn.pcnNumber),
      vehicleRegistration: pcn.vehicleRegistration,
      carPark: { name: pcn.carPark?.name ?? '', address: carPark?.address ?? '', postcode: carPark?.postcode ?? '' },
      firstSeenAt: pcn.firstSeenAt ?? pcn.observedAt ?? served.servedAt,
      servedAt: served.servedAt,
      servedBy: served.servedBy,
      contravention: offenceLabel(pcn.offenceType),
      description: pcn.description,
      carParkTerms,
      operator,
      lookupUrl: chargePageUrl(),
    },
    problems: [],
  };
}
