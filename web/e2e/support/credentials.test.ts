import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminCredentials, meshEnvPaths, parseMeshEnv, readMeshEnvFiles, type MeshEnvFile } from './credentials';

const E2E_URL = 'http://127.0.0.1:18080';

function meshEnv(path: string, baseURL: string, email: string, password: string, writtenAt: number): MeshEnvFile {
  return { path, text: `BASE_URL=${baseURL}\nPORT=18080\nADMIN_EMAIL=${email}\nADMIN_PASSWORD=${password}\n`, writtenAt };
}

describe('the admin the browser tests sign in as', () => {
  it('is the e2e mesh’s, not the one a stopped default mesh at the same URL left behind', () => {
    // `PORT=18080 ./deploy/up.sh` earlier, then deploy/test.sh's e2e mesh at the same URL.
    const stale = meshEnv('deploy/.state/mesh.env', E2E_URL, 'admin@courtside.local', 'stale-password', 1_000);
    const current = meshEnv('deploy/.state/e2e/mesh.env', E2E_URL, 'admin@courtside.local', 'e2e-password', 2_000);

    expect(adminCredentials({}, E2E_URL, [stale, current])).toEqual({
      email: 'admin@courtside.local',
      password: 'e2e-password',
    });
  });

  it('is the default mesh’s when that one was started last at the URL', () => {
    const e2e = meshEnv('deploy/.state/e2e/mesh.env', E2E_URL, 'admin@courtside.local', 'e2e-password', 1_000);
    const restarted = meshEnv('deploy/.state/mesh.env', `${E2E_URL}/`, 'me@example.com', 'mine', 3_000);

    expect(adminCredentials({}, E2E_URL, [e2e, restarted])).toEqual({ email: 'me@example.com', password: 'mine' });
  });

  it('is the one ADMIN_EMAIL and ADMIN_PASSWORD name, whatever mesh.env files say', () => {
    const file = meshEnv('deploy/.state/mesh.env', E2E_URL, 'admin@courtside.local', 'from-file', 5_000);
    const env = { ADMIN_EMAIL: 'given@example.com', ADMIN_PASSWORD: 'given' };

    expect(adminCredentials(env, E2E_URL, [file])).toEqual({ email: 'given@example.com', password: 'given' });
  });

  it('is unknown when no mesh.env names the URL under test', () => {
    const other = meshEnv('deploy/.state/mesh.env', 'http://127.0.0.1:8080', 'admin@courtside.local', 'x', 1_000);

    expect(adminCredentials({ ADMIN_EMAIL: 'only-the-email@example.com' }, E2E_URL, [other])).toBeNull();
  });

  it('reads a password the way up.sh quoted it', () => {
    expect(parseMeshEnv("ADMIN_PASSWORD=a\\ b\\$c\nADMIN_NAME=$'Two\\nLines'\n")).toEqual({
      ADMIN_PASSWORD: 'a b$c',
      ADMIN_NAME: 'Two\nLines',
    });
  });

  it('is found on disk in the state folders, the newest file at the URL winning', () => {
    const checkout = mkdtempSync(join(tmpdir(), 'courtside-credentials-'));
    const deploy = join(checkout, 'deploy');
    const write = (dir: string, password: string, secondsAgo: number) => {
      mkdirSync(dir, { recursive: true });
      const path = join(dir, 'mesh.env');
      writeFileSync(path, `BASE_URL=${E2E_URL}\nADMIN_EMAIL=admin@courtside.local\nADMIN_PASSWORD=${password}\n`);
      const when = new Date(Date.now() - secondsAgo * 1000);
      utimesSync(path, when, when);
    };
    write(join(deploy, '.state'), 'stale', 3_600);
    write(join(checkout, 'elsewhere'), 'moved-e2e', 5);

    const paths = meshEnvPaths({ E2E_STATE_DIR: 'elsewhere' }, deploy);
    expect(paths).toContain(join(checkout, 'elsewhere', 'mesh.env'));
    expect(adminCredentials({}, E2E_URL, readMeshEnvFiles(paths))).toEqual({
      email: 'admin@courtside.local',
      password: 'moved-e2e',
    });
  });
});
