import { ArrowLeft } from 'lucide-react';
import type * as React from 'react';
import { Link } from 'react-router-dom';
import { Logo } from '@/components/layouts/logo';
import { PageMeta } from '@/components/layouts/page-meta';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';

/** The frame of the login page, for the pages of a forgotten password. */
export function PasswordPage({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: React.ReactNode;
}) {
  return (
    <div className="relative flex min-h-screen flex-col bg-gradient-to-br from-navy-900 via-navy-800 to-navy-700 px-4 py-6">
      <PageMeta title={`${title} | Courtside`} description={description} />
      <div className="mx-auto flex w-full max-w-md items-center justify-between">
        <Logo tone="light" />
        <Button asChild variant="ghost" size="sm" className="text-white hover:bg-white/10">
          <Link to={paths.login.getHref()}>
            <ArrowLeft aria-hidden="true" />
            Back to Login
          </Link>
        </Button>
      </div>
      <main className="flex flex-1 items-center justify-center py-8">
        <Card className="w-full max-w-md border-0 shadow-2xl">
          <CardHeader className="text-center">
            <CardTitle className="text-2xl">{title}</CardTitle>
            <CardDescription>{description}</CardDescription>
          </CardHeader>
          <CardContent>{children}</CardContent>
        </Card>
      </main>
    </div>
  );
}
