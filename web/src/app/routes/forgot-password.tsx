import { ForgotPasswordForm } from '@/features/auth/components/forgot-password-form';
import { PasswordPage } from './password-pages';

/** "/forgot-password": ask for a reset link by email. */
export default function ForgotPasswordRoute() {
  return (
    <PasswordPage title="Forgot password?" description="Enter your account's email and we will send you a reset link.">
      <ForgotPasswordForm />
    </PasswordPage>
  );
}
