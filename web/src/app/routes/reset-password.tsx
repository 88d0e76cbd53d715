import * as React from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';
import { PasswordPage } from './password-pages';

/**
 * The token of an emailed link: `#token=…` (the form every letter uses: a browser never sends
 * the fragment, so no server's log keeps it), or `?token=…` of a link mailed before.
 */
function linkToken(location: { hash: string; search: string }): string {
  const fromFragment = new URLSearchParams(location.hash.replace(/^#/, '')).get('token');
  return fromFragment ?? new URLSearchParams(location.search).get('token') ?? '';
}

/** "/reset-password#token=…": the emailed link's page, to choose a new password. */
export default function ResetPasswordRoute() {
  const location = useLocation();
  const navigate = useNavigate();
  // Read once: the address bar drops the token at once, so a copied or bookmarked address, the
  // history and a Referer never carry it.
  const [token] = React.useState(() => linkToken(location));
  const carriesToken = location.hash !== '' || location.search !== '';
  React.useEffect(() => {
    if (carriesToken) navigate(paths.resetPassword.getHref(), { replace: true });
  }, [carriesToken, navigate]);

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
