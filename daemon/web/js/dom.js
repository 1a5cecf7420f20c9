// What the pages share to reach their own markup and to make the arbiter's calls (docs/api.md).
import { t } from '../shared/i18n.js';
import { toast } from './toast.js';

/**
 * The element with this id in the page's own markup: what kind it is (an input, a select, a
 * dialog) the markup says.
 * @param {string} id
 * @returns {any}
 */
export const $ = (id) => document.getElementById(id);

/**
 * One of the arbiter's calls on `connection`, with the page's token. A failure is shown in a toast
 * (or, when the token was refused and `unauthorized` is given, handed to it) and thrown.
 * @param {{ call: (call: string, param?: object) => Promise<any> }} connection
 * @param {string | null | undefined} token
 * @param {string} call
 * @param {object} param
 * @param {() => void} [unauthorized]
 */
export async function arbiterCall(connection, token, call, param, unauthorized) {
  try {
    return await connection.call(call, token ? { ...param, token } : param);
  } catch (e) {
    if (unauthorized && e.param?.code === 'unauthorized') unauthorized();
    else toast(t('arbiter.callFailed', { call, message: e.message }), true);
    throw e;
  }
}
