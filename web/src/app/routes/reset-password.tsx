import { Link, useSearchParams } from 'react-router-dom';
import { paths } from '@/config/paths';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';
import { PasswordPage } from './password-pages';

/** "/reset-password?token=…": the emailed link's page, to choose a new password. */
export default function ResetPasswordRoute() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  return (
    <PasswordPage title="Choose a new password" description="Your reset link works once, for 30 minutes.">
      {token ? (
        <ResetPasswordForm token={token} />
      ) : (
        <p role="alert" className="text-sm text-navy-800">
          This page needs the link from your email.{' '}
          <Link className="underline" to={paths.forgotPassword.getHref()}>
            Ask for a new link
          </Link>
          .
        </p>
      )}
    </PasswordPage>
  );
}
