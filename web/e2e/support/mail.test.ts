import { describe, expect, it } from 'vitest';
import type { MeshEnvFile } from './credentials';
import { mailUiUrl } from './mail';

const E2E_URL = 'http://127.0.0.1:18080';

function meshEnv(path: string, baseURL: string, mailUi: string | null, writtenAt: number): MeshEnvFile {
  const mail = mailUi ? `MAIL_UI_URL=${mailUi}\n` : '';
  return { path, text: `BASE_URL=${baseURL}\nPORT=18080\n${mail}ADMIN_EMAIL=admin@courtside.local\n`, writtenAt };
}

describe('the mail catcher the browser tests read', () => {
  it('is the one MAIL_UI_URL names, whatever mesh.env says', () => {
    const file = meshEnv('deploy/.state/e2e/mesh.env', E2E_URL, 'http://127.0.0.1:19196', 1_000);
    expect(mailUiUrl({ MAIL_UI_URL: 'http://127.0.0.1:2080/' }, E2E_URL, [file])).toBe('http://127.0.0.1:2080');
  });

  it('is the newest mesh’s at the URL under test', () => {
    const stale = meshEnv('deploy/.state/mesh.env', E2E_URL, 'http://127.0.0.1:1080', 1_000);
    const current = meshEnv('deploy/.state/e2e/mesh.env', `${E2E_URL}/`, 'http://127.0.0.1:19196', 2_000);
    const elsewhere = meshEnv('deploy/.state/other/mesh.env', 'http://127.0.0.1:8080', 'http://127.0.0.1:1080', 3_000);
    expect(mailUiUrl({}, E2E_URL, [stale, current, elsewhere])).toBe('http://127.0.0.1:19196');
  });

  it('is none when the newest mesh there sends to a real SMTP server', () => {
    const withCatcher = meshEnv('deploy/.state/e2e/mesh.env', E2E_URL, 'http://127.0.0.1:19196', 1_000);
    const withRelay = meshEnv('deploy/.state/mesh.env', E2E_URL, null, 2_000);
    expect(mailUiUrl({}, E2E_URL, [withCatcher, withRelay])).toBeNull();
  });
});
