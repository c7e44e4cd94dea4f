export const OFFENCE_TYPES = [
  'PARKING_IN_DISABLED_BAY',
  'PARKING_IN_FIRE_ROUTE',
  'PARKING_IN_NO_PARKING_ZONE',
  'PARKING_OUTSIDE_MARKED_BAY',
  'PARKING_WITHOUT_PERMIT',
  'OTHER',
] as const;
export type OffenceType = (typeof OFFENCE_TYPES)[number];

export const OFFENCE_TYPE_LABELS: Record<OffenceType, string> = {
  PARKING_IN_DISABLED_BAY: 'Parking in disabled bay',
  PARKING_IN_FIRE_ROUTE: 'Parking in fire route',
  PARKING_IN_NO_PARKING_ZONE: 'Parking in no parking zone',
  PARKING_OUTSIDE_MARKED_BAY: 'Parking outside marked bay',
  PARKING_WITHOUT_PERMIT: 'Parking without permit',
  OTHER: 'Other',
};
