import { call, client } from './api.ts';

/**
 * Who runs the site and how to reach them (issue 30, item 22), and whether it sends e-mail (the
 * account page's e-mail block, the privacy page), read when a page shows them.
 */
export const operator = $state<{
  operator_name: string | null;
  operator_contact: string | null;
  mail: boolean;
  /** Told to an administrator: the password form cannot work (the password is the server's). */
  password_from_environment?: boolean;
}>({
  operator_name: null,
  operator_contact: null,
  mail: false,
});

export async function loadOperator(): Promise<void> {
  Object.assign(operator, await call(client.GET('/api/settings/operator')));
}
