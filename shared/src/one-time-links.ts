/**
 * What a single-use emailed link is for. Each purpose is issued, voided and redeemed apart from
 * the others: a password reset never signs a device in, and a new access link leaves a reset alone.
 */
export const ONE_TIME_LINK_PURPOSES = ['access-link', 'password-reset', 'device-link'] as const;
export type OneTimeLinkPurpose = (typeof ONE_TIME_LINK_PURPOSES)[number];
