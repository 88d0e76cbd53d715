/**
 * The mesh's mail catcher (MailDev, started by deploy/up.sh unless SMTP_URL is set), read through
 * its REST API: `GET {MAIL_UI_URL}/email` lists every email it caught.
 *
 * Where it listens comes as the admin does (support/credentials.ts): MAIL_UI_URL when set (deploy/
 * test.sh passes the e2e mesh's), else the newest mesh.env that names the URL under test.
 */
import { expect, type APIRequestContext } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { meshEnvPaths, parseMeshEnv, readMeshEnvFiles, type MeshEnvFile } from './credentials';

/** One email as MailDev 2 answers it (the fields the tests read). */
export interface CaughtEmail {
  id: string;
  subject: string;
  to: { address: string; name: string }[];
  text: string;
  html: string;
}

const sameURL = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/** The mail catcher's address for the mesh at `baseURL`, or null when none is known. */
export function mailUiUrl(
  env: Record<string, string | undefined>,
  baseURL: string,
  meshEnvFiles: MeshEnvFile[],
): string | null {
  if (env.MAIL_UI_URL) return env.MAIL_UI_URL.replace(/\/+$/, '');
  const newest = meshEnvFiles
    .map((file) => ({ ...file, vars: parseMeshEnv(file.text) }))
    .filter(({ vars }) => vars.BASE_URL && sameURL(vars.BASE_URL, baseURL))
    .sort((a, b) => b.writtenAt - a.writtenAt)[0];
  // The newest mesh at this URL is the one answering there; without a catcher it has none.
  return newest?.vars.MAIL_UI_URL ? newest.vars.MAIL_UI_URL.replace(/\/+$/, '') : null;
}

const DEPLOY_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'deploy');

/** The mail catcher of the mesh the tests run against; fails the test when there is none. */
export function mailUiUrlFor(baseURL: string | undefined): string {
  const url = mailUiUrl(process.env, baseURL ?? '', readMeshEnvFiles(meshEnvPaths(process.env, DEPLOY_DIR)));
  if (!url) throw new Error('no mail catcher: set MAIL_UI_URL, or start the mesh with deploy/up.sh without SMTP_URL');
  return url;
}

/** Every email the catcher holds for `address`, newest first. */
export async function emailsTo(request: APIRequestContext, mailUi: string, address: string) {
  const response = await request.get(`${mailUi}/email`);
  expect(response.status(), `${mailUi}/email`).toBe(200);
  const all = (await response.json()) as CaughtEmail[];
  return all.filter((email) => email.to.some((to) => to.address.toLowerCase() === address.toLowerCase())).reverse();
}

/** The newest email to `address` with `subject`, waiting for it to arrive (it goes out through an outbox). */
export async function emailTo(request: APIRequestContext, mailUi: string, address: string, subject: string) {
  let found: CaughtEmail | undefined;
  await expect
    .poll(
      async () => {
        found = (await emailsTo(request, mailUi, address)).find((email) => email.subject === subject);
        return found?.subject;
      },
      { message: `an email "${subject}" to ${address}`, timeout: 20_000 },
    )
    .toBe(subject);
  return found as CaughtEmail;
}
