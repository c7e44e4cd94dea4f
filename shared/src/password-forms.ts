import { z } from 'zod';
import { VALIDATION_MESSAGES as V } from './messages.ts';
import { passwordSchema } from './patrol-schemas.ts';

/**
 * Forms where a person chooses a password (onboarding link, reset link, profile): the sign-in
 * rules plus a confirmation that must match. The API checks the password with passwordSchema.
 */
export const newPasswordFormSchema = z
  .object({ password: passwordSchema, confirmPassword: z.string() })
  .refine((value) => value.password === value.confirmPassword, { message: V.passwordsDoNotMatch, path: ['confirmPassword'] });
export type NewPasswordForm = z.infer<typeof newPasswordFormSchema>;

/** Profile: the current password is asked for whenever the account already has one. */
export function changePasswordFormSchema(hasPassword: boolean) {
  return z
    .object({
      currentPassword: hasPassword ? z.string().min(1, V.currentPasswordRequired) : z.string().optional(),
      password: passwordSchema,
      confirmPassword: z.string(),
    })
    .refine((value) => value.password === value.confirmPassword, { message: V.passwordsDoNotMatch, path: ['confirmPassword'] });
}
