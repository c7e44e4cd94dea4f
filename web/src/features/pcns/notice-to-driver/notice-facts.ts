import {
  draftFirstSeenAt,
  draftReference,
  noticeToDriverProblems,
  OFFENCE_TYPE_LABELS,
  normaliseRegistration,
  pcnTitle,
  type CarParkTerms,
  type NoticeToDriverFacts,
  type OffenceType,
  type OperatorTerms,
  type Pcn,
} from '@parkpatrol/shared';
import type { PcnDraft } from '../pcn-draft.ts';

/** What the print panel is given: the facts to print, or why the notice cannot be printed. */
export type NoticeToPrint = { facts: NoticeToDriverFacts; problems: [] } | { facts: null; problems: string[] };

export type NoticeCarPark = { name: string; address?: string; postcode?: string; terms?: CarParkTerms };

function offenceLabel(offenceType: string): string {
  return OFFENCE_TYPE_LABELS[offenceType as OffenceType] ?? offenceType;
}

/** From the draft on Review & Submit, the car park and operator terms kept on the phone: works with no signal. */
export function noticeFromDraft(draft: PcnDraft, carPark: NoticeCarPark | undefined, operator: OperatorTerms | null): NoticeToPrint {
  if (draft.noticeServedBy !== 'AFFIXED' && draft.noticeServedBy !== 'HANDED') {
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
