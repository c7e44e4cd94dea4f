// Loaded on the first Sign In (login-screen.tsx): the schema brings zod, which the sign-in
// screen does not need to paint.
export { fieldErrors, forgotPasswordInputSchema as emailOnlySchema, signInFormSchema } from '@parkpatrol/shared';
