/**
 * The operator's logo: chosen in Operator Settings, shown beside the operator's name at the top
 * of /charge. The upload is checked by its bytes (PNG or JPEG) and kept as a small PNG.
 */

/** The multipart field of PUT /settings/operator/logo. */
export const OPERATOR_LOGO_FIELD = 'logo';

/** Half the JSON body limit: the upload and its framing stay under it. A logo needs far less. */
export const MAX_OPERATOR_LOGO_BYTES = 512 * 1024;

/** The stored copy fits inside this box (never enlarged); /charge draws it in a box of half this size. */
export const OPERATOR_LOGO_BOX = { width: 320, height: 120 } as const;

/** The box /charge draws the logo in, fixed so the heading does not move as it loads. */
export const OPERATOR_LOGO_DISPLAY = { width: OPERATOR_LOGO_BOX.width / 2, height: OPERATOR_LOGO_BOX.height / 2 } as const;

export const OPERATOR_LOGO_MESSAGES = {
  required: 'Choose a PNG or JPEG picture for the logo',
  notAnImage: 'The logo must be a PNG or JPEG picture',
  tooLarge: 'The logo must be 512 KB or smaller',
  notFound: 'No such logo',
} as const;

/** PUT and DELETE /settings/operator/logo: where the logo now is, or null when there is none. */
export type OperatorLogoResponse = { logoUrl: string | null };
