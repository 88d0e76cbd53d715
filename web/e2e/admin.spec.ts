import { expect, test, type Page } from '@playwright/test';
import { FIXTURE_PASSWORD, uniqueEmail, uniqueTag, type Session, type User } from './support/api';
import { adminCredentialsFor } from './support/credentials';
import { signIn } from './support/session';

/**
 * The admin's journey through the browser: create a user, find them by search and role filter,
 * edit them (and be told when nothing changed), delete them; the counts follow.
 *
 * The admin's credentials: ADMIN_EMAIL and ADMIN_PASSWORD, else those of the mesh at BASE_URL
 * (support/credentials.ts).
 */
async function statValue(page: Page, label: string) {
  const value = page.getByRole('group', { name: label }).getByTestId(/^stat-/);
  await expect(value).toHaveText(/^\d[\d,]*$/);
  return Number((await value.textContent())?.replace(/,/g, ''));
}

test.describe('an admin manages a user from creation to deletion', () => {
  test('create, find, edit, no changes, delete; the counts follow', async ({ page, request, baseURL }) => {
    const credentials = adminCredentialsFor(baseURL ?? '');
    if (!credentials) throw new Error('no admin credentials: set ADMIN_EMAIL and ADMIN_PASSWORD, or run through deploy/test.sh');
    const login = await request.post('/api/auth/login', { data: credentials });
    expect(login.status(), await login.text()).toBe(200);
    const admin = { ...((await login.json()) as { token: string; user: User }), password: credentials!.password } satisfies Session;

    await signIn(page, admin);
    await page.goto('/admin/dashboard');
    await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
    await expect(page.getByTestId('current-user-name')).toHaveText(admin.user.full_name);
    const usersBefore = await statValue(page, 'Total Users');
    const coachesBefore = await statValue(page, 'Coaches');
    await expect(page.getByRole('heading', { name: 'Activity', exact: true })).toBeVisible();

    // Create: the required fields are checked first.
    const tag = uniqueTag();
    const name = `Admin Made ${tag}`;
    const email = uniqueEmail('admin-made');
    await page.getByRole('button', { name: 'Create User' }).click();
    const create = page.getByRole('dialog', { name: 'Create New User' });
    await expect(create.getByRole('combobox', { name: 'Role' })).toHaveText('Client');
    await create.getByLabel('Email').fill(email);
    await create.getByRole('button', { name: 'Create User' }).click();
    await expect(page.getByText('Email, password, and full name are required')).toBeVisible();
    await create.getByLabel('Full Name').fill(name);
    await create.getByLabel('Password').fill('Courtside');
    await create.getByRole('button', { name: 'Create User' }).click();
    await expect(page.getByText('Password must be at least 10 characters.')).toBeVisible();
    await create.getByLabel('Password').fill(FIXTURE_PASSWORD);
    await create.getByLabel('Phone (optional)').fill('555-0142');
    await create.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Coach' }).click();
    await create.getByRole('button', { name: 'Create User' }).click();
    await expect(page.getByText('User created successfully')).toBeVisible();
    await expect(create).toBeHidden();
    await expect.poll(() => statValue(page, 'Total Users')).toBe(usersBefore + 1);
    await expect.poll(() => statValue(page, 'Coaches')).toBe(coachesBefore + 1);

    // Find by search (any case) and by role filter.
    const search = page.getByPlaceholder('Search by name, email, or ID...');
    const table = page.getByRole('table', { name: 'Users' });
    await search.fill(tag.toUpperCase());
    await expect(page.getByText(/^Showing 1 of \d+ users$/)).toBeVisible();
    const row = table.getByRole('row').filter({ hasText: email });
    await expect(row).toContainText(name);
    await expect(row).toContainText('555-0142');
    await expect(row.getByTestId('role-badge')).toHaveText('coach');
    await page.getByRole('button', { name: 'Client', exact: true }).click();
    await expect(page.getByText('No users found')).toBeVisible();
    await page.getByRole('button', { name: 'Coach', exact: true }).click();
    await expect(row).toBeVisible();
    await page.getByRole('button', { name: 'All', exact: true }).click();

    // Edit: nothing changed, then a new name and an emptied phone.
    await row.getByRole('button', { name: `Edit ${name}` }).click();
    const details = page.getByRole('dialog', { name: 'User Details' });
    await expect(details).toContainText('Total Locations');
    await details.getByRole('button', { name: 'Update User' }).click();
    await expect(page.getByText('No changes to save')).toBeVisible();
    await details.getByLabel('Full Name').fill(`${name} Renamed`);
    await details.getByLabel('Phone (optional)').fill('');
    await details.getByLabel('New Password (optional)').fill('abc');
    await expect(details.getByText('Password must be at least 10 characters.')).toBeVisible();
    await details.getByLabel('New Password (optional)').fill('');
    await details.getByRole('button', { name: 'Update User' }).click();
    await expect(page.getByText('User updated successfully')).toBeVisible();
    await expect(details).toBeHidden();
    const renamed = table.getByRole('row').filter({ hasText: email });
    await expect(renamed).toContainText(`${name} Renamed`);
    await expect(renamed.getByRole('cell').nth(2)).toHaveText('-');

    // Delete, after a look at who it is.
    await renamed.getByRole('button', { name: `Delete ${name} Renamed` }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Deletion' });
    await expect(confirm).toContainText(email);
    await confirm.getByRole('button', { name: 'Delete User' }).click();
    await expect(page.getByText('User deleted successfully')).toBeVisible();
    await expect(page.getByText('No users found')).toBeVisible();
    await expect.poll(() => statValue(page, 'Total Users')).toBe(usersBefore);
    await expect.poll(() => statValue(page, 'Coaches')).toBe(coachesBefore);

    // Admins have no delete button.
    await search.fill(admin.user.email);
    const adminRow = table.getByRole('row').filter({ hasText: admin.user.email });
    await expect(adminRow.getByRole('button', { name: /^Edit/ })).toBeVisible();
    await expect(adminRow.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
  });
});

test.describe('the admin table once there are more users than a page', () => {
  test('pages of 50, more on request, the search and the role filter answered by the server', async ({ page, request, baseURL }) => {
    test.setTimeout(120_000);
    const credentials = adminCredentialsFor(baseURL ?? '');
    if (!credentials) throw new Error('no admin credentials: set ADMIN_EMAIL and ADMIN_PASSWORD, or run through deploy/test.sh');
    const login = await request.post('/api/auth/login', { data: credentials });
    expect(login.status(), await login.text()).toBe(200);
    const admin = { ...((await login.json()) as { token: string; user: User }), password: credentials!.password } satisfies Session;
    // 55 users with one tag: more than a page of the table on their own.
    const tag = uniqueTag();
    for (let i = 1; i <= 55; i += 1) {
      const made = await request.post('/api/admin/users', {
        headers: { Authorization: `Bearer ${admin.token}` },
        data: { email: uniqueEmail(`paged${i}`), password: FIXTURE_PASSWORD, full_name: `Paged ${tag} ${i}`, role: i % 5 ? 'client' : 'gym' },
      });
      expect(made.status(), await made.text()).toBe(201);
    }

    await signIn(page, admin);
    await page.goto('/admin/dashboard');
    const table = page.getByRole('table', { name: 'Users' });
    const userRows = table.getByRole('row').filter({ has: page.getByRole('button', { name: /^Edit / }) });
    await expect(page.getByText(/^Showing 50 of [\d,]+ users$/)).toBeVisible();
    await expect(userRows).toHaveCount(50);
    await expect(userRows.first()).toContainText(`Paged ${tag} 55`);
    await page.getByRole('button', { name: 'Load more users' }).click();
    await expect.poll(() => userRows.count()).toBeGreaterThan(50);
    await expect(page.getByText(/^Showing (5[1-9]|[6-9]\d|100) of [\d,]+ users$/)).toBeVisible();

    const search = page.getByPlaceholder('Search by name, email, or ID...');
    await search.fill(tag.toLowerCase());
    await expect(page.getByText('Showing 50 of 50+ users')).toBeVisible();
    await page.getByRole('button', { name: 'Load more users' }).click();
    await expect(page.getByText('Showing 55 of 55 users')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Load more users' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Gym', exact: true }).click();
    await expect(page.getByText('Showing 11 of 11 users')).toBeVisible();
    await expect(userRows.first()).toContainText(`Paged ${tag} 55`);
  });
});
