/**
 * Which admin the browser tests sign in as: the admin of the mesh they are testing.
 *
 * deploy/test.sh passes the e2e mesh's own ADMIN_EMAIL and ADMIN_PASSWORD. Run by hand, the tests
 * look at the mesh.env files deploy/up.sh writes (one per state folder); several can name the same
 * URL, because a mesh that stopped leaves its mesh.env behind. Only one mesh can listen at a URL,
 * and up.sh writes mesh.env once its mesh is ready, so the newest file at that URL is the mesh
 * answering there.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Credentials {
  email: string;
  password: string;
}

/** One mesh.env as read from disk: its text and when it was written. */
export interface MeshEnvFile {
  path: string;
  text: string;
  writtenAt: number;
}

/** The variables of a mesh.env (`NAME=value` lines, values as bash's `printf %q` wrote them). */
export function parseMeshEnv(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) vars[line.slice(0, at)] = unquote(line.slice(at + 1));
  }
  return vars;
}

/** Undoes `printf %q` for the values up.sh writes (`\`-escapes, or `$'...'` for control characters). */
function unquote(value: string): string {
  if (value.startsWith("$'") && value.endsWith("'")) {
    return value.slice(2, -1).replace(/\\(.)/g, (_, c: string) => ({ n: '\n', t: '\t' })[c] ?? c);
  }
  return value.replace(/\\(.)/g, '$1');
}

const sameURL = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/**
 * The admin of the mesh at `baseURL`: ADMIN_EMAIL and ADMIN_PASSWORD when both are set, else the
 * newest mesh.env that names `baseURL`, else null.
 */
export function adminCredentials(
  env: Record<string, string | undefined>,
  baseURL: string,
  meshEnvFiles: MeshEnvFile[],
): Credentials | null {
  if (env.ADMIN_EMAIL && env.ADMIN_PASSWORD) {
    return { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD };
  }
  const atThisURL = meshEnvFiles
    .map((file) => ({ ...file, vars: parseMeshEnv(file.text) }))
    .filter(({ vars }) => vars.BASE_URL && sameURL(vars.BASE_URL, baseURL) && vars.ADMIN_EMAIL && vars.ADMIN_PASSWORD)
    .sort((a, b) => b.writtenAt - a.writtenAt);
  const newest = atThisURL[0]?.vars;
  return newest ? { email: newest.ADMIN_EMAIL, password: newest.ADMIN_PASSWORD } : null;
}

/**
 * Where up.sh may have written a mesh.env: the default state folders and, when set, STATE_DIR and
 * E2E_STATE_DIR (relative to the checkout, as the scripts are run from there).
 */
export function meshEnvPaths(env: Record<string, string | undefined>, deployDir: string): string[] {
  const dirs = [join(deployDir, '.state'), join(deployDir, '.state', 'e2e'), env.STATE_DIR, env.E2E_STATE_DIR];
  const checkout = dirname(resolve(deployDir));
  const paths = dirs.filter((dir): dir is string => !!dir).map((dir) => resolve(checkout, dir, 'mesh.env'));
  return [...new Set(paths)];
}

/** The mesh.env files that exist among `paths`. */
export function readMeshEnvFiles(paths: string[]): MeshEnvFile[] {
  return paths
    .filter((path) => existsSync(path))
    .map((path) => ({ path, text: readFileSync(path, 'utf8'), writtenAt: statSync(path).mtimeMs }));
}

const DEPLOY_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'deploy');

/** The admin of the mesh the tests run against, from this process's environment and the disk. */
export function adminCredentialsFor(baseURL: string): Credentials | null {
  return adminCredentials(process.env, baseURL, readMeshEnvFiles(meshEnvPaths(process.env, DEPLOY_DIR)));
}
