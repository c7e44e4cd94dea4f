import { addDays, formatCalendarDate, type CalendarDate } from './keeper-liability.ts';
import { formatUkPeriod, type NoticeSection } from './notice-wording.ts';
import { APPEALS_SERVICE_NAMES, formatPence, type CarParkTerms, type OperatorTerms } from './operator-terms.ts';
import { APPEAL_PERIOD_DAYS } from './appeals.ts';
import { discountAndAppealStatements } from './notice-wording.ts';

/**
 * The facts every letter after the notice to keeper starts from, and the parts they share that
 * are not wording of their own (a place, a vehicle, a contact line). The words of each letter are
 * in its one template: notice-to-hirer.ts, notice-to-named-driver.ts, request-to-name-driver.ts.
 */
export type LetterFacts = {
  reference: string;
  vehicleRegistration: string;
  /** The vehicle as the DVLA holds it, e.g. 'Blue Ford Focus'; may be empty. */
  vehicleDescription: string;
  carPark: { name: string; address: string; postcode: string };
  /** The start of the period of parking, when known. */
  parkingStartedAt: string | null;
  parkingEndedAt: string;
  contravention: string;
  description: string;
  carParkTerms: CarParkTerms;
  operator: OperatorTerms;
  /** The amount unpaid as the letter states it, in pence. */
  unpaidPence: number;
  /** The day the letter is posted (the date it is sent), and the second working day after it. */
  sentOn: CalendarDate;
  givenOn: CalendarDate;
  lookupUrl: string;
};

export function oneLine(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(', ');
}

export function landOf(facts: Pick<LetterFacts, 'carPark'>): string {
  return [facts.carPark.name, facts.carPark.address, facts.carPark.postcode].filter((part) => part.trim() !== '').join(', ');
}

export function vehicleOf(facts: Pick<LetterFacts, 'vehicleRegistration' | 'vehicleDescription'>): string {
  return facts.vehicleDescription.trim() ? `${facts.vehicleRegistration} (${facts.vehicleDescription.trim()})` : facts.vehicleRegistration;
}

/** The vehicle, the land and the period of parking, as every letter names them. */
export function parkingSection(facts: LetterFacts): NoticeSection {
  return {
    heading: 'The vehicle and the parking',
    lines: [
      `Vehicle: ${vehicleOf(facts)}`,
      `Land: ${landOf(facts)}`,
      `Period of parking: ${formatUkPeriod(facts.parkingStartedAt, facts.parkingEndedAt)}`,
    ],
  };
}

/** The charge, how it arose (the signs) and why it is payable. */
export function chargeLines(facts: LetterFacts): string[] {
  const terms = facts.carParkTerms;
  const charge = formatPence(terms.chargePence ?? 0);
  return [
    `Signs at the entrance to the land and throughout it set the terms on which drivers may park there: "${terms.signageTerms.trim().replace(/\.$/, '') || 'see the signs on site'}". By parking there, the driver accepted those terms and the requirement to pay a parking charge of ${charge} if they were not kept.`,
    `The terms were not kept: ${facts.contravention}.${facts.description.trim() ? ` ${facts.description.trim()}` : ''}`,
    `As at 23:59 on ${formatCalendarDate(addDays(facts.sentOn, -1))}, ${formatPence(facts.unpaidPence)} remains unpaid.`,
  ];
}

/** How to dispute: the appeal to the operator, the independent appeals service and the Single Code's statements. */
export function disputeSection(facts: LetterFacts, discount: string): NoticeSection {
  const { operator } = facts;
  const service = APPEALS_SERVICE_NAMES[operator.appealsService];
  return {
    heading: 'Discount, and how to dispute this charge',
    lines: [
      discount,
      `To dispute this charge, appeal to ${operator.creditorName} within ${APPEAL_PERIOD_DAYS} days of the day this letter is given (by ${formatCalendarDate(addDays(facts.givenOn, APPEAL_PERIOD_DAYS))}), quoting the reference ${facts.reference} and saying why: online at ${operator.creditorWebsite}, by email to ${operator.creditorEmail} or by post to the address below. While your appeal is considered, the charge is put on hold.`,
      `If your appeal is rejected, you may appeal to ${service}, the independent appeals service. Its contact details: ${oneLine(operator.appealsServiceContact)}.`,
      ...discountAndAppealStatements(service),
    ],
  };
}

/** The discount from the day this letter is given, while the car park offers one. */
export function discountFromThisLetter(facts: LetterFacts): string {
  const { reducedChargePence, reducedWithinDays } = facts.carParkTerms;
  if (reducedChargePence === null || reducedWithinDays === null) return 'No discount is offered for prompt payment.';
  return `The charge is reduced to ${formatPence(reducedChargePence)} if paid within ${reducedWithinDays} days of the day this letter is given (by ${formatCalendarDate(addDays(facts.givenOn, reducedWithinDays))}).`;
}

export function creditorContactLine(operator: OperatorTerms): string {
  return `${operator.creditorName}, ${oneLine(operator.creditorAddress)}. Phone ${operator.creditorPhone}. Email ${operator.creditorEmail}. ${operator.creditorWebsite}`;
}

export function evidenceSection(facts: LetterFacts): NoticeSection {
  return {
    heading: 'See the evidence',
    lines: [
      `To see the photographs of the vehicle, go to ${facts.lookupUrl} and enter the reference ${facts.reference} and the registration ${facts.vehicleRegistration}.`,
    ],
  };
}
