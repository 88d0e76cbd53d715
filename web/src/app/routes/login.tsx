import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Logo } from '@/components/layouts/logo';
import { PageMeta } from '@/components/layouts/page-meta';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import { LoginForm } from '@/features/auth/components/login-form';
import { RegisterForm } from '@/features/auth/components/register-form';

/** "/login" (SPEC §2): Login and Register tabs, Login first. */
export default function LoginRoute() {
  return (
    <div className="relative flex min-h-screen flex-col bg-gradient-to-br from-navy-900 via-navy-800 to-navy-700 px-4 py-6">
      <PageMeta
        title="Login or Register | Courtside"
        description="Sign in to Courtside, or create a free account as an athlete, coach or gym to book and manage coaching sessions."
      />
      <div className="mx-auto flex w-full max-w-md items-center justify-between">
        <Logo tone="light" />
        <Button asChild variant="ghost" size="sm" className="text-white hover:bg-white/10">
          <Link to={paths.home.getHref()}>
            <ArrowLeft aria-hidden="true" />
            Back to Home
          </Link>
        </Button>
      </div>
      <main className="flex flex-1 items-center justify-center py-8">
        <Card className="w-full max-w-md border-0 shadow-2xl">
          <CardHeader className="text-center">
            <CardTitle className="text-2xl">Welcome to Courtside</CardTitle>
            <CardDescription>Sign in or create an account to book and manage sessions.</CardDescription>
          </CardHeader>
          <CardContent>
            <Tabs defaultValue="login">
              <TabsList className="grid w-full grid-cols-2">
                <TabsTrigger value="login">Login</TabsTrigger>
                <TabsTrigger value="register">Register</TabsTrigger>
              </TabsList>
              <TabsContent value="login">
                <LoginForm />
              </TabsContent>
              <TabsContent value="register">
                <RegisterForm />
              </TabsContent>
            </Tabs>
          </CardContent>
        </Card>
      </main>
    </div>
  );
}
