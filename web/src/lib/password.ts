/**
 * The password rule as identity-svc holds it (issue 32): at least 10 characters, and not easy to
 * guess (the server refuses common, breached and trivial passwords with a detail saying why; the
 * forms check only the length before sending).
 */
export const MIN_PASSWORD_LENGTH = 10;

/** The refusal of a password shorter than the rule, as the server words it. */
export const SHORT_PASSWORD = `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`;

/** The hint beside a new password. */
export const PASSWORD_HINT = `At least ${MIN_PASSWORD_LENGTH} characters that are not easy to guess: a few uncommon words work well.`;
